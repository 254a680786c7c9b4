"""The sound-making kit: tones, slides, noise bursts and a mixing bus, in pure Python.

Why pure Python (``math`` and ``array``, no numpy): every cue and loop is rendered once
per user into the sound cache (``host.audio.library``), so speed hardly matters, and the host
gains no dependency. Samples are floats in -1..1 at ``RATE`` Hz, mono; ``to_pcm`` makes the
16-bit frames a WAV file (and pygame) takes.
"""

from __future__ import annotations

import math
import os
import random
import sys
import threading
import wave
from array import array
from collections.abc import Sequence
from pathlib import Path

#: Samples per second of every rendered sound (pygame converts to the device's rate).
RATE = 22050
Samples = list[float]


def seconds_to_samples(seconds: float) -> int:
    return max(0, round(seconds * RATE))


def silence(seconds: float) -> Samples:
    return [0.0] * seconds_to_samples(seconds)


def envelope(count: int, attack: float, decay: float, release: float) -> Samples:
    """Gain per sample: a linear attack, an exponential decay (``decay`` seconds to ~37 %,
    0 = none), and a linear release to exactly 0 at the end, so a sound never ends in a click."""
    attack_n = max(1, seconds_to_samples(attack))
    release_n = max(1, min(count, seconds_to_samples(release)))
    gains: Samples = []
    for i in range(count):
        gain = min(1.0, i / attack_n)
        if decay > 0:
            gain *= math.exp(-i / (decay * RATE))
        left = count - 1 - i
        if left < release_n:
            gain *= left / release_n
        gains.append(gain)
    return gains


def tone(
    freq: float,
    seconds: float,
    *,
    volume: float = 0.5,
    freq_end: float | None = None,
    harmonics: Sequence[float] = (1.0,),
    attack: float = 0.005,
    decay: float = 0.0,
    release: float = 0.03,
    vibrato: float = 0.0,
) -> Samples:
    """A note: ``harmonics`` are the levels of partials 1, 2, 3…; ``freq_end`` slides the pitch
    (exponentially, like a slide whistle); ``vibrato`` is its depth in semitones at 5.5 Hz."""
    count = seconds_to_samples(seconds)
    gains = envelope(count, attack, decay, release)
    end = freq if freq_end is None else freq_end
    total = sum(abs(h) for h in harmonics) or 1.0
    phase = 0.0
    out: Samples = []
    for i in range(count):
        share = i / count
        f = freq * (end / freq) ** share
        if vibrato:
            f *= 2 ** (vibrato * math.sin(2 * math.pi * 5.5 * i / RATE) / 12)
        phase += 2 * math.pi * f / RATE
        value = sum(h * math.sin((k + 1) * phase) for k, h in enumerate(harmonics))
        out.append(volume * gains[i] * value / total)
    return out


def noise(
    seconds: float,
    *,
    volume: float = 0.5,
    seed: int = 1,
    brightness: float = 0.5,
    attack: float = 0.002,
    decay: float = 0.0,
    release: float = 0.01,
    swell: bool = False,
) -> Samples:
    """A burst of noise (a card's flick, a drum): ``brightness`` 0 (dull) … 1 (hiss) is a
    one-pole filter; ``swell`` rises then falls, like a card sliding across cloth. Seeded, so
    every rendering is the same."""
    count = seconds_to_samples(seconds)
    gains = envelope(count, attack, decay, release)
    pick = random.Random(seed)
    smooth = 1.0 - max(0.02, min(1.0, brightness))
    last = 0.0
    out: Samples = []
    for i in range(count):
        raw = pick.uniform(-1.0, 1.0)
        last = smooth * last + (1.0 - smooth) * raw
        shape = math.sin(math.pi * i / count) if swell else 1.0
        out.append(volume * gains[i] * shape * (raw - last if brightness > 0.7 else last))
    return out


def mix_into(
    bus: Samples, sound: Sequence[float], at: float, gain: float = 1.0, wrap: bool = False
) -> None:
    """Add ``sound`` to ``bus`` starting ``at`` seconds. With ``wrap`` the tail that passes
    the end comes round to the start: a loop rendered this way joins without a click."""
    start = seconds_to_samples(at)
    length = len(bus)
    for i, value in enumerate(sound):
        index = start + i
        if index >= length:
            if not wrap or not length:
                return
            index %= length
        bus[index] += gain * value


def sequence(parts: Sequence[tuple[float, Sequence[float]]], seconds: float) -> Samples:
    """A bus of ``seconds`` with each (start, sound) of ``parts`` mixed in."""
    bus = silence(seconds)
    for at, sound in parts:
        mix_into(bus, sound, at)
    return bus


def normalised(samples: Sequence[float], peak: float) -> Samples:
    """Scaled so the loudest sample is ``peak`` (0..1)."""
    top = max((abs(s) for s in samples), default=0.0)
    return [s * peak / top for s in samples] if top else list(samples)


def to_pcm(samples: Sequence[float]) -> array[int]:
    """16-bit signed frames, clipped to the range."""
    return array("h", (max(-32767, min(32767, round(s * 32767))) for s in samples))


def write_wav(path: Path, samples: Sequence[float]) -> Path:
    """Write a mono 16-bit WAV atomically (temp file, then rename): a cache never holds half a
    sound, even if two hosts render at once."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.stem}.{os.getpid()}.{threading.get_ident()}.part.wav")
    frames = to_pcm(samples)
    if sys.byteorder == "big":
        frames.byteswap()
    try:
        with wave.open(str(partial), "wb") as wav:
            wav.setnchannels(1)
            wav.setsampwidth(2)
            wav.setframerate(RATE)
            wav.writeframes(frames.tobytes())
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    return path


def read_wav(path: Path) -> array[int]:
    """The 16-bit mono frames of a WAV written by ``write_wav`` (tests and checks)."""
    with wave.open(str(path), "rb") as wav:
        if wav.getsampwidth() != 2 or wav.getnchannels() != 1:
            raise ValueError(f"{path.name}: only 16-bit mono WAV files are read")
        frames = array("h", wav.readframes(wav.getnframes()))
    if sys.byteorder == "big":
        frames.byteswap()
    return frames
