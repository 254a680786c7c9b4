"""The TV side of issues 13 and 12.3: the VIP's choices live in the lobby, away players, the
kick list, the turn countdown, and the TV settings chosen on the VIP's phone."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pygame
import pygame.event
import pytest

from host.rules import EventDict, View
from host.tv.app import TVApp
from host.tv.lobby import MIDDLE_X, PLAYERS_X
from host.tv.overlays import KickOverlay
from tests.clock import Clock
from tests.tv.conftest import JOIN_URL, FakeAnnouncer


def _texts_while(app: TVApp, play: Callable[[], None]) -> list[str]:
    """Every text drawn while ``play`` runs: the table keeps what holds still, so a seat's
    mark is drawn in the frames where it changes, not in every frame."""
    drawn: list[str] = []
    real = app.props.theme.text

    def spy(text: str, size: int, colour: Any = (0, 0, 0), bold: bool = False) -> Any:
        drawn.append(text)
        return real(text, size, colour, bold)

    app.props.theme.text = spy  # type: ignore[method-assign]
    try:
        play()
    finally:
        app.props.theme.text = real  # type: ignore[method-assign]
    return drawn


def _texts(app: TVApp) -> list[str]:
    """Render one frame and return every text drawn."""
    return _texts_while(app, lambda: app.render(pygame.Surface((1920, 1080))))


def _party(
    make_session: Callable[..., Any],
    catalog: Any,
    present: int = 3,
    away: int = 0,
    announcer: Any = None,
    lang: str = "en",
    names: Sequence[str] = ("Ana", "Bea", "Cal", "Dan", "Eve"),
    **kwargs: Any,
) -> tuple[Any, TVApp, list[str], Clock]:
    clock = Clock()
    session = make_session(presence=True, clock=clock, **kwargs)
    ids = []
    for i in range(present + away):
        pid = session.join(names[i], "TEST").player_id
        if i < present:
            session.subscribe(pid)
        ids.append(pid)
    pygame.font.init()
    app = TVApp(
        session,
        announcer,
        catalog,
        lang=lang,
        join_url=JOIN_URL,
        house_rules=session.view(None)["house_rules"],
    )
    return session, app, ids, clock


def _settle(app: TVApp) -> None:
    app.pump_updates()
    for _ in range(30):
        app.play_frame()


def test_issue13_lobby_shows_the_vips_rules_live_in_words_screenshot(
    make_session: Callable[..., Any], catalog: Any, tmp_path: Path
) -> None:
    session, app, (ana, *_), _ = _party(make_session, catalog, house_rules="H2")
    _settle(app)
    before = pygame.Surface((1920, 1080))
    app.render(before)
    assert "• No blocking" in _texts(app)  # --house-rules: the starting choice
    session.act(ana, "set_rules", session.step, {"rules": ["H1", "H3", "H4"], "rapid_seconds": 20})
    _settle(app)
    after = pygame.Surface((1920, 1080))
    app.render(after)
    pygame.image.save(after, str(tmp_path / "tv-lobby-rules.png"))
    texts = _texts(app)
    assert {"• Five lives", "• Double cut", "• Rapid (20 s)"} <= set(texts)
    assert "• No blocking" not in texts
    rules_area = pygame.Rect(MIDDLE_X, 500, PLAYERS_X - MIDDLE_X - 40, 200)
    shot = pygame.image.load(str(tmp_path / "tv-lobby-rules.png"))
    assert pygame.image.tobytes(shot.subsurface(rules_area), "RGB") != pygame.image.tobytes(
        before.subsurface(rules_area), "RGB"
    )  # the screenshot shows the change
    session.act(ana, "set_rules", session.step, {"rules": []})
    _settle(app)
    texts = _texts(app)
    assert "• Standard rules" in texts and "• Five lives" not in texts


def test_issue12_away_players_marked_and_not_counted_by_start(
    make_session: Callable[..., Any], catalog: Any
) -> None:
    _session, app, _, _ = _party(make_session, catalog, present=2, away=1)
    _settle(app)
    texts = _texts(app)
    assert "away" in texts
    assert catalog.t("en", "tv.need_more", count=1) in texts  # 2 present: one more needed
    assert not any("Ana (VIP)" in text for text in texts)


def test_issue12_kick_list_marks_away_players_and_starts_at_the_first(
    make_session: Callable[..., Any], catalog: Any
) -> None:
    _session, app, ids, _ = _party(make_session, catalog, present=2, away=2)
    _settle(app)
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_k, mod=0, unicode="k"))
    overlay = app.overlays[-1]
    assert isinstance(overlay, KickOverlay)
    assert overlay.selected is not None
    assert overlay.players[overlay.selected].id == ids[2]  # Cal, the first away one
    assert _texts(app).count("away") >= 2


def test_issue12_tv_counts_down_an_away_players_turn(
    make_session: Callable[..., Any], catalog: Any
) -> None:
    session, app, ids, clock = _party(make_session, catalog, present=3)
    session.act(ids[0], "start", 0)
    current = session.view(None)["current"]
    for sub in [s for s in session._subscribers if s.player_id == current]:
        sub.close()
    for _ in range(20):  # the TV deals first; the turn, and the wait, begin once it shows it
        _settle(app)
        if session.turn_time() is not None:
            break
    assert session.turn_time() is not None
    clock.now += 5
    _settle(app)
    name = session.view(None)["players"][ids.index(current)]["name"]
    assert f"{name} is away — kept in 10 s" in _texts(app)


class CaptioningVoice:
    """An announcer that captions the last event the TV gave it, as long as it likes (a real
    one keeps a line up while it is said, then 3 s more)."""

    def __init__(self, catalog: Any) -> None:
        self.catalog, self.muted = catalog, False
        self.events: list[Any] = []
        self.line: str | None = None

    def announce(self, events: Sequence[EventDict], table: View, moment: str = "whole") -> None:
        from host.voice.phrases import phrases_for

        self.events += events
        self.line = phrases_for(events[-1], table, self.catalog.translator("en"))[-1]

    def caption(self) -> str | None:
        return self.line

    def set_language(self, lang: str) -> None:
        pass

    def set_muted(self, muted: bool) -> None:
        self.muted = muted


def _first_turn_with_her_phone_closed(session: Any, app: TVApp, vip: str) -> str:
    """The VIP starts; the first player's phone is closed, and the TV plays on until it opens
    her turn (the host's turn clock starts then). Returns her id."""
    session.act(vip, "start", 0)
    current: str = session.view(None)["current"]
    for sub in [s for s in session._subscribers if s.player_id == current]:
        sub.close()
    for _ in range(20):
        _settle(app)
        if session.turn_time() is not None:
            break
    return current


def _her_turn_away(session: Any, app: TVApp, vip: str, clock: Clock) -> str:
    """The first player's phone is closed when the TV opens her turn, and the host's first
    look comes 1 s later; the TV has followed. Returns her id."""
    current = _first_turn_with_her_phone_closed(session, app, vip)
    clock.now += 1
    session.presence_tick()
    _settle(app)
    app.poll_caption()
    return current


def _away_turn(
    make_session: Callable[..., Any], catalog: Any
) -> tuple[Any, TVApp, CaptioningVoice, Clock, str]:
    """H4 at 10 s, the default 15 s away wait, her turn away (``_her_turn_away``)."""
    voice = CaptioningVoice(catalog)
    session, app, ids, clock = _party(make_session, catalog, announcer=voice, house_rules="H4")
    return session, app, voice, clock, _her_turn_away(session, app, ids[0], clock)


def test_h4_issue12_an_away_players_caption_tells_when_h4_keeps_her_card(
    make_session: Callable[..., Any], catalog: Any
) -> None:
    """Play-test: the caption said "kept in 15 seconds" (the away wait) while H4's countdown
    showed 9 s and she was timed out at 10 s with a penalty."""
    session, app, voice, _clock, current = _away_turn(make_session, catalog)
    turn = session.turn_time()
    assert turn is not None and turn.seconds_left == 9  # H4's 10 s, from the TV's turn
    (away,) = [e for e in voice.events if e["type"] == "player_away"]
    assert away["seconds"] == 9 and away["timed_out"] is True
    name = next(p["name"] for p in session.view(None)["players"] if p["id"] == current)
    told = catalog.t("en", "vip.player_away_timed_out", name=name, seconds=9)
    assert app.caption == told and "penalty" in told
    assert f"{name}: 9 s — or a life" in _texts(app)  # the countdown agrees (H4: a life)


def test_h4_issue12_an_away_players_caption_goes_when_she_is_back(
    make_session: Callable[..., Any], catalog: Any
) -> None:
    """Play-test: the caption stayed up 7 s after she came back."""
    session, app, voice, _clock, current = _away_turn(make_session, catalog)
    assert app.caption is not None and voice.line == app.caption
    session.subscribe(current)  # her phone opens again
    _settle(app)
    app.poll_caption()
    assert app.caption is None  # the voice would still hold the line: the TV drops it


def test_h4_issue12_an_away_line_still_waiting_goes_unsaid_when_she_is_back(
    make_session: Callable[..., Any], catalog: Any, tmp_path: Path
) -> None:
    """Play-test: the voice still said "Ana is away…" after Ana's phone was back, the line
    having waited behind others. With the real announcer (not started: every line waits), the
    TV withdraws it as soon as the table shows her back."""
    from host.voice import Announcer
    from tests.voice.fakes import FakeEngine, FakePlayer

    voice = Announcer(catalog, "en", engine=FakeEngine(tmp_path), player=FakePlayer())
    try:
        session, app, ids, clock = _party(make_session, catalog, announcer=voice, house_rules="H4")
        current = _her_turn_away(session, app, ids[0], clock)
        name = next(p["name"] for p in session.view(None)["players"] if p["id"] == current)
        away = catalog.t("en", "vip.player_away_timed_out", name=name, seconds=9)
        assert voice.dropped() == [] and voice.pending() > 0
        session.subscribe(current)  # her phone opens again before the line is said
        _settle(app)
        app.poll_caption()
        assert [line.text for line in voice.dropped()] == [away]
    finally:
        voice.close()


def test_h4_issue12_an_away_players_caption_goes_when_her_turn_ends(
    make_session: Callable[..., Any], catalog: Any
) -> None:
    session, app, voice, clock, current = _away_turn(make_session, catalog)
    assert app.caption is not None
    voice.announce = lambda events, table, moment="whole": None  # type: ignore[method-assign]  # still her line
    clock.now += 9.1
    assert session.timeout(current, session.step)  # H4's limit (the runner's move)
    _settle(app)
    app.poll_caption()
    assert voice.line is not None and app.caption is None


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_h4_playtest_the_countdown_pill_takes_the_turn_slot_and_covers_no_header_words(
    make_session: Callable[..., Any], catalog: Any, lang: str
) -> None:
    """Round 37's play-test: with long names, the pill ("Jean-Christophe : encore 7 s"),
    centred at the top, was drawn over "Au tour de Jean-Christophe" and touched "Marie-Éléonore
    distribue". While it is up, the header leaves whose turn it is out and the pill sits in
    that slot, clear of the dealer's line and the help key."""
    names = ("Jean-Christophe", "Marie-Éléonore", "Anne-Charlotte")
    session, app, ids, clock = _party(
        make_session, catalog, lang=lang, names=names, house_rules="H4"
    )
    current = _her_turn_away(session, app, ids[0], clock)
    assert app.vip_hooks.countdown is not None
    surface = pygame.Surface((1920, 1080))
    drawn = _texts_while(app, lambda: app.render(surface))
    name = next(p["name"] for p in session.view(None)["players"] if p["id"] == current)
    assert catalog.t(lang, "tv.turn_of", name=name) not in drawn  # the pill says it
    slot = app.table.turn_slot()
    box = app.vip_hooks.draw(surface, app.props, app.stage.name_of, slot)
    assert slot is not None and box is not None
    assert slot.left <= box.left and box.right <= slot.right, (slot, box)


def test_h4_issue12_the_away_countdown_says_time_is_up_not_kept(
    make_session: Callable[..., Any], catalog: Any
) -> None:
    """Under H4 the keep at the end of an away wait is a time-out too (a life lost at the
    reveal): the countdown says "time's up", not "kept"."""
    session, app, ids, clock = _party(make_session, catalog, house_rules="H4", away_seconds=6)
    current = _first_turn_with_her_phone_closed(session, app, ids[0])
    clock.now += 1
    _settle(app)
    name = next(p["name"] for p in session.view(None)["players"] if p["id"] == current)
    texts = _texts(app)
    assert f"{name} is away — time's up in 5 s" in texts
    assert not any("kept in" in text for text in texts)


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_issue12_a_closed_phone_is_away_at_the_table_as_in_the_lobby_and_on_phones(
    make_session: Callable[..., Any], catalog: Any, lang: str
) -> None:
    """A guest who reads "away" in the lobby, "disconnected" over the same seat mid-round and
    "offline" on their phone wonders whether three things are wrong: one state, one word."""
    session, app, ids, _ = _party(make_session, catalog, present=3, lang=lang)
    session.act(ids[0], "start", 0)
    word = catalog.t(lang, "vip.away")
    canvas = pygame.Surface((1920, 1080))

    def frames() -> None:
        app.pump_updates()
        for _ in range(5):
            app.play_frame(canvas)

    frames()
    app.stage.fast_forward()  # the deal played: the table holds still
    assert word not in _texts_while(app, frames)  # every phone open: no mark
    for sub in [s for s in session._subscribers if s.player_id == ids[1]]:
        sub.close()  # Bea's phone sleeps
    drawn = _texts_while(app, frames)
    assert drawn.count(word) == 1  # over her seat (the table redraws only what changed)
    assert catalog.t(lang, "tv.out") not in drawn and catalog.t(lang, "tv.bot") not in drawn
    assert catalog.t(lang, "phone.badge_away") == word  # her row on the other phones
    assert catalog.t(lang, "vip.away_tag") == word  # the VIP's list


def test_issue13_tv_follows_the_vips_tv_settings(
    make_session: Callable[..., Any], catalog: Any
) -> None:
    announcer = FakeAnnouncer()
    session, app, (ana, *_), _ = _party(make_session, catalog, announcer=announcer)
    _settle(app)
    session.act(ana, "set_tv", session.step, {"language": "fr"})
    _settle(app)
    assert app.props.lang == "fr" and announcer.languages[-1] == "fr"
    session.act(ana, "set_tv", session.step, {"voice_muted": True})
    _settle(app)
    assert announcer.muted is True
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_l, mod=0, unicode="l"))
    assert session.view(None)["tv_language"] == "it"  # the L key, mirrored for the VIP


