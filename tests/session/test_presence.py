"""Issue 12 item 3 / PHONE_API.md "Presence": nobody stalls the table (fake clock throughout)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from host.bot_runner import BotRunner
from host.presence import Due, Presence, Table
from host.rules import game_moves
from host.session import SessionError
from tests.clock import Clock


class Party:
    def __init__(
        self, make_session: Callable[..., Any], house_rules: str = "", **kwargs: Any
    ) -> None:
        self.clock = Clock()
        self.session = make_session(house_rules, presence=True, clock=self.clock, **kwargs)
        self.streams: dict[str, Any] = {}

    def join(self, *names: str, present: bool = True) -> list[str]:
        ids = []
        for name in names:
            pid = self.session.join(name, "TEST").player_id
            if present:
                self.streams[pid] = self.session.subscribe(pid)
            ids.append(pid)
        return ids

    def leave(self, pid: str) -> None:
        self.streams.pop(pid).close()

    def come_back(self, pid: str) -> None:
        self.streams[pid] = self.session.subscribe(pid)

    def wait(self, seconds: float) -> list[str]:
        self.clock.now += seconds
        return self.session.presence_tick()  # type: ignore[no-any-return]


@pytest.fixture
def party(make_session: Callable[..., Any]) -> Party:
    return Party(make_session)


def test_issue12_start_counts_only_present_players(party: Party) -> None:
    ana, _bea = party.join("Ana", "Bea")
    (cal,) = party.join("Cal", present=False)
    view = party.session.view(ana)
    assert "start" not in view["can"]
    assert [p["connected"] for p in view["players"]] == [True, True, False]
    with pytest.raises(SessionError):
        party.session.act(ana, "start", 0)
    with pytest.raises(SessionError):
        party.session.host_next()  # the TV's Space counts the same way
    party.come_back(cal)
    assert "start" in party.session.view(ana)["can"]


def test_issue12_away_60_s_in_the_lobby_leaves_and_may_join_again(party: Party) -> None:
    _ana, bea, _cal = party.join("Ana", "Bea", "Cal")
    token = party.session.join("Dan", "TEST").token  # joined, never opened a stream
    party.leave(bea)
    assert party.wait(59.5) == []
    assert party.session.player_for_token(token) is not None
    done = party.wait(1.0)
    assert sorted(done) == sorted([f"leave:{bea}", "leave:p4"])
    assert party.session.player_for_token(token) is None  # the token stops working
    names = [p["name"] for p in party.session.view(None)["players"]]
    assert names == ["Ana", "Cal"]
    assert party.session.join("Bea", "TEST").status == "active"  # one tap to come back
    assert party.session.step == 0  # leaving is not an action


def test_issue12_a_phone_asleep_through_a_game_gets_the_new_lobby_s_minute(party: Party) -> None:
    """Round 41: Bea's phone slept during the game (she was out and put it down). The VIP's
    "New game" opened the lobby, and the 60 s rule, counted from when she went away, took her
    seat at once. Her minute now starts when the lobby opens."""
    ana, bea, _cal = party.join("Ana", "Bea", "Cal")
    party.session.act(ana, "start", 0)
    party.leave(bea)
    party.wait(0)
    for _ in range(30):  # bounded: play on, her turns kept for her, for 5 minutes and more
        view = party.session.view(None)
        if view["phase"] == "turns" and view["current"] != bea:
            party.session.act(view["current"], "keep", view["step"])
        party.wait(10)
    party.session.act(ana, "end_game", party.session.step)  # the VIP: back to the lobby
    assert party.session.view(None)["phase"] == "lobby"
    assert party.wait(0) == [] and party.wait(59) == []  # not at once: she has her minute
    assert [p["name"] for p in party.session.view(None)["players"]] == ["Ana", "Bea", "Cal"]
    assert party.wait(1.5) == [f"leave:{bea}"]  # then the lobby's rule, as for anyone


def test_issue12_a_phone_that_wakes_in_the_new_lobby_keeps_the_seat(party: Party) -> None:
    ana, bea, _cal = party.join("Ana", "Bea", "Cal")
    party.session.act(ana, "start", 0)
    party.leave(bea)
    party.wait(300)
    party.session.act(ana, "end_game", party.session.step)
    party.wait(30)
    party.come_back(bea)  # she looks at her phone
    assert party.wait(120) == []
    assert [p["name"] for p in party.session.view(None)["players"]] == ["Ana", "Bea", "Cal"]


def test_issue12_coming_back_in_time_keeps_the_seat(party: Party) -> None:
    _ana, bea, _cal = party.join("Ana", "Bea", "Cal")
    party.leave(bea)
    party.wait(50)
    party.come_back(bea)
    assert party.wait(30) == []
    assert len(party.session.view(None)["players"]) == 3


def test_issue12_away_player_is_kept_for_after_away_seconds(party: Party) -> None:
    ana, _bea, _cal = party.join("Ana", "Bea", "Cal")
    public = party.session.subscribe(None, presence=False)
    party.session.act(ana, "start", 0)
    current = party.session.view(None)["current"]
    party.leave(current)
    assert party.wait(0) == []  # the host's first look: the voice names her
    assert party.wait(14.5) == []
    clock = party.session.turn_clock()
    assert clock is not None and clock.player == current and clock.away
    assert clock.seconds_left == pytest.approx(0.5)
    assert party.wait(0.6) == [f"keep:{current}"]
    view = party.session.view(None)
    assert view["step"] == 2  # a time-out is one step
    assert [e for e in view["log"] if e["type"] == "kept"][-1] == {
        "type": "kept",
        "player": current,
        "auto": True,
        "timed_out": False,
        "reason": "away",  # round 40: the screens say "away", not "ran out of time"
    }
    events: list[dict[str, Any]] = []
    while (update := public.get(timeout=0)) is not None:
        events += update.events
    named = [e for e in events if e["type"] == "player_away"]
    assert named == [
        {"type": "player_away", "player": current, "seconds": 15, "timed_out": False}
    ]  # once


def _announced(party: Party, public: Any) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    while (update := public.get(timeout=0)) is not None:
        events += update.events
    return [e for e in events if e["type"] == "player_away"]


@pytest.mark.parametrize(
    ("rules", "options", "seconds", "timed_out"),
    [
        ("H4", {}, 10, True),  # H4's 10 s end before the 15 s away wait: its time-out
        ("H4", {"away_seconds": 6}, 6, True),  # the away wait first: under H4 still a time-out
        ("", {"turn_timeout": 8}, 8, False),  # --turn-timeout first: a plain keep
        ("", {}, 15, False),  # the away wait (--turn-timeout is 90 s)
    ],
)
def test_h4_issue12_away_player_is_told_when_their_card_is_really_kept(
    make_session: Callable[..., Any],
    rules: str,
    options: dict[str, Any],
    seconds: int,
    timed_out: bool,
) -> None:
    """Play-test: under H4 the TV said "Zoé is away: their card is kept in 15 seconds" while
    H4 timed her out at 10 s with a penalty. The seconds told are the time until the host
    really keeps (the sooner of the away wait and the turn's limit), and ``timed_out`` says
    when that keep is H4's time-out, with a life lost at the reveal."""
    party = Party(make_session, house_rules=rules, **options)
    ana, _bea, _cal = party.join("Ana", "Bea", "Cal")
    public = party.session.subscribe(None, presence=False)
    party.session.act(ana, "start", 0)
    current = party.session.view(None)["current"]
    party.leave(current)
    assert party.wait(0) == []
    assert _announced(party, public) == [
        {"type": "player_away", "player": current, "seconds": seconds, "timed_out": timed_out}
    ]
    assert party.wait(seconds - 0.05) == []
    assert party.session.step == 1  # not kept before the time told
    party.clock.now += 0.1
    BotRunner(party.session, bot_delay=1.0, clock=party.clock).tick()  # H4, --turn-timeout
    party.session.presence_tick()  # the away wait
    kept = [e for e in party.session.view(None)["log"] if e["type"] == "kept"]
    expected = {"type": "kept", "player": current, "auto": True, "timed_out": timed_out}
    assert kept == [{**expected, "reason": "away"}]  # whichever wait ended (round 40)


def test_h4_issue12_away_announced_late_tells_the_seconds_left(
    make_session: Callable[..., Any],
) -> None:
    """The host's tick may come a moment after the turn opened: the seconds told are those
    left then, as the TV's countdown shows them."""
    party = Party(make_session, house_rules="H4")
    ana, _bea, _cal = party.join("Ana", "Bea", "Cal")
    public = party.session.subscribe(None, presence=False)
    party.session.act(ana, "start", 0)
    current = party.session.view(None)["current"]
    party.leave(current)
    party.wait(2.5)
    (named,) = _announced(party, public)
    turn = party.session.turn_time()
    assert turn is not None and turn.seconds_left == pytest.approx(7.5)
    assert named["seconds"] == 8 and named["timed_out"] is True
    clock = party.session.turn_clock()
    assert clock is not None and round(clock.seconds_left) == 8 and clock.timed_out


def test_issue12_away_seconds_is_a_setting(make_session: Callable[..., Any]) -> None:
    party = Party(make_session, away_seconds=3)
    ana, _bea, _cal = party.join("Ana", "Bea", "Cal")
    party.session.act(ana, "start", 0)
    current = party.session.view(None)["current"]
    party.leave(current)
    assert party.wait(2.9) == []
    assert party.wait(0.2) == [f"keep:{current}"]


def test_issue12_present_idle_player_is_not_kept_by_presence(party: Party) -> None:
    ana, *_ = party.join("Ana", "Bea", "Cal")
    party.session.act(ana, "start", 0)
    assert party.wait(70) == []
    assert party.session.step == 1
    party.session.turn_timeout = 90
    clock = party.session.turn_clock()
    assert clock is None  # 20 s left: no countdown yet
    party.clock.now += 11
    clock = party.session.turn_clock()
    assert clock is not None and not clock.away and clock.seconds_left == pytest.approx(9)


def test_issue12_the_runner_applies_presence(party: Party) -> None:
    ana, _bea, _cal = party.join("Ana", "Bea", "Cal")
    party.session.act(ana, "start", 0)
    runner = BotRunner(party.session, bot_delay=1.0, clock=party.clock)
    current = party.session.view(None)["current"]
    party.leave(current)
    assert runner.tick() is None
    party.clock.now += 15.1
    assert runner.tick() == f"keep:{current}"


def test_issue13_vip_away_60_s_hands_over_to_the_next_present_person(party: Party) -> None:
    (ana,) = party.join("Ana")
    party.session.add_bot()
    bea, cal = party.join("Bea", "Cal")
    party.session.act(ana, "start", 0)  # in a game: nobody leaves, the role moves
    party.leave(bea)
    party.leave(ana)
    assert party.wait(59) == [] and party.session.view(None)["vip"] == ana
    assert party.wait(2) == [f"vip:{cal}"]  # not the bot, not the away Bea
    view = party.session.view(cal)
    assert view["vip"] == cal and view["me"]["is_vip"] and "misdeal" in view["can"]


def test_issue13_a_kicked_vip_hands_over_to_the_next_present_person(party: Party) -> None:
    ana, bea, cal = party.join("Ana", "Bea", "Cal")
    party.leave(bea)
    party.session.kick(ana)  # the TV's K
    assert party.session.view(None)["vip"] == cal


def test_issue13_vip_actions_need_a_present_target_and_skip_waits_10_s(party: Party) -> None:
    ana, _bea, _cal = party.join("Ana", "Bea", "Cal")
    party.session.act(ana, "start", 0)
    assert "skip" not in party.session.view(ana)["can"]
    party.wait(10.5)  # pushes the new can to the VIP's stream
    assert "skip" in party.session.view(ana)["can"]
    update = None
    while (got := party.streams[ana].get(timeout=0)) is not None:
        update = got
    assert update is not None and "skip" in update.view["can"]
    assert game_moves(party.session.view(ana)["can"]) in ([], ["keep", "exchange"], ["keep", "cut"])


def test_issue13_the_tvs_skip_waits_10_s_as_the_vips_and_changes_nothing_before(
    party: Party,
) -> None:
    """Round 41's play-test: the TV had no way past a stalled guest. Its S is the VIP's skip:
    refused (nothing changes) in the first 10 s, then the current player keeps, as skipped."""
    ana, _bea, _cal = party.join("Ana", "Bea", "Cal")
    party.session.act(ana, "start", 0)
    party.wait(0)
    before = party.session.view(None)
    with pytest.raises(SessionError):
        party.session.skip_current()
    assert party.session.view(None) == before
    party.wait(10.5)
    party.session.skip_current()
    after = party.session.view(None)
    assert after["step"] == before["step"] + 1
    kept = [e for e in after["log"] if e["type"] == "kept"][-1]
    assert kept["player"] == before["current"] and kept["reason"] == "skipped"


def test_issue12_presence_rules_with_a_fake_clock_alone() -> None:
    clock = Clock()
    presence = Presence(away_seconds=15, clock=clock)
    table = Table("turns", 4, "p2", "p1", ("p1", "p2", "p3"), frozenset({"p1", "p3"}))
    presence.observe(table)
    assert presence.due() == [] and presence.next_due_in(0) == pytest.approx(10.01)
    clock.now += 10
    presence.observe(table)  # same step and player: the turn did not restart
    clock.now += 5
    assert [d.kind for d in presence.due()] == ["keep"]
    moved = Table("turns", 5, "p3", "p1", ("p1", "p2", "p3"), frozenset({"p1", "p3"}))
    presence.observe(moved)
    assert presence.due() == [] and presence.turn_clock(0) is None
    assert presence.away_for("p2") == pytest.approx(15)


def test_issue13_the_host_alone_with_bots_gets_the_vip_back_and_bots_never_start(
    party: Party,
) -> None:
    """Round 38's play-test: the host, the only person at a table of three computer players,
    set her phone down in the lobby. Away 60 s, she left the lobby and the VIP role went to a
    bot, which started a game 6 s later and then game after game by itself (into tonight's
    standings); she joined again as "waiting", with no controls, for good. Now the bots wait
    for a person, and the first person to sit down again is the VIP."""
    (ana,) = party.join("Ana")
    bots = [party.session.add_bot() for _ in range(3)]
    runner = BotRunner(party.session, bot_delay=0.5, clock=party.clock)
    party.leave(ana)
    assert party.wait(61) == [f"leave:{ana}"]
    assert party.session.view(None)["vip"] in bots  # a table of bots keeps a VIP (TV's Space)
    for _ in range(20):  # 20 s at the table: the bots start nothing
        party.clock.now += 1
        assert runner.tick() is None
    assert party.session.view(None)["phase"] == "lobby" and party.session.step == 0
    (back,) = party.join("Ana")  # she comes back: one tap
    view = party.session.view(back)
    assert view["vip"] == back and "start" in view["can"] and "set_rules" in view["can"]
    party.session.act(back, "start", 0)
    assert party.session.view(None)["phase"] == "turns"


def test_issue13_bots_do_not_open_the_next_game_for_a_bot_vip(party: Party) -> None:
    """At game over a computer VIP does not send ``new_game`` (and so no ``start`` after it):
    the table waits for a person or the TV's Space."""
    (ana,) = party.join("Ana")
    for _ in range(2):
        party.session.add_bot()
    party.session.act(ana, "start", 0)
    runner = BotRunner(party.session, bot_delay=0.0, clock=party.clock)
    party.session.kick(ana)  # the host's K: only bots are left, one is the VIP
    for _ in range(400):  # bounded: the bots play the game to its end
        if party.session.view(None)["phase"] == "game_over":
            break
        party.clock.now += 7
        runner.tick()
    assert party.session.view(None)["phase"] == "game_over"
    step = party.session.step
    for _ in range(10):
        party.clock.now += 7
        assert runner.tick() is None
    assert party.session.step == step and party.session.view(None)["phase"] == "game_over"
    assert party.session.host_next() == "new_game"  # the TV's Space still works


def _to_the_reveal(party: Party, ids: list[str]) -> str:
    """Start and play a round (everyone keeps, the dealer too); the next dealer's id."""
    session = party.session
    session.act(ids[0], "start", session.step)
    while (view := session.view(None))["phase"] == "turns":
        session.act(view["current"], "keep", view["step"])
    assert view["phase"] == "reveal" and view["next_dealer"] is not None
    return str(view["next_dealer"])


def test_r13_issue12_an_away_next_dealer_gets_the_next_round_dealt_after_away_seconds(
    party: Party,
) -> None:
    """Round 40's play-test: after the reveal the table waited for ever for a next dealer
    whose phone had gone (R13: the deal passes on; only the TV's Space moved it on). Now the
    host deals for them after ``--away-seconds``, counted from when they went away."""
    ids = party.join("Ana", "Bea", "Cal", "Dan")
    dealer = _to_the_reveal(party, ids)
    step = party.session.step
    assert party.wait(10) == []  # present: the table waits for them, as for the Space key
    party.leave(dealer)
    assert party.wait(14.5) == []
    assert party.session.view(None)["phase"] == "reveal"
    assert party.wait(0.6) == [f"deal:{dealer}"]
    view = party.session.view(None)
    assert view["phase"] == "turns" and view["round"] == 2 and view["dealer"] == dealer
    assert view["step"] == step + 1  # one deal, as if they had tapped it


def test_r13_issue12_a_present_next_dealer_is_never_dealt_for(party: Party) -> None:
    ids = party.join("Ana", "Bea", "Cal")
    _to_the_reveal(party, ids)
    assert party.wait(120) == []
    assert party.session.view(None)["phase"] == "reveal"


def test_r13_with_a_tv_the_away_dealers_wait_starts_when_the_reveal_is_shown(
    make_session: Callable[..., Any],
) -> None:
    """With a TV, the next dealer can deal only once the TV has shown the reveal: their
    ``--away-seconds`` count from then, so guests always get the reveal's moment."""
    from tests.session.test_pacing import TV

    party = Party(make_session)
    ids = party.join("Ana", "Bea", "Cal")
    tv = TV(party.session)
    session = party.session
    session.act(ids[0], "start", session.step)
    while session.view(None, paced=False)["phase"] == "turns":
        tv.play(3.0)  # each keep once the TV has announced the turn
        view = session.view(None)
        session.act(view["current"], "keep", view["step"])
    tv.play(0.1)  # the TV takes the reveal and begins to show it
    engine_view = session.view(None, paced=False)
    dealer = engine_view["next_dealer"]
    assert engine_view["phase"] == "reveal" and dealer is not None
    assert session.view(None, paced=True)["next_dealer"] is None  # the TV shows the reveal
    party.leave(dealer)
    assert party.wait(30) == []  # the reveal still being shown: nothing is dealt
    tv.finish()
    assert session.view(None, paced=True)["next_dealer"] == dealer  # shown: they may deal
    assert party.wait(14.9) == []
    assert party.wait(0.2) == [f"deal:{dealer}"]


def test_r13_presence_deals_for_an_away_dealer_with_a_fake_clock_alone() -> None:
    clock = [0.0]
    presence = Presence(away_seconds=15, clock=lambda: clock[0])
    humans = ("p1", "p2", "p3")
    shown = Table("reveal", 9, None, "p1", humans, frozenset({"p1", "p3"}))
    presence.observe(shown)  # the TV still shows the reveal: no deal is open
    clock[0] = 30.0
    assert presence.due() == []
    presence.observe(Table("reveal", 9, None, "p1", humans, frozenset({"p1", "p3"}), None, "p2"))
    assert presence.next_due_in() == pytest.approx(15.0)
    clock[0] = 44.9
    assert presence.due() == []
    clock[0] = 45.0
    assert presence.due() == [Due("deal", "p2", 9)]


def test_round45_a_guest_gone_for_good_holds_the_table_up_once(party: Party) -> None:
    """Round 45's play-test: two guests went home without being removed, and each of their
    turns (and deals) waited the whole 15 s, every round: 40–55 s a round. The first move the
    host makes for an away guest still waits ``away_seconds``; while they stay away, the next
    ones wait ``AWAY_AGAIN_SECONDS``. Back (a stream again), their wait is whole again."""
    from host.presence import AWAY_AGAIN_SECONDS

    ids = party.join("Ana", "Bea", "Cal", "Dee")
    session = party.session
    session.act(ids[0], "start", 0)
    ghost = ids[2]
    party.leave(ghost)
    waits: list[float] = []
    came_back = False
    for _ in range(60):  # a few rounds of four keeps each
        view = session.view(None)
        mover = view["current"] if view["phase"] == "turns" else view["next_dealer"]
        assert view["phase"] in ("turns", "reveal"), view["phase"]
        if mover != ghost:
            session.act(mover, "keep" if view["phase"] == "turns" else "deal", view["step"])
            continue
        wait = 15.0 if not waits or came_back else AWAY_AGAIN_SECONDS
        assert party.wait(wait - 0.1) == [], (waits, wait)
        done = party.wait(0.2)
        assert len(done) == 1 and done[0].endswith(f":{ghost}"), done
        waits.append(wait)
        if len(waits) == 3 and not came_back:  # back, and gone again: a whole wait
            party.come_back(ghost)
            party.leave(ghost)
            came_back = True
        elif came_back:
            break
    assert waits == [15.0, AWAY_AGAIN_SECONDS, AWAY_AGAIN_SECONDS, 15.0], waits
