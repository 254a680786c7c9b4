"""Round 47: the last game over is kept into the next game (``last_game``), and a 401 says
when a seat was freed for being away (``away``).

The play-test: Bo's phone was offline across the end of a game he won and came back only in
the next game, whose views no longer named the last game's winners (``last_winners`` is the
lobby's alone): nothing could tell him. Now every view during a game carries the last game
over, counted (``number``), so a phone knows whether it missed one. Public: ids, names, a flag.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from host.rules import HouseRules
from host.session import Session
from host.standings import Standings
from tests.clock import Clock
from tests.phone.helpers import rigged_reveal
from tests.session.test_pacing import TV, _table


def _three(path: Path | None = None) -> tuple[Session, list[str]]:
    session = Session(HouseRules(), seed=42, room="TEST", state_path=path)
    return session, [session.join(name, "TEST").player_id for name in ("Sara", "Sam", "Teo")]


def _everyone_sees(session: Session, ids: list[str]) -> list[object]:
    """``last_game`` in the public view and in every player's view."""
    return [session.view(pid)["last_game"] for pid in [None, *ids]]


def test_round47_r14_the_next_game_carries_the_last_game_over_counted(tmp_path: Path) -> None:
    """R14: in game 1 the count is 0; at game over and in the lobby the field is null (there
    ``winners`` and ``last_winners`` say it); in the next game every view carries the end of
    game 1 (number 1, its winner, no walkover), through its reveal, a kill -9 and a restart."""
    path = tmp_path / "state.json"
    session, (sara, sam, teo) = _three(path)
    ids = [sara, sam, teo]
    assert _everyone_sees(session, ids) == [None] * 4  # the lobby
    session.act(sara, "start", session.step)
    none_yet = {"number": 0, "winners": [], "walkover": False}
    assert _everyone_sees(session, ids) == [none_yet] * 4
    table = rigged_reveal(session, {sara: "KH", sam: "2S", teo: "2C"}, lives={sam: 1, teo: 1})
    assert table["phase"] == "game_over" and table["last_game"] is None
    session.host_next()  # the next game's lobby
    assert _everyone_sees(session, ids) == [None] * 4
    session.host_next()  # its first deal
    first = {"number": 1, "winners": [{"player": sara, "name": "Sara"}], "walkover": False}
    assert _everyone_sees(session, ids) == [first] * 4
    assert session.view(None)["last_winners"] == []  # the lobby's line is gone, as before
    table = rigged_reveal(session, {sara: "KH", sam: "QS", teo: "2C"})
    assert table["phase"] == "reveal" and table["last_game"] == first
    resumed = Session(HouseRules(), state_path=path)  # no close(): as if killed
    assert _everyone_sees(resumed, ids) == [first] * 4
    tally = resumed._standings
    assert Standings.from_dict(tally.to_dict()).last_game() == first
    for s in (session, resumed):
        s.close()


def test_round47_r14_a_walkover_counts_as_a_game_over_without_a_win() -> None:
    """Round 46 / R14: everyone else removed mid-game, the last one at the table is named,
    with ``walkover``; a game the VIP ended with ``end_game`` is not counted."""
    session, (sara, sam, teo) = _three()
    session.act(sara, "start", session.step)
    session.kick(sam)
    session.kick(teo)
    assert session.view(None)["phase"] == "game_over" and session.view(None)["walkover"]
    cal = session.join("Cal", "TEST").player_id
    dee = session.join("Dee", "TEST").player_id
    session.host_next()
    session.host_next()
    walkover = {"number": 1, "winners": [{"player": sara, "name": "Sara"}], "walkover": True}
    assert session.view(cal)["last_game"] == walkover
    session.act(sara, "end_game", session.step)
    session.act(sara, "start", session.step)
    assert session.view(dee)["last_game"] == walkover  # an ended game is no game over
    session.close()


def test_round47_r14_the_last_game_waits_for_the_tv_to_show_its_end(
    make_session: Callable[..., Session],
) -> None:
    """R14: the TV's host pressed on to the next game while the TV still played the last
    reveal: the new game's phones are not told the end before the TV has shown it."""
    session, ids = _table(make_session)
    tv = TV(session)
    session.act(ids[0], "start", 0)
    tv.finish()
    cards = dict(zip(ids, ("KH", "2S", "2C", "2D"), strict=True))
    rigged_reveal(session, cards, lives={pid: 1 for pid in ids[1:]})
    session.host_next()  # the lobby, before the TV played the end
    session.host_next()  # and the next game's first deal
    assert session.view(ids[1])["phase"] == "turns"
    assert session.view(ids[1])["last_game"] is None
    tv.finish()
    assert session.view(ids[1])["last_game"] == {
        "number": 1,
        "winners": [{"player": ids[0], "name": "Ana"}],
        "walkover": False,
    }


def test_round47_a_token_freed_by_the_lobbys_minute_away_is_told_so(
    make_session: Callable[..., Any],
) -> None:
    """The lobby's away rule frees a seat: the session recognises the old token as freed for
    being away (the 401 adds ``away``); a kicked token is not."""
    clock = Clock()
    session = make_session(presence=True, clock=clock)
    joined = [session.join(name, "TEST") for name in ("Sara", "Sam", "Teo")]
    streams = [session.subscribe(j.player_id) for j in joined]
    streams[1].close()  # Sam's phone goes away
    clock.now += 61
    assert session.presence_tick() == [f"leave:{joined[1].player_id}"]
    assert session.player_for_token(joined[1].token) is None
    assert session.left_for_being_away(joined[1].token)
    session.kick(joined[2].player_id)
    assert not session.left_for_being_away(joined[2].token)
    assert not session.left_for_being_away("nonsense")