def test_issue20_tv_music_follows_the_vips_volume_and_the_keys_mirror_it(
    make_session: Callable[..., Any], catalog: Any
) -> None:
    class Board:
        """The sound board's volume, as the TV drives it."""

        muted = False
        music_volume = 0.6

        def set_music_volume(self, volume: float) -> float:
            self.music_volume = round(min(1.0, max(0.0, volume)), 2)
            return self.music_volume

        def play_music(self, loop: str | None) -> None: ...

        def cue(self, name: str) -> None: ...

        def set_muted(self, muted: bool) -> None: ...

    session, app, (ana, *_), _ = _party(make_session, catalog)
    app.sounds = Board()
    _settle(app)
    session.act(ana, "set_tv", session.step, {"music_volume": 30})
    _settle(app)
    assert app.sounds.music_volume == 0.3
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_EQUALS, mod=0, unicode="="))
    assert session.view(None)["music_volume"] == 40  # the = key, mirrored for the VIP


def test_issue13_tv_says_who_is_now_the_vip(make_session: Callable[..., Any], catalog: Any) -> None:
    session, app, (ana, bea, _), _ = _party(make_session, catalog)
    _settle(app)
    session.act(ana, "make_vip", session.step, {"player": bea})
    _settle(app)
    assert "Bea is now the VIP." in _texts(app)


