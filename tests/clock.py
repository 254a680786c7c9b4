"""A clock in the test's hands, for whatever takes an injected ``clock`` (the session, presence,
the bot runner, the guessing desk): it reads ``now``, which moves only when the test adds to it.
Never moved, it is a stopped clock: views built at two moments then agree on the time left."""

from __future__ import annotations


class Clock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
