"""Helpers the benchmarks share: the real host as a child process, JSON calls, and a reader that
follows many event streams from one thread.

Why a child process: the figures must be the host's own (its threads, its GIL, its saves to
disk), not a test double's; the load generator lives in this process and talks only to
127.0.0.1. Everything here is bounded: every wait has a deadline and every child is stopped.
"""

from __future__ import annotations

import http.client
import json
import math
import os
import random
import re
import selectors
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

ROOT = Path(__file__).resolve().parents[1]
JOIN_LINE = re.compile(r"Join at http://127\.0\.0\.1:(\d+)/\?room=(\w+)")
STEP_FIELD = re.compile(rb'"step":(\d+)')
TIMEOUT = 10.0
#: How long a tap waits for the TV to let phones know who may act.
ACTOR_TIMEOUT = 60.0
#: Linux's ``SO_TIMESTAMPNS`` (the same number on x86-64 and arm64; Python's ``socket`` does not
#: name it): the kernel stamps what a socket receives with the wall time it arrived, and
#: ``recvmsg`` hands over the stamp of the latest bytes it read.
SO_TIMESTAMPNS = 35
#: The game's own moves (``host.rules.game.ACTIONS``). A ``can`` list may also hold the VIP's
#: controls (How to play, a new evening) which a benchmark must never pick at random.
GAME_MOVES = frozenset({"start", "keep", "exchange", "cut", "deal", "new_game"})

#: Put before every TV host's probe: pygame imported as the party imports it
#: (``host.system.import_pygame``). A probe imports the TV's modules to patch them, and they
#: import pygame at their top, before the party's own first import: without this the probed
#: host loaded numpy and pkg_resources, which the party itself does not (round 37).
PARTY_PYGAME = """
from host.system import import_pygame
import_pygame()
"""
#: Replaces ``TVApp.render`` in the child so it prints when its first frame (the QR) is drawn.
FIRST_FRAME_PROBE = """
import sys, time
import host.tv.app as tv_app
_render = tv_app.TVApp.render
def _probe(self, surface):
    _render(self, surface)
    if self.frames_rendered == 1:
        print(f"FIRST_FRAME {time.time():.6f}", flush=True)
tv_app.TVApp.render = _probe
from host.cli import launch
launch(sys.argv[1:])
"""


class Server(Protocol):
    """What the phones need of a server: where it listens and its room."""

    port: int
    room: str


def print_table(rows: Sequence[tuple[str, str, str]]) -> None:
    """The small table every benchmark prints: figure, measured, target."""
    width = max(len(row[0]) for row in rows)
    print(f"{'figure':<{width}}  {'measured':>10}  target")
    for figure, measured, target in rows:
        print(f"{figure:<{width}}  {measured:>10}  {target}")


