"""The host's own stalls: time the process did not run (``kill -STOP``, a machine that froze or
swapped; where the clock counts sleep, a closed laptop lid), told apart from an ordinary wait.

Why: the host's timers count on ``time.monotonic``, which keeps running while the process is
stopped. A timer that wakes after such a stall would find its time long over and act at once —
a player timed out (H4) before the tap she sent during the freeze, still waiting in the kernel,
is even read. Each thread that sleeps in a loop knows how long it meant to sleep; a wake far
later than that means the host did not run, and the late time is given back to the timers
(``Session.host_stalled``, ``Pacer`` for the TV's watchdog).
"""

from __future__ import annotations

#: A wait that ends this many seconds later than asked means the host did not run. Ordinary
#: lateness (a busy interpreter, a slow Raspberry Pi) is a few milliseconds, far below.
LATE_SECONDS = 2.0


def stalled_for(asleep_at: float, wait: float, now: float) -> float:
    """Seconds the host did not run during a wait of ``wait`` seconds begun at ``asleep_at``
    and ended at ``now`` (all on one clock): how late it woke, or 0.0 when that is no stall."""
    late = now - asleep_at - wait
    return late if late > LATE_SECONDS else 0.0
