"""Issue 12 item 1 — on the TV, the voice and the caption come with the picture: a lost life is
announced when its beat starts (the moment the lives dots change), the reveal's lowest card
when it is marked — not when the session settled the move seconds earlier."""

from __future__ import annotations

from typing import Any, cast

import pytest

from host.i18n import Catalog
from host.tv.app import FRAME_SECONDS, TVApp
from host.tv.stage import reveal_marked_at
from tests.tv.views import StillSession, player, view


class RecordingVoice:
    """Records when (in TV time) each event was handed to the voice."""

    def __init__(self) -> None:
        self.muted = True
        self.said: list[tuple[str, float]] = []
        self.app: TVApp | None = None

    def announce(
        self, events: list[dict[str, Any]], table: dict[str, Any], moment: str = "whole"
    ) -> None:
        assert self.app is not None
        self.said.extend((str(e["type"]), self.app.stage.time) for e in events)

    def caption(self) -> None:
        return None

    def set_language(self, lang: str) -> None:
        """Not needed here."""

    def set_muted(self, muted: bool) -> None:
        self.muted = muted


def test_issue12_voice_and_lives_dots_change_together(catalog: Catalog) -> None:
    players = [player(i, card=None) for i in range(4)]
    before = view("turns", players)
    voice = RecordingVoice()
    app = TVApp(
        cast(Any, StillSession(before)), voice, catalog, lang="en", join_url="http://x/?room=CAKE"
    )
    voice.app = app
    cards = {"p0": "2S", "p1": "9H", "p2": "QD", "p3": "5C"}
    after = view(
        "reveal",
        [
            player(0, lives=2, card="2S"),
            *[player(i, card=c) for i, c in ((1, "9H"), (2, "QD"), (3, "5C"))],
        ],
    )
    app.stage.receive(
        after,
        [
            {"type": "reveal", "cards": cards, "lowest": "2", "losers": ["p0"]},
            {"type": "life_lost", "player": "p0", "lives": 2, "lost": 1, "timed_out": False},
        ],
    )
    dots_changed_at = None
    for _ in range(900):
        app.step(FRAME_SECONDS)
        beat = app.stage.beat
        seat = app.stage.seat_of("p0")
        assert seat is not None
        shown = (
            int(beat.event["lives"])
            if beat is not None and beat.event["type"] == "life_lost"
            else seat.lives
        )
        if shown == 2 and dots_changed_at is None:
            dots_changed_at = app.stage.time
        if not app.stage.animating:
            break
    said = dict(voice.said)
    assert said["reveal"] >= reveal_marked_at(4) - FRAME_SECONDS  # said once the lowest is marked
    assert dots_changed_at is not None
    assert abs(said["life_lost"] - dots_changed_at) <= 2 * FRAME_SECONDS


class LeadingSession(StillSession):
    """A still session the TV leads: records each ``tv_shown`` with the frames drawn and
    presented by then."""

    def __init__(self, first: Any) -> None:
        super().__init__(first)
        self.app: TVApp | None = None
        self.presented = 0
        self.told: list[tuple[int, int, int]] = []  # (events begun, frames drawn, presented)

    def lead(self) -> Any:
        return self.subscribe(None)

    def tv_shown(self, shown: Any) -> None:
        assert self.app is not None
        self.told.append((shown.begun, self.app.frames_rendered, self.presented))

    def resign(self) -> None:
        """Not needed here."""


