"""Every cue of the party and the two music loops, as recipes over ``host.audio.synth``.

A cue is named after the moment it belongs to (``cuckoo``, ``deal``, ``swap`` …): the TV asks
for it by that name when the animation starts (``host.audio.cueing``). The loops are rendered
"round the clock" (``mix_into(..., wrap=True)``): a note still ringing at the end continues at
the start, so the loop is periodic and its seam has no click.
"""

from __future__ import annotations

from collections.abc import Callable

from host.audio.synth import (
    RATE,
    Samples,
    mix_into,
    noise,
    normalised,
    sequence,
    silence,
    tone,
)

#: Peak level of a cue (0..1); music loops are quieter still.
CUE_PEAK = 0.8
#: A woody, flute-like timbre (cuckoo clock), a bell (join chime) and a brass one (fanfare).
FLUTE = (1.0, 0.25, 0.08)
BELL = (1.0, 0.0, 0.35, 0.0, 0.12)
BRASS = (1.0, 0.7, 0.5, 0.35, 0.2, 0.1)
PLUCK = (1.0, 0.4, 0.15)


def note(name: str) -> float:
    """``"A4"`` → 440.0 (sharps only: ``"F#3"``)."""
    names = ("C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B")
    pitch, octave = name[:-1], int(name[-1])
    return 440.0 * 2 ** ((names.index(pitch) - 9 + 12 * (octave - 4)) / 12)


def cuckoo() -> Samples:
    """A King blocks: the cuckoo clock's two falling tones (a minor third down)."""
    high = tone(note("G5"), 0.26, volume=0.9, harmonics=FLUTE, attack=0.015, release=0.08)
    low = tone(note("E5"), 0.42, volume=0.9, harmonics=FLUTE, attack=0.015, release=0.2)
    return sequence([(0.0, high), (0.32, low)], 0.78)


def deal() -> Samples:
    """One card flicked out to a seat (played once per player, in step with the animation)."""
    flick = noise(0.07, volume=0.9, seed=7, brightness=0.9, decay=0.018)
    thump = tone(180, 0.05, volume=0.35, decay=0.015)
    return sequence([(0.0, flick), (0.045, thump)], 0.11)


def swap() -> Samples:
    """Two cards sliding past each other between neighbours."""
    first = noise(0.3, volume=0.8, seed=11, brightness=0.35, swell=True, release=0.03)
    second = noise(0.3, volume=0.7, seed=12, brightness=0.45, swell=True, release=0.03)
    return sequence([(0.0, first), (0.14, second)], 0.46)


def cut() -> Samples:
    """A card drawn from the deck: a short slide, then a tap as it lands."""
    slide = noise(0.22, volume=0.7, seed=21, brightness=0.4, swell=True)
    tap = noise(0.04, volume=0.9, seed=22, brightness=0.9, decay=0.01)
    return sequence([(0.0, slide), (0.22, tap)], 0.3)


def turn() -> Samples:
    """One card turned face up at the reveal: a crisp snap."""
    snap = noise(0.06, volume=1.0, seed=31, brightness=0.95, decay=0.012)
    body = tone(320, 0.06, volume=0.3, decay=0.02)
    return sequence([(0.0, snap), (0.0, body)], 0.09)


#: The drumroll's length up to its last hit (the TV ends it as the lowest card is marked).
DRUMROLL_SECONDS = 0.9


def drumroll() -> Samples:
    """A short snare roll growing louder, before the lowest card is marked."""
    seconds, hits = DRUMROLL_SECONDS, []
    at = 0.0
    index = 0
    while at < seconds - 0.1:
        level = 0.3 + 0.6 * at / seconds
        hits.append((at, noise(0.05, volume=level, seed=40 + index, brightness=0.6, decay=0.02)))
        at += 0.034
        index += 1
    hits.append((seconds - 0.08, noise(0.08, volume=1.0, seed=99, brightness=0.5, decay=0.04)))
    return sequence(hits, seconds + 0.05)


def life_lost() -> Samples:
    """A life goes: two sagging low notes ("wah-wah")."""
    first = tone(
        note("G3"),
        0.28,
        volume=0.8,
        freq_end=note("F#3"),
        harmonics=BRASS,
        attack=0.02,
        release=0.06,
    )
    second = tone(
        note("F#3"),
        0.45,
        volume=0.8,
        freq_end=note("E3"),
        harmonics=BRASS,
        attack=0.02,
        release=0.2,
        vibrato=0.3,
    )
    return sequence([(0.0, first), (0.3, second)], 0.8)


