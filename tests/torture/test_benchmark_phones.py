"""The benchmarks' phones (issue 18 item 6, honest figures). Their reader times each message
twice: when it took the message in, and when the message reached the phone's socket; it shares
the machine's cores with the server, so it can be late, and the second time must not be. And
they wait for news rather than poll, so as not to take a core from the host they measure."""

from __future__ import annotations

import socket
import sys
import threading
import time
from typing import Any

import pytest

from benchmarks._host import StreamHub, next_move

LATE = 0.3


def one_message_server(sent: list[float], ready: threading.Event) -> tuple[socket.socket, int]:
    """A listening socket whose thread answers one event stream with one message (step 5),
    noting when it began and when it ended sending it: on a loaded machine the thread may wait
    for a core between its clock and the send, so only the two together bound the send."""
    listener = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        connection, _ = listener.accept()
        with connection:
            request = b""
            while b"\r\n\r\n" not in request:
                request += connection.recv(4096)
            sent.append(time.perf_counter())
            connection.sendall(
                b'HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: {"step":5}\n\n'
            )
            sent.append(time.perf_counter())
            ready.set()
            time.sleep(LATE * 3)  # the stream stays open while the reader catches up

    threading.Thread(target=serve, daemon=True).start()
    return listener, listener.getsockname()[1]


@pytest.mark.skipif(sys.platform != "linux", reason="the socket's stamp is Linux's")
def test_issue18_a_late_reader_still_times_the_message_when_it_reached_the_socket() -> None:
    sent: list[float] = []
    ready = threading.Event()
    listener, port = one_message_server(sent, ready)
    with listener:
        hub = StreamHub(port, {"p1": "token"})
        assert ready.wait(10)
        time.sleep(LATE)  # the reader is late: as if it waited that long for a core
        hub.start()
        try:
            assert hub.wait_all(5)
            with hub.lock:
                received, reached = hub.arrivals["p1"][5], hub.reached["p1"][5]
        finally:
            hub.close()
    began, ended = sent
    assert received - ended >= LATE  # the reader took it in late
    # The socket had it during the send (clocks: ±1 ms). A clean-clone run at load 15 found it
    # 0.31 s after ``began``: the server's thread had waited for a core before sending.
    assert began - 0.001 < reached < ended + LATE / 3
    assert hub.waited_ms() >= 0.0


def two_views_server(gap: float) -> tuple[socket.socket, int]:
    """A listening socket whose thread answers one event stream with a view where nobody may
    act yet, then ``gap`` seconds later one where ``p1`` may keep (as the TV lets phones act
    once it has played the last move)."""
    listener = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        connection, _ = listener.accept()
        with connection:
            request = b""
            while b"\r\n\r\n" not in request:
                request += connection.recv(4096)
            connection.sendall(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n"
                b'data: {"step":1,"phase":"turns","current":null,"can":[]}\n\n'
            )
            time.sleep(gap)
            connection.sendall(
                b'data: {"step":2,"phase":"turns","current":"p1","can":["keep"]}\n\n'
            )
            time.sleep(gap)

    threading.Thread(target=serve, daemon=True).start()
    return listener, listener.getsockname()[1]


def test_issue18_the_benchmarks_phones_wait_for_news_instead_of_polling() -> None:
    """The phones' side shares the host's cores: while nobody may act it must sleep until a
    view comes, not parse views every few milliseconds."""
    listener, port = two_views_server(gap=0.5)
    with listener:
        hub = CountingHub(port, {"p1": "token"})
        hub.start()
        try:
            assert hub.wait_all(1)  # its first view, as ``phones_streaming`` waits for
            began = time.monotonic()
            who, mine, can = next_move(hub, {"p1": "token"}, timeout=10)
            waited = time.monotonic() - began
        finally:
            hub.close()
    assert (who, mine["step"], can) == ("p1", 2, ["keep"])
    assert waited >= 0.4  # it did wait for the second view
    assert hub.views_read <= 4  # once per view that came (two reads each), not per poll


class CountingHub(StreamHub):
    """A ``StreamHub`` that counts the views its readers parse."""

    views_read = 0

    def view(self, pid: str) -> dict[str, Any]:
        self.views_read += 1
        return super().view(pid)


def test_issue18_a_thinking_player_taps_after_their_phone_shows_they_may() -> None:
    """``--think``: once a view offers a move, the player looks at it for that long before
    tapping, and taps from the view their phone shows then."""
    listener, port = two_views_server(gap=0.2)
    with listener:
        hub = StreamHub(port, {"p1": "token"})
        hub.start()
        try:
            assert hub.wait_all(1)
            began = time.perf_counter()  # the hub's clock
            who, mine, can = next_move(hub, {"p1": "token"}, timeout=10, think=0.4)
            waited = time.perf_counter() - began
            with hub.lock:
                offered = hub.arrivals["p1"][2] - began
        finally:
            hub.close()
    assert (who, mine["step"], can) == ("p1", 2, ["keep"])
    assert waited - offered >= 0.4  # it tapped no sooner than 0.4 s after the offer came
