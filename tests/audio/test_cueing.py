"""Issue 20 item 3: each cue plays on the frame its animation starts — the TV's real loop
(``TVApp.run``) driven by a fake clock over a seeded game, sounds recorded by frame."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, cast

import pygame
import pytest

from host.audio.cueing import CUE_AT_START, CueTrack, cue_times
from host.audio.cues import DRUMROLL_SECONDS
from host.i18n import Catalog
from host.rules import EventDict
from host.tv.app import FRAME_SECONDS, TVApp
from host.tv.rehearsal import Rehearsal
from host.tv.stage import DEAL_STAGGER, Beat, reveal_flip_start, reveal_marked_at


class TickingClock:
    """Moves one frame per reading: each pass of the loop steps exactly one frame."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += FRAME_SECONDS
        return self.now


@dataclass
class Frame:
    beat: Beat | None
    elapsed: float


class RecordingSounds:
    """The TV's ``Sounds``: records each cue with the number of the frame it is played on."""

    def __init__(self) -> None:
        self.frame = 0
        self.cued: list[tuple[int, str]] = []
        self.loops: list[str | None] = []
        self.muted = False
        self.music_volume = 0.6

    def cue(self, name: str) -> None:
        self.cued.append((self.frame, name))

    def play_music(self, loop: str | None) -> None:
        self.loops.append(loop)

    def set_muted(self, muted: bool) -> None:
        self.muted = muted

    def set_music_volume(self, volume: float) -> float:
        self.music_volume = volume
        return volume


@pytest.fixture(scope="module")
def played() -> tuple[RecordingSounds, list[Frame], list[EventDict]]:
    """A seeded game of five through the TV loop; every frame's beat and beat time."""
    pygame.font.init()
    table = Rehearsal(seed=11, people=("Ana", "Chloé", "Niccolò", "François", "Zoë"))
    sounds = RecordingSounds()
    app = TVApp(
        table.session,
        None,
        Catalog.load(),
        lang="en",
        join_url="http://10.0.0.2:8000/?room=CAKE",
        sounds=sounds,
    )
    frames: list[Frame] = []
    events: list[EventDict] = []
    surface = pygame.Surface((1920, 1080))
    clock = TickingClock()

    def wait(fps: int) -> None:  # after each frame is drawn
        beat = app.stage.beat
        frames.append(Frame(beat, beat.elapsed if beat else 0.0))
        sounds.frame = len(frames)

    app.run(surface, max_frames=1, clock=clock, wait=wait)  # the lobby, before the deal
    rounds = 0
    while len(frames) < 8000 and rounds < 5:
        if not app.stage.busy:
            published = table.play()
            events.extend(published)
            rounds += sum(1 for e in published if e["type"] == "reveal")
        app.run(surface, max_frames=1, clock=clock, wait=wait)
    while app.stage.busy and len(frames) < 10000:
        app.run(surface, max_frames=1, clock=clock, wait=wait)
    app.close()
    return sounds, frames, events


def starts(frames: list[Frame]) -> dict[int, int]:
    """id(beat) → the frame on which it was first drawn."""
    first: dict[int, int] = {}
    for index, frame in enumerate(frames):
        if frame.beat is not None:
            first.setdefault(id(frame.beat), index)
    return first


def test_issue20_every_cue_plays_on_the_frame_its_beat_time_comes(played: Any) -> None:
    sounds, frames, _ = played
    assert sounds.cued
    for frame_no, name in sounds.cued:
        frame = frames[frame_no]
        if frame.beat is None:  # a beat with no animation (a join) — nothing to align with
            assert name == "join"
            continue
        due = [at for at, cue in cue_times(frame.beat.event) if cue == name]
        before = frames[frame_no - 1]
        previous = before.elapsed if before.beat is frame.beat else -1.0
        # the cue's time was reached on this very frame, not before
        assert any(previous < at <= frame.elapsed for at in due), (name, frame.beat.kind)


