"""The host's clock: computer players act after ``--bot-delay``; idle players keep by themselves.

Why one small thread: both jobs are "when enough time has passed, do X for whoever may act".
The runner follows the public stream, remembers when the step last changed (a bot's delay),
asks the session how long the open turn has left (H4, ``--turn-timeout``: the session knows
when the turn opened on the phones), and acts through the session like any phone would (same
checks, same stale-step protection). A sleep that ends far later than asked means the host did
not run (``kill -STOP``, a frozen machine): that time is given back before anything else.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable

from host.rules.bots import STRATEGIES, choose_action
from host.session import Session, SessionError
from host.stall import stalled_for
from host.subscriptions import Subscription

log = logging.getLogger(__name__)
_MAX_WAIT = 0.5
#: Outside turns (the reveal, the lobby, game over) bots wait this many times their delay (after
#: a reveal, from when the TV has shown its outcome: ``Session.reveal_held``) …
REVEAL_PAUSE_FACTOR = 4.0
#: … but never more than this many seconds.
REVEAL_PAUSE_CAP = 6.0


class BotRunner:
    """Plays the bots' moves and times out idle players (H4: the rapid limit).

    ``clock`` times the bots' delay; the idle limit is the session's (its own clock).
    """

    def __init__(
        self,
        session: Session,
        *,
        bot_delay: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.session = session
        self.bot_delay = max(0.0, bot_delay)
        self._clock = clock
        self._step: int | None = None
        self._since = clock()
        self._held = False  # a reveal's outcome was held back for the TV at the last tick
        self._stop = threading.Event()
        self._subscription: Subscription | None = None
        self._thread = threading.Thread(target=self._run, name="bot-runner", daemon=True)

    @property
    def pause_delay(self) -> float:
        """A bot deals the next round, starts or restarts a game only after this longer wait."""
        return min(REVEAL_PAUSE_CAP, REVEAL_PAUSE_FACTOR * self.bot_delay)

    def start(self) -> BotRunner:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._subscription is not None:
            self._subscription.close()  # wakes the thread at once
        if self._thread.is_alive():
            self._thread.join(1.0)

    def _run(self) -> None:
        try:
            subscription = self.session.subscribe(None, presence=False)
        except SessionError:
            return
        self._subscription = subscription
        try:
            while not self._stop.is_set():
                try:
                    self.cycle(subscription)
                except SessionError:
                    return  # the session closed under us
                except Exception:  # a bot bug must not stop the party
                    log.exception("bot runner tick failed")
                if subscription.closed:
                    return
        finally:
            subscription.close()

    def cycle(self, subscription: Subscription) -> str | None:
        """One turn of the loop: sleep until something may fall due or the table changes, give
        back the time the host did not run, then ``tick``; returns what was done (for tests).

        Why the stall check comes first: a wait that ends far later than asked means the whole
        process was stopped (``host/stall.py``), and every timer would find its time over. The
        session moves them on before this tick or any later one can time a player out, so a tap
        she sent during the freeze is read as a normal tap.
        """
        asleep_at = self._clock()
        wait = self._wait()
        update = subscription.get(timeout=wait)
        while update is not None:  # only the latest state matters here
            update = subscription.get(timeout=0)
        if subscription.closed:
            return None
        stalled = stalled_for(asleep_at, wait, self._clock())
        if stalled:
            self._since += stalled  # a bot's delay is not over because the host slept
            self.session.host_stalled(stalled)
        return self.tick()

    def _wait(self) -> float:
        """Sleep until the next thing could fall due (a bot's delay or the idle limit)."""
        if self._step is None:
            return 0.01
        now = self._clock()
        dues = (
            [self._since + self.bot_delay, self._since + self.pause_delay]
            if self.session.bots
            else []
        )
        turn = self.session.turn_time()
        if turn is not None:
            dues.append(now + turn.seconds_left)
        presence = self.session.presence_due_in()
        if presence is not None:
            dues.append(now + presence)
        ahead = [due - now for due in dues if due > now]
        return max(0.01, min([_MAX_WAIT, *ahead]))

    def tick(self) -> str | None:
        """Do whatever is due now; returns what was done (for tests), else None."""
        presence = self.session.presence_tick()  # away players (PHONE_API.md "Presence")
        if presence:
            return ",".join(presence)
        now = self._clock()
        step = self.session.step
        if step != self._step:
            self._step, self._since = step, now
        waited = now - self._since
        turn = self.session.turn_time()
        if (  # H4's limit or --turn-timeout is over: the host keeps for them
            turn is not None
            and turn.seconds_left <= 0
            and self.session.timeout(turn.player, turn.step)
        ):
            return f"timeout:{turn.player}"
        bots = self.session.bots
        if bots and self.session.reveal_held():
            self._held = True
            return None  # the reveal's pause starts once the TV has shown its outcome
        if self._held:  # shown now (round 44's play-test: the pause had run out before)
            self._held, self._since, waited = False, now, 0.0
        if waited < self.bot_delay or not bots:
            return None  # no table is built for nobody: this runs after every change
        table = self.session.view(None)
        if table["step"] != step:
            return None  # the table moved meanwhile: its change wakes us again
        if table["phase"] in ("lobby", "game_over"):
            # A person starts each game (the VIP's phone, or the TV's Space): a computer
            # player left VIP at an empty table would otherwise play game after game by
            # itself, into tonight's standings, and start one under guests still joining.
            return None
        if table["phase"] != "turns" and waited < self.pause_delay:
            return None  # let people read the reveal before a bot moves on
        for player_id, strategy in bots.items():
            try:
                view = self.session.view(player_id)
            except SessionError:
                continue
            if not view["can"] or view["step"] != step:
                continue
            rng = random.Random(f"{self.session.room}:{player_id}:{step}")
            name = strategy if strategy in STRATEGIES else "smart"
            action = choose_action(name, view, rng)
            try:
                self.session.act(player_id, action, step)
            except SessionError as refusal:
                log.debug("bot %s: %s refused (%s)", player_id, action, refusal.code)
                continue
            return f"{player_id}:{action}"
        return None
