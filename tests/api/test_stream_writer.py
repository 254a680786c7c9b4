"""Issue 18 item 1: the thread that changes the table writes every phone's event stream.

Unit tests drive ``StreamWriter`` with recording sinks; the last tests run it behind waitress
(``live_server``) to show the real server hands its streams over.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any, cast

from host.network import BackgroundServer
from host.rules import View
from host.stream_sink import SINK_KEY, BodySink
from host.subscriptions import Subscription, Update
from phone_web.streams import (
    HEARTBEAT_MESSAGE,
    MAX_UNSENT_BYTES,
    REPLACED_MESSAGE,
    RelaySink,
    Stream,
    StreamWriter,
)
from tests.api.cuckoo_http_client import EventStream, Http, wait_until

WAIT = 5.0


class RecordingSink:
    """Keeps what it is sent and which thread sent it; can fail or pretend to be stalled."""

    def __init__(self, *, fail: bool = False, unsent: int = 0) -> None:
        self.writes: list[tuple[int, bytes]] = []
        self.fail = fail
        self.unsent = unsent
        self.ends = 0
        self._lock = threading.Lock()

    def write(self, data: bytes) -> None:
        if self.fail:
            raise ConnectionError("gone")
        with self._lock:
            self.writes.append((threading.get_ident(), data))

    def end(self) -> None:
        self.ends += 1

    @property
    def data(self) -> bytes:
        with self._lock:
            return b"".join(data for _, data in self.writes)

    @property
    def threads(self) -> set[int]:
        with self._lock:
            return {thread for thread, _ in self.writes}


def _subscription() -> Subscription:
    return Subscription("p1", True, lambda _sub: None)


def _update(step: int) -> Update:
    return Update(step, cast(View, {"step": step}), [])


def _message(step: int) -> bytes:
    return f'data: {{"step":{step}}}\n\n'.encode()


def _writer_threads() -> list[threading.Thread]:
    """The heartbeat timers running (the only threads of their own the streams have)."""
    return [thread for thread in threading.enumerate() if thread.name == "stream-heartbeat"]


def test_issue18_the_pushing_thread_writes_every_stream_in_order_at_once() -> None:
    writer = StreamWriter(heartbeat_seconds=60)
    subscriptions = [_subscription() for _ in range(6)]
    sinks = [RecordingSink() for _ in subscriptions]
    streams = [writer.attach(sub, sink) for sub, sink in zip(subscriptions, sinks, strict=True)]
    for step in range(1, 4):
        for sub in subscriptions:
            sub.push(_update(step))
    expected = _message(1) + _message(2) + _message(3)
    assert all(sink.data == expected for sink in sinks)  # written before push returned
    writing = set().union(*(sink.threads for sink in sinks))
    assert writing == {threading.get_ident()}, "another thread was woken to write"
    assert writer.streams == 6
    for stream in streams:
        stream.detach()
    assert writer.streams == 0


def test_issue18_updates_queued_before_attaching_are_sent_first() -> None:
    writer = StreamWriter(heartbeat_seconds=60)
    sub, sink = _subscription(), RecordingSink()
    sub.push(_update(1))  # the session's first view, pushed at subscribe time
    stream = writer.attach(sub, sink)
    sub.push(_update(2))
    assert wait_until(lambda: sink.data == _message(1) + _message(2), WAIT)
    stream.detach()


def test_issue15_a_replaced_stream_says_so_and_ends_without_its_backlog() -> None:
    writer = StreamWriter(heartbeat_seconds=60)
    sub, sink = _subscription(), RecordingSink()
    stream = writer.attach(sub, sink)
    sub.push(_update(1))
    assert wait_until(lambda: sink.data == _message(1), WAIT)
    sub.replace()
    assert stream.wait(WAIT)
    assert sink.data == _message(1) + REPLACED_MESSAGE
    assert not stream.open and writer.streams == 0


def test_issue18_a_closed_subscription_gets_its_last_updates_then_ends() -> None:
    writer = StreamWriter(heartbeat_seconds=60)
    sub, sink = _subscription(), RecordingSink()
    stream = writer.attach(sub, sink)
    sub.push(_update(7))
    sub.end()  # the session closed, or the player was kicked
    assert stream.wait(WAIT)
    assert sink.data == _message(7)
    assert sink.ends == 1  # the sink is told once that nothing more comes


def test_issue18_a_quiet_stream_gets_heartbeats() -> None:
    writer = StreamWriter(heartbeat_seconds=0.05)
    sub, sink = _subscription(), RecordingSink()
    stream = writer.attach(sub, sink)
    assert wait_until(lambda: sink.data.count(HEARTBEAT_MESSAGE) >= 3, WAIT)
    stream.detach()


def test_issue18_a_phone_that_is_gone_ends_its_stream_not_the_others() -> None:
    writer = StreamWriter(heartbeat_seconds=60)
    gone, alive = RecordingSink(fail=True), RecordingSink()
    sub_gone, sub_alive = _subscription(), _subscription()
    gone_stream = writer.attach(sub_gone, gone)
    alive_stream = writer.attach(sub_alive, alive)
    sub_gone.push(_update(1))
    sub_alive.push(_update(1))
    assert gone_stream.wait(WAIT)
    assert wait_until(lambda: alive.data == _message(1), WAIT)
    assert alive_stream.open
    alive_stream.detach()


def test_issue18_a_phone_that_stopped_reading_is_hung_up_never_waited_for() -> None:
    writer = StreamWriter(heartbeat_seconds=60)
    stalled = RecordingSink(unsent=MAX_UNSENT_BYTES + 1)
    sub = _subscription()
    stream = writer.attach(sub, stalled)
    sub.push(_update(1))
    assert stream.wait(WAIT)
    assert stalled.data == b""  # nothing more piled onto its socket


def test_issue18_the_heartbeat_thread_runs_only_while_a_stream_is_open() -> None:
    assert wait_until(lambda: not _writer_threads(), WAIT)  # earlier tests' writers ended
    writer = StreamWriter(heartbeat_seconds=60)
    streams: list[Stream] = [writer.attach(_subscription(), RecordingSink()) for _ in range(3)]
    assert len(_writer_threads()) == 1
    for stream in streams:
        stream.detach()
    assert wait_until(lambda: not _writer_threads(), WAIT)
    again = writer.attach(_subscription(), RecordingSink())  # and starts again on demand
    assert len(_writer_threads()) == 1
    again.detach()


def test_issue18_waitress_hands_every_stream_to_the_app(live_server: Any) -> None:
    server = live_server()
    http = Http(server.url)
    joined = [http.join(name) for name in ("Ana", "Bea", "Cal", "Dan")]
    streams = [EventStream(server.url, player["token"]) for player in joined]
    app_writer = _app_writer(server)
    try:
        for stream in streams:
            stream.start()
        assert wait_until(lambda: app_writer.streams == 4, WAIT)
        assert len(_writer_threads()) == 1
        assert http.act(joined[0]["token"], "start", 0)[0] == 200
        for stream in streams:
            assert stream.wait_for(lambda views: any(v["step"] == 1 for v in views))
    finally:
        for stream in streams:
            stream.close()
    assert wait_until(lambda: app_writer.streams == 0, WAIT)  # closed phones are let go


def _app_writer(server: Any) -> StreamWriter:
    """The stream writer of the app that ``server`` serves."""
    return cast(StreamWriter, server.app.extensions["cuckoo_streams"])


def test_issue18_a_slow_reader_gets_every_chunk_in_order_over_waitress() -> None:
    """``BodySink`` sends a chunk itself while nothing is queued and queues it behind waitress's
    buffers otherwise. A reader slower than the writer (small reads, short pauses) fills the
    socket, then drains it while chunks are queued: every chunk must arrive whole and in
    order, none sent ahead of those queued before it."""
    sinks: list[BodySink] = []
    done = threading.Event()

    def app(environ: dict[str, Any], start_response: Any) -> Iterator[bytes]:
        start_response("200 OK", [("Content-Type", "text/plain")])

        def body() -> Iterator[bytes]:
            yield b"first"
            sinks.append(environ[SINK_KEY])  # from now on, the test's thread writes
            done.wait(WAIT)

        return body()

    chunks = [bytes([65 + i % 26]) * (20_000 + i) for i in range(300)]
    server = BackgroundServer(app, "127.0.0.1", 0).start()
    reader = socket.socket()
    reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    received: list[bytes] = []
    slow_reader = threading.Thread(
        target=lambda: received.extend(_read_chunked_body(reader, 2 + len(chunks), pause=0.001))
    )
    try:
        reader.connect(("127.0.0.1", server.port))
        reader.settimeout(WAIT)
        reader.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert wait_until(lambda: bool(sinks), WAIT)
        channel = sinks[0]._task.channel  # waitress's: the stall sweep reads its activity
        channel.last_activity = 0.0
        slow_reader.start()
        sinks[0].write(b"noted")
        assert time.time() - channel.last_activity < WAIT  # a direct send counts as activity
        queued = 0
        for chunk in chunks:
            sinks[0].write(chunk)
            queued += sinks[0].unsent > 0
        slow_reader.join(4 * WAIT)
    finally:
        done.set()
        reader.close()
        server.stop()
    assert 0 < queued < len(chunks)  # both paths ran: sent at once, and queued behind
    assert received == [b"first", b"noted", *chunks]


def _read_chunked_body(sock: socket.socket, count: int, pause: float) -> list[bytes]:
    """The first ``count`` chunks of a chunked HTTP response, read 64 KB at a time from
    ``sock`` with ``pause`` seconds between reads."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(4096)
    head, _, data = data.partition(b"\r\n\r\n")
    assert b"transfer-encoding: chunked" in head.lower()
    chunks: list[bytes] = []
    while len(chunks) < count:
        size_line, crlf, rest = data.partition(b"\r\n")
        size = int(size_line, 16) if crlf else -1
        if size < 0 or len(rest) < size + 2:
            time.sleep(pause)
            more = sock.recv(65536)
            assert more, "the stream ended early"
            data += more
            continue
        chunks.append(rest[:size])
        assert rest[size : size + 2] == b"\r\n"
        data = rest[size + 2 :]
    return chunks


