"""The session's lobby, steps and host actions (R1, R4, R16), without HTTP."""

from __future__ import annotations

from typing import Any

import pytest

from host.rules import game_moves
from host.session import SessionError, clean_name


def _seat(session: Any, *names: str) -> list[str]:
    return [session.join(name, "TEST").player_id for name in names]


@pytest.mark.parametrize(
    "raw, expected",
    [("  Ana ", "Ana"), ("Zoé", "Zoé"), ("x" * 16, "x" * 16), ("👩‍🚀 Sam", "👩‍🚀 Sam")],
)
def test_clean_name_accepts(raw: str, expected: str) -> None:
    assert clean_name(raw) == expected


@pytest.mark.parametrize("raw", ["", "   ", "x" * 17, "a\tb", "a\x00", "a\u2028b", "\u200bx"])
def test_clean_name_refuses(raw: str) -> None:
    with pytest.raises(SessionError) as refusal:
        clean_name(raw)
    assert refusal.value.code == "bad_name"


def test_first_joiner_is_vip_and_needs_three_to_start_r1(session: Any) -> None:
    ana, bea = _seat(session, "Ana", "Bea")
    assert session.view(ana)["me"]["is_vip"] is True
    assert session.view(bea)["me"]["is_vip"] is False
    assert "start" not in session.view(ana)["can"]  # R1: fewer than 3
    (cal,) = _seat(session, "Cal")
    assert game_moves(session.view(ana)["can"]) == ["start"]
    assert session.view(cal)["can"] == []
    with pytest.raises(SessionError) as refusal:
        session.act(bea, "start", 0)
    assert refusal.value.code == "bad_action"


def test_joins_kicks_and_connections_do_not_change_step(session: Any) -> None:
    ana, _, _, dan = _seat(session, "Ana", "Bea", "Cal", "Dan")
    session.act(ana, "start", 0)
    assert session.step == 1
    _seat(session, "Eve")
    subscription = session.subscribe(ana)
    subscription.close()
    session.kick(dan)
    assert session.step == 1


def test_late_joiner_waits_then_plays_the_next_game(session: Any) -> None:
    ana, *_ = _seat(session, "Ana", "Bea", "Cal")
    session.act(ana, "start", 0)
    (eve,) = _seat(session, "Eve")
    assert session.view(eve)["me"]["status"] == "waiting"
    assert eve not in session.view(None)["order"]


def test_kick_frees_the_name_and_voids_the_token(session: Any) -> None:
    token = session.join("Ana", "TEST").token
    pid = session.player_for_token(token)
    session.kick(pid)
    assert session.player_for_token(token) is None
    assert session.join("Ana", "TEST").player_id != pid
    with pytest.raises(SessionError):
        session.kick("p999")


def test_tokens_are_secret_and_distinct(session: Any) -> None:
    tokens = {session.join(name, "TEST").token for name in ("Ana", "Bea", "Cal")}
    assert len(tokens) == 3 and all(len(token) >= 43 for token in tokens)
    assert session.player_for_token("") is None
    assert session.player_for_token(None) is None
    assert session.player_for_token("x" * 1000) is None


def test_host_next_starts_deals_and_opens_a_new_game(session: Any) -> None:
    with pytest.raises(SessionError):
        session.host_next()  # nobody seated
    _seat(session, "Ana", "Bea", "Cal")
    assert session.host_next() == "start"
    assert session.view(None)["phase"] == "turns"
    with pytest.raises(SessionError):
        session.host_next()  # mid-round: the players decide


def test_r16_misdeal_keeps_lives_and_dealer(session: Any) -> None:
    ana, *_ = _seat(session, "Ana", "Bea", "Cal")
    session.act(ana, "start", 0)
    before = session.view(None)
    session.misdeal()
    after = session.view(None)
    assert after["step"] == before["step"] + 1
    assert after["dealer"] == before["dealer"] and after["round"] == before["round"]
    assert [p["lives"] for p in after["players"]] == [p["lives"] for p in before["players"]]


def test_closed_session_refuses_changes(session: Any) -> None:
    session.close()
    with pytest.raises(SessionError) as refusal:
        session.join("Ana", "TEST")
    assert refusal.value.code == "closed"


def test_each_player_carries_the_tv_seat_colour(session: Any) -> None:
    """The phone shows the same player colour as the TV's name plate (issue 12)."""
    from host.palette import css_hex
    from host.tv.theme import player_colour

    _seat(session, "Ana", "Bea", "Cid")
    for player in session.view(None)["players"]:
        assert player["color"] == css_hex(player_colour(player["seat"]))
    assert len({p["color"] for p in session.view(None)["players"]}) == 3
