"""How many frames a second the TV asks for while something moves: 60, fewer while the host
cannot keep up.

Why (issue 18.4, ``docs/benchmarks-history.md``, twelfth pass): on a Pi-class host
(``benchmarks/pi.py``: a quarter of a core, 10 phones) a frame of the table costs about 3.7 ms of
CPU, so at 60 frames a second the TV alone took some 22 ms of every 100 ms the host may use. A tap's
few milliseconds on top used up the rest, and the host was stopped until the next period: frames
came 50 to 75 ms apart (p99 48 ms) and the taps' changes reached the phones late too (p99 33 ms). At
45 frames a second, in the same benchmark, frames came evenly (p99 24.5 ms) and taps reached the
phones within 7 ms (p99). A slow host's animation is a little less fluid, but never stops; a host
that keeps up (this machine's two cores) stays at 60.

How: the TV's loop reports how long each turn took while something moved. A turn is late when
it took more than two frames' time (a frame was missed). Two late turns within a second: the
next lower rate (60, 45, 30). After ``recover`` seconds without a late pair at a lower rate,
the next higher rate is tried; if it brings a late pair within ``probation`` seconds, the TV
steps back down and waits twice as long before trying again (at most ``longest_wait``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

log = logging.getLogger(__name__)

RATES = (60, 45, 30)
"""Frames a second while something moves, from the one wanted to the lowest allowed."""


class FrameRate:
    """The frame rate the TV asks for while something moves, lowered while turns come late."""

    def __init__(
        self,
        rates: Sequence[int] = RATES,
        *,
        late_pair_within: float = 1.0,
        recover: float = 20.0,
        probation: float = 10.0,
        longest_wait: float = 320.0,
    ) -> None:
        if not rates or list(rates) != sorted(rates, reverse=True) or min(rates) <= 0:
            raise ValueError(f"frame rates must be positive and falling: {rates!r}")
        self.rates = tuple(rates)
        self._late_pair_within = late_pair_within
        self._first_wait = recover
        self._wait = recover
        self._probation = probation
        self._longest_wait = longest_wait
        self._index = 0
        self._last_late: float | None = None
        self._changed_at: float | None = None  # when the rate last changed (loop clock)
        self._raised_at: float | None = None  # when it was last raised, while on probation
        self.changes = 0
        """How often the rate changed (for tests and benchmarks)."""

    @property
    def fps(self) -> int:
        """The frames a second to ask for now."""
        return self.rates[self._index]

    def turn(self, now: float, took: float) -> None:
        """A turn of the loop while something moved ended at ``now`` (seconds, the loop's
        clock), ``took`` seconds after the one before."""
        if self._changed_at is None:
            self._changed_at = now
        if took > 2.0 / self.fps:
            late_pair = self._last_late is not None and now - self._last_late <= (
                self._late_pair_within
            )
            self._last_late = now
            if late_pair:
                self._lower(now)
                return
        self._maybe_raise(now)

    def _lower(self, now: float) -> None:
        self._last_late = None
        if self._raised_at is not None and now - self._raised_at <= self._probation:
            self._wait = min(self._wait * 2.0, self._longest_wait)  # the higher rate failed
        self._raised_at = None
        if self._index + 1 < len(self.rates):
            self._set(self._index + 1, now, "frames came late")
        else:
            self._changed_at = now  # at the lowest rate: wait again before trying higher

    def _maybe_raise(self, now: float) -> None:
        if self._raised_at is not None and now - self._raised_at > self._probation:
            self._raised_at = None
            self._wait = self._first_wait  # the higher rate held
        if self._index == 0 or self._changed_at is None or now - self._changed_at < self._wait:
            return
        self._raised_at = now
        self._set(self._index - 1, now, "frames came on time")

    def _set(self, index: int, now: float, why: str) -> None:
        self._index = index
        self._changed_at = now
        self.changes += 1
        log.info("TV: %d frames a second while something moves (%s)", self.fps, why)


__all__ = ["RATES", "FrameRate"]
