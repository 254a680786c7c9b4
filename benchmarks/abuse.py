"""A real player's ``GET /api/state`` while the host is abused from the players' own address.

Issue 15: 300 idle sockets, 300 sockets sending one header line every 2 s, or one token opening
64 event streams must leave a real player's ``/api/state`` p99 under 100 ms. Each scenario runs
on a fresh headless host process (``_host.HostProcess``), all on 127.0.0.1 (the abuser shares
the player's address, as behind one proxy); a run measures 200 requests on fresh connections
(the worst case for a phone: a new TCP connection each time). Figures are medians of ``RUNS``
runs; the load average is printed with them (the machine is shared).

Run: ``python -m benchmarks.abuse [--runs 3]``.
"""

from __future__ import annotations

import argparse
import http.client
import os
import socket
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

from benchmarks._host import HostProcess, percentile, print_table

RUNS = 3
REQUESTS = 200
SOCKETS = 300
TARGET_P99_MS = 100.0


def state_latency(port: int, token: str, timeout: float = 10.0) -> float:
    """Seconds for one ``GET /api/state`` on a fresh connection; ``inf`` when not answered."""
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", "/api/state", headers={"Authorization": f"Bearer {token}"})
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            return float("inf")
    except OSError:
        return float("inf")
    finally:
        connection.close()
    return time.perf_counter() - started


@contextmanager
def nothing(port: int, token: str) -> Iterator[None]:
    """The baseline: no abuse at all."""
    yield


@contextmanager
def idle_sockets(port: int, token: str) -> Iterator[None]:
    """``SOCKETS`` connections that send nothing."""
    socks = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(SOCKETS)]
    try:
        yield
    finally:
        for sock in socks:
            sock.close()


@contextmanager
def slow_sockets(port: int, token: str) -> Iterator[None]:
    """``SOCKETS`` connections sending one header line every 2 s (never a whole request)."""
    socks = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(SOCKETS)]
    stop = threading.Event()

    def trickle() -> None:
        line = 0
        while not stop.wait(2.0):
            line += 1
            for sock in socks:
                try:
                    sock.sendall(f"X-Slow-{line}: y\r\n".encode())
                except OSError:
                    pass

    for sock in socks:
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: x\r\n")
    thread = threading.Thread(target=trickle, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(5)
        for sock in socks:
            sock.close()


@contextmanager
def many_streams(port: int, token: str) -> Iterator[None]:
    """The player's own token opens 64 event streams (read by nobody): the old thread count."""
    socks = []
    for _ in range(64):
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.sendall(f"GET /api/events?token={token} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        socks.append(sock)
    try:
        yield
    finally:
        for sock in socks:
            sock.close()


SCENARIOS: dict[str, Callable[[int, str], AbstractContextManager[None]]] = {
    "no abuse": nothing,
    f"{SOCKETS} idle sockets": idle_sockets,
    f"{SOCKETS} slow-header sockets": slow_sockets,
    "64 streams of one token": many_streams,
}


def one_run(name: str, requests: int = REQUESTS, timeout: float = 10.0) -> tuple[float, float, int]:
    """(p50 ms, p99 ms, unanswered) for ``requests`` calls under scenario ``name``."""
    with HostProcess() as host:
        _, token = host.http.join("Ana", host.room)
        abuse = SCENARIOS[name]
        with abuse(host.port, token):
            time.sleep(0.5)  # let the server take in the abuse
            samples = []
            for _ in range(requests):
                samples.append(state_latency(host.port, token, timeout))
                time.sleep(0.01)
    unanswered = sum(1 for s in samples if s == float("inf"))
    return percentile(samples, 50) * 1000, percentile(samples, 99) * 1000, unanswered


def main(argv: list[str] | None = None) -> list[tuple[str, str, str]]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--requests", type=int, default=REQUESTS)
    parser.add_argument("--timeout", type=float, default=10.0, help="per request, seconds")
    args = parser.parse_args(argv)
    rows = []
    for name in SCENARIOS:
        runs = [one_run(name, args.requests, args.timeout) for _ in range(args.runs)]
        p50 = statistics.median(r[0] for r in runs)
        p99 = statistics.median(r[1] for r in runs)
        lost = max(r[2] for r in runs)
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        print(f"{name}: p99 per run {[round(r[1], 1) for r in runs]} ms, load {load}", flush=True)
        rows.append(
            (
                f"/api/state with {name}, p50 / p99 (median of {args.runs})",
                f"{p50:.1f} / {p99:.1f} ms" + (f", {lost} unanswered" if lost else ""),
                f"p99 < {TARGET_P99_MS:.0f} ms",
            )
        )
    print_table(rows)
    print(f"load average: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return rows


if __name__ == "__main__":
    main()
