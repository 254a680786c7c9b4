"""Round 43: ``--bots N`` seats its computer players when the session is made, so the TV's
lobby shows them at once (it said "0 players" until the first person joined, and the host
wondered whether the option worked). The first person to sit down is still the VIP, bots
never start a game, and saves from before (``pending_bots``) still load, seating them once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from host.bot_runner import BotRunner
from host.rules import HouseRules
from host.session import Session
from tests.clock import Clock


def _seated(session: Session) -> list[tuple[str, bool]]:
    return [(p["name"], bool(p["bot"])) for p in session.view(None)["players"]]


def test_round43_bots_sit_down_when_the_session_is_made(make_session: Any) -> None:
    """round 43 / --bots: the lobby lists the computer players before anyone joins."""
    session = make_session(bots=3)
    seated = _seated(session)
    assert len(seated) == 3 and all(bot for _, bot in seated)
    assert len({name for name, _ in seated}) == 3
    assert all(p["connected"] for p in session.view(None)["players"])
    assert set(session.bots) == {p["id"] for p in session.view(None)["players"]}


def test_round43_the_first_person_is_the_vip_with_the_start_button(make_session: Any) -> None:
    """round 43 / R1 and issue 13: the first PERSON to join is the VIP, not a computer player."""
    session = make_session(bots=2)
    ana = session.join("Ana", "TEST").player_id
    me = session.view(ana)
    assert me["me"]["is_vip"] is True and me["vip"] == ana
    assert "start" in me["can"]
    for bot in session.bots:
        assert "start" not in session.view(bot)["can"]
    bea = session.join("Bea", "TEST").player_id
    assert session.view(None)["vip"] == ana and session.view(bea)["me"]["is_vip"] is False
    assert [bot for _, bot in _seated(session)] == [True, True, False, False]


def test_round43_bots_never_start_a_game_on_their_own(make_session: Any) -> None:
    """round 43 / issue 13: three bots and no person: the runner starts nothing, however long."""
    clock = Clock()
    session = make_session(bots=3, turn_timeout=0, clock=clock)
    vip = session.view(None)["vip"]
    assert vip in session.bots and "start" in session.view(vip)["can"]  # the engine would let it
    runner = BotRunner(session, bot_delay=0.1, clock=clock)
    for _ in range(5):
        clock.now += 100.0
        assert runner.tick() is None
    assert session.view(None)["phase"] == "lobby" and session.step == 0
    ana = session.join("Ana", "TEST").player_id  # a person joins: still nobody starts but her
    clock.now += 100.0
    assert runner.tick() is None and session.view(None)["phase"] == "lobby"
    session.act(ana, "start", session.step)
    assert session.view(None)["phase"] == "turns"


def test_round43_a_resumed_save_does_not_seat_the_bots_twice(tmp_path: Path) -> None:
    """round 43 / --bots with a save: resuming with --bots again keeps the seated bots only."""
    path = tmp_path / "state.json"
    first = Session(HouseRules(), seed=3, room="CAKE", state_path=path, bots=2)
    seated = _seated(first)
    first.close()
    assert "pending_bots" not in json.loads(path.read_text(encoding="utf-8"))
    for _ in range(2):
        again = Session(HouseRules(), seed=3, room="CAKE", state_path=path, bots=2)
        assert again.resumed and _seated(again) == seated
        again.close()


def test_round43_an_old_save_with_pending_bots_seats_them_once(tmp_path: Path) -> None:
    """round 43 / saves from before: ``pending_bots`` loads; the bots sit down, only once."""
    path = tmp_path / "state.json"
    Session(HouseRules(), seed=3, room="CAKE", state_path=path).close()
    data = json.loads(path.read_text(encoding="utf-8"))
    data["pending_bots"] = 2  # what an older host wrote before anyone joined
    path.write_text(json.dumps(data), encoding="utf-8")
    resumed = Session(HouseRules(), seed=3, room="CAKE", state_path=path)
    assert resumed.resumed and [bot for _, bot in _seated(resumed)] == [True, True]
    ana = resumed.join("Ana", "CAKE").player_id
    assert resumed.view(None)["vip"] == ana and len(resumed.bots) == 2
    resumed.close()
    again = Session(HouseRules(), seed=3, room="CAKE", state_path=path)
    assert len(again.bots) == 2 and len(_seated(again)) == 3
    again.close()


def test_round43_bots_leave_a_seat_for_a_person(make_session: Any) -> None:
    """round 43 / --bots: never more than the table less one seat (cli.bad_bots refuses more)."""
    session = make_session(bots=50)
    assert len(session.bots) == HouseRules().max_players - 1
    assert session.join("Ana", "TEST").status == "active"