def eliminated() -> Samples:
    """A player is out: a sad trombone, three steps down and a long slide."""
    steps = [("D#4", 0.0, 0.3), ("D4", 0.32, 0.3), ("C#4", 0.64, 0.3)]
    parts = [
        (at, tone(note(n), length, volume=0.8, harmonics=BRASS, attack=0.02, release=0.06))
        for n, at, length in steps
    ]
    parts.append(
        (
            0.96,
            tone(
                note("C4"),
                0.75,
                volume=0.8,
                freq_end=note("A#3"),
                harmonics=BRASS,
                attack=0.02,
                release=0.3,
                vibrato=0.4,
            ),
        )
    )
    return sequence(parts, 1.75)


def fanfare() -> Samples:
    """The winner: a brass call (three quick notes) and a long major chord."""
    parts = [
        (at, tone(note(n), 0.14, volume=0.6, harmonics=BRASS, attack=0.01, release=0.04))
        for n, at in (("C5", 0.0), ("C5", 0.16), ("C5", 0.32))
    ]
    parts.append((0.48, tone(note("G5"), 0.3, volume=0.6, harmonics=BRASS, release=0.05)))
    for chord_note in ("C5", "E5", "G5", "C6"):
        parts.append(
            (
                0.8,
                tone(
                    note(chord_note),
                    1.0,
                    volume=0.5,
                    harmonics=BRASS,
                    attack=0.02,
                    release=0.45,
                    vibrato=0.1,
                ),
            )
        )
    return sequence(parts, 1.85)


def join() -> Samples:
    """Someone sits down in the lobby: a bright two-note chime."""
    first = tone(note("E6"), 0.35, volume=0.7, harmonics=BELL, decay=0.15, release=0.1)
    second = tone(note("B6"), 0.45, volume=0.7, harmonics=BELL, decay=0.2, release=0.15)
    return sequence([(0.0, first), (0.11, second)], 0.58)


#: Every cue by name (the name is the WAV file's name in the cache and for ``test-sounds``).
CUES: dict[str, Callable[[], Samples]] = {
    "cuckoo": cuckoo,
    "deal": deal,
    "swap": swap,
    "cut": cut,
    "turn": turn,
    "drumroll": drumroll,
    "life_lost": life_lost,
    "eliminated": eliminated,
    "fanfare": fanfare,
    "join": join,
}


def _loop(
    bpm: int,
    chords: list[tuple[str, str, str, str]],
    arpeggio: list[int],
    pad_level: float,
    pluck_level: float,
    bass_level: float,
) -> Samples:
    """Four bars of 4/4, one chord (bass, three pad notes) a bar, an eighth-note arpeggio."""
    beat = round(RATE * 60 / bpm) / RATE  # a whole number of samples per beat
    bar = 4 * beat
    bus = silence(bar * len(chords))
    for index, (bass, *pad) in enumerate(chords):
        start = index * bar
        mix_into(
            bus,
            tone(
                note(bass),
                bar * 0.95,
                volume=bass_level,
                harmonics=(1.0, 0.3),
                attack=0.02,
                decay=bar * 0.6,
                release=0.1,
            ),
            start,
            wrap=True,
        )
        for pitch in pad:
            mix_into(
                bus,
                tone(note(pitch), bar * 1.05, volume=pad_level, attack=0.25, release=0.3),
                start,
                wrap=True,
            )
        for step, chosen in enumerate(arpeggio):
            mix_into(
                bus,
                tone(
                    note(pad[chosen]) * 2,
                    beat * 0.45,
                    volume=pluck_level,
                    harmonics=PLUCK,
                    decay=0.09,
                    release=0.03,
                ),
                start + step * beat / 2,
                wrap=True,
            )
    return bus


def lobby_loop() -> Samples:
    """The lobby while guests scan the QR code: light and bright, 112 bpm, C–Am–F–G."""
    chords = [
        ("C3", "C4", "E4", "G4"),
        ("A2", "A3", "C4", "E4"),
        ("F2", "F3", "A3", "C4"),
        ("G2", "G3", "B3", "D4"),
    ]
    return normalised(_loop(112, chords, [0, 1, 2, 1, 0, 1, 2, 1], 0.12, 0.22, 0.3), 0.55)


def game_loop() -> Samples:
    """Under the game: quieter and slower, 84 bpm, Am–F–C–G, a sparse arpeggio."""
    chords = [
        ("A2", "A3", "C4", "E4"),
        ("F2", "F3", "A3", "C4"),
        ("C3", "C4", "E4", "G4"),
        ("G2", "G3", "B3", "D4"),
    ]
    return normalised(_loop(84, chords, [0, 2, 1, 2, 0, 2, 1, 2], 0.1, 0.12, 0.25), 0.35)


#: The music loops by name (``music_lobby.wav`` and ``music_game.wav`` in the cache).
LOOPS: dict[str, Callable[[], Samples]] = {"lobby": lobby_loop, "game": game_loop}


def render_cue(name: str) -> Samples:
    """A cue's samples at ``CUE_PEAK`` (raises KeyError for an unknown name)."""
    return normalised(CUES[name](), CUE_PEAK)


def render_loop(name: str) -> Samples:
    return LOOPS[name]()
