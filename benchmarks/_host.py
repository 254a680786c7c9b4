"""Helpers the benchmarks share: the real host as a child process, JSON calls, and a reader that
follows many event streams from one thread.

Why a child process: the figures must be the host's own (its threads, its GIL, its saves to
disk), not a test double's; the load generator lives in this process and talks only to
127.0.0.1. Everything here is bounded: every wait has a deadline and every child is stopped.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

ROOT = Path(__file__).resolve().parents[1]
JOIN_LINE = re.compile(r"Join at http://127\.0\.0\.1:(\d+)/\?room=(\w+)")
STEP_FIELD = re.compile(rb'"step":(\d+)')
TIMEOUT = 10.0
#: How long a tap waits for the TV to let phones know who may act.
ACTOR_TIMEOUT = 60.0
#: The game's own moves (``host.rules.game.ACTIONS``). A ``can`` list may also hold the VIP's
#: controls (How to play, a new evening) which a benchmark must never pick at random.
GAME_MOVES = frozenset({"start", "keep", "exchange", "cut", "deal", "new_game"})

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
from host.cli import main
sys.exit(main(sys.argv[1:]))
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
    default ``FIRST_FRAME_PROBE``). ``command``
    runs another server instead (it must print the same join line); ``preexec`` runs in the
    child before it starts (e.g. to enter a control group)."""

    def __init__(
        self,
        *flags: str,
        tv: bool = False,
        start_timeout: float = 30.0,
        state_dir: str | None = None,
        command: Sequence[str] | None = None,
        preexec: Callable[[], None] | None = None,
        probe: str | None = None,
    ) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="cuckoo-bench-", dir=state_dir)
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "CI": "true",
            "SDL_VIDEODRIVER": "dummy",
            "SDL_AUDIODRIVER": "dummy",
            "XDG_CACHE_HOME": self._tmp.name,
        }
        base = host_flags(Path(self._tmp.name) / "state.json")
        if command is not None:  # another server speaking the same protocol (the floor)
            command = [*command, *flags]
        elif tv:
            command = [sys.executable, "-c", probe or FIRST_FRAME_PROBE, "--mute", *base, *flags]
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
    """

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self._threads: dict[str, int] = {}
        self._ticks = 0
        self.main_ms = 0.0

    def _sample(self) -> dict[str, int]:
        threads = {}
        for task in Path(f"/proc/{self.pid}/task").iterdir():
            try:
                threads[task.name] = int((task / "schedstat").read_text().split()[0])
            except (OSError, ValueError, IndexError):
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
        used = sum(ns - self._threads.get(tid, 0) for tid, ns in now.items())
        main = str(self.pid)
        self.main_ms = (now.get(main, 0) - self._threads.get(main, 0)) / 1e6
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


class StreamHub(threading.Thread):
    """Follows many ``/api/events`` streams from one thread (``selectors``), timestamping each
    message as it arrives and keeping each phone's latest view text."""

    def __init__(self, port: int, tokens: dict[str, str]) -> None:
        super().__init__(daemon=True, name="stream-hub")
        self._selector = selectors.DefaultSelector()
        self._halt = threading.Event()
        self.lock = threading.Lock()
        self.arrivals: dict[str, dict[int, float]] = {pid: {} for pid in tokens}
        self.latest: dict[str, bytes] = {}
        self._buffers: dict[str, bytes] = {}
        self.sockets: dict[str, socket.socket] = {}
        for pid, token in tokens.items():
            sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
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
            for key, _ in self._selector.select(0.05):
                now = time.perf_counter()
                pid = key.data
                try:
                    chunk = key.fileobj.recv(65536)  # type: ignore[union-attr]
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b""
                if not chunk:
                    self._selector.unregister(key.fileobj)
                    continue
                self._take(pid, chunk, now)

    def _take(self, pid: str, chunk: bytes, now: float) -> None:
        buffer = self._buffers[pid] + chunk
        *messages, rest = buffer.split(b"\n\n")
        self._buffers[pid] = rest
        for message in messages:
            for line in message.split(b"\n"):
                if line.startswith(b"data: "):
                    match = STEP_FIELD.search(line)
                    with self.lock:
                        if match:
                            self.arrivals[pid].setdefault(int(match.group(1)), now)
                        self.latest[pid] = line[6:]

    def view(self, pid: str) -> dict[str, Any]:
        with self.lock:
            return json.loads(self.latest[pid])  # type: ignore[no-any-return]

    def wait_all(self, step: int, timeout: float = TIMEOUT) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if all(step in got for got in self.arrivals.values()):
                    return True
            time.sleep(0.0005)
        return False

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
    hub: StreamHub, tokens: dict[str, str], timeout: float = ACTOR_TIMEOUT
) -> tuple[str, dict[str, Any], list[str]]:
    """Who may act, their view and their game moves — once their phone shows them. With the
    TV the phones follow its pace (host/pacing.py): until it has played the last move nobody's
    view offers the next one (``current`` is still None), so the phones wait as people do."""
    deadline = time.monotonic() + timeout
    while True:
        view = hub.view(next(iter(tokens)))
        who = actor_of(view)
        mine = hub.view(who) if who is not None else view
        can = [move for move in mine["can"] if move in GAME_MOVES]
        if who is not None and can:
            return who, mine, can
        if time.monotonic() > deadline:
            raise RuntimeError(f"nobody may act in phase {view['phase']}")
        time.sleep(0.002)


def timed_tap(
    http: Http, tokens: dict[str, str], hub: StreamHub, rng: random.Random
) -> tuple[float, list[float], float]:
    """Whoever may act taps a random legal action; returns when it was sent and when each
    *other* phone's stream received the new step (``perf_counter`` seconds), and the tap's own
    round trip in ms."""
    who, mine, can = next_move(hub, tokens)
    step = mine["step"]
    sent = time.perf_counter()
    status, body = http.call(
        "POST", "/api/action", {"action": rng.choice(can), "step": step}, tokens[who]
    )
    round_trip = (time.perf_counter() - sent) * 1000.0
    if status != 200:
        raise RuntimeError(f"tap refused: {status} {body}")
    if not hub.wait_all(step + 1):
        raise RuntimeError(f"a stream missed step {step + 1}")
    with hub.lock:
        arrivals = [got[step + 1] for pid, got in hub.arrivals.items() if pid != who]
    return sent, arrivals, round_trip


def one_tap(
    http: Http, tokens: dict[str, str], hub: StreamHub, rng: random.Random
) -> tuple[list[float], float]:
    """As ``timed_tap``; returns the ms from the tap's send to each other phone's stream
    receiving the new step, and the tap's own round trip in ms."""
    sent, arrivals, round_trip = timed_tap(http, tokens, hub, rng)
    return [(arrival - sent) * 1000.0 for arrival in arrivals], round_trip


def load_average() -> str:
    """The 1, 5 and 15-minute load averages, for every benchmark's output."""
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())
