"""Issue 15, finding 3: nobody can block the host without a token.

Before the fix, 200 idle TCP connections that send nothing (or 210 that send one header line
every 2 s) left 0 of 5 real requests answered within 5 s: waitress stopped accepting at its
connection limit and kept such sockets forever. Now idle and slow connections are dropped
within seconds, the oldest idle ones are evicted when too many are open, and the limit is far
above the worst real case — even from the players' own address (all of this runs on loopback).

The latency bound asserted here is generous (this machine is shared); the 100 ms p99 target
itself is measured by ``benchmarks/abuse.py`` (docs/benchmarks.md).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from benchmarks.abuse import state_latency
from host.network import MAX_STREAMS, SERVER_THREADS, BackgroundServer, ConnectionGuard
from phone_web import create_app
from tests.api.cuckoo_http_client import EventStream, Http, wait_until

#: A real phone's request must never wait this long, whatever the abuse (generous: shared CPU).
ANSWER_BOUND_S = 0.5


class Abusers:
    """``idle`` sockets that send nothing and ``slow`` ones sending a header line every 2 s."""

    def __init__(self, port: int, idle: int, slow: int) -> None:
        self.sockets: list[socket.socket] = []
        self.slow: list[socket.socket] = []
        self._stop = threading.Event()
        for index in range(idle + slow):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            self.sockets.append(sock)
            if index >= idle:
                sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: x\r\n")
                self.slow.append(sock)
        self._thread = threading.Thread(target=self._trickle, daemon=True)
        self._thread.start()

    def _trickle(self) -> None:
        line = 0
        while not self._stop.wait(2.0):
            line += 1
            for sock in self.slow:
                try:
                    sock.sendall(f"X-Slow-{line}: y\r\n".encode())
                except OSError:
                    pass

    def closed_by_server(self, socks: list[socket.socket]) -> int:
        """How many of ``socks`` the server has hung up on (non-blocking peek)."""
        gone = 0
        for sock in socks:
            sock.setblocking(False)
            try:
                if sock.recv(65536, socket.MSG_PEEK) == b"":
                    gone += 1
            except BlockingIOError:
                pass
            except OSError:
                gone += 1
        return gone

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        for sock in self.sockets:
            sock.close()


@pytest.fixture
def served(make_session: Any) -> Iterator[Any]:
    """``served(**BackgroundServer kwargs)`` → (server, session) on 127.0.0.1, stopped after."""
    started: list[Any] = []

    def start(**kwargs: Any) -> Any:
        session = make_session()
        server = BackgroundServer(
            create_app(session, heartbeat_seconds=1.0), "127.0.0.1", 0, **kwargs
        ).start()
        started.append(server)
        return server, session

    yield start
    for server in started:
        server.stop()


def test_issue15_threads_exceed_the_worst_case_of_streams() -> None:
    assert SERVER_THREADS >= MAX_STREAMS + 8


def test_issue15_300_idle_or_slow_sockets_leave_a_player_answered(served: Any) -> None:
    server, _ = served()
    http = Http(f"http://127.0.0.1:{server.port}")
    ana = http.join("Ana")
    stream = EventStream(f"http://127.0.0.1:{server.port}", ana["token"])
    stream.start()
    abusers = Abusers(server.port, idle=150, slow=150)
    try:
        latencies: list[float] = []
        deadline = time.monotonic() + 8.0  # inside the first idle period: nothing dropped yet
        while time.monotonic() < deadline and len(latencies) < 200:
            latencies.append(state_latency(server.port, ana["token"], timeout=3.0))
            time.sleep(0.02)
        latencies.sort()
        p99 = latencies[int(len(latencies) * 0.99) - 1]
        assert len(latencies) >= 50
        assert latencies[-1] < float("inf"), "a real player's request was not answered"
        assert p99 < ANSWER_BOUND_S, p99
        assert not stream.ended.is_set()
        assert http.call("GET", "/healthz") == (200, "ok")
    finally:
        abusers.close()
        stream.close()


def test_issue15_idle_and_slow_connections_are_dropped_within_seconds(served: Any) -> None:
    server, _ = served(idle_seconds=2, guard=ConnectionGuard(request_seconds=3))
    abusers = Abusers(server.port, idle=20, slow=20)
    try:
        idle, slow = abusers.sockets[:20], abusers.slow
        assert wait_until(lambda: abusers.closed_by_server(idle) == 20, 10, 0.2)
        assert wait_until(lambda: abusers.closed_by_server(slow) == 20, 10, 0.2)
    finally:
        abusers.close()


def test_issue15_the_oldest_idle_connections_are_evicted_when_too_many(served: Any) -> None:
    server, _ = served(idle_seconds=60, guard=ConnectionGuard(evict_above=40))
    http = Http(f"http://127.0.0.1:{server.port}")
    ana = http.join("Ana")
    stream = EventStream(f"http://127.0.0.1:{server.port}", ana["token"])
    stream.start()
    older = Abusers(server.port, idle=30, slow=0)
    time.sleep(1.5)
    newer = Abusers(server.port, idle=30, slow=0)
    try:
        # 60 idle + 1 stream > 40: the 21 oldest idle go; the stream (a running request) stays.
        assert wait_until(lambda: older.closed_by_server(older.sockets) >= 21, 10, 0.2)
        assert newer.closed_by_server(newer.sockets) == 0
        assert not stream.ended.is_set()
        assert http.state(ana["token"])["players"][0]["connected"] is True
    finally:
        older.close()
        newer.close()
        stream.close()


def _channel(
    *, running: bool = False, partial: object = None, pending: int = 0, last: float = 0.0
) -> Any:
    channel = SimpleNamespace(
        requests=[object()] if running else [],
        request=partial,
        total_outbufs_len=pending,
        last_activity=last,
        will_close=False,
        closed_now=False,
    )
    channel.handle_close = lambda: setattr(channel, "closed_now", True)
    return channel


def test_issue15_guard_closes_a_stream_whose_phone_stopped_reading() -> None:
    guard = ConnectionGuard(stall_seconds=30)
    frozen = _channel(running=True, pending=4096, last=100.0)
    reading = _channel(running=True, pending=4096, last=125.0)
    quiet = _channel(running=True, pending=0, last=0.0)  # a stream with nothing to send yet
    finished = _channel(pending=4096, last=100.0)  # a response done, never read to its end
    finished.will_close = True  # waitress's own idle sweep marked it; it cannot get to close
    guard.sweep([frozen, reading, quiet, finished], now=131.0)
    closed = [c.closed_now for c in (frozen, reading, quiet, finished)]
    assert closed == [True, False, False, True]


class _Parser:
    """A weak-referenceable stand-in for waitress's request parser."""