def test_r13_issue12_an_away_next_dealer_is_counted_down_on_the_tv(
    make_session: Callable[..., Any], catalog: Any
) -> None:
    """Round 40's play-test: the TV said "Ána can press Deal — or press Space" for as long as
    her phone was gone. Once the TV has shown the reveal, the pill counts down the wait after
    which the host deals for her (``--away-seconds``, 15 s by default)."""
    session, app, ids, clock = _party(make_session, catalog, present=0, away=3)
    streams = {pid: session.subscribe(pid) for pid in ids}
    session.act(ids[0], "start", session.step)
    for _ in range(400):  # the TV announces each turn; its player keeps
        _settle(app)
        view = session.view(None, paced=False)
        if view["phase"] != "turns":
            break
        if session.view(view["current"])["can"]:
            session.act(view["current"], "keep", view["step"])
    dealer = session.view(None, paced=False)["next_dealer"]
    assert dealer is not None
    streams.pop(dealer).close()
    for _ in range(100):  # the reveal played to its end
        _settle(app)
        if session.view(None, paced=True)["next_dealer"] == dealer:
            break
    session.presence_tick()
    for _ in range(100):  # the TV plays the reveal's last beats (the lost life)
        _settle(app)
        if app.stage.next_dealer == dealer:
            break
    name = next(p["name"] for p in session.view(None)["players"] if p["id"] == dealer)
    assert app.vip_hooks.countdown == (dealer, 15, True, False, True)
    texts = _texts(app)
    assert catalog.t("en", "vip.countdown_away_deal", name=name, seconds=15) in texts
    assert catalog.t("en", "tv.next_deal_hint_away", name=name) in texts  # not "can press Deal"
    assert catalog.t("en", "tv.next_deal_hint", name=name) not in texts
    slot = app.table.turn_slot()  # the header's room after "X deals", as in a turn
    box = app.vip_hooks.draw(pygame.Surface((1920, 1080)), app.props, app.stage.name_of, slot)
    assert slot is not None and box is not None
    assert slot.left <= box.left and box.right <= slot.right, (slot, box)
    clock.now += 15.1
    assert session.presence_tick() == [f"deal:{dealer}"]
    _settle(app)
    assert app.vip_hooks.countdown is None or app.vip_hooks.countdown[4] is False
    for stream in streams.values():
        stream.close()


