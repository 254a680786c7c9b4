"""Phones first: the TV's drawing gives way while a phone's request is being served.

Why: the TV draws in Python on its own thread, holding the GIL. A phone's tap is served on a
server thread that lets go of the GIL at every send to the other phones and must take it back
each time; when the TV is drawing meanwhile, taking it back waits until the TV's thread lets
go, which pure Python code does only every switch interval (5 ms). And with the TV leading
(``host/pacing.py``) a phone may act in the very frame in which the TV starts the last move's
beat, so taps land in the TV's drawing more often than by chance. Measured with 20 phones
(issue 18.1, ``docs/benchmarks-history.md``, eleventh pass): tap → other phones p50 about 0.35 ms
faster with the TV giving way, in every run.

How: the server marks each request it serves (:meth:`PhonesFirst.serving`); between the
pieces of a frame the TV calls :meth:`PhonesFirst.give_way`, which waits, the GIL released,
while any request is being served. The waits of one frame are bounded (``budget``, reset by
:meth:`PhonesFirst.new_frame`), so a flood of requests delays a frame by at most that and
never stops the TV: a frame a few milliseconds late goes unseen at a party, a tap that lags
does not.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

#: The longest a frame waits for phones in all (a 60 fps frame is 16.7 ms; drawing takes ~2).
FRAME_BUDGET_SECONDS = 0.008


class PhonesFirst:
    """Requests being served, and a TV that waits for them within a budget per frame."""

    def __init__(
        self,
        budget: float = FRAME_BUDGET_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if budget < 0:
            raise ValueError(f"a frame's budget cannot be negative: {budget}")
        self.budget = budget
        self._clock = clock
        self._lock = threading.Lock()
        self._served = 0
        self._idle = threading.Event()
        self._idle.set()
        self._left = budget  # the TV's thread alone reads and writes it
        self.waited = 0.0
        """Seconds the TV has waited for phones, in all (for benchmarks and tests)."""

    @property
    def served_now(self) -> int:
        """How many requests are being served at this instant."""
        return self._served

    @contextmanager
    def serving(self) -> Iterator[None]:
        """A request is being served while inside: the TV gives way."""
        with self._lock:
            self._served += 1
            self._idle.clear()
        try:
            yield
        finally:
            with self._lock:
                self._served -= 1
                if self._served == 0:
                    self._idle.set()

    def new_frame(self) -> None:
        """A frame begins: its waits start from the whole budget again."""
        self._left = self.budget

    def give_way(self) -> None:
        """Called by the TV between pieces of a frame: while a request is being served, wait
        for it (the GIL released), within what is left of this frame's budget."""
        if self._idle.is_set() or self._left <= 0:
            return
        began = self._clock()
        self._idle.wait(self._left)
        spent = self._clock() - began
        self._left -= spent
        self.waited += spent


__all__ = ["FRAME_BUDGET_SECONDS", "PhonesFirst"]
