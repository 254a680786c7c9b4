"""The queue of lines waiting to be said, and the rule that keeps the voice with the game.

A dealer who is still describing a swap three turns ago is worse than a silent one. So
when lines pile up (a slow engine, a burst of bot moves) the queue drops stale lines:

- routine lines (whose turn, keeps, swaps, joins, the cut's first half) once they are more
  than ``max_lag_s`` late and anything newer waits — the TV already shows these;
- a "whose turn" prompt as soon as a later turn has begun;
- the moments of the game (a call, the reveal, a lost life, an elimination, the winner,
  a new round) only when ``KEY_LAG_FACTOR`` times that late and a newer moment
  waits: dropping "Cuckoo!" or "Bo is out!" to save a second would be the worse host.

The newest line is never dropped for being old, so the voice always catches up with the
present rather than going quiet. Pure and clock-free (``now`` is passed in) so the policy
is tested without threads.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

#: Routine lines: they go unsaid once late. Every other kind is a moment of the game.
MINOR_KINDS: frozenset[str] = frozenset(
    {"turn", "kept", "exchanged", "player_joined", "player_removed", "cut", "cut_taken"}
)
#: A moment of the game may be this many times ``max_lag_s`` late before it is dropped.
KEY_LAG_FACTOR = 2.0

#: Never more than this many lines wait; the oldest go first.
MAX_WAITING = 32
#: The dropped lines remembered for tests and the debug log: the latest ones only, since an
#: evening drops thousands (issue 18 item 5: memory stays flat). ``dropped_total`` counts all.
MAX_REMEMBERED_DROPS = 200


@dataclass(frozen=True)
class Line:
    """One phrase to say: its text, language, the event kind it came from, and when."""

    text: str
    lang: str
    kind: str
    born: float
    """``time.monotonic()`` when the event was announced."""
    batch: int
    """Which ``announce()`` call it came from: lines of one batch describe one moment."""


class LineQueue:
    """Thread-safe FIFO of lines with the staleness rule applied when a line is taken."""

    def __init__(self, max_lag_s: float = 2.0, max_waiting: int = MAX_WAITING) -> None:
        if max_lag_s <= 0:
            raise ValueError("max_lag_s must be positive")
        self.max_lag_s = max_lag_s
        self.max_waiting = max_waiting
        self._lines: deque[Line] = deque()
        self._dropped: deque[Line] = deque(maxlen=MAX_REMEMBERED_DROPS)
        self.dropped_total = 0
        self._ready = threading.Condition()
        self._closed = False

    def put(self, lines: list[Line]) -> None:
        with self._ready:
            self._lines.extend(lines)
            while len(self._lines) > self.max_waiting:
                self._drop(self._lines.popleft())
            self._ready.notify_all()

    def wait_for_line(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds until a line waits here or the queue closes."""
        with self._ready:
            if not self._lines and not self._closed:
                self._ready.wait(max(0.0, timeout))

    def close(self) -> None:
        """Wake every waiter; ``get`` returns None from now on."""
        with self._ready:
            self._closed = True
            self._ready.notify_all()

    def __len__(self) -> int:
        with self._ready:
            return len(self._lines)

    def peek(self) -> Line | None:
        with self._ready:
            return self._lines[0] if self._lines else None

    def withdraw(self, text: str) -> int:
        """Drop every waiting line that says ``text``; how many went.

        Why: a line can stop being true while it waits ("Zoé is away…" once her phone is back).
        Only the table knows that, so its owner (the TV) withdraws the line by what it says.
        """
        with self._ready:
            gone = [line for line in self._lines if line.text == text]
            for line in gone:
                self._lines.remove(line)
                self._drop(line)
            return len(gone)

    def _drop(self, line: Line) -> None:
        self._dropped.append(line)
        self.dropped_total += 1

    def dropped(self) -> list[Line]:
        """The latest lines dropped (at most ``MAX_REMEMBERED_DROPS``), oldest first, for
        tests, benchmarks and the debug log."""
        with self._ready:
            return list(self._dropped)

    def is_stale(self, line: Line, now: float, later: list[Line]) -> bool:
        """Should ``line`` go unsaid, given the lines queued after it?"""
        if not later:
            return False  # the newest line always gets said: the voice catches up
        if line.kind == "turn" and any(other.kind == "turn" for other in later):
            return True  # "Bo?" is wrong once it is Chloé's turn
        age = now - line.born
        if line.kind in MINOR_KINDS:
            return age > self.max_lag_s
        newer_moment = any(other.batch > line.batch for other in later)
        return newer_moment and age > self.max_lag_s * KEY_LAG_FACTOR

    def take(self, now: float) -> Line | None:
        """The next line worth saying now, dropping stale ones; None if none waits."""
        with self._ready:
            return self._take(now)

    def _take(self, now: float) -> Line | None:
        while self._lines:
            line = self._lines.popleft()
            if self.is_stale(line, now, list(self._lines)):
                self._drop(line)
                continue
            return line
        return None

    def wait_take(self, now_fn: Callable[[], float], timeout: float) -> Line | None:
        """Like ``take`` but waits up to ``timeout`` s for a line; ``now_fn()`` gives the time."""
        with self._ready:  # a re-entrant lock: the wait and the take are one step
            self.wait_for_line(timeout)
            if self._closed:
                return None
            return self._take(now_fn())
