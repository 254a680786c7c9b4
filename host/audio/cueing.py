"""Which cue goes with which animation, and when: the TV's beats turned into sound.

Why here and not in the stage: the stage (``host.tv.stage``) only says "this beat begins"
through its ``on_begin`` hook; ``CueTrack`` knows the cues. A cue at offset 0 plays as the
beat begins — the same frame that first draws it — and a later one (each card dealt, each card
turned, the drumroll that ends as the lowest card is marked) plays on the first frame whose
beat time reaches it. Beat time is what the painters use, so a backlog played faster stays in
step too.
"""

from __future__ import annotations

from typing import Protocol

from host.audio.cues import DRUMROLL_SECONDS
from host.rules import EventDict
from host.tv.stage import DEAL_STAGGER, Beat, reveal_flip_start, reveal_marked_at

#: Events with one cue as their animation starts.
CUE_AT_START: dict[str, str] = {
    "blocked": "cuckoo",
    "cut_king": "cuckoo",
    "exchanged": "swap",
    "cut": "cut",
    "life_lost": "life_lost",
    "eliminated": "eliminated",
    "game_over": "fanfare",
    "player_joined": "join",
    "sudden_death": "drumroll",
}


class Cues(Protocol):
    def cue(self, name: str) -> None: ...


def cue_times(event: EventDict) -> list[tuple[float, str]]:
    """(beat time, cue) for one public event, in time order; [] for a silent one."""
    if event["type"] == "round_dealt":
        return [(i * DEAL_STAGGER, "deal") for i, _ in enumerate(event.get("order") or ())]
    if event["type"] == "reveal":
        count = len(event.get("cards") or {})
        times = [(reveal_flip_start(i, count), "turn") for i in range(count)]
        if count:
            times.append((max(0.0, reveal_marked_at(count) - DRUMROLL_SECONDS), "drumroll"))
        return sorted(times)
    if event["type"] == "game_over" and event.get("walkover"):
        return []  # round 46: everyone else left, no fanfare for the last one at the table
    cue = CUE_AT_START.get(event["type"])
    return [(0.0, cue)] if cue else []


class CueTrack:
    """Plays each beat's cues as the TV's beat time reaches them."""

    def __init__(self, sounds: Cues) -> None:
        self._sounds = sounds
        self._beat: Beat | None = None
        self._pending: list[tuple[float, str]] = []

    def begin(self, beat: Beat) -> None:
        """The stage's ``on_begin``: the beat's animation starts on this frame."""
        self.follow()  # what the last beat still owed is due by now (it has ended)
        self._beat, self._pending = beat, cue_times(beat.event)
        self.follow(beat.elapsed)

    def follow(self, now: float | None = None) -> None:
        """After every step: play the cues whose beat time has come."""
        if self._beat is None:
            return
        elapsed = self._beat.elapsed if now is None else now
        while self._pending and self._pending[0][0] <= elapsed:
            self._sounds.cue(self._pending.pop(0)[1])
