"""Something to do when you're out: reactions and predictions for players not in the round.

Why apart from the game: a guest who is eliminated or waiting for the next game may send a
reaction (an emoji shown briefly near their seat on the TV) or guess who will lose a life this
round. Neither is a game action: they never change the game's ``step`` (so a spectator's tap
can never make a player's tap stale), never reach the engine, and read nothing but the public
view. Reactions are kept in memory only (they last seconds); predictions are scored into the
standings (``host.standings``).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from host.rules import Game, Status

#: The emoji a guest may send (anything else is refused): symbols the TV's bundled DejaVu font
#: can draw (it has no colour emoji), which phones show as emoji.
REACTIONS: tuple[str, ...] = ("❤", "★", "☺", "☹", "⚡", "✌")
#: One reaction per player per this many seconds (more are refused with ``too_fast``).
REACTION_INTERVAL = 1.0
#: How long a reaction stays on the TV.
REACTION_SECONDS = 3.0
#: The most reactions the TV shows at once (the newest win).
MAX_ON_SCREEN = 6


@dataclass(frozen=True)
class Reaction:
    """One emoji sent by ``player`` at ``at`` (seconds on the desk's clock)."""

    player: str
    emoji: str
    at: float


def may_react(game: Game, player_id: str) -> bool:
    """Between games everybody; during a game only those not playing (eliminated, waiting)."""
    if game.phase in ("lobby", "game_over"):
        return True
    return game.player(player_id).status != Status.ACTIVE


def prediction_refusal(game: Game, player_id: str, target: object) -> str | None:
    """Why ``player_id`` may not predict ``target`` now (an error code), or None.

    Only a player not dealt into this round may guess, only someone dealt in may be named, and
    only before the dealer acts (the guess is locked from the dealer's move to the reveal).
    """
    if game.phase != "turns":
        return "not_allowed_now"
    if player_id in game.order:
        return "not_allowed_now"
    if not isinstance(target, str) or target not in game.order:
        return "bad_request"
    if game.current == game.dealer and game.cuts_made > 0:
        return "not_allowed_now"  # H3: the dealer has already cut once
    return None


class ReactionDesk:
    """Recent reactions and each player's last accepted one (for the rate limit).

    Thread-safe on its own lock (phones post from server threads, the TV reads each frame);
    bounded in memory whatever the flood.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._recent: deque[Reaction] = deque(maxlen=MAX_ON_SCREEN * 4)
        self._last: dict[str, float] = {}

    def add(self, player_id: str, emoji: str) -> bool:
        """Accept ``emoji`` from ``player_id`` unless they sent one less than a second ago."""
        now = self._clock()
        with self._lock:
            last = self._last.get(player_id)
            if last is not None and now - last < REACTION_INTERVAL:
                return False
            self._last[player_id] = now
            self._recent.append(Reaction(player_id, emoji, now))
            return True

    def forget(self, player_id: str) -> None:
        with self._lock:
            self._last.pop(player_id, None)
            self._recent = deque(
                (r for r in self._recent if r.player != player_id), maxlen=self._recent.maxlen
            )

    def on_screen(self) -> list[Reaction]:
        """What the TV shows now: the newest reactions of the last few seconds, at most
        ``MAX_ON_SCREEN``, one per player (a player's newest)."""
        now = self._clock()
        with self._lock:
            fresh = [r for r in self._recent if now - r.at < REACTION_SECONDS]
        shown: dict[str, Reaction] = {}
        for reaction in reversed(fresh):
            shown.setdefault(reaction.player, reaction)
        return sorted(shown.values(), key=lambda r: r.at)[-MAX_ON_SCREEN:]
