"""What a subscriber of the session receives, and the queue it receives it on.

Why separate from the session: a subscription is the only thing front-ends (phone streams,
the TV, the voice) hold on to; it must never block the single writer, so it is a bounded
queue that drops the oldest update rather than wait for a reader that stopped reading.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from host.rules import EventDict, View
from host.view_text import ViewText, sse_message, view_json

_QUEUE_LIMIT = 512


@dataclass(frozen=True)
class Update:
    """One change as one recipient may see it: their full view and their visible events.

    ``text``: the change's shared encoding (``host.view_text``), so that ``sse`` costs a
    stream only its own ``me`` and ``can``. One ``Update`` may go to several subscribers of
    the same receiver; they then share its encoded message too.
    """

    step: int
    view: View
    events: list[EventDict] = field(default_factory=list)
    text: ViewText | None = field(default=None, compare=False, repr=False)

    def json(self) -> str:
        """``view`` as JSON (PHONE_API.md), encoded once and kept."""
        text: str | None = self.__dict__.get("_json")
        if text is None:  # two threads racing here both compute the same text: harmless
            text = view_json(self.view, self.text)
            object.__setattr__(self, "_json", text)
        return text

    def sse(self) -> bytes:
        """The event-stream message of ``view`` (PHONE_API.md), encoded once and kept."""
        message: bytes | None = self.__dict__.get("_sse")
        if message is None:  # spliced from the change's shared bytes when it has them
            message = sse_message(self.view, self.text)
            object.__setattr__(self, "_sse", message)
        return message


class Subscription:
    """A recipient's queue of updates. Never blocks the writer; drops the oldest if ignored."""

    def __init__(
        self, player_id: str | None, presence: bool, on_close: Callable[[Subscription], None]
    ) -> None:
        self.player_id = player_id
        self.presence = presence
        self._queue: deque[Update] = deque(maxlen=_QUEUE_LIMIT)
        self._ready = threading.Condition(threading.Lock())
        self._closed = False
        self._replaced = False
        self._on_close = on_close
        self._on_ready: Callable[[], None] | None = None

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def replaced(self) -> bool:
        """True once a newer stream of the same player took this one's place (issue 15)."""
        return self._replaced

    def replace(self) -> None:
        """A newer stream of the same player took over: stop at once, queued updates dropped.

        Why drop them: the reader must say "replaced" and hang up now, not first drain a
        backlog to a tab nobody looks at (and free its server thread for the new stream).
        """
        with self._ready:
            self._replaced = True
            self._closed = True
            self._queue.clear()
            self._ready.notify_all()
        self._tell_reader()

    def push(self, update: Update) -> None:
        with self._ready:
            if self._closed:
                return
            self._queue.append(update)
            self._ready.notify_all()
        self._tell_reader()

    def on_ready(self, reader: Callable[[], None] | None) -> None:
        """Call ``reader()`` (instead of waking a ``get``) whenever there is something to read.

        Why: a phone's stream is written by the thread that pushes (``phone_web/streams.py``),
        rather than by a thread of its own blocking in ``get``. ``reader`` runs on the pushing
        thread, outside this queue's lock: it must be quick and never block.
        """
        with self._ready:
            self._on_ready = reader
        if reader is not None and (self._queue or self._closed):
            reader()

    @property
    def wakes_a_thread(self) -> bool:
        """True when a push wakes a thread waiting in ``get`` (the TV, the voice, the bots),
        False when it is written at once by the pushing thread (a phone's stream, ``on_ready``).
        """
        return self._on_ready is None

    def _tell_reader(self) -> None:
        reader = self._on_ready
        if reader is not None:
            reader()

    def get(self, timeout: float | None = None) -> Update | None:
        """The next update, or None after ``timeout`` seconds or once closed and drained."""
        with self._ready:
            if not self._queue and not self._closed:
                self._ready.wait(timeout)
            return self._queue.popleft() if self._queue else None

    def drain(self) -> list[Update]:
        """Every queued update, oldest first, without waiting."""
        with self._ready:
            updates = list(self._queue)
            self._queue.clear()
            return updates

    def end(self) -> None:
        """Stop delivering (the session closed or the player was kicked); wakes the reader."""
        with self._ready:
            self._closed = True
            self._ready.notify_all()
        self._tell_reader()

    def close(self) -> None:
        """The reader is done (e.g. the phone's connection dropped)."""
        self.end()
        self._on_close(self)