def test_round42_the_header_says_s_skips_once_a_turn_has_lasted_10_s(
    make_session: Callable[..., Any], catalog: Any
) -> None:
    """Round 42's play-test: Ola dithered for over 30 s and nothing on the TV told the host
    that S skips her (only the help and the VIP's phone did). Once S would skip the current
    player (10 s into a turn, or at once for an away one), the header's "H: host keys" reads
    "S: skip"; the next turn starts with "H: host keys" again."""
    session, app, ids, clock = _party(make_session, catalog, present=3)
    session.act(ids[0], "start", 0)
    for _ in range(20):  # the TV deals first; the turn, and its time, begin once it shows it
        _settle(app)
        clock.now += 0.5
    assert not session.skip_ready()
    assert "H: host keys" in _texts(app) and "S: skip" not in _texts(app)
    clock.now += 10.5
    session.presence_tick()
    assert session.skip_ready()
    _settle(app)
    assert "S: skip" in _texts(app) and "H: host keys" not in _texts(app)
    app.skip_current()
    for _ in range(10):
        _settle(app)
        clock.now += 0.5
    assert not session.skip_ready()
    assert "H: host keys" in _texts(app)


@pytest.mark.parametrize(
    ("lang", "rapid", "words"),
    [
        ("en", False, "Ana: 4 s left"),
        ("en", True, "Ana: 4 s — or a life"),
        ("fr", True, "Ana\u00a0: 4 s, sinon une vie"),
        ("it", True, "Ana: 4 s, o una vita"),
    ],
)
def test_round42_h4_the_tvs_countdown_says_a_life_is_at_stake(
    catalog: Any, lang: str, rapid: bool, words: str
) -> None:
    """H4. Round 42's check: under Rapid the TV's pill said "Ana: 2 s left" and nothing of the
    life the time-out costs; only Ana's phone did, and the room watches the TV. Under H4 the
    pill now says it; a plain turn limit (no penalty) still says "s left"."""
    from typing import cast

    from tests.tv.views import StillSession, player, view

    pygame.font.init()
    shown = view("turns", [player(i) for i in range(4)], current="p0", dealer="p3")
    app = TVApp(cast(Any, StillSession(shown)), None, catalog, lang=lang, join_url=JOIN_URL)
    app.stage.fast_forward()
    app.vip_hooks.countdown = ("p0", 4, False, rapid, False)
    assert words in _texts(app)


def test_round45_the_kick_list_marks_computer_players(
    make_session: Callable[..., Any], catalog: Any, phrases_asked: Callable[[Any], list[str]]
) -> None:
    """Round 45's play-test: at a full 20-seat table, K listed names only, and the host could
    not tell which were computer players to free a seat for a guest. Each computer player's
    line now says "computer", as the lobby does; a guest's line says nothing."""
    session, app, _ids, _ = _party(make_session, catalog, present=3)
    bots = [session.add_bot(), session.add_bot()]
    _settle(app)
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_k, mod=0, unicode="k"))
    overlay = app.overlays[-1]
    assert isinstance(overlay, KickOverlay)
    assert sum(seat.bot for seat in overlay.players) == len(bots)
    asked = phrases_asked(app)
    overlay.draw(pygame.Surface((1920, 1080)))
    assert asked.count("bot") == len(bots)