def test_issue18_phones_are_told_a_beat_once_its_frame_is_on_screen(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R6 and issue 18 item 1: the session (and so every phone) learns that the TV began a
    beat only after the frame showing it was drawn and presented, never from inside ``step``:
    a phone answering at once then taps between two frames, not into the TV's drawing."""
    from host.tv.app import open_window
    from host.tv.screen import Screen
    from tests.tv.views import FakeClock, events

    session = LeadingSession(view("turns"))
    real_present = Screen.present

    def present(screen: Screen, damage: Any = None) -> None:
        real_present(screen, damage)
        session.presented += 1

    monkeypatch.setattr(Screen, "present", present)
    screen = open_window(False, "Cuckoo Party")
    try:
        app = TVApp(cast(Any, session), None, catalog, lang="en", join_url="http://x/?room=CAKE")
        session.app = app
        exchanged = {"type": "exchanged", "player": "p0", "with": "p1", "blocked": False}
        app.stage.receive(view("turns"), events(exchanged))
        assert session.told == []  # the beat began on receipt: not told before it is drawn
        app.step(FRAME_SECONDS)
        assert session.told == []  # nor while the TV's time moves
        app.run(screen=screen, max_frames=1, clock=FakeClock(), wait=lambda fps: None)
        assert session.told == [(1, 1, 1)]  # told once, after the first frame was presented
        app.run(screen=screen, max_frames=5, clock=FakeClock(), wait=lambda fps: None)
        assert len(session.told) == 1  # nothing new was shown: nothing more to tell
        app.stage.receive(view("turns"), events({**exchanged, "player": "p1", "with": "p2"}))
        app.run(screen=screen, max_frames=60, clock=FakeClock(), wait=lambda fps: None)
        assert [begun for begun, _, _ in session.told] == [1, 2]
        assert all(drawn == presented >= 1 for _, drawn, presented in session.told)
    finally:
        screen.close()


def test_issue18_every_frame_played_tells_the_phones_what_the_tv_began(catalog: Catalog) -> None:
    """R6 and issue 18 item 1: ``play_frame``, the one way the party's loop, the screenshots
    and the tests play the TV, always ends by telling the session what the TV began, drawn or
    not; before, a driver that only stepped the TV left every phone waiting for the pacer's
    stall release. ``step`` alone tells nothing."""
    import pygame

    from tests.tv.views import events

    session = LeadingSession(view("turns"))
    app = TVApp(cast(Any, session), None, catalog, lang="en", join_url="http://x/?room=CAKE")
    session.app = app
    exchanged = {"type": "exchanged", "player": "p0", "with": "p1", "blocked": False}
    app.stage.receive(view("turns"), events(exchanged))
    app.step(FRAME_SECONDS)
    assert session.told == []  # stepping alone: the phones are not told
    assert app.play_frame() is False  # no surface: nothing drawn …
    assert [begun for begun, _, _ in session.told] == [1]  # … but the beat is told
    assert app.frames_rendered == 0
    surface = pygame.Surface((1920, 1080))
    app.stage.receive(view("turns"), events({**exchanged, "player": "p1", "with": "p2"}))
    assert app.play_frame(surface, steps=2) is True  # something new: drawn
    played = 1
    while len(session.told) < 2 and played < 600:  # the first beat plays out, then the second
        app.play_frame(surface, steps=2)
        played += 1
    assert [begun for begun, _, _ in session.told] == [1, 2]
    assert session.told[1][1] >= 1  # told once its frame was drawn
    assert app.stage.time == pytest.approx((2 + 2 * played) * FRAME_SECONDS)  # ``steps`` each
    for _ in range(3):
        app.play_frame(surface)
    assert len(session.told) == 2  # nothing new begun: nothing more to tell


class LineVoice(RecordingVoice):
    """Records each line handed to the voice (``phrases_for``, as the announcer phrases it)
    with the number of the TV frame it came on."""

    def __init__(self, catalog: Catalog) -> None:
        super().__init__()
        self.translate = catalog.translator("en")
        self.frame = 0
        self.lines: list[tuple[int, str]] = []

    def announce(self, events: list[dict[str, Any]], table: dict[str, Any], *moment: Any) -> None:
        from host.voice.phrases import phrases_for

        for event in events:
            lines = phrases_for(cast(Any, event), cast(Any, table), self.translate, *moment)
            self.lines.extend((self.frame, line) for line in lines)


def test_h5_round47_the_sudden_deaths_verdict_is_said_when_the_tv_shows_it(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """H5. Round 47's play-test: the TV held the duel's verdict until its cards were turned,
    but the voice said "Everyone left is out at once: sudden death!" and "Sudden death: Bo
    takes it!" back to back, so the caption bar gave the result away with the cards face
    down. The rule is said as the duel begins; the verdict on the frame whose banner shows it,
    never before."""
    import pygame

    from host.tv import moves
    from tests.tv.views import FakeClock

    pygame.font.init()
    t = catalog.translator("en")
    players = [player(i, lives=1) for i in range(3)]
    voice = LineVoice(catalog)
    app = TVApp(
        cast(Any, StillSession(view("turns", players))),
        voice,
        catalog,
        lang="en",
        join_url="http://x/?room=CAKE",
    )
    voice.app = app
    app.stage.fast_forward()
    cards = {"p0": "2S", "p1": "2H", "p2": "2C"}
    duel = {"p0": "9H", "p1": "5S", "p2": "3C"}
    after = view("reveal", [player(0, lives=1, card="2S"), *[player(i, lives=0) for i in (1, 2)]])
    app.stage.receive(
        after,
        cast(
            Any,
            [
                {"type": "reveal", "cards": cards, "lowest": "2", "losers": ["p0", "p1", "p2"]},
                {"type": "sudden_death", "cards": duel, "winner": "p0", "deal": 1},
                {"type": "life_lost", "player": "p1", "lives": 0, "lost": 1, "timed_out": False},
            ],
        ),
    )
    banners: list[list[str]] = []  # each frame's banners, by frame
    real = vars(moves)["seated_banner"]

    def recording(*args: Any) -> Any:  # (surface, props, text, size, colour, …)
        banners[-1].append(str(args[2]))
        return real(*args)

    monkeypatch.setattr(moves, "seated_banner", recording)
    surface, clock = pygame.Surface((1920, 1080)), FakeClock()
    duel_began: int | None = None
    for frame in range(900):
        voice.frame = frame
        banners.append([])
        app.run(surface, max_frames=1, clock=clock, wait=lambda fps: None)
        beat = app.stage.beat
        if duel_began is None and beat is not None and beat.kind == "sudden_death":
            duel_began = frame
        if not app.stage.animating:
            break
    winner = player(0)["name"]
    verdict = t("voice.sudden_death_winner", name=winner)
    shown = next(
        i for i, drawn in enumerate(banners) if t("tv.sudden_death_won", name=winner) in drawn
    )
    said = {line: frame for frame, line in voice.lines}
    assert duel_began is not None and shown > duel_began + 10  # cards face down a while
    assert said[t("voice.sudden_death_start")] == duel_began  # the rule: as the duel begins
    assert shown <= said[verdict] <= shown + 1  # the verdict: when the TV shows it, not before
    verdict_at = float(vars(moves)["SUDDEN_DEATH_VERDICT_AT"])  # moves has it, old and new
    assert (shown - duel_began) * 0.05 >= verdict_at - 0.1  # FakeClock: 50 ms a frame