def test_issue20_each_animation_has_its_cues(played: Any) -> None:
    sounds, _, events = played
    heard = Counter(name for _, name in sounds.cued)
    kinds = Counter(e["type"] for e in events)
    assert kinds["round_dealt"] >= 3 and kinds["reveal"] >= 3 and kinds["exchanged"] >= 2
    dealt = sum(len(e["order"]) for e in events if e["type"] == "round_dealt")
    turned = sum(len(e["cards"]) for e in events if e["type"] == "reveal")
    assert heard["deal"] == dealt
    assert heard["turn"] == turned
    assert heard["swap"] == kinds["exchanged"]
    assert heard["cuckoo"] == kinds["blocked"] + kinds["cut_king"]
    assert heard["life_lost"] == kinds["life_lost"]
    assert heard["drumroll"] == kinds["reveal"] + kinds["sudden_death"]


def test_issue20_drumroll_ends_as_the_lowest_card_is_marked(played: Any) -> None:
    sounds, frames, _ = played
    first = starts(frames)
    checked = 0
    for frame_no, name in sounds.cued:
        beat = frames[frame_no].beat
        if name != "drumroll" or beat is None or beat.kind != "reveal":
            continue
        marked = reveal_marked_at(len(beat.event["cards"]))
        ends = (frame_no - first[id(beat)]) * FRAME_SECONDS + DRUMROLL_SECONDS
        assert ends == pytest.approx(marked, abs=2 * FRAME_SECONDS)
        checked += 1
    assert checked >= 3


def test_issue20_music_follows_the_table(played: Any) -> None:
    sounds, _, _ = played
    assert sounds.loops[:2] == ["lobby", "game"]


def test_issue20_cue_times_follow_the_tv_pacing() -> None:
    deal = cue_times({"type": "round_dealt", "round": 1, "dealer": "c", "order": ["a", "b", "c"]})
    assert deal == [(0.0, "deal"), (DEAL_STAGGER, "deal"), (2 * DEAL_STAGGER, "deal")]
    reveal = cue_times(
        {"type": "reveal", "cards": {"a": "5H", "b": "KS"}, "lowest": "5", "losers": ["a"]}
    )
    # each card turns as the TV flips it (the reveal's suspense first, then one by one)
    assert [at for at, cue in reveal if cue == "turn"] == [
        reveal_flip_start(0, 2),
        reveal_flip_start(1, 2),
    ]
    assert reveal_flip_start(0, 2) > 0.0 and reveal_flip_start(1, 2) > reveal_flip_start(0, 2)
    assert cue_times({"type": "turn", "player": "a"}) == []
    for kind, cue in CUE_AT_START.items():
        assert cue_times(cast(EventDict, {"type": kind})) == [(0.0, cue)]


def test_issue20_a_beat_cut_short_still_plays_what_it_owed() -> None:
    heard: list[str] = []

    class Ears:
        def cue(self, name: str) -> None:
            heard.append(name)

    track = CueTrack(Ears())
    deal = Beat({"type": "round_dealt", "round": 1, "dealer": "c", "order": ["a", "b", "c"]}, 1.0)
    track.begin(deal)
    deal.elapsed = 5.0  # a backlog ran it to the end within one frame
    track.begin(Beat({"type": "exchanged", "player": "a", "target": "b"}, 1.0))
    assert heard == ["deal", "deal", "deal", "swap"]


def test_round46_a_walkover_plays_no_fanfare() -> None:
    """Round 46: the game ended because everyone else left; the last one at the table gets
    no fanfare. A game won at a reveal (R14) still does."""
    over: dict[str, object] = {"type": "game_over", "winners": ["a"], "joint": False}
    assert cue_times(cast(EventDict, {**over, "walkover": True})) == []
    assert cue_times(cast(EventDict, {**over, "walkover": False})) == [(0.0, "fanfare")]