def percentile(samples: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile (no interpolation: a reported p99 is a real sample)."""
    ordered = sorted(samples)
    if not ordered:
        return float("nan")
    rank = max(1, min(len(ordered), round(pct / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def host_flags(state: Path) -> list[str]:
    """The command-line flags every benchmark host runs with: loopback, a free port, room
    BENCH, seed 42, its own state file, no turn clock."""
    return [
        "--bind",
        "127.0.0.1",
        "--port",
        "0",
        "--room",
        "BENCH",
        "--seed",
        "42",
        "--state",
        str(state),
        "--turn-timeout",
        "0",
    ]


class HostProcess:
    """``python -m host.cli`` on 127.0.0.1 with a temporary state file; ``tv=True`` keeps the TV
    (SDL dummy drivers) and prints the first frame's wall time via ``probe`` (a script that
    patches the host, then runs the command line; with the TV it must print ``FIRST_FRAME``,
    default ``FIRST_FRAME_PROBE``; ``PARTY_PYGAME`` runs before it). ``command``
    runs another server instead (it must print the same join line); ``preexec`` runs in the
    child before it starts (e.g. to enter a control group); ``extra_env`` is added to the
    child's environment."""

    def __init__(
        self,
        *flags: str,
        tv: bool = False,
        start_timeout: float = 30.0,
        state_dir: str | None = None,
        command: Sequence[str] | None = None,
        preexec: Callable[[], None] | None = None,
        probe: str | None = None,
        extra_env: Mapping[str, str] | None = None,
    ) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="cuckoo-bench-", dir=state_dir)
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "CI": "true",
            "SDL_VIDEODRIVER": "dummy",
            "SDL_AUDIODRIVER": "dummy",
            "XDG_CACHE_HOME": self._tmp.name,
            **(extra_env or {}),
        }
        base = host_flags(Path(self._tmp.name) / "state.json")
        if command is not None:  # another server speaking the same protocol (the floor)
            command = [*command, *flags]
        elif tv:
            script = PARTY_PYGAME + (probe or FIRST_FRAME_PROBE)
            command = [sys.executable, "-c", script, "--mute", *base, *flags]
        elif probe is not None:
            command = [sys.executable, "-c", probe, "--headless", *base, *flags]
        else:
            command = [sys.executable, "-m", "host.cli", "--headless", *base, *flags]
        self.started_wall = time.time()
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            preexec_fn=preexec,  # noqa: PLW1509 - only joins a cgroup (pi.py) before exec
        )
        self.lines: list[str] = []
        self.first_frame_wall: float | None = None
        self.join_line_wall: float | None = None
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.port = 0
        deadline = time.monotonic() + start_timeout
        while time.monotonic() < deadline and not self.port and self.process.poll() is None:
            time.sleep(0.005)
        if not self.port:
            self.stop()
            raise RuntimeError(f"the host did not start: {self.lines[-5:]}")
        self.room = "BENCH"
        self.http = Http(self.port)

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            now = time.time()
            line = line.rstrip("\n")
            self.lines.append(line)
            if line.startswith("FIRST_FRAME "):
                self.first_frame_wall = float(line.split()[1])
            elif (match := JOIN_LINE.search(line)) and not self.port:
                self.join_line_wall = now
                self.port = int(match.group(1))

    def wait_first_frame(self, timeout: float = 30.0) -> float:
        deadline = time.monotonic() + timeout
        while self.first_frame_wall is None and time.monotonic() < deadline:
            time.sleep(0.005)
        if self.first_frame_wall is None:
            raise RuntimeError(f"no first frame: {self.lines[-5:]}")
        return self.first_frame_wall

    def peak_rss_bytes(self) -> int:
        """VmHWM: the kernel's own record of the process's highest resident set size."""
        status = Path(f"/proc/{self.process.pid}/status").read_text(encoding="ascii")
        match = re.search(r"^VmHWM:\s+(\d+) kB", status, re.MULTILINE)
        return int(match.group(1)) * 1024 if match else 0

    def rss_bytes(self) -> int:
        """VmRSS: the resident set size now."""
        status = Path(f"/proc/{self.process.pid}/status").read_text(encoding="ascii")
        match = re.search(r"^VmRSS:\s+(\d+) kB", status, re.MULTILINE)
        return int(match.group(1)) * 1024 if match else 0

    def cpu(self) -> CpuMeter:
        """A meter of this process's CPU time (every thread, nanoseconds)."""
        return CpuMeter(self.process.pid)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self._tmp.cleanup()

    def __enter__(self) -> HostProcess:  # noqa: PYI034 - Self needs Python 3.11
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


class CpuMeter:
    """The CPU time a process spends between ``start()`` and ``stop()``, in milliseconds.

    Why per thread from ``/proc/PID/task/*/schedstat``: it counts nanoseconds, where the
    process-wide ``utime + stime`` (what ``psutil`` reads) counts 10 ms clock ticks — far too
    coarse for a server that spends microseconds per tap. A thread that is born after ``start()``
    counts from zero; one that ends before ``stop()`` loses its time (the host keeps its server
    threads, so this is rare; ``ticks_ms`` gives the coarse process-wide figure as a check).

    ``main_ms`` (after ``stop()``): the share of the process's main thread, whose task id is the
    process id. In the host with the TV that thread runs the TV and nothing else (the web
    server, the pacer and the bots have their own); in the headless host it only waits.

    ``waited_ms`` and ``main_waited_ms`` (after ``stop()``): how long the threads other than the
    main one, and the main one, were ready to run but waited on a run queue for a core (the
    second field of ``schedstat``): what the process lost to whatever else wanted the cores.
    """

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self._threads: dict[str, tuple[int, int]] = {}
        self._ticks = 0
        self.main_ms = 0.0
        self.waited_ms = 0.0
        self.main_waited_ms = 0.0

    def _sample(self) -> dict[str, tuple[int, int]]:
        """Each thread's (ns on a core, ns waiting for one)."""
        threads = {}
        for task in Path(f"/proc/{self.pid}/task").iterdir():
            try:
                ran, waited = (task / "schedstat").read_text().split()[:2]
                threads[task.name] = (int(ran), int(waited))
            except (OSError, ValueError):
                continue  # the thread ended meanwhile
        return threads

    def _ticks_now(self) -> int:
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime + stime (fields 14 and 15)

    def start(self) -> None:
        self._threads, self._ticks = self._sample(), self._ticks_now()

    def stop(self) -> tuple[float, float]:
        """(ms of CPU by schedstat, ms by clock ticks) since ``start()``."""
        now = self._sample()
        ran = {tid: ns - self._threads.get(tid, (0, 0))[0] for tid, (ns, _) in now.items()}
        waited = {tid: ns - self._threads.get(tid, (0, 0))[1] for tid, (_, ns) in now.items()}
        used = sum(ran.values())
        main = str(self.pid)
        self.main_ms = ran.get(main, 0) / 1e6
        self.main_waited_ms = waited.get(main, 0) / 1e6
        self.waited_ms = (sum(waited.values()) - waited.get(main, 0)) / 1e6
        ticks = self._ticks_now() - self._ticks
        return used / 1e6, ticks * 1000.0 / os.sysconf("SC_CLK_TCK")


