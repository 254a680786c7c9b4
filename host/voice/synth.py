"""The child process that runs pyttsx3: ``python -m host.voice.synth voices|render``.

One process per job keeps pyttsx3's quirks (an early-returning ``runAndWait``, callbacks
racing the next line, a global espeak callback cleared by garbage collection) away from
the host: a fresh process renders exactly one line, then exits.

- ``voices``: prints one JSON line: the driver and the voice chosen for each language.
- ``render --voice ID --rate N --out FILE``: reads the UTF-8 text on stdin, writes a WAV
  (whatever the driver wrote — WAV, or AIFF on macOS — is converted to WAV).

Errors go to stderr (last line = the reason) with exit status 1.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
from pathlib import Path
from typing import Any, TypedDict

from host.i18n import LANGUAGES
from host.voice.audiofile import to_wav
from host.voice.engine import (
    FINISH_TIMEOUT_S,
    VoiceUnavailable,
    init_pyttsx3,
    language_tags,
    pick_voice,
    wav_seconds,
)


class VoiceChoice(TypedDict):
    """The voice picked for one language, as ``synth --list`` prints it."""

    id: str
    name: str
    languages: list[str]


class VoiceList(TypedDict):
    driver: str
    voices: dict[str, VoiceChoice | None]


def list_voices() -> VoiceList:
    """The driver's name and, per shipped language, the voice to use (or None)."""
    engine = init_pyttsx3()
    voices = list(engine.getProperty("voices") or ())
    chosen: dict[str, VoiceChoice | None] = {}
    for lang in LANGUAGES:
        voice = pick_voice(voices, lang)
        chosen[lang] = (
            None
            if voice is None
            else {
                "id": str(voice.id),
                "name": str(getattr(voice, "name", None) or voice.id),
                "languages": language_tags(voice),
            }
        )
    return {"driver": str(getattr(engine, "driver_name", "pyttsx3")), "voices": chosen}


def render_line(
    text: str, voice_id: str, rate: int, out: Path, timeout_s: float = FINISH_TIMEOUT_S
) -> float:
    """Render ``text`` to the WAV ``out``; returns its length in seconds."""
    engine = init_pyttsx3()
    espeak = "espeak" in str(getattr(engine, "driver_name", ""))
    if espeak:
        _settle_espeak(engine, voice_id, rate)
    else:
        if voice_id:
            engine.setProperty("voice", voice_id)
        engine.setProperty("rate", rate)
    finished = threading.Event()
    # Connected once and never removed: pyttsx3 iterates its callback list while notifying.
    engine.connect("finished-utterance", lambda **_: finished.set())
    engine.save_to_file(text, str(out))
    engine.runAndWait()
    # espeak may still be synthesising on its own thread; pyttsx3 reports the end only
    # after the WAV is written. Other drivers finish inside runAndWait.
    if not finished.wait(timeout_s if espeak else 1.0) and espeak:
        raise VoiceUnavailable(f"the synthesiser did not finish {text!r}")
    if not out.exists():
        raise VoiceUnavailable(f"the engine wrote no audio for {text!r}")
    to_wav(out)  # macOS's NSSS driver writes AIFF: the cache and the mixer get WAV
    if wav_seconds(out) <= 0:
        raise VoiceUnavailable(f"the engine wrote no audio for {text!r}")
    return wav_seconds(out)


def _settle_espeak(engine: Any, voice_id: str, rate: int) -> None:
    """Set espeak's voice and rate now and wait until espeak has applied them.

    Through ``engine.setProperty`` they would be queued until ``runAndWait``, which sends them
    to espeak's own command queue and at once ends its loop with ``stop()``; that calls
    ``espeak_Cancel`` while espeak is still busy, dropping a rate change that has not been
    applied yet. About one line in eighty came out at the driver's initial rate (200).
    """
    from pyttsx3.drivers import _espeak  # the espeak driver is loaded: this is its binding

    driver = engine.proxy._driver
    if voice_id:
        driver.setProperty("voice", voice_id)
    driver.setProperty("rate", rate)
    _espeak.Synchronize()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m host.voice.synth")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("voices", help="print the voice chosen per language (JSON)")
    render = commands.add_parser("render", help="render stdin's text to a WAV file")
    render.add_argument("--voice", default="")
    render.add_argument("--rate", type=int, default=175)
    render.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    try:
        if args.command == "voices":
            print(json.dumps(list_voices(), ensure_ascii=True))
        else:
            text = sys.stdin.buffer.read().decode("utf-8")
            render_line(text, args.voice, args.rate, Path(args.out))
    except Exception as error:  # noqa: BLE001 - reported to the parent as one line
        print(
            f"{type(error).__name__}: {error}"
            if not isinstance(error, VoiceUnavailable)
            else str(error),
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # Skip interpreter teardown: espeak's thread and pyttsx3's finalisers can crash there,
    # after the work is done and reported.
    os._exit(code)