def test_issue18_a_relay_sink_yields_what_the_pushers_wrote_then_ends_at_once() -> None:
    """Where the server offers no sink (Flask's test client) the request's thread relays
    what the pushers write: in order, and it stops as soon as the stream ends, not a poll
    later; what was written before the end still comes out."""
    writer = StreamWriter(heartbeat_seconds=60)
    sub, relay = _subscription(), RelaySink()
    sub.push(_update(1))  # queued before the stream is attached
    writer.attach(sub, relay)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.extend(relay.relay(lambda: False, poll=30.0)))
    reader.start()
    for step in (2, 3):
        sub.push(_update(step))
    started = time.monotonic()
    sub.end()
    reader.join(WAIT)
    assert not reader.is_alive() and time.monotonic() - started < WAIT  # not the 30 s poll
    assert b"".join(got) == _message(1) + _message(2) + _message(3)
    assert relay.unsent == 0 and writer.streams == 0


def test_issue15_a_relayed_stream_that_is_replaced_says_so_and_stops() -> None:
    writer = StreamWriter(heartbeat_seconds=60)
    sub, relay = _subscription(), RelaySink()
    writer.attach(sub, relay)
    sub.replace()
    assert b"".join(relay.relay(lambda: False, poll=0.1)) == REPLACED_MESSAGE
