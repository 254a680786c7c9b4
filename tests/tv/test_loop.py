"""The TV loop headless: a whole game with bots, the real window call, idle behaviour."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

import pygame

from host.bot_runner import BotRunner
from host.rules import EventDict, HouseRules, View
from host.session import Session
from host.tv import run_tv
from host.tv.app import IDLE_FPS, TVApp

from .conftest import JOIN_URL, FakeAnnouncer
from .test_hidden import CARD, allowed_cards
from .views import FakeClock, StillSession, player, view


def test_whole_game_with_bots_runs_through_the_tv_loop(catalog: Any) -> None:
    """Real Session + BotRunner; the TV follows the public stream to the winners, and no
    update it receives carries a card the public may not see (R15, hidden information)."""
    session = Session(HouseRules(), seed=3, room="CAKE")
    for _ in range(4):
        session.add_bot("simple")
    surface = pygame.Surface((1920, 1080))
    app = TVApp(session, FakeAnnouncer(), catalog, lang="fr", join_url=JOIN_URL)
    received: list[tuple[View, Sequence[EventDict]]] = []
    original = app.stage.receive

    def spy(view: View, events: Sequence[EventDict]) -> None:
        received.append((view, events))
        original(view, events)

    app.stage.receive = spy  # type: ignore[method-assign]
    phases: set[str] = {app.stage.phase}
    session.host_next()  # the TV's Space: computer players never start a game themselves
    runner = BotRunner(session, bot_delay=0.05).start()
    clock = FakeClock()
    kinds: set[str] = set()
    deadline = time.monotonic() + 120  # bounded: the loop stops by itself

    def wait(fps: int) -> None:
        if fps == IDLE_FPS:
            time.sleep(0.002)  # idle: let the bots' thread play; animations run flat out

    try:
        while time.monotonic() < deadline:
            app.run(surface, max_frames=20, clock=clock, wait=wait)
            phases.add(app.stage.phase)
            if app.stage.beat is not None:
                kinds.add(app.stage.beat.kind)
            if app.stage.phase == "game_over" and app.stage.winners:
                break
    finally:
        runner.stop()
        app.close()
        session.close()
    assert app.stage.phase == "game_over" and app.stage.winners
    assert {"lobby", "turns", "reveal"} <= phases
    assert {"round_dealt", "reveal"} <= kinds
    assert app.frames_rendered > 100
    assert len(received) > 30
    for seen_view, events in received:
        found = set(CARD.findall(json.dumps([seen_view, events])))
        assert found <= allowed_cards(seen_view, events)


def test_idle_lobby_draws_only_when_something_changes(make_app: Any) -> None:
    quiet = StillSession(view("lobby", [player(0)]))
    voice = FakeAnnouncer("Bienvenue !")
    app, _ = make_app(session=quiet, announcer=voice)
    rates: list[int] = []
    app.run(pygame.Surface((1920, 1080)), max_frames=50, clock=FakeClock(), wait=rates.append)
    assert app.frames_rendered == 1
    assert set(rates) == {10}  # idle: low rate
    voice.line = "Chloé rejoint la table"
    app.run(pygame.Surface((1920, 1080)), max_frames=5, clock=FakeClock(), wait=rates.append)
    assert app.frames_rendered == 2  # a new caption is drawn once


def test_run_tv_returns_when_the_window_is_closed(catalog: Any) -> None:
    class ClosingSession:
        """Closes the window as soon as the TV subscribes (the window is open by then)."""

        def subscribe(self, player_id: str | None) -> Any:
            # Twice: with a guest seated, the first close asks "Quit the party?", the second
            # quits (``test_window_close_asks_while_anyone_is_seated``).
            pygame.event.post(pygame.event.Event(pygame.QUIT))
            pygame.event.post(pygame.event.Event(pygame.QUIT))

            class Empty:
                closed = False

                def get(self, timeout: float | None = None) -> None:
                    return None

                def close(self) -> None:
                    self.closed = True

            self.subscription = Empty()
            return self.subscription

        def view(self, player_id: str | None) -> View:
            return view("lobby", [player(0)])

        def host_next(self) -> None: ...
        def add_bot(self) -> None: ...
        def kick(self, player_id: str) -> None: ...
        def misdeal(self) -> None: ...

    session = ClosingSession()
    run_tv(
        session, None, catalog, lang="it", fullscreen=False, join_url=JOIN_URL, house_rules=["H1"]
    )
    assert session.subscription.closed
    assert not pygame.display.get_init()


def test_idle_tv_wakes_on_an_update_instead_of_sleeping_a_frame(catalog: Any) -> None:
    """Idle in the lobby, the loop sleeps on the session's stream: a join is taken at once
    (tap → next frame), and a stream that does not block still leaves the CPU idle."""
    session = Session(HouseRules(), seed=3, room="CAKE")
    app = TVApp(session, FakeAnnouncer(), catalog, lang="en", join_url=JOIN_URL)
    app.pump_updates()
    assert not app.busy
    session.add_bot("simple")
    started = time.perf_counter()
    app._idle_wait(5.0)  # returns as soon as the join arrives, not after 5 s
    assert time.perf_counter() - started < 2.0
    assert app.stage.latest is not None
    assert len(app.stage.latest["players"]) == 1  # the bot that just sat down

    class NonBlocking:
        def get(self, timeout: float | None = None) -> None:
            return None

    app.subscription = NonBlocking()
    started = time.perf_counter()
    app._idle_wait(0.05)
    assert time.perf_counter() - started >= 0.04  # slept instead of spinning
