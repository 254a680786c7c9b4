"""``cuckoo-party test-sounds [--out DIR]``: hear every cue and loop before the guests arrive.

Plays each sound in turn through the party's own sound board (so the reserved channels and
the mixer settings are the ones the party uses), or writes each as ``DIR/<name>.wav``
(``music_lobby.wav``, ``music_game.wav`` for the loops). Exits 1 with a clear line when there
is no sound output (playing) or the folder cannot be written.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from host.audio.cues import LOOPS
from host.audio.library import file_name, prepare, render, sound_names
from host.audio.mixer import Output, PygameOutput, SoundUnavailable
from host.audio.synth import RATE, read_wav
from host.i18n import DEFAULT_LANGUAGE, Catalog

#: Each music loop plays this long when testing (the loops are longer).
LOOP_SAMPLE_S = 4.0
#: A short rest between sounds, so each is heard on its own.
GAP_S = 0.35


def run_test_sounds_command(
    args: argparse.Namespace,
    *,
    output_factory: Callable[[], Output] | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> int:
    """Write or play every sound; 0 on success, 1 when it cannot."""
    out = out or sys.stdout
    err = err or sys.stderr
    t = Catalog.load().translator(getattr(args, "lang", None) or DEFAULT_LANGUAGE)
    if getattr(args, "sounds_out", None):
        return _write(Path(args.sounds_out), t, out, err)
    output = (output_factory or PygameOutput)()
    try:
        output.open()
    except SoundUnavailable as error:
        print(t("sound.test_no_sound", reason=str(error) or "?"), file=err)
        return 1
    for name, path in prepare().items():
        seconds = min(LOOP_SAMPLE_S, _seconds(path)) if name in LOOPS else _seconds(path)
        print(t("sound.test_playing", name=name, seconds=f"{seconds:.1f}"), file=out, flush=True)
        output.set_volume(0, 1.0)
        output.play(0, output.load(path), -1 if name in LOOPS else 0)
        sleep(seconds)
        output.stop(0)
        sleep(GAP_S)
    print(t("sound.test_done"), file=out)
    return 0


def _seconds(path: Path) -> float:
    return len(read_wav(path)) / RATE


def _write(folder: Path, t: Callable[..., str], out: TextIO, err: TextIO) -> int:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name in sound_names():
            path = render(name, folder / file_name(name))
            print(
                t("sound.test_written", path=str(path), seconds=f"{_seconds(path):.1f}"), file=out
            )
    except OSError as error:
        print(
            t("sound.test_bad_out", path=str(folder), reason=error.strerror or str(error)), file=err
        )
        return 1
    return 0
