"""A frozen host must not cost a player their turn (H4, ``--turn-timeout``; ``host/stall.py``).

The play-test: the host was stopped for 90 s (``kill -STOP``, as a frozen machine) during an H4 turn;
on waking, its runner found the turn's time over and timed her out before her tap, sent during
the freeze, was read. Here the runner sleeps on the test's clock (``Sleep``): each wait passes
exactly the time asked, unless the test freezes the host in the middle of the next one.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from typing import Any

import pytest

from host.bot_runner import BotRunner
from host.session import Session
from host.stall import LATE_SECONDS, stalled_for
from host.subscriptions import Subscription, Update
from tests.clock import Clock

NAMES = ("Ana", "Bea", "Cal")
FREEZE = 90.0


class Sleep:
    """The runner's own stream, sleeping on the test's clock: a wait that no update ends passes
    the time asked, plus ``freeze`` seconds once when the test stops the host mid-wait."""

    def __init__(self, stream: Subscription, clock: Clock, monkeypatch: Any) -> None:
        self._get = stream.get
        self.clock = clock
        self.freeze = 0.0
        monkeypatch.setattr(stream, "get", self.get)

    def get(self, timeout: float | None = None) -> Update | None:
        update = self._get(timeout=0)
        if update is None and timeout:
            self.clock.now += timeout + self.freeze
            self.freeze = 0.0
        return update


class Table:
    """A headless H4 session (presence on), its runner, and the runner's sleeping stream."""

    def __init__(
        self,
        make_session: Callable[..., Session],
        monkeypatch: Any,
        house_rules: str = "H4",
        **kwargs: Any,
    ) -> None:
        self.clock = Clock()
        kwargs.setdefault("presence", True)
        self.session = make_session(house_rules, clock=self.clock, **kwargs)
        self.runner = BotRunner(self.session, bot_delay=1.0, clock=self.clock)
        self.stream = self.session.subscribe(None, presence=False)
        self.sleep = Sleep(self.stream, self.clock, monkeypatch)

    def cycles(self, seconds: float) -> list[str]:
        """Run the runner's loop for ``seconds`` on the clock; what it did (bounded)."""
        done: list[str] = []
        end = self.clock.now + seconds
        for _ in range(1000):
            if self.clock.now >= end - 1e-9:
                break
            result = self.runner.cycle(self.stream)
            if result is not None:
                done.append(result)
        return done

    def close(self) -> None:
        self.stream.close()


@pytest.fixture
def table(make_session: Callable[..., Session], monkeypatch: Any) -> Any:
    made: list[Table] = []

    def factory(house_rules: str = "H4", **kwargs: Any) -> Table:
        made.append(Table(make_session, monkeypatch, house_rules, **kwargs))
        return made[-1]

    yield factory
    for each in made:
        each.close()


def _seat_present(session: Session) -> dict[str, Subscription]:
    """Everyone joins with their phone open (present); the first starts the game."""
    ids = [session.join(name, "TEST").player_id for name in NAMES]
    phones = {pid: session.subscribe(pid) for pid in ids}
    session.act(ids[0], "start", session.step)
    return phones


def _latest(phone: Subscription) -> Update | None:
    latest, update = None, phone.get(timeout=0)
    while update is not None:
        latest, update = update, phone.get(timeout=0)
    return latest


def test_h4_a_frozen_host_gives_her_turn_back_and_her_tap_counts(
    table: Callable[..., Table], caplog: pytest.LogCaptureFixture
) -> None:
    """H4 (10 s), 3 s into her turn the host is stopped for 90 s mid-wait: on waking she is not
    timed out, her phone gets the 6.5 s really left (3 s + the runner's planned 0.5 s sleep
    passed), and her tap afterwards is a normal keep with no H4 penalty."""
    party = table()
    session = party.session
    phones = _seat_present(session)
    her = session.view(None)["current"]
    assert her is not None
    step = session.step
    try:
        assert party.cycles(3.0) == []
        turn = session.turn_time()
        assert turn is not None and turn.seconds_left == pytest.approx(7.0)
        _latest(phones[her])
        party.sleep.freeze = FREEZE
        with caplog.at_level(logging.WARNING):
            assert party.runner.cycle(party.stream) is None  # the wake after the freeze
        assert session.step == step and session.view(None)["current"] == her
        turn = session.turn_time()
        assert turn is not None and turn.player == her
        assert turn.seconds_left == pytest.approx(6.5)
        update = _latest(phones[her])
        assert update is not None and update.view["turn_seconds_left"] == pytest.approx(6.5)
        assert "keep" in update.view["can"]
        stalls = [r.getMessage() for r in caplog.records if "did not run" in r.getMessage()]
        assert len(stalls) == 1 and "90.0 s" in stalls[0]
        session.act(her, "keep", step)  # the tap she sent during the freeze
        kept = [e for e in session.view(None)["log"] if e["type"] == "kept"][-1]
        assert kept["player"] == her and kept["auto"] is False and kept["timed_out"] is False
    finally:
        for phone in phones.values():
            phone.close()