class Http:
    """One persistent keep-alive connection per instance (like a phone's browser)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self._connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)

    def call(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        for attempt in (1, 2):
            try:
                self._connection.request(method, path, body=data, headers=headers)
                response = self._connection.getresponse()
                text = response.read().decode("utf-8")
                break
            except (ConnectionError, http.client.HTTPException):
                self._connection.close()
                if attempt == 2:
                    raise
        try:
            return response.status, json.loads(text)
        except ValueError:
            return response.status, text

    def join(self, name: str, room: str) -> tuple[str, str]:
        status, body = self.call("POST", "/api/join", {"name": name, "room": room})
        if status != 201:
            raise RuntimeError(f"join refused: {status} {body}")
        return body["player_id"], body["token"]

    def close(self) -> None:
        self._connection.close()


def wall_minus_perf(tries: int = 3) -> float:
    """``time.time()`` − ``time.perf_counter()`` now: how to move a socket's stamp (wall time)
    to the clock the benchmarks time with. Read between two ``perf_counter`` readings, the
    tightest pair of ``tries``. Why: the hub read the wall clock, then ``perf_counter``; a
    reader thread that waited for a core between the two (a loaded machine: CI, with the suite
    on every core) moved every stamp that much later, and a test found a message 0.3 s late
    into a socket that had it during the send."""
    best_gap, best = math.inf, 0.0
    for _ in range(tries):
        before = time.perf_counter()
        wall = time.time()
        after = time.perf_counter()
        if after - before < best_gap:
            best_gap, best = after - before, wall - (before + after) / 2
    return best


class StreamHub(threading.Thread):
    """Follows many ``/api/events`` streams from one thread (``selectors``), timestamping each
    message as it arrives and keeping each phone's latest view text.

    Each message gets two times (``perf_counter`` seconds). ``arrivals``: when this reader took
    it in. ``reached`` (Linux): when the kernel put its bytes in the phone's socket, from the
    socket's own stamp. Why both: here the phones' reader shares the machine's cores with the
    server, and with the TV's thread when there is one, so it may wait for a core before it
    reads; a real phone is another device, and waits for nobody's core but its own. The stamp
    is of the latest bytes a read took, so when a reader late to read finds two messages
    waiting, the first gets the second's stamp: ``reached`` is never earlier than the truth.
    Elsewhere ``reached`` is ``arrivals``.

    Whoever waits for a view waits on ``changed``, told once per batch of reads, rather than
    polling: the phones' side must not take a core from the host it measures. (It polled every
    0.5 ms for a step and every 2 ms, parsing two views, for a move; while the TV plays a move
    that was 60–70 ms of this process's CPU per tap, on the same two cores as the host.)"""

    def __init__(self, port: int, tokens: dict[str, str]) -> None:
        super().__init__(daemon=True, name="stream-hub")
        self._selector = selectors.DefaultSelector()
        self._halt = threading.Event()
        self._stamped = sys.platform == "linux"
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)
        #: Messages taken in so far, every phone's: what a waiter for a new view watches.
        self.messages = 0
        self.arrivals: dict[str, dict[int, float]] = {pid: {} for pid in tokens}
        self.reached: dict[str, dict[int, float]] = {pid: {} for pid in tokens}
        self.latest: dict[str, bytes] = {}
        self._buffers: dict[str, bytes] = {}
        self.sockets: dict[str, socket.socket] = {}
        for pid, token in tokens.items():
            sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
            if self._stamped:
                sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
            sock.sendall(
                f"GET /api/events?token={token} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                "Accept: text/event-stream\r\n\r\n".encode()
            )
            sock.setblocking(False)
            self.sockets[pid] = sock
            self._buffers[pid] = b""
            self._selector.register(sock, selectors.EVENT_READ, pid)

    def run(self) -> None:
        while not self._halt.is_set():
            before = self.messages
            for key, _ in self._selector.select(0.05):
                offset = wall_minus_perf()
                now = time.perf_counter()
                pid = key.data
                try:
                    chunk, reached = self._receive(key.fileobj, now, offset)  # type: ignore[arg-type]
                except BlockingIOError:
                    continue
                except OSError:
                    chunk, reached = b"", now
                if not chunk:
                    self._selector.unregister(key.fileobj)
                    continue
                self._take(pid, chunk, now, reached)
            if self.messages != before:
                with self.changed:
                    self.changed.notify_all()

    def _receive(self, sock: socket.socket, now: float, offset: float) -> tuple[bytes, float]:
        """What the socket holds, and when its latest bytes reached it: the stamp (wall time)
        moved to ``now``'s clock (``perf_counter``) by ``offset`` (``wall_minus_perf``), and
        never later than ``now``."""
        if not self._stamped:
            return sock.recv(65536), now
        chunk, ancillary, _, _ = sock.recvmsg(65536, socket.CMSG_SPACE(16))
        for level, kind, data in ancillary:
            if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(data) >= 16:
                seconds, nanoseconds = struct.unpack("qq", data[:16])
                return chunk, min(now, seconds + nanoseconds / 1e9 - offset)
        return chunk, now

    def _take(self, pid: str, chunk: bytes, now: float, reached: float) -> None:
        buffer = self._buffers[pid] + chunk
        *messages, rest = buffer.split(b"\n\n")
        self._buffers[pid] = rest
        for message in messages:
            for line in message.split(b"\n"):
                if line.startswith(b"data: "):
                    match = STEP_FIELD.search(line)
                    with self.lock:
                        if match:
                            step = int(match.group(1))
                            self.arrivals[pid].setdefault(step, now)
                            self.reached[pid].setdefault(step, reached)
                        self.latest[pid] = line[6:]
                        self.messages += 1

    def waited_ms(self) -> float:
        """How long this reader has waited on a run queue for a core, in all (ms): the second
        field of its thread's ``schedstat``; 0.0 where there is none (not Linux)."""
        try:
            fields = Path(f"/proc/self/task/{self.native_id}/schedstat").read_text().split()
            return int(fields[1]) / 1e6
        except (OSError, ValueError, IndexError):
            return 0.0

    def view(self, pid: str) -> dict[str, Any]:
        with self.lock:
            return json.loads(self.latest[pid])  # type: ignore[no-any-return]

    def wait_all(self, step: int, timeout: float = TIMEOUT) -> bool:
        """Whether every stream received ``step`` within ``timeout`` seconds."""
        with self.changed:
            return self.changed.wait_for(
                lambda: all(step in got for got in self.arrivals.values()), timeout
            )

    def wait_news(self, seen: int, timeout: float) -> int:
        """Waits until a message comes in after the first ``seen`` (or ``timeout`` seconds);
        returns how many have come in."""
        with self.changed:
            self.changed.wait_for(lambda: self.messages != seen, timeout)
            return self.messages

    def close(self) -> None:
        self._halt.set()
        self.join(2)
        for sock in self.sockets.values():
            sock.close()
        self._selector.close()


