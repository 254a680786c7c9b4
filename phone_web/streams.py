"""One writer thread for every phone's event stream (issue 18 item 1).

Why: a change reaches twenty phones. With a server thread blocked in each stream's generator,
every change woke twenty threads that then queued for the GIL to send almost the same bytes;
the last phone heard of a tap many milliseconds after the first, and each phone cost the
host a thread switch or two per change. Here the session's push only marks a stream as ready
(``Subscription.on_ready``) and one thread writes all the ready streams in turn, each with
one ``send``. The server's thread for each stream just waits for it to end.

The writer is transport, not game state: it holds no view, only subscriptions (the session's
queues) and sinks (``host/stream_sink.py``: the response's body on waitress). It runs only
while some stream is open, so an app that never streams never starts a thread.

What a stream is sent is what the per-thread generator in ``api.py`` sends (used where the
server offers no sink, e.g. Flask's test client): every update in order, ``event:
replaced`` when a newer stream of the same player took over, a heartbeat comment after
``heartbeat`` quiet seconds, and the end once the session closes it.
"""

from __future__ import annotations

import threading
import time
from typing import Protocol

from host.subscriptions import Subscription

#: A stream's first bytes, sent by the server's own thread along with the headers.
CONNECTED_MESSAGE = b": connected\n\n"
#: The last message of a stream whose player opened a newer one (the page stops reconnecting).
REPLACED_MESSAGE = b"event: replaced\ndata: {}\n\n"
HEARTBEAT_MESSAGE = b": heartbeat\n\n"
#: Bytes a phone may leave unread before its stream is ended (it reconnects and gets the
#: whole view again; each message is a whole view, so nothing is lost but stale tables).
#: About 250 messages: far past a phone that is merely slow, and the writer never blocks.
MAX_UNSENT_BYTES = 512 * 1024


class Sink(Protocol):
    """Where a stream's bytes go (``host.stream_sink.BodySink`` on waitress)."""

    def write(self, data: bytes) -> None:
        """Send ``data``; ``ConnectionError`` (or ``OSError``) once the phone is gone."""

    @property
    def unsent(self) -> int:
        """Bytes written but not yet taken by the phone."""


class Stream:
    """One phone's open event stream, as the writer holds it."""

    def __init__(self, subscription: Subscription, sink: Sink, writer: StreamWriter) -> None:
        self.subscription = subscription
        self._sink = sink
        self._writer = writer
        self._lock = threading.Lock()  # the writer's turn versus ``detach`` from the server
        self._open = True
        self._ended = threading.Event()
        self.last_sent = time.monotonic()

    @property
    def open(self) -> bool:
        return self._open

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` s for the stream to end; True once it has."""
        return self._ended.wait(timeout)

    def detach(self) -> None:
        """The server is done with this stream (the phone left): nothing more is written."""
        with self._lock:
            self._open = False
        self._ended.set()
        self._writer.forget(self)

    def deliver(self) -> None:
        """Write what the subscription holds; end the stream if it is over. Writer thread."""
        subscription = self.subscription
        with self._lock:
            if not self._open:
                return
            messages = [update.sse() for update in subscription.drain()]
            ending = subscription.closed
            if subscription.replaced:
                messages = [REPLACED_MESSAGE]  # a newer stream took over: stop at once
            if self._sink.unsent > MAX_UNSENT_BYTES:
                ending = True  # a phone that stopped reading: it will reconnect
                messages = []
            if messages:
                self._write(b"".join(messages))
            if ending:
                self._open = False
        if not self._open:
            self._ended.set()
            self._writer.forget(self)

    def beat(self) -> None:
        """A heartbeat, so proxies and phones see a live line. Writer thread."""
        with self._lock:
            if self._open:
                self._write(HEARTBEAT_MESSAGE)
        if not self._open:
            self._ended.set()
            self._writer.forget(self)

    def _write(self, data: bytes) -> None:
        """Send with the lock held; a failed send ends the stream (the phone is gone)."""
        try:
            self._sink.write(data)
        except OSError:
            self._open = False
            return
        self.last_sent = time.monotonic()


class StreamWriter:
    """The one thread that writes every attached stream (see the module's docstring)."""

    def __init__(self, heartbeat_seconds: float) -> None:
        self.heartbeat_seconds = heartbeat_seconds
        self._cond = threading.Condition(threading.Lock())
        self._streams: set[Stream] = set()
        self._ready: dict[Stream, None] = {}  # insertion-ordered: first ready, first written
        self._thread: threading.Thread | None = None

    @property
    def streams(self) -> int:
        """How many streams are attached now."""
        with self._cond:
            return len(self._streams)

    def attach(self, subscription: Subscription, sink: Sink) -> Stream:
        """From now on this writer sends ``subscription``'s updates to ``sink``."""
        stream = Stream(subscription, sink, self)
        with self._cond:
            self._streams.add(stream)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="stream-writer", daemon=True)
                self._thread.start()
        subscription.on_ready(lambda: self._mark_ready(stream))
        return stream

    def forget(self, stream: Stream) -> None:
        stream.subscription.on_ready(None)
        with self._cond:
            self._streams.discard(stream)
            self._ready.pop(stream, None)
            self._cond.notify()

    def _mark_ready(self, stream: Stream) -> None:
        """Called by the session's push (any thread): one cheap mark, one notify."""
        with self._cond:
            if stream in self._streams:
                self._ready[stream] = None
                self._cond.notify()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._ready:
                    if not self._streams:  # nothing to serve: the thread ends, attach restarts it
                        self._thread = None
                        return
                    timeout = self._until_next_heartbeat()
                    if timeout <= 0:
                        break
                    self._cond.wait(timeout)
                ready = list(self._ready)
                self._ready.clear()
                streams = list(self._streams)
            for stream in ready:
                stream.deliver()
            now = time.monotonic()
            for stream in streams:
                if stream.open and now - stream.last_sent >= self.heartbeat_seconds:
                    stream.beat()

    def _until_next_heartbeat(self) -> float:
        """Seconds until the stream quiet the longest is due a heartbeat (lock held)."""
        oldest = min(stream.last_sent for stream in self._streams)
        return oldest + self.heartbeat_seconds - time.monotonic()