def test_issue15_guard_times_out_a_request_that_never_finishes_arriving() -> None:
    guard = ConnectionGuard(request_seconds=10)
    parser = _Parser()  # stands for waitress's parser of a half-received request
    slow = _channel(partial=parser, last=0.0)
    guard.sweep([slow], now=1000.0)  # first seen now
    assert not slow.will_close
    slow.last_activity = 1009.0  # it keeps sending a header line now and then
    guard.sweep([slow], now=1009.0)
    assert not slow.will_close
    guard.sweep([slow], now=1011.0)
    assert slow.will_close


@pytest.mark.skipif(not hasattr(socket, "TCP_USER_TIMEOUT"), reason="Linux-only socket option")
def test_issue15_a_phone_gone_without_a_fin_is_noticed_by_the_kernel(served: Any) -> None:
    """Accepted connections carry TCP_USER_TIMEOUT: unacknowledged data (heartbeats to a phone
    that slept or left without a FIN) aborts the connection, ending its stream."""
    from host.network import UNACKED_SECONDS

    server, _ = served()
    with socket.create_connection(("127.0.0.1", server.port), timeout=5):

        def channels() -> list[Any]:
            return [c for c in list(server._server._map.values()) if hasattr(c, "last_activity")]

        assert wait_until(lambda: bool(channels()), 5, 0.05)
        value = channels()[0].socket.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT)
        assert value == UNACKED_SECONDS * 1000


def test_issue15_a_frozen_phone_stream_is_closed_and_its_player_shows_away(served: Any) -> None:
    """A phone that stops reading (its browser froze) once the buffers are full: the guard
    closes the connection after ``stall_seconds``, the stream's thread is freed and the player
    shows as away. Small socket buffers make "full" come quickly."""
    server, session = served(guard=ConnectionGuard(stall_seconds=1))
    server._server.adj.socket_options = [(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)]
    http = Http(f"http://127.0.0.1:{server.port}")
    ana = http.join("Ana")
    frozen = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    frozen.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    frozen.connect(("127.0.0.1", server.port))
    try:
        frozen.sendall(f"GET /api/events?token={ana['token']} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        assert wait_until(lambda: session.view(None)["players"][0]["connected"], 5, 0.02)
        for round_ in range(150):  # every join and kick sends Ana's stream a whole view
            extra = session.join(f"Guest {round_}", "TEST").player_id
            session.kick(extra)
            if not session.view(None)["players"][0]["connected"]:
                break
        assert wait_until(lambda: not session.view(None)["players"][0]["connected"], 10, 0.05)
        assert server.guard.closed >= 1
        assert http.state(ana["token"])["players"][0]["connected"] is False
    finally:
        frozen.close()
