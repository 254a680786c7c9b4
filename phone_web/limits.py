"""Slowing down guessers (issue 15, finding 9): room codes are only four letters.

Why per address and per minute: without a limit ``/api/table`` answered 823 guesses a second,
every code in about 9 minutes. Past ``per_minute`` wrong room codes or failed joins in the last
minute, an address gets ``429`` with ``Retry-After`` for its further attempts, which makes
trying all 456 976 codes take about 16 days. Requests carrying a valid player token are never
counted nor refused (the API checks that first), so a seated player is never slowed down; an
honest phone mistyping a code a few times is far below the limit.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable

#: Wrong room codes or failed joins per minute from one address before it must wait.
GUESSES_PER_MINUTE = 20
WINDOW_SECONDS = 60.0
#: Addresses remembered at most (the least recently failing are forgotten first): bounded memory.
MAX_ADDRESSES = 4096


class GuessLimiter:
    """Counts failures per address over a sliding minute; says how long a guesser must wait."""

    def __init__(
        self,
        per_minute: int = GUESSES_PER_MINUTE,
        *,
        window: float = WINDOW_SECONDS,
        max_addresses: int = MAX_ADDRESSES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if per_minute < 1:
            raise ValueError("per_minute must be at least 1")
        self.per_minute = per_minute
        self.window = window
        self.max_addresses = max_addresses
        self._clock = clock
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def retry_after(self, address: str) -> int:
        """Whole seconds ``address`` must wait before its next attempt (0: go ahead)."""
        with self._lock:
            recent = self._recent(address, self._clock())
            if recent is None or len(recent) < self.per_minute:
                return 0
            return max(1, math.ceil(recent[0] + self.window - self._clock()))

    def failed(self, address: str) -> None:
        """Count one wrong room code or failed join from ``address``."""
        with self._lock:
            now = self._clock()
            recent = self._recent(address, now)
            if recent is None:
                recent = self._failures[address] = deque(maxlen=self.per_minute)
                while len(self._failures) > self.max_addresses:
                    self._failures.popitem(last=False)
            self._failures.move_to_end(address)
            recent.append(now)

    def _recent(self, address: str, now: float) -> deque[float] | None:
        """The address's failures within the window (older ones dropped), or None."""
        recent = self._failures.get(address)
        if recent is None:
            return None
        while recent and recent[0] <= now - self.window:
            recent.popleft()
        if not recent:
            del self._failures[address]
            return None
        return recent
