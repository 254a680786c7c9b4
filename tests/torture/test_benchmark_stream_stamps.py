"""The benchmarks' phones reader times each message twice (issue 18 item 6, honest figures):
when it took the message in, and when the message reached the phone's socket. The reader
shares the machine's cores with the server, so it can be late; the second time must not be."""

from __future__ import annotations

import socket
import sys
import threading
import time

import pytest

from benchmarks._host import StreamHub

LATE = 0.3


def one_message_server(sent: list[float], ready: threading.Event) -> tuple[socket.socket, int]:
    """A listening socket whose thread answers one event stream with one message (step 5),
    noting when it sent it."""
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
    assert received - sent[0] >= LATE  # the reader took it in late
    assert -0.001 < reached - sent[0] < LATE / 3  # the socket had it at once (clocks: ±1 ms)
    assert hub.waited_ms() >= 0.0
