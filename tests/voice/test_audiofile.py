"""Every pyttsx3 driver's real output format becomes a WAV the mixer plays (issue 17).

The fixtures are real files of each format, made by SoX from one espeak-ng line:
``nsss-line.aiff`` / ``nsss-line.aifc`` as macOS's NSSS driver writes (big-endian AIFF, AIFF-C
``NONE``), ``sapi5-line.wav`` as Windows' SAPI5 and Linux's espeak write (16-bit PCM WAV). All
three hold the same samples, so a conversion is checked against an independent decoder.
"""

from __future__ import annotations

import os
import shutil
import struct
import wave
from pathlib import Path
from typing import Any

import pytest

from host.voice import synth
from host.voice.audiofile import UnknownAudioFormat, audio_seconds, read_pcm, sniff, to_wav

DATA = Path(__file__).parent / "data"
WAV = DATA / "sapi5-line.wav"


def _wav_frames(path: Path) -> tuple[int, int, int, bytes]:
    with wave.open(str(path), "rb") as wav:
        return (
            wav.getnchannels(),
            wav.getsampwidth(),
            wav.getframerate(),
            wav.readframes(wav.getnframes()),
        )


@pytest.mark.parametrize("name", ["nsss-line.aiff", "nsss-line.aifc"])
def test_macos_aiff_is_converted_to_the_same_wav_samples(tmp_path: Path, name: str) -> None:
    line = tmp_path / "line.wav"  # the cache names it .wav; NSSS writes AIFF into it anyway
    shutil.copyfile(DATA / name, line)
    assert sniff(line) == "aiff"
    assert to_wav(line) == "aiff"
    assert sniff(line) == "wav"
    assert _wav_frames(line) == _wav_frames(WAV)


def test_little_endian_aifc_sowt_is_converted(tmp_path: Path) -> None:
    """AIFF-C ``sowt`` (little-endian samples), built here from the WAV's own samples."""
    channels, width, rate, frames = _wav_frames(WAV)
    # 22050 Hz as an 80-bit extended float: exponent 16383+14, mantissa 22050 << 49.
    rate_80 = struct.pack(">HQ", 16383 + 14, 22050 << 49)
    comm = struct.pack(">hIh", channels, len(frames) // 2, 16) + rate_80 + b"sowt\x00\x00"
    ssnd = struct.pack(">II", 0, 0) + frames
    body = (
        b"AIFC"
        + b"COMM"
        + struct.pack(">I", len(comm))
        + comm
        + b"SSND"
        + struct.pack(">I", len(ssnd))
        + ssnd
    )
    line = tmp_path / "sowt.wav"
    line.write_bytes(b"FORM" + struct.pack(">I", len(body)) + body)
    to_wav(line)
    assert _wav_frames(line) == (channels, width, rate, frames)


def test_windows_and_linux_wav_is_left_untouched(tmp_path: Path) -> None:
    line = tmp_path / "line.wav"
    shutil.copyfile(WAV, line)
    assert to_wav(line) == "wav"
    assert line.read_bytes() == WAV.read_bytes()


@pytest.mark.parametrize("name", ["nsss-line.aiff", "nsss-line.aifc", "sapi5-line.wav"])
def test_lengths_agree_across_formats(name: str) -> None:
    assert audio_seconds(DATA / name) == pytest.approx(0.25, abs=0.001)
    assert read_pcm(DATA / name).rate == 22050


def test_something_else_is_refused_clearly(tmp_path: Path) -> None:
    junk = tmp_path / "line.wav"
    junk.write_bytes(b"OggS" + bytes(40))
    with pytest.raises(UnknownAudioFormat, match="not a WAV or AIFF"):
        to_wav(junk)


def test_converted_line_plays_in_pygame_mixer(tmp_path: Path) -> None:
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import pygame

    line = tmp_path / "line.wav"
    shutil.copyfile(DATA / "nsss-line.aiff", line)
    to_wav(line)
    pygame.mixer.init()
    try:
        assert pygame.mixer.Sound(str(line)).get_length() == pytest.approx(0.25, abs=0.02)
    finally:
        pygame.mixer.quit()


class _FakeDriverEngine:
    """A pyttsx3 engine whose driver writes ``output`` as its file, like NSSS or SAPI5."""

    def __init__(self, output: Path, driver: str) -> None:
        self.driver_name = driver
        self._output = output
        self._done: list[Any] = []
        self.properties: dict[str, Any] = {}

    def setProperty(self, name: str, value: Any) -> None:
        self.properties[name] = value

    def connect(self, topic: str, callback: Any) -> None:
        self._done.append(callback)

    def save_to_file(self, text: str, path: str) -> None:
        shutil.copyfile(self._output, path)

    def runAndWait(self) -> None:
        for callback in self._done:
            callback(name="line", completed=True)


@pytest.mark.parametrize(
    "output, driver",
    [("nsss-line.aiff", "nsss"), ("nsss-line.aifc", "nsss"), ("sapi5-line.wav", "sapi5")],
)
def test_synth_child_always_leaves_a_wav(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, output: str, driver: str
) -> None:
    monkeypatch.setattr(synth, "init_pyttsx3", lambda: _FakeDriverEngine(DATA / output, driver))
    out = tmp_path / "line.part.wav"
    seconds = synth.render_line("Cuckoo!", "voice-id", 185, out)
    assert seconds == pytest.approx(0.25, abs=0.001)
    assert _wav_frames(out) == _wav_frames(WAV)
