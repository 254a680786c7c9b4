"""Round 42: the next game's lobby says who won the last game (``last_winners``).

Round 41's play-test: a guest whose phone slept through the end of a game (page hidden, its
stream let go) came back to the next game's lobby with no word of who had won — even when
the sleeper was the winner. Every view in the lobby now names the last game's winners (R14:
all joint winners), until the next game starts; the tally is saved, so a restart keeps it.
"""

from __future__ import annotations

from pathlib import Path

from host.rules import HouseRules
from host.session import Session
from host.standings import Standings
from tests.phone.helpers import rigged_reveal


def _three(path: Path | None = None) -> tuple[Session, list[str]]:
    session = Session(HouseRules(), seed=42, room="TEST", state_path=path)
    return session, [session.join(name, "TEST").player_id for name in ("Sara", "Sam", "Teo")]


def _everyone_sees(session: Session, ids: list[str]) -> list[object]:
    """``last_winners`` in the public view and in every player's view."""
    return [session.view(pid)["last_winners"] for pid in [None, *ids]]


def test_round42_r14_the_next_lobby_names_the_last_games_winner(tmp_path: Path) -> None:
    """Round 42 / R14: in the next game's lobby every view names the last game's winner;
    not before (at game over ``winners`` says it), gone once the next game starts; a kill -9
    and a restart keep it."""
    path = tmp_path / "state.json"
    session, (sara, sam, teo) = _three(path)
    assert _everyone_sees(session, [sara, sam, teo]) == [[]] * 4  # no game played yet
    table = rigged_reveal(session, {sara: "KH", sam: "2S", teo: "2C"}, lives={sam: 1, teo: 1})
    assert table["phase"] == "game_over" and table["winners"] == [sara]
    assert _everyone_sees(session, [sara, sam, teo]) == [[]] * 4  # ``winners`` says it here
    session.host_next()  # the VIP opens the next game's lobby
    won = [{"player": sara, "name": "Sara"}]
    assert _everyone_sees(session, [sara, sam, teo]) == [won] * 4
    resumed = Session(HouseRules(), state_path=path)  # no close(): as if killed
    assert _everyone_sees(resumed, [sara, sam, teo]) == [won] * 4
    resumed.new_evening()  # a new tally: the last game is still the last game
    assert resumed.view(sam)["last_winners"] == won
    resumed.act(sara, "start", resumed.step)
    assert _everyone_sees(resumed, [sara, sam, teo]) == [[]] * 4
    assert Session(HouseRules(), state_path=path).view(None)["last_winners"] == []
    for s in (session, resumed):
        s.close()


def test_round42_r14_joint_winners_are_all_named() -> None:
    """Round 42 / R14: players knocked out together share the win; the lobby names them all,
    and a tally read back from its saved form (``to_dict``/``from_dict``) still does."""
    session, (sara, sam, teo) = _three()
    lives = {sara: 1, sam: 1, teo: 1}
    table = rigged_reveal(session, {sara: "4C", sam: "4H", teo: "4D"}, lives=lives)
    assert table["phase"] == "game_over" and sorted(table["winners"]) == sorted([sara, sam, teo])
    session.host_next()
    joint = session.view(teo)["last_winners"]
    assert sorted((w["player"], w["name"]) for w in joint) == sorted(
        [(sara, "Sara"), (sam, "Sam"), (teo, "Teo")]
    )
    tally = session._standings
    assert Standings.from_dict(tally.to_dict()).last_game_winners() == joint
    session.close()


def test_round42_an_abandoned_game_names_no_winner() -> None:
    """Round 42: a game the VIP ended without a winner leaves the lobby naming nobody (not
    the winner of the game before it)."""
    session, (sara, sam, teo) = _three()
    rigged_reveal(session, {sara: "KH", sam: "2S", teo: "2C"}, lives={sam: 1, teo: 1})
    session.host_next()
    assert session.view(None)["last_winners"] != []
    session.act(sara, "start", session.step)
    session.act(sara, "end_game", session.step)
    table = session.view(None)
    assert table["phase"] == "lobby" and table["last_winners"] == []
    session.close()


def test_round42_a_winner_who_left_and_came_back_is_still_the_winner() -> None:
    """Round 42: the winner's phone died, she was removed and sat down again under her
    name: her new seat is still named the winner, so her phone says "You won"."""
    session, (sara, sam, teo) = _three()
    rigged_reveal(session, {sara: "2S", sam: "KH", teo: "2C"}, lives={sara: 1, teo: 1})
    session.host_next()
    session.kick(sam)
    back = session.join("Sam", "TEST").player_id
    assert session.view(back)["last_winners"] == [{"player": back, "name": "Sam"}]
    session.close()