def test_h4_without_a_stall_the_runner_times_out_at_the_limit(
    table: Callable[..., Table], caplog: pytest.LogCaptureFixture
) -> None:
    """H4: with every wait on time the runner's loop still keeps for an idle player when her
    10 s are over, not later, and logs no stall."""
    party = table()
    session = party.session
    phones = _seat_present(session)
    her = session.view(None)["current"]
    opened = party.clock.now
    try:
        done = None
        with caplog.at_level(logging.WARNING):
            for _ in range(100):
                done = party.runner.cycle(party.stream)
                if done is not None:
                    break
        assert done == f"timeout:{her}"
        assert party.clock.now - opened == pytest.approx(10.0)  # the first thing done, at 10 s
        kept = [e for e in session.view(None)["log"] if e["type"] == "kept"][-1]
        assert kept["player"] == her and kept["timed_out"] is True
        assert not [r for r in caplog.records if "did not run" in r.getMessage()]
    finally:
        for phone in phones.values():
            phone.close()


def test_presence_an_away_players_wait_survives_a_frozen_host(
    table: Callable[..., Table],
) -> None:
    """PHONE_API.md "Presence": her phone closed 5 s into her turn (15 s ``--away-seconds``),
    then the host froze for 90 s: her card is kept 10 s after the wake, not at it."""
    party = table("", turn_timeout=0, away_seconds=15.0)
    session = party.session
    phones = _seat_present(session)
    her = session.view(None)["current"]
    assert her is not None
    phones.pop(her).close()
    try:
        assert party.cycles(5.0) == []
        party.sleep.freeze = FREEZE
        assert party.runner.cycle(party.stream) is None  # 0.5 s of her wait, then the freeze
        assert party.cycles(8.5) == []  # 14 s of her 15
        assert session.view(None)["current"] == her
        assert party.cycles(1.5) == [f"keep:{her}"]
    finally:
        for phone in phones.values():
            phone.close()


def test_a_bots_delay_is_not_over_because_the_host_slept(
    table: Callable[..., Table],
) -> None:
    """``--bot-delay`` 1 s: a bot's move comes a second after its turn opened on the clock the
    host ran, so a frozen host does not make it play the instant it wakes."""
    party = table("", presence=False, turn_timeout=0, bots=2)
    session = party.session
    ana = session.join("Ana", "TEST").player_id
    session.act(ana, "start", session.step)
    if session.view(None)["current"] == ana:
        session.act(ana, "keep", session.step)
    bot = session.view(None)["current"]
    assert bot in session.bots
    assert party.runner.cycle(party.stream) is None  # the runner notes the step: 0 s waited
    party.sleep.freeze = FREEZE
    assert party.runner.cycle(party.stream) is None  # 0.5 s of the delay, then the freeze
    assert session.view(None)["current"] == bot
    done = party.cycles(0.5)
    assert len(done) == 1 and done[0].startswith(f"{bot}:")


@pytest.mark.parametrize(
    ("seconds", "error"),
    [
        (0, ValueError),
        (-5.0, ValueError),
        (math.nan, ValueError),
        (math.inf, ValueError),
        ("90", TypeError),
        (True, TypeError),
        (None, TypeError),
    ],
)
def test_bad_stalled_seconds_are_refused_and_change_nothing(
    table: Callable[..., Table], seconds: Any, error: type[Exception]
) -> None:
    """``host_stalled`` with no real stall raises a clear error; the turn keeps its time and no
    phone is sent anything."""
    party = table()
    session = party.session
    phones = _seat_present(session)
    her = session.view(None)["current"]
    assert her is not None
    try:
        party.clock.now += 4.0
        _latest(phones[her])
        with pytest.raises(error, match="stalled seconds"):
            session.host_stalled(seconds)
        turn = session.turn_time()
        assert turn is not None and turn.seconds_left == pytest.approx(6.0)
        assert _latest(phones[her]) is None
    finally:
        for phone in phones.values():
            phone.close()


def test_only_a_wake_far_later_than_asked_is_a_stall() -> None:
    """A busy interpreter wakes a little late; only ``LATE_SECONDS`` and more is a stall."""
    assert stalled_for(100.0, 0.5, 100.3) == 0.0  # woken early by an update
    assert stalled_for(100.0, 0.5, 100.5 + LATE_SECONDS) == 0.0
    assert stalled_for(100.0, 0.5, 100.5 + LATE_SECONDS + 0.01) == pytest.approx(2.01)
    assert stalled_for(100.0, 0.5, 190.5) == pytest.approx(90.0)