@contextmanager
def phones_streaming(
    host: Server, count: int, name: str = "Phone"
) -> Iterator[tuple[Http, dict[str, str], StreamHub]]:
    """``count`` phones join ``host`` (``"<name> 1"`` …) and hold their event streams, each
    with its first view before the body runs; the streams and the HTTP client are closed after.
    Yields the HTTP client, the tokens by player id and the stream hub."""
    http = Http(host.port)
    tokens = dict(http.join(f"{name} {i + 1}", host.room) for i in range(count))
    hub = StreamHub(host.port, tokens)
    hub.start()
    try:
        if not hub.wait_all(0):
            raise RuntimeError("not every stream delivered its first view")
        yield http, tokens, hub
    finally:
        hub.close()
        http.close()


def actor_of(view: Mapping[str, Any]) -> str | None:
    """Who may act now, from any view: the current player, the next dealer, or the VIP."""
    phase = view["phase"]
    if phase == "turns":
        return view.get("current")
    if phase == "reveal":
        return view.get("next_dealer")
    return view.get("vip")


def next_move(
    hub: StreamHub, tokens: dict[str, str], timeout: float = ACTOR_TIMEOUT, think: float = 0.0
) -> tuple[str, dict[str, Any], list[str]]:
    """Who may act, their view and their game moves — once their phone shows them. With the
    TV the phones follow its pace (host/pacing.py): until it has played the last move nobody's
    view offers the next one (``current`` is still None), so the phones wait as people do.

    ``think``: seconds the player then looks at their phone before tapping (0: at once, the
    benchmarks' default). Why: with the TV, the news that one may act is the TV's own beat, so
    a phone that taps at once lands its tap in what the TV does right after its beat."""
    deadline = time.monotonic() + timeout
    seen = -1
    while True:
        seen = hub.wait_news(seen, max(0.0, deadline - time.monotonic()))
        view = hub.view(next(iter(tokens)))
        who = actor_of(view)
        mine = hub.view(who) if who is not None else view
        can = [move for move in mine["can"] if move in GAME_MOVES]
        if who is not None and can:
            if think > 0.0:
                time.sleep(think)
                mine = hub.view(who)
                can = [move for move in mine["can"] if move in GAME_MOVES]
            return who, mine, can
        if time.monotonic() > deadline:
            raise RuntimeError(f"nobody may act in phase {view['phase']}")


