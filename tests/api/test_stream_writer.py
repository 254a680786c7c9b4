"""Issue 18 item 1: the thread that changes the table writes every phone's event stream.

Unit tests drive ``StreamWriter`` with recording sinks; the last tests run it behind waitress
(``live_server``) to show the real server hands its streams over.
"""

from __future__ import annotations

import threading
from typing import Any, cast

from host.rules import View
from host.subscriptions import Subscription, Update
from phone_web.streams import (
    HEARTBEAT_MESSAGE,
    MAX_UNSENT_BYTES,
    REPLACED_MESSAGE,
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
        self._lock = threading.Lock()

    def write(self, data: bytes) -> None:
        if self.fail:
            raise ConnectionError("gone")
        with self._lock:
            self.writes.append((threading.get_ident(), data))

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
