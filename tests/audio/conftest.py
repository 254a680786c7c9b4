"""Fixtures for the sound tests: SDL's dummy audio driver (no speaker needed), a recording
output and a fake clock, so the board's volumes can be read back at any instant."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from host.audio.library import sound_names


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class RecordingOutput:
    """An ``Output`` that records every call with the fake clock's time and its thread."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.calls: list[tuple[float, str, int, Any]] = []
        self.threads: set[str] = set()
        self.playing: dict[int, tuple[Any, float]] = {}
        self.lengths: dict[Any, float] = {}

    def _log(self, what: str, channel: int, value: Any) -> None:
        self.calls.append((self.clock(), what, channel, value))
        self.threads.add(threading.current_thread().name)

    def open(self) -> None:
        """Opened by ``start`` on the caller's thread (like the real mixer)."""

    def load(self, path: Path) -> Any:
        return path.stem.removeprefix("music_")

    def play(self, channel: int, sound: Any, loops: int) -> None:
        self._log("play", channel, sound)
        self.playing[channel] = (sound, self.clock() + (1e9 if loops else 0.3))

    def set_volume(self, channel: int, volume: float) -> None:
        self._log("volume", channel, volume)

    def busy(self, channel: int) -> bool:
        return channel in self.playing and self.clock() < self.playing[channel][1]

    def stop(self, channel: int) -> None:
        self._log("stop", channel, None)
        self.playing.pop(channel, None)

    def volume_at(self, channel: int, when: float) -> float:
        """The last volume set on ``channel`` at or before ``when`` (1.0 before any)."""
        level = 1.0
        for at, what, chan, value in self.calls:
            if at > when:
                break
            if what == "volume" and chan == channel:
                level = value
        return level

    def plays(self) -> list[tuple[float, int, Any]]:
        return [(at, chan, value) for at, what, chan, value in self.calls if what == "play"]


def fake_paths() -> dict[str, Path]:
    return {
        name: Path(f"/nowhere/{'music_' if name in ('lobby', 'game') else ''}{name}.wav")
        for name in sound_names()
    }


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def output(clock: FakeClock) -> RecordingOutput:
    return RecordingOutput(clock)
