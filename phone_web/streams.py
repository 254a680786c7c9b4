"""Every phone's event stream written by the thread that made the change (issue 18 item 1).

Why: a change reaches twenty phones. With a server thread blocked in each stream's generator,
every change woke twenty threads that then queued for the GIL to send almost the same bytes.
A single writer thread was measured next: it cut the CPU, but the hand-over to it (a wake-up,
then the GIL taken back from the thread still answering the tap) cost more than the sends and
doubled the slowest phones' wait. So nobody is woken: the session's push calls the stream's
``deliver`` (``Subscription.on_ready``) on the thread that made the change, which sends each
stream its bytes with one non-blocking ``send`` (about 35 µs a phone) and moves on. A timer
thread sends the heartbeats; the server's thread for each stream just waits for it to end.

This is transport, not game state: it holds no view, only subscriptions (the session's queues)
and sinks (``host/stream_sink.py``: the response's body on waitress). The timer runs only while
some stream is open, so an app that never streams never starts a thread.

What a stream is sent is written here once, whatever the server: every update in order,
``event: replaced`` when a newer stream of the same player took over, a heartbeat comment after
``heartbeat`` quiet seconds, and the end once the session closes it. A server with no sink
(Flask's test client) gets a ``RelaySink``: the pushers write into it and the request's own
thread yields what they wrote.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
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

    def end(self) -> None:
        """The stream is over: nothing more will be written."""


class RelaySink:
    """A sink for a server that offers none (Flask's test client): the pushers write into it,
    and the request's thread yields what they wrote (``relay``).

    Why: so the stream's protocol — updates, replaced, heartbeats, the end — is written once,
    in ``Stream``, whichever server runs the app.
    """

    def __init__(self) -> None:
        self._chunks: deque[bytes] = deque()
        self._ended = False
        self._cond = threading.Condition(threading.Lock())

    def write(self, data: bytes) -> None:
        with self._cond:
            self._chunks.append(data)
            self._cond.notify()

    @property
    def unsent(self) -> int:
        """Bytes written but not yet yielded to the server."""
        with self._cond:
            return sum(map(len, self._chunks))

    def end(self) -> None:
        """The stream ended: a ``relay`` yields what is left, then stops."""
        with self._cond:
            self._ended = True
            self._cond.notify()

    def relay(self, gone: Callable[[], bool], poll: float) -> Iterator[bytes]:
        """What the pushers write, in order, until the stream ends (or the phone is ``gone``,
        checked every ``poll`` seconds); what was written before the end is yielded first.

        The end is noted under the same lock as the bytes, so a relay about to wait cannot
        miss it (every write comes before the end).
        """
        while True:
            with self._cond:
                if not self._chunks and not self._ended:
                    self._cond.wait(poll)
                chunks = list(self._chunks)
                self._chunks.clear()
                ended = self._ended
            if chunks:
                yield b"".join(chunks)
            elif ended or gone():
                return


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
        self._let_go()

    def deliver(self) -> None:
        """Write what the subscription holds; end the stream if it is over.

        Runs on whichever thread pushed (never blocks: the socket is non-blocking and a phone
        that stopped reading is hung up); the lock keeps two pushers' writes in order.
        """
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
            self._let_go()

    def beat(self) -> None:
        """A heartbeat, so proxies and phones see a live line (the timer thread)."""
        with self._lock:
            if self._open:
                self._write(HEARTBEAT_MESSAGE)
        if not self._open:
            self._let_go()

    def _let_go(self) -> None:
        """The stream is over: its server thread may finish, and no push reaches it again."""
        self._ended.set()
        self._sink.end()
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
    """Attaches streams to their subscriptions, and sends their heartbeats from a timer thread."""

    def __init__(self, heartbeat_seconds: float) -> None:
        self.heartbeat_seconds = heartbeat_seconds
        self._cond = threading.Condition(threading.Lock())
        self._streams: set[Stream] = set()
        self._thread: threading.Thread | None = None

    @property
    def streams(self) -> int:
        """How many streams are attached now."""
        with self._cond:
            return len(self._streams)

    def attach(self, subscription: Subscription, sink: Sink) -> Stream:
        """From now on each push to ``subscription`` is written to ``sink`` by the pusher."""
        stream = Stream(subscription, sink, self)
        with self._cond:
            self._streams.add(stream)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._beat_while_open, name="stream-heartbeat", daemon=True
                )
                self._thread.start()
        subscription.on_ready(stream.deliver)  # what is queued already is written now
        return stream

    def forget(self, stream: Stream) -> None:
        stream.subscription.on_ready(None)
        with self._cond:
            self._streams.discard(stream)
            self._cond.notify()

    def _beat_while_open(self) -> None:
        """Heartbeats for quiet streams; the thread ends with the last stream."""
        while True:
            with self._cond:
                if not self._streams:  # attach starts a new thread when one is needed
                    self._thread = None
                    return
                quiet_since = [stream.last_sent for stream in self._streams if stream.open]
                due = min(quiet_since, default=None)
                timeout = None if due is None else due + self.heartbeat_seconds - time.monotonic()
                if timeout is None or timeout > 0:
                    self._cond.wait(timeout)  # forget() wakes it, so a closed stream is let go
                    continue
                streams = list(self._streams)
            now = time.monotonic()
            for stream in streams:
                if stream.open and now - stream.last_sent >= self.heartbeat_seconds:
                    stream.beat()
