"""A stand-in for the party session, built on the engine alone: one thread, no network.

Why: the screenshots command (and the TV's own tests and benchmarks) must play a seeded game
through the TV exactly as a party would — public views and public events through a
``subscribe(None)`` stream — without Flask, timers or sound. It offers the same small surface
the TV uses from ``host.session.Session`` (``subscribe``, ``view``, ``host_next``, ``add_bot``,
``kick``, ``misdeal``), plus ``play`` for a script that moves the players.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from host.rules import Game, HouseRules, IllegalAction, Reason, visible_to
from host.rules.bots import choose_action
from host.standings import Standings

BOT_NAMES = ("Chloé", "Niccolò", "François", "Zoë", "Björn", "Inès", "Lucía", "Gaëlle",
             "Renée", "Mattia", "Kofi", "Aiko", "Søren", "Noémie", "Ilaria", "Tomás",
             "Anaïs", "Jürgen", "Célia", "Raphaël")


@dataclass(frozen=True)
class Update:
    """One change as a public subscriber receives it (same fields as the session's)."""

    step: int
    view: dict[str, Any]
    events: list[dict[str, Any]]


@dataclass
class LocalSubscription:
    """A queue of updates; ``get`` never waits (the TV polls it once a frame)."""

    queue: deque[Update] = field(default_factory=deque)
    closed: bool = False

    def get(self, timeout: float | None = None) -> Update | None:
        return self.queue.popleft() if self.queue else None

    def close(self) -> None:
        self.closed = True
        self.queue.clear()


class Rehearsal:
    """The engine behind the session's public interface; only public data goes out."""

    def __init__(self, rules: HouseRules | None = None, seed: int = 7, room: str = "CAKE",
                 strategy: str = "smart") -> None:
        self.game = Game(rules or HouseRules(), random.Random(seed))
        self.rng = random.Random(seed + 1)
        self.room = room
        self.strategy = strategy
        self.subscriptions: list[LocalSubscription] = []
        self._ids = 0
        self._last: list[dict[str, Any]] = []
        self.standings = Standings()

    # -- the session's surface -------------------------------------------------------------
    def subscribe(self, player_id: str | None) -> LocalSubscription:
        if player_id is not None:
            raise ValueError("the rehearsal serves the public stream only")
        subscription = LocalSubscription()
        self.subscriptions.append(subscription)
        return subscription

    def view(self, player_id: str | None = None) -> dict[str, Any]:
        if player_id is not None:
            raise ValueError("the rehearsal serves the public view only")
        view = self.game.view(None)
        view["room"] = self.room
        for player in view["players"]:
            player["connected"] = True
        view["standings"] = self.standings.table()
        return view

    def join(self, name: str, *, bot: bool = False) -> str:
        self._ids += 1
        player_id = f"p{self._ids}"
        self._publish(self.game.add_player(player_id, name, bot=bot))
        return player_id

    def add_bot(self, strategy: str = "smart") -> str:
        taken = {p.name for p in self.game.players}
        name = next((n for n in BOT_NAMES if n not in taken), f"Bot {self._ids + 1}")
        return self.join(name, bot=True)

    def host_next(self) -> None:
        """Space/Enter: start, deal or new game, on behalf of whoever may do it."""
        game = self.game
        if game.phase == "lobby" and game.vip is not None:
            self.act(game.vip, "start")
        elif game.phase == "reveal" and game.next_dealer is not None:
            self.act(game.next_dealer, "deal")
        elif game.phase == "game_over" and game.vip is not None:
            self.act(game.vip, "new_game")
        else:
            raise IllegalAction(Reason.NOT_ALLOWED_NOW, "nothing for the host to do now")

    def kick(self, player_id: str) -> None:
        self._publish(self.game.remove_player(player_id))

    def misdeal(self) -> None:
        self._publish(self.game.misdeal())

    # -- the script's hands ----------------------------------------------------------------
    def act(self, player_id: str, action: str) -> list[dict[str, Any]]:
        events = self.game.apply(player_id, action)
        return self._publish(events)

    def whose_move(self) -> str | None:
        game = self.game
        if game.phase == "turns":
            return game.current
        return None

    def play(self, choose: Any = None) -> list[dict[str, Any]]:
        """One move: the current player's (by ``choose(player_id)`` or the bot strategy), or the
        host's next step between rounds. Returns the public events."""
        player = self.whose_move()
        if player is None:
            before = self.game.step
            self.host_next()
            return [] if self.game.step == before else self._last
        action = choose(player) if choose else None
        if action is None:
            action = choose_action(self.strategy, self.game.view(player), self.rng)
        return self.act(player, action)

    def _publish(self, events: list[Any]) -> list[dict[str, Any]]:
        self.standings.record(events, self.game.options.starting_lives)
        public = visible_to(events, None)
        update = Update(self.game.step, self.view(None), public)
        for subscription in self.subscriptions:
            if not subscription.closed:
                subscription.queue.append(update)
        self._last = public
        return public
