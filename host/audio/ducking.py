"""How loud music and effects are while the host speaks: a pure function of time.

Why pure: the mixer thread reads ``Ducker.gain(now)`` every ``TICK_S`` and sets its channels'
volumes; tests read the same ``gain`` at the same ticks to render a mix offline and measure
that the music drops by ``DEPTH_DB`` within 100 ms of a line and comes back after it.
"""

from __future__ import annotations

import math

#: How far music and effects drop under speech.
DEPTH_DB = -12.0
#: The drop takes this long (with the mixer's tick and the device's buffer, under 100 ms).
FALL_S = 0.05
#: Coming back up after a line is gentler.
RISE_S = 0.4
#: The mixer thread applies the gain this often while it moves.
TICK_S = 0.01


def db_to_gain(db: float) -> float:
    return float(10 ** (db / 20))


def gain_to_db(gain: float) -> float:
    return 20 * math.log10(max(gain, 1e-9))


def _towards(start: float, target: float, elapsed: float, seconds: float) -> float:
    if seconds <= 0 or elapsed >= seconds:
        return target
    return start + (target - start) * max(0.0, elapsed) / seconds


class Ducker:
    """The ducking gain (1.0 = full, ``db_to_gain(DEPTH_DB)`` = under speech) at any time.

    ``speak(now, seconds)`` is called when a line starts (its length is known), ``hush(now)``
    when it is cut short. The gain moves in straight lines, so it is never a jump (a click).
    """

    def __init__(
        self, depth_db: float = DEPTH_DB, fall_s: float = FALL_S, rise_s: float = RISE_S
    ) -> None:
        self.ducked = db_to_gain(depth_db)
        self.fall_s = fall_s
        self.rise_s = rise_s
        self._since = 0.0  # when the last line started
        self._from = 1.0  # the gain then
        self._until: float | None = None  # when it ends (None: no line yet)

    def speak(self, now: float, seconds: float) -> None:
        current = self.gain(now)
        self._since, self._from, self._until = now, current, now + max(0.0, seconds)

    def hush(self, now: float) -> None:
        if self._until is not None and now < self._until:
            self._until = max(self._since, now)

    def speaking(self, now: float) -> bool:
        return self._until is not None and now < self._until

    def gain(self, now: float) -> float:
        if self._until is None:
            return self._from
        fall = self.fall_s * max(0.0, self._from - self.ducked) / max(1e-9, 1.0 - self.ducked)
        if now < self._until:
            return _towards(self._from, self.ducked, now - self._since, fall)
        low = _towards(self._from, self.ducked, self._until - self._since, fall)
        rise = self.rise_s * (1.0 - low) / max(1e-9, 1.0 - self.ducked)
        return _towards(low, 1.0, now - self._until, rise)

    def next_move(self, now: float) -> float | None:
        """When the gain next changes: ``now`` while it moves, the end of the line while it
        rests under speech, None when it rests at full level (the mixer may sleep till then)."""
        if self.speaking(now):
            return now if self.gain(now) > self.ducked else self._until
        return now if self.gain(now) < 1.0 else None
