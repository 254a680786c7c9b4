"""Bots act after ``--bot-delay``; idle players keep automatically (item 6, H4)."""

from __future__ import annotations

from typing import Any

from host.bot_runner import BotRunner
from tests.clock import Clock


def _started(session: Any, names: tuple[str, ...] = ("Ana", "Bea", "Cal")) -> list[str]:
    ids = [session.join(name, "TEST").player_id for name in names]
    session.act(ids[0], "start", 0)
    return ids


def test_idle_player_keeps_after_the_turn_timeout(make_session: Any) -> None:
    clock = Clock()
    session = make_session(turn_timeout=90, clock=clock)
    _started(session)
    runner = BotRunner(session, bot_delay=1.0, clock=clock)
    current = session.view(None)["current"]
    assert runner.tick() is None
    clock.now += 89.9
    assert runner.tick() is None and session.step == 1
    clock.now += 0.2
    assert runner.tick() == f"timeout:{current}"
    kept = [e for e in session.view(None)["log"] if e["type"] == "kept"]
    assert kept[-1]["player"] == current and kept[-1]["auto"] is True
    assert kept[-1].get("reason") == "time"  # present at the table: a time-out (round 40)
    assert session.step == 2


def test_turn_timeout_zero_means_never(make_session: Any) -> None:
    clock = Clock()
    session = make_session(turn_timeout=0, clock=clock)
    _started(session)
    runner = BotRunner(session, bot_delay=1.0, clock=clock)
    runner.tick()
    clock.now += 100000
    assert runner.tick() is None and session.step == 1


def test_h4_rapid_timer_replaces_the_turn_timeout(make_session: Any) -> None:
    clock = Clock()
    session = make_session("H4", turn_timeout=90, clock=clock)
    _started(session)
    runner = BotRunner(session, bot_delay=1.0, clock=clock)
    turn = session.turn_time()
    assert turn is not None and turn.seconds_left == 10  # H4's limit, not the 90 s
    runner.tick()
    clock.now += 9.99
    assert runner.tick() is None
    clock.now += 0.02
    current = session.view(None)["current"]
    assert runner.tick() == f"timeout:{current}"
    kept = [e for e in session.view(None)["log"] if e["type"] == "kept"][-1]
    assert kept["auto"] is True and kept["timed_out"] is True


def test_bots_wait_for_their_delay_then_act(make_session: Any) -> None:
    clock = Clock()
    session = make_session(bots=2, turn_timeout=0, clock=clock)
    ana = session.join("Ana", "TEST").player_id
    session.act(ana, "start", 0)
    runner = BotRunner(session, bot_delay=2.0, clock=clock)
    bots = session.bots
    acted = 0
    for _ in range(20):
        current = session.view(None)["current"]
        if current not in bots:
            break
        step = session.step
        assert runner.tick() is None
        clock.now += 1.0
        assert runner.tick() is None and session.step == step  # not before the delay
        clock.now += 1.0
        done = runner.tick()
        assert done is not None and done.startswith(current) and session.step == step + 1
        acted += 1
    assert acted >= 1 or session.view(None)["current"] == ana


def test_runner_thread_plays_a_bot_game_to_the_end(make_session: Any) -> None:
    from tests.api.cuckoo_http_client import wait_until

    session = make_session(bots=3, bot_strategy="random", turn_timeout=0.05)
    ana = session.join("Ana", "TEST").player_id
    session.act(ana, "start", 0)
    runner = BotRunner(session, bot_delay=0.0).start()
    try:
        assert wait_until(lambda: session.view(None)["phase"] in ("reveal", "game_over"), 10)
    finally:
        runner.stop()


def test_a_bot_deals_the_next_round_only_after_the_reveal_pause(make_session: Any) -> None:
    session = make_session(bots=2, seed=1)  # seed 1: a bot deals round 2
    ana = session.join("Ana", "TEST").player_id
    session.act(ana, "start", 0)
    clock = Clock()
    runner = BotRunner(session, bot_delay=1.0, clock=clock)
    for _ in range(10):  # play the round: bots after their delay, Ana keeps
        view = session.view(None)
        if view["phase"] != "turns":
            break
        if view["current"] == ana:
            session.act(ana, "keep", session.step)
        else:
            runner.tick()
            clock.now += 1.0
            runner.tick()
    assert session.view(None)["phase"] == "reveal"
    assert session.view(None)["next_dealer"] in session.bots
    step = session.step
    runner.tick()
    clock.now += runner.bot_delay
    assert runner.tick() is None and session.step == step  # still showing the reveal
    clock.now += runner.pause_delay
    assert runner.tick() is not None and session.step == step + 1
    assert session.view(None)["phase"] == "turns"


def test_issue18_without_bots_a_tick_builds_no_table(make_session: Any, monkeypatch: Any) -> None:
    """Issue 18 (CPU per tap): the runner ticks after every change, bots or not. Without a
    computer player it has nothing to read in the table, so it must not build one (the public
    view cost it about 0.2 ms of every tap with 20 phones)."""
    clock = Clock()
    session = make_session(turn_timeout=90, clock=clock)
    _started(session)
    runner = BotRunner(session, bot_delay=0.0, clock=clock)
    real_view = session.view
    built: list[Any] = []

    def counted_view(*args: Any, **kwargs: Any) -> Any:
        built.append(args)
        return real_view(*args, **kwargs)

    monkeypatch.setattr(session, "view", counted_view)
    for _ in range(2):  # two turns pass; the idle limit still works without a table
        clock.now += 5
        assert runner.tick() is None
        current = real_view(None)["current"]
        session.act(current, "keep", session.step)
    clock.now += 90.1
    current = real_view(None)["current"]
    assert runner.tick() == f"timeout:{current}"
    assert built == []


def test_round44_a_bot_deals_only_a_pause_after_the_tv_showed_the_outcome(
    make_session: Any,
) -> None:
    """Round 44's play-test: the reveal's pause was counted from the reveal itself, so while
    the TV played it (longer than the pause) the pause ran out, and a computer dealer dealt the
    moment the TV had shown who lost a life: the phones showed it 0.4-1.5 s. Now the pause
    (``pause_delay``) starts once the TV has shown the outcome. Headless, nothing changes
    (``test_a_bot_deals_the_next_round_only_after_the_reveal_pause``)."""
    from tests.session.test_pacing import TV

    session = make_session(bots=2, seed=1, turn_timeout=0)  # seed 1: a bot deals round 2
    ana = session.join("Ana", "TEST").player_id
    session.act(ana, "start", 0)
    tv = TV(session)
    clock = Clock()
    runner = BotRunner(session, bot_delay=1.0, clock=clock)
    for _ in range(40):  # play the round as the TV shows it: bots after their delay
        if session.view(None)["phase"] != "turns" and session.step > 1:
            break
        if "keep" in session.view(ana)["can"]:
            session.act(ana, "keep", session.step)
        else:
            runner.tick()
            clock.now += 1.0
            runner.tick()
        tv.play(0.1)
    assert session.reveal_held() and session.view(None)["phase"] == "reveal"
    step = session.step
    clock.now += runner.pause_delay + 1.0  # the TV takes its time over the reveal
    assert runner.tick() is None and session.step == step
    tv.finish()
    dealer = session.view(None)["next_dealer"]
    assert not session.reveal_held() and dealer in session.bots
    assert runner.tick() is None and session.step == step  # shown now: the pause starts
    clock.now += runner.pause_delay - 0.1
    assert runner.tick() is None and session.step == step
    clock.now += 0.1
    assert runner.tick() == f"{dealer}:deal" and session.step == step + 1
