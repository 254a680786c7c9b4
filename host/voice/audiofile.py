"""What each pyttsx3 driver writes, read and turned into one format: 16-bit PCM WAV.

Why: the drivers disagree. espeak (Linux) and SAPI5 (Windows) write WAV, but macOS's NSSS
driver writes AIFF (or AIFF-C) whatever the file is called. Everything after the synthesiser —
the cache, ``pygame.mixer``, ``test-voice --out``, the silence checks — then deals with one
format only: ``to_wav`` converts an AIFF in place, in pure Python (the ``aifc`` module is gone
from Python 3.13). Supported: 8/16/24/32-bit PCM, big-endian (``AIFF``, AIFF-C ``NONE`` and
``twos``) and little-endian (AIFF-C ``sowt``).
"""

from __future__ import annotations

import math
import os
import struct
import sys
import wave
from array import array
from dataclasses import dataclass
from pathlib import Path


class UnknownAudioFormat(ValueError):
    """The file is neither a RIFF/WAVE nor a PCM AIFF/AIFF-C file."""


@dataclass(frozen=True)
class Pcm:
    """Decoded PCM audio: interleaved little-endian frames, as a WAV file holds them."""

    channels: int
    sample_width: int
    """Bytes per sample (1–4)."""
    rate: int
    frames: bytes

    @property
    def seconds(self) -> float:
        frame_size = self.channels * self.sample_width
        return len(self.frames) / frame_size / self.rate if frame_size and self.rate else 0.0


def sniff(path: Path) -> str:
    """``"wav"`` or ``"aiff"`` from the file's first bytes (extensions are not trusted)."""
    with open(path, "rb") as handle:
        head = handle.read(12)
    if head[:4] == b"RIFF" and head[8:12] == b"WAVE":
        return "wav"
    if head[:4] == b"FORM" and head[8:12] in (b"AIFF", b"AIFC"):
        return "aiff"
    raise UnknownAudioFormat(f"{path.name}: not a WAV or AIFF file")


def _extended_to_float(raw: bytes) -> float:
    """The 80-bit IEEE 754 extended float of an AIFF ``COMM`` chunk's sample rate."""
    exponent, mantissa = struct.unpack(">HQ", raw)
    sign = -1.0 if exponent & 0x8000 else 1.0
    exponent &= 0x7FFF
    if exponent == 0 and mantissa == 0:
        return 0.0
    return sign * math.ldexp(mantissa, exponent - 16383 - 63)


def read_aiff(path: Path) -> Pcm:
    """Decode a PCM AIFF / AIFF-C file (chunks: ``COMM`` for the format, ``SSND`` for data)."""
    data = Path(path).read_bytes()
    if data[:4] != b"FORM" or data[8:12] not in (b"AIFF", b"AIFC"):
        raise UnknownAudioFormat(f"{Path(path).name}: not an AIFF file")
    compressed = data[8:12] == b"AIFC"
    channels = bits = 0
    rate = 0.0
    encoding = b"NONE"
    sound: bytes | None = None
    offset = 12
    while offset + 8 <= len(data):
        chunk, size = (
            data[offset : offset + 4],
            struct.unpack(">I", data[offset + 4 : offset + 8])[0],
        )
        body = data[offset + 8 : offset + 8 + size]
        if chunk == b"COMM":
            channels, _frames, bits = struct.unpack(">hIh", body[:8])
            rate = _extended_to_float(body[8:18])
            if compressed:
                encoding = body[18:22]
        elif chunk == b"SSND":
            data_offset = struct.unpack(">I", body[:4])[0]
            sound = body[8 + data_offset :]
        offset += 8 + size + (size & 1)  # chunks are padded to an even length
    if sound is None or channels <= 0 or not 1 <= bits <= 32 or rate <= 0:
        raise UnknownAudioFormat(f"{Path(path).name}: an AIFF file without PCM sound")
    if encoding not in (b"NONE", b"twos", b"sowt"):
        raise UnknownAudioFormat(f"{Path(path).name}: AIFF-C compression {encoding!r}")
    width = (bits + 7) // 8
    sound = sound[: len(sound) - len(sound) % (width * channels)]
    return Pcm(channels, width, round(rate), _to_wav_samples(sound, width, encoding == b"sowt"))


def _to_wav_samples(sound: bytes, width: int, little_endian: bool) -> bytes:
    """AIFF samples are signed big-endian (``sowt``: little); WAV's are little-endian, 8-bit
    unsigned."""
    if width == 1:
        return bytes((byte + 128) & 0xFF for byte in sound)
    if little_endian:
        return sound
    if width in (2, 4):
        samples = array("h" if width == 2 else "i", sound)
        if sys.byteorder == "little":
            samples.byteswap()
        return samples.tobytes()
    return b"".join(sound[i : i + width][::-1] for i in range(0, len(sound), width))


def read_pcm(path: Path) -> Pcm:
    """Any supported file as PCM."""
    if sniff(path) == "aiff":
        return read_aiff(path)
    with wave.open(str(path), "rb") as wav:
        return Pcm(
            wav.getnchannels(),
            wav.getsampwidth(),
            wav.getframerate(),
            wav.readframes(wav.getnframes()),
        )


def write_wav(path: Path, pcm: Pcm) -> None:
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(pcm.channels)
        wav.setsampwidth(pcm.sample_width)
        wav.setframerate(pcm.rate)
        wav.writeframes(pcm.frames)


def to_wav(path: Path) -> str:
    """Make ``path`` a WAV file, converting an AIFF in place; returns the format it was in."""
    kind = sniff(path)
    if kind == "aiff":
        pcm = read_aiff(path)
        partial = path.with_name(path.name + ".conv")
        try:
            write_wav(partial, pcm)
            os.replace(partial, path)
        finally:
            partial.unlink(missing_ok=True)
    return kind


def audio_seconds(path: Path) -> float:
    """The length in seconds of a WAV or AIFF file."""
    if sniff(path) == "aiff":
        return read_aiff(path).seconds
    with wave.open(str(path), "rb") as wav:
        return wav.getnframes() / float(wav.getframerate() or 1)
