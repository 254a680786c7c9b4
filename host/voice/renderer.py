"""The render thread: the only thread that ever touches the speech engine.

pyttsx3 keeps one global espeak synthesiser, so every call into the engine (open, choose
a voice, render) runs here, one at a time. The thread is a daemon and nobody ever waits on
it without a timeout: an engine that hangs loses its lines to captions, it never holds up
the announcer, the render loop or the host's exit.
"""

from __future__ import annotations

import itertools
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

T = TypeVar("T")

#: Job priorities: a line about to be said goes before lines rendered ahead of need.
URGENT, AHEAD = 1, 2
_STOP_PRIORITY = 0


class Renderer:
    """Runs jobs for the engine on one daemon thread and hands back ``Future``s."""

    def __init__(self, name: str = "voice-render") -> None:
        self._jobs: queue.PriorityQueue[tuple[int, int, Any]] = queue.PriorityQueue()
        self._order = itertools.count()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._busy_since: float | None = None
        self._started = False

    def start(self) -> None:
        if not self._started:
            self._started = True
            self._thread.start()

    def submit(self, job: Callable[[], T], priority: int = URGENT) -> Future[T]:
        """Queue ``job`` for the render thread; cancel the future to skip it if not begun.

        ``AHEAD`` jobs (warming the cache) wait while any ``URGENT`` one is queued.
        """
        future: Future[T] = Future()
        self._jobs.put((priority, next(self._order), (job, future)))
        return future

    def busy_for(self, now: float | None = None) -> float:
        """Seconds the current job has been running (0 when idle): a hung engine shows here."""
        since = self._busy_since
        if since is None:
            return 0.0
        return (time.monotonic() if now is None else now) - since

    def close(self, timeout: float = 0.2) -> None:
        """Ask the thread to finish; wait at most ``timeout`` (a hung job is left behind)."""
        self._jobs.put((_STOP_PRIORITY, next(self._order), None))
        if self._started:
            self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            _, _, item = self._jobs.get()
            if item is None:
                return
            job, future = item
            if not future.set_running_or_notify_cancel():
                continue
            self._busy_since = time.monotonic()
            try:
                result = job()
            except BaseException as error:  # noqa: BLE001 - handed to whoever waits on the future
                future.set_exception(error)
            else:
                future.set_result(result)
            finally:
                self._busy_since = None