@dataclass(frozen=True)
class Tapped:
    """One tap as ``_tap`` made it: when it was sent (``perf_counter`` seconds), who tapped
    what (and whether they were the dealer), the new step, and the tap's own round trip in ms."""

    sent: float
    who: str
    action: str
    by_dealer: bool
    step: int
    round_trip: float


def _tap(
    http: Http, tokens: dict[str, str], hub: StreamHub, rng: random.Random, think: float = 0.0
) -> Tapped:
    """Whoever may act taps a random legal action (``think`` seconds after they may: see
    ``next_move``), and every stream receives the new step."""
    who, mine, can = next_move(hub, tokens, think=think)
    step, action = mine["step"], rng.choice(can)
    sent = time.perf_counter()
    status, body = http.call("POST", "/api/action", {"action": action, "step": step}, tokens[who])
    round_trip = (time.perf_counter() - sent) * 1000.0
    if status != 200:
        raise RuntimeError(f"tap refused: {status} {body}")
    if not hub.wait_all(step + 1):
        raise RuntimeError(f"a stream missed step {step + 1}")
    by_dealer = mine.get("dealer") == who  # the floor's views name no dealer
    return Tapped(sent, who, action, by_dealer, step + 1, round_trip)


def timed_tap(
    http: Http, tokens: dict[str, str], hub: StreamHub, rng: random.Random
) -> tuple[float, list[float], float]:
    """Whoever may act taps a random legal action; returns when it was sent and when each
    *other* phone's stream received the new step (``perf_counter`` seconds), and the tap's own
    round trip in ms."""
    tapped = _tap(http, tokens, hub, rng)
    with hub.lock:
        arrivals = [got[tapped.step] for pid, got in hub.arrivals.items() if pid != tapped.who]
    return tapped.sent, arrivals, tapped.round_trip


def one_tap(
    http: Http, tokens: dict[str, str], hub: StreamHub, rng: random.Random
) -> tuple[list[float], float]:
    """As ``timed_tap``; returns the ms from the tap's send to each other phone's stream
    receiving the new step, and the tap's own round trip in ms."""
    sent, arrivals, round_trip = timed_tap(http, tokens, hub, rng)
    return [(arrival - sent) * 1000.0 for arrival in arrivals], round_trip


@dataclass(frozen=True)
class TapTimes:
    """One tap, in ms from its send to each other phone: when the phones' reader took the new
    step in (``received``), and when it had reached their sockets (``reached``; see
    ``StreamHub``), with the tap itself (``tapped``: when it was sent, who tapped what, its
    round trip)."""

    received: list[float]
    reached: list[float]
    tapped: Tapped

    @property
    def round_trip(self) -> float:
        return self.tapped.round_trip


def tap_both_ways(
    http: Http, tokens: dict[str, str], hub: StreamHub, rng: random.Random, think: float = 0.0
) -> TapTimes:
    """As ``one_tap``, timed both when the reader took the step in and when it reached the
    sockets; the player taps ``think`` seconds after they may."""
    tapped = _tap(http, tokens, hub, rng, think)
    sent, step = tapped.sent, tapped.step
    with hub.lock:
        others = [pid for pid in hub.arrivals if pid != tapped.who]
        received = [(hub.arrivals[pid][step] - sent) * 1000.0 for pid in others]
        reached = [(hub.reached[pid][step] - sent) * 1000.0 for pid in others]
    return TapTimes(received, reached, tapped)


def load_average() -> str:
    """The 1, 5 and 15-minute load averages, for every benchmark's output."""
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())
