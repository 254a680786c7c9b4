"""H4 (and ``--turn-timeout``): a player's time counts from when they can play, and the view
says how much is left, so a phone that reloads shows the same countdown as before.

With a TV leading, a turn opens when the TV announces it (``host/pacing.py``: phones cannot act
before), which may be seconds after the engine moved on — dealing ten cards takes 2.7 s. These
tests drive the TV's real stage with the test's own time (``tests/session/test_pacing.py``'s
``TV``) and the session's clock by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from host.bot_runner import BotRunner
from host.session import Session
from tests.clock import Clock
from tests.session.test_pacing import TV

NAMES = ("Ana", "Bea", "Cal", "Dan")


def _started(make_session: Callable[..., Session], rules: str, **kwargs: Any) -> Session:
    session = make_session(rules, **kwargs)
    ids = [session.join(name, "TEST").player_id for name in NAMES]
    session.act(ids[0], "start", session.step)
    return session


def test_h4_time_starts_when_the_tv_shows_the_turn(make_session: Callable[..., Session]) -> None:
    """H4: while the TV deals, the first player cannot play, so their 10 s have not started."""
    clock = Clock()
    session = make_session("H4", clock=clock)
    tv = TV(session)
    ids = [session.join(name, "TEST").player_id for name in NAMES]
    session.act(ids[0], "start", session.step)
    runner = BotRunner(session, bot_delay=1.0, clock=clock)
    current = session.view(None)["current"]
    assert current is not None
    assert "keep" not in session.view(current)["can"]  # the TV is still dealing
    assert session.turn_time() is None
    assert session.view(current)["turn_seconds_left"] is None
    clock.now += 30.0  # however long the deal takes on screen
    assert runner.tick() is None and session.view(None)["current"] == current
    for _ in range(200):
        tv.play(0.1)
        if "keep" in session.view(current)["can"]:
            break
    assert "keep" in session.view(current)["can"]
    turn = session.turn_time()
    assert turn is not None and (turn.player, turn.seconds_left) == (current, 10.0)
    assert session.view(current)["turn_seconds_left"] == 10.0
    clock.now += 9.9
    assert runner.tick() is None
    assert session.view(current)["turn_seconds_left"] == pytest.approx(0.1)
    clock.now += 0.2
    assert runner.tick() == f"timeout:{current}"
    kept = [e for e in session.view(None)["log"] if e["type"] == "kept"][-1]
    assert kept["player"] == current and kept["timed_out"] is True


def test_h4_a_view_built_later_in_the_turn_says_what_is_left(
    make_session: Callable[..., Session],
) -> None:
    """H4, headless: the turn opens with the change; a new stream (a reloaded phone) gets the
    seconds left now, not the full time."""
    clock = Clock()
    session = _started(make_session, "H4", clock=clock)
    current = session.view(None)["current"]
    assert current is not None
    assert session.view(current)["turn_seconds_left"] == 10.0
    clock.now += 6.5
    reloaded = session.subscribe(current)
    try:
        update = reloaded.get(1.0)
        assert update is not None and update.view["turn_seconds_left"] == pytest.approx(3.5)
    finally:
        reloaded.close()
    clock.now += 10.0
    assert session.view(None)["turn_seconds_left"] == 0.0  # never negative


def test_no_time_left_outside_turns_and_without_a_limit(
    make_session: Callable[..., Session],
) -> None:
    """--turn-timeout 0 and no H4: nobody is timed, so no seconds are shown; the lobby never."""
    clock = Clock()
    lobby = make_session("H4", clock=clock)
    lobby.join("Ana", "TEST")
    assert lobby.view(None)["turn_seconds_left"] is None and lobby.turn_time() is None
    untimed = _started(make_session, "", clock=clock, turn_timeout=0)
    assert untimed.view(None)["turn_seconds_left"] is None and untimed.turn_time() is None
    timed = _started(make_session, "", clock=clock, turn_timeout=90)
    assert timed.view(None)["turn_seconds_left"] == 90.0


def test_the_next_turn_gets_its_full_time(make_session: Callable[..., Session]) -> None:
    """H4: a keep opens the next player's turn with the whole limit again."""
    clock = Clock()
    session = _started(make_session, "H4", clock=clock)
    first = session.view(None)["current"]
    assert first is not None
    clock.now += 7.0
    session.act(first, "keep", session.step)
    second = session.turn_time()
    assert second is not None and second.player != first and second.seconds_left == 10.0


def test_presence_counts_an_away_players_wait_from_the_shown_turn(
    make_session: Callable[..., Session],
) -> None:
    """PHONE_API.md "Presence": an away player is kept for after ``away_seconds`` of *their*
    turn, and with a TV their turn begins when the TV shows it."""
    clock = Clock()
    session = make_session("", clock=clock, presence=True, away_seconds=15.0)
    tv = TV(session)
    ids = [session.join(name, "TEST").player_id for name in NAMES]
    streams = [session.subscribe(pid) for pid in ids]  # everyone present
    try:
        session.act(ids[0], "start", session.step)
        current = session.view(None)["current"]
        assert current is not None
        streams[ids.index(current)].close()  # the first player's phone sleeps during the deal
        clock.now += 20.0
        assert session.presence_tick() == []  # not their turn on screen yet
        for _ in range(200):
            tv.play(0.1)
            if session.turn_time() is not None:
                break
        assert session.presence_tick() == []
        clock.now += 14.9
        assert session.presence_tick() == []
        clock.now += 0.2
        assert session.presence_tick() == [f"keep:{current}"]
    finally:
        for stream in streams:
            stream.close()
