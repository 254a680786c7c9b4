"""Speech engines that misbehave on purpose, a tone WAV, and a table of accented names."""

from __future__ import annotations

import threading
import time
import wave
from collections.abc import Callable
from pathlib import Path
from typing import cast

from host.rules import EventDict, View


def write_tone_wav(path: Path, seconds: float, rate: int = 22050) -> Path:
    """A short non-silent 16-bit mono WAV, as a fake engine's output."""
    frames = int(seconds * rate)
    samples = bytearray()
    for i in range(frames):
        value = 8000 if (i // 50) % 2 else -8000
        samples += int(value).to_bytes(2, "little", signed=True)
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(rate)
        wav.writeframes(bytes(samples))
    return path


class FakeEngine:
    """Renders every line to the same short WAV after ``delay`` seconds; records the calls."""

    def __init__(self, directory: Path, delay: float = 0.0, seconds: float = 0.2) -> None:
        self.wav = write_tone_wav(directory / "fake.wav", seconds)
        self.delay = delay
        self.rendered: list[tuple[str, str]] = []
        self.threads: set[str] = set()

    def render(self, text: str, lang: str) -> Path:
        self.threads.add(threading.current_thread().name)
        time.sleep(self.delay)
        self.rendered.append((text, lang))
        return self.wav


class RaisingEngine:
    """An engine that breaks on every line."""

    def __init__(self) -> None:
        self.calls = 0

    def render(self, text: str, lang: str) -> Path:
        self.calls += 1
        raise RuntimeError("the synthesiser exploded")


class HangingEngine:
    """An engine whose first render never returns (until the test releases it)."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.calls = 0

    def render(self, text: str, lang: str) -> Path:
        self.calls += 1
        self.release.wait(30)
        raise RuntimeError("released")


class NoVoiceEngine:
    """An engine that cannot start at all (no espeak, no SAPI...)."""

    def open(self) -> str:
        from host.voice import VoiceUnavailable

        raise VoiceUnavailable("no speech engine on this machine")

    def render(self, text: str, lang: str) -> Path:
        raise AssertionError("render must not be called when open failed")


PLAYERS = [
    {"id": "p1", "name": "Marie"},
    {"id": "p2", "name": "Bo"},
    {"id": "p3", "name": "Chloé"},
    {"id": "p4", "name": "Niccolò"},
    {"id": "p5", "name": "François"},
]


def table_view(dealer: str = "p1", house_rules: list[str] | None = None) -> View:
    """A public view with just what the voice reads: names, dealer, house rules."""
    return cast(
        View,
        {
            "players": [dict(p) for p in PLAYERS],
            "dealer": dealer,
            "round": 3,
            "house_rules": list(house_rules or []),
        },
    )


def events(*items: object) -> list[EventDict]:
    """Events as a stream carries them: the tests also send partial, private and bad ones."""
    return cast("list[EventDict]", list(items))


class FakePlayer:
    """Plays nothing, takes the WAV's length, and remembers what it was asked to do."""

    def __init__(self, time_scale: float = 1.0) -> None:
        self.time_scale = time_scale
        self.played: list[tuple[Path, float]] = []
        self.stops = 0
        self._until = 0.0

    def play(self, wav: Path) -> float:
        with wave.open(str(wav), "rb") as data:
            seconds = data.getnframes() / data.getframerate()
        now = time.monotonic()
        self.played.append((wav, now))
        self._until = now + seconds * self.time_scale
        return seconds

    def busy(self) -> bool:
        return time.monotonic() < self._until

    def stop(self) -> None:
        self.stops += 1
        self._until = 0.0


def wait_for(predicate: Callable[[], object], timeout: float = 5.0, step: float = 0.01) -> bool:
    """Poll ``predicate()`` until true or ``timeout`` s pass (bounded, never hangs a test)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return bool(predicate())
