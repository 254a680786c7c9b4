"""``cuckoo-party test-voice [--lang L] [--out FILE.wav]``: check the TV speakers early.

Speaks (or writes) one sample line in the chosen language, with accented names, so a host
hears before the guests arrive whether the voice works and sounds right. Exits 1 with a
clear message when no voice (or, when speaking, no sound output) is available.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from host.i18n import DEFAULT_LANGUAGE, Catalog
from host.voice.engine import Pyttsx3Engine, VoiceUnavailable, wav_seconds
from host.voice.playback import MixerPlayer, PlaybackUnavailable, Player
from host.voice.renderer import Renderer

#: The sample line must be ready within this time, or the engine is declared stuck.
RENDER_TIMEOUT_S = 20.0


def run_test_voice_command(
    args: argparse.Namespace,
    *,
    engine: Pyttsx3Engine | None = None,
    player_factory: Callable[[], Player] = MixerPlayer,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Speak or write the sample line; 0 on success, 1 when no voice or sound is available."""
    out = out or sys.stdout
    err = err or sys.stderr
    lang = getattr(args, "voice_lang", None) or getattr(args, "lang", None) or DEFAULT_LANGUAGE
    t = Catalog.load().translator(lang)
    engine = engine or Pyttsx3Engine()
    chosen = engine

    def prepare() -> tuple[str, Path]:
        chosen.open()
        return chosen.describe(lang), chosen.render(t("voice.sample"), lang)

    renderer = Renderer("voice-test")  # a hung engine must not hang the command
    renderer.start()
    try:
        try:
            voice, wav = renderer.submit(prepare).result(RENDER_TIMEOUT_S)
        except Exception as error:  # noqa: BLE001 - VoiceUnavailable, a crash, a timeout
            reason = str(error) if isinstance(error, VoiceUnavailable) else repr(error)
            print(t("voice.test_voice_failed", reason=reason), file=err)
            return 1
        if args.out:
            return _write(Path(args.out), wav, voice, t, out, err)
        return _speak(wav, voice, player_factory(), t, out, err)
    finally:
        renderer.close()


def _write(
    target: Path, wav: Path, voice: str, t: Callable[..., str], out: TextIO, err: TextIO
) -> int:
    try:
        shutil.copyfile(wav, target)
    except OSError as error:
        print(
            t("voice.test_voice_bad_out", path=str(target), reason=error.strerror or error),
            file=err,
        )
        return 1
    seconds = f"{wav_seconds(target):.1f}"
    print(t("voice.test_voice_written", path=str(target), seconds=seconds, voice=voice), file=out)
    return 0


def _speak(
    wav: Path, voice: str, player: Player, t: Callable[..., str], out: TextIO, err: TextIO
) -> int:
    try:
        seconds = player.play(wav)
    except PlaybackUnavailable as error:
        print(t("voice.test_voice_no_sound", reason=str(error)), file=err)
        return 1
    deadline = time.monotonic() + seconds + 2.0  # bounded even if the mixer never reports done
    while player.busy() and time.monotonic() < deadline:
        time.sleep(0.02)
    print(t("voice.test_voice_spoken", voice=voice), file=out)
    return 0
