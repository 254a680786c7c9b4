"""Load: 14 phones hold event streams while a flood of valid and bogus requests arrives for 30 s.

What must hold: no 5xx and no failed connection; every action answered 200 was applied exactly
once (the answered steps are exactly the steps the table moved through) and a double tap of
the same request is always refused with 409; every stream is still live at the end (it has
every step, in order, and its heartbeats keep coming); streams whose phones vanish mid-way
give their server thread back (far more vanish than the server has threads, and the vanished
phones' ``connected`` flags drop to false once their last stream is gone).
"""

from __future__ import annotations

import random
import socket
import struct
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from host.network import SERVER_THREADS
from host.rules import game_moves
from tests.api.cuckoo_http_client import EventStream, Http, wait_until

DURATION_S = 30.0
#: The flood goes on past its 30 s until this many actions were applied (at most GRACE_S more):
#: on a loaded CI machine 30 s once gave only 36, and the test is about a real game's flood.
ENOUGH_APPLIED = 50
GRACE_S = 30.0
PHONES = 20
#: Seats whose streams keep vanishing. Issue 15: a player has one live stream, so a vanishing
#: phone must use a seat of its own (it would otherwise replace a steady phone's stream).
VANISHING = 6


class Flood:
    """Bounded worker threads hammering one server until a deadline; records every answer."""

    def __init__(
        self,
        url: str,
        port: int,
        tokens: dict[str, str],
        deadline: float,
        vanishing: list[str] | None = None,
    ) -> None:
        self.http = Http(url)
        self.port = port
        self.tokens = tokens
        self.vanishing = vanishing or list(tokens.values())
        self.deadline = deadline
        self.lock = threading.Lock()
        self.statuses: list[tuple[str, int]] = []
        self.applied: list[int] = []
        self.double_taps: list[int] = []
        self.errors: list[str] = []
        self.vanished = 0

    def _record(self, what: str, status: int) -> None:
        with self.lock:
            self.statuses.append((what, status))

    def over(self) -> bool:
        """Past the deadline with enough actions applied, or past the grace period anyway."""
        now = time.monotonic()
        with self.lock:
            enough = len(self.applied) > ENOUGH_APPLIED
        return now >= self.deadline + GRACE_S or (now >= self.deadline and enough)

    def run(self, work: Callable[[random.Random], None], seed: int) -> threading.Thread:
        def loop() -> None:
            rng = random.Random(seed)
            while not self.over():
                try:
                    work(rng)
                except Exception as error:  # noqa: BLE001 - every failure is reported
                    with self.lock:
                        self.errors.append(repr(error))

        thread = threading.Thread(target=loop, daemon=True)
        thread.start()
        return thread

    def player(self, rng: random.Random) -> None:
        """A real phone: read my view, tap one of my buttons; sometimes tap twice."""
        pid = rng.choice(list(self.tokens))
        token = self.tokens[pid]
        status, view = self.http.call("GET", "/api/state", token=token)
        self._record("state", status)
        if status != 200 or not game_moves(view["can"]):
            return
        call = (token, rng.choice(game_moves(view["can"])), view["step"])
        status, body = self.http.act(*call)
        self._record("action", status)
        if status == 200:
            with self.lock:
                self.applied.append(body["step"])
            if rng.random() < 0.3:
                again, _ = self.http.act(*call)
                self._record("double tap", again)
                with self.lock:
                    self.double_taps.append(again)

    def bogus(self, rng: random.Random) -> None:
        """Everything a confused or hostile client could send; each must get a 4xx."""
        token = rng.choice(list(self.tokens.values()))
        calls: list[tuple[str, str, Any, str | None, bytes | None]] = [
            ("POST", "/api/action", {"action": "keep", "step": 0}, "not-a-token", None),
            ("POST", "/api/action", None, token, b"{broken"),
            ("POST", "/api/action", {"action": "fly", "step": 10**6}, token, None),
            ("POST", "/api/action", {"action": "keep", "step": -1}, token, None),
            ("POST", "/api/action", {"action": "keep", "step": "7"}, token, None),
            ("POST", "/api/action", None, token, b'{"pad": "' + b"x" * 6000 + b'"}'),
            ("POST", "/api/join", {"name": "", "room": "TEST"}, None, None),
            ("POST", "/api/join", {"name": "Phone 1", "room": "TEST"}, None, None),
            ("POST", "/api/join", {"name": "Zed", "room": "NOPE"}, None, None),
            ("POST", "/api/join", {"name": "Zed", "room": "TEST"}, None, None),  # table full
            ("GET", "/api/state", None, None, None),
            ("GET", "/api/events?token=nope", None, None, None),
            ("GET", "/api/table?room=NOPE", None, None, None),
            ("DELETE", "/api/state", None, token, None),
            ("GET", "/no/such/page", None, None, None),
        ]
        method, path, body, auth, raw = rng.choice(calls)
        status, _ = self.http.call(method, path, body, token=auth, raw=raw)
        self._record(f"bogus {method} {path[:20]}", status)
        if not 400 <= status < 500:
            with self.lock:
                self.errors.append(f"bogus {method} {path[:40]} got {status}")

    def vanisher(self, rng: random.Random) -> None:
        """A phone opens its stream, reads the first view, and disappears (or is reset)."""
        token = rng.choice(self.vanishing)
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=10)
        try:
            sock.sendall(f"GET /api/events?token={token} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            first = sock.recv(4096)
            if not first.startswith(b"HTTP/1.1 200"):
                with self.lock:
                    self.errors.append(f"stream refused: {first[:40]!r}")
            if rng.random() < 0.5:  # an abortive close (RST), like a phone losing Wi-Fi
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        finally:
            sock.close()
        with self.lock:
            self.vanished += 1
        time.sleep(rng.uniform(0.05, 0.15))


@pytest.mark.slow
def test_20_streams_survive_a_30_second_flood_without_loss_or_5xx(
    make_session: Any, live_server: Any
) -> None:
    server = live_server(make_session("H7", saved=True), heartbeat_seconds=1.0)
    http = Http(server.url)
    tokens: dict[str, str] = {}
    streams: dict[str, EventStream] = {}
    try:
        for i in range(PHONES):
            joined = http.join(f"Phone {i + 1}")
            tokens[joined["player_id"]] = joined["token"]
            if i < PHONES - VANISHING:
                streams[joined["player_id"]] = EventStream(server.url, joined["token"])
                streams[joined["player_id"]].start()
        first_step = server.session.step
        vanishing = list(tokens.values())[PHONES - VANISHING :]
        flood = Flood(server.url, server.port, tokens, time.monotonic() + DURATION_S, vanishing)
        workers = [flood.run(flood.player, seed) for seed in (1, 2, 3)]
        workers += [flood.run(flood.bogus, seed) for seed in (4, 5)]
        workers += [flood.run(flood.vanisher, seed) for seed in (6, 7, 8, 9)]
        for worker in workers:
            worker.join(DURATION_S + GRACE_S + 30)
        assert not any(worker.is_alive() for worker in workers)

        assert not flood.errors, flood.errors[:5]
        assert not [s for s in flood.statuses if s[1] >= 500]
        final_step = server.session.step
        assert sorted(flood.applied) == list(range(first_step + 1, final_step + 1))
        assert len(flood.applied) > ENOUGH_APPLIED  # the flood really played
        assert flood.double_taps and set(flood.double_taps) == {409}
        assert flood.vanished > 2 * SERVER_THREADS  # more than the server has threads

        for pid, stream in streams.items():
            assert stream.wait_for(lambda v: bool(v) and v[-1]["step"] == final_step), pid
            steps = [view["step"] for view in stream.snapshot()]
            assert steps == sorted(steps), f"{pid}: out of order"
            assert set(steps) == set(range(steps[0], final_step + 1)), f"{pid}: missed a step"
            assert not stream.ended.is_set(), pid
        beats = {pid: stream.comments for pid, stream in streams.items()}
        assert wait_until(lambda: all(streams[p].comments > beats[p] for p in streams), 10)

        gone = list(streams)[:5]
        for pid in gone:
            streams.pop(pid).close()

        def disconnected() -> bool:
            players = {p["id"]: p for p in server.session.view(None)["players"]}
            return all(not players[pid]["connected"] for pid in gone) and all(
                players[pid]["connected"] for pid in streams
            )

        assert wait_until(disconnected, 10), "a vanished stream still holds its player"
        assert http.call("GET", "/healthz") == (200, "ok")
    finally:
        for stream in streams.values():
            stream.close()
