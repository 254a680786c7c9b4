"""A rehearsal: the real party session, with no web server and no state file, and a script.

Why: the screenshots command (and the TV's own tests and benchmarks) must play a seeded game
through the TV exactly as a party would. So the TV is given the real ``host.session.Session``
(``Session(state_path=None)``) and catches the session's one kind of refusal; this module
only adds the hands that move the players — as a phone would, through ``Session.act`` with
the step of the player's own view — and the host's key between rounds. The deal is rigged
the only way the engine allows: by the session's seed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from host.rules import Action, EventDict, HouseRules, Phase
from host.rules.bots import choose_action
from host.session import Session
from host.subscriptions import Subscription

if TYPE_CHECKING:  # the TV's app builds on this module (its tutorial is a rehearsal)
    from host.tv.app import TVApp

#: Picks a player's move by its id, or None to let the bot strategy decide.
Chooser = Callable[[str], "Action | str | None"]
#: Moves ``feed`` may play before the TV has something to show (a whole game is far fewer).
MAX_FEED_MOVES = 1000


class Rehearsal:
    """A seeded ``Session`` and a script that plays its seats in turn."""

    def __init__(
        self,
        rules: HouseRules | None = None,
        seed: int = 7,
        room: str = "CAKE",
        strategy: str = "smart",
        rng: random.Random | None = None,
        people: Iterable[str] = (),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``rng``: the engine's random source instead of the seed's (a rigged deck);
        ``people``: names seated at once, each with a phone (``join``); ``clock``: the
        session's clock (H4's open turn) instead of the wall's, for two rehearsals that must
        draw the same pixels however long the machine took between them."""
        self.session = Session(
            rules or HouseRules(),
            seed=seed,
            rng=rng,
            room=room,
            state_path=None,
            bot_strategy=strategy,
            clock=clock,
        )
        self._public = self.session.subscribe(None, presence=False)
        self.rng = random.Random(seed + 1)
        self.strategy = strategy
        self.phones: list[Subscription] = []
        """Each person's open event stream: they count as connected, as with a real phone."""
        for name in people:
            self.join(name)

    @property
    def phase(self) -> Phase:
        return self.session.view(None)["phase"]

    def join(self, name: str, *, bot: bool = False) -> str:
        """Seat a person by ``name`` (a phone joins and opens its stream), or a computer
        player (named by the session); returns the player id."""
        if bot:
            return self.session.add_bot(self.strategy)
        player_id = self.session.join(name, self.session.room).player_id
        self.phones.append(self.session.subscribe(player_id))
        return player_id

    def host_next(self) -> list[EventDict]:
        """The host's Space key: start, deal or new game (raises ``SessionError`` if none);
        returns the public events it made."""
        self.session.host_next()
        return self._published()

    def act(self, player_id: str, action: Action | str) -> list[EventDict]:
        """``player_id`` sends ``action`` as their phone would, with their view's step."""
        step = self.session.view(player_id, paced=False)["step"]
        self.session.act(player_id, str(action), step)
        return self._published()

    def play(self, choose: Chooser | None = None) -> list[EventDict]:
        """One move: the current player's (by ``choose(player_id)`` or the bot strategy), or
        the host's next step between rounds; returns the public events it made."""
        player = self.session.view(None)["current"]
        if player is None:
            return self.host_next()
        view = self.session.view(player, paced=False)  # the script need not wait for the TV
        action = choose(player) if choose else None
        if action is None:
            action = choose_action(self.strategy, view, self.rng)
        return self.act(player, action)

    def feed(self, app: TVApp) -> None:
        """Keep ``app``'s TV playing, frame by frame: while its stage has nothing to show,
        the next move (a new game once one is over), taken by the TV at once."""
        for _ in range(MAX_FEED_MOVES):
            if app.stage.busy:
                return
            if self.phase == "game_over":
                self.host_next()
            self.play()
            app.pump_updates()
        raise RuntimeError(f"{MAX_FEED_MOVES} moves and still nothing for the TV to show")

    def _published(self) -> list[EventDict]:
        """The public events since the last move (the rehearsal's own public stream)."""
        events: list[EventDict] = []
        while (update := self._public.get(timeout=0)) is not None:
            events.extend(update.events)
        return events
