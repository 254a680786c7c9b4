"""The headless host as a real process: start-up line, kill -9 and resume, SIGTERM, busy port."""

from __future__ import annotations

import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from host.network import free_port
from tests.api.cuckoo_http_client import Http

ROOT = Path(__file__).resolve().parents[2]
JOIN_LINE = re.compile(r"^Join at (http://127\.0\.0\.1:(\d+)/\?room=TEST)$")


class Host:
    """``python -m host.cli --headless …`` with its output read in the background."""

    def __init__(self, state: Path, port: int, *extra: str) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "CI": "true"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "host.cli", "--headless", "--bind", "127.0.0.1",
             "--port", str(port), "--room", "TEST", "--seed", "42", "--state", str(state),
             "--turn-timeout", "0", *extra],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.url = ""
        self.port = 0
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not self.url:
            for line in list(self.lines):
                if match := JOIN_LINE.match(line):
                    self.url, self.port = f"http://127.0.0.1:{match.group(2)}", int(match.group(2))
            if self.process.poll() is not None:
                break
            time.sleep(0.02)
        assert self.url, f"no join line: {self.lines}"
        self.http = Http(self.url)
        assert self.http.call("GET", "/healthz") == (200, "ok")

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)


@pytest.fixture
def hosts() -> Iterator[list[Host]]:
    started: list[Host] = []
    yield started
    for host in started:
        host.stop()


def _without_connected(view: dict[str, Any]) -> dict[str, Any]:
    return {**view, "players": [{k: v for k, v in p.items() if k != "connected"}
                                for p in view["players"]]}


def _random_moves(http: Http, tokens: dict[str, str], rng: random.Random, *, limit: int,
                  until_phase: str | None = None) -> None:
    for _ in range(limit):
        views = {pid: http.state(t) for pid, t in tokens.items()}
        phase = next(iter(views.values()))["phase"]
        if phase == until_phase or phase == "game_over":
            return
        pid = rng.choice([p for p, v in views.items() if v["can"]])
        status, body = http.act(tokens[pid], rng.choice(views[pid]["can"]), views[pid]["step"])
        assert status == 200, body


def test_kill_9_then_resume_exactly_and_finish(tmp_path: Path, hosts: list[Host]) -> None:
    state = tmp_path / "s.json"
    first = Host(state, free_port("127.0.0.1", 0))
    hosts.append(first)
    tokens = {}
    for name in ("Ana", "Bea", "Cal", "Dan"):
        joined = first.http.join(name)
        tokens[joined["player_id"]] = joined["token"]
    assert first.http.act(tokens["p1"], "start", 0)[0] == 200
    _random_moves(first.http, tokens, random.Random(3), limit=2)
    before = {pid: first.http.state(token) for pid, token in tokens.items()}
    table_before = first.http.call("GET", "/api/table?room=TEST")[1]
    assert table_before["phase"] == "turns" and table_before["step"] == 3  # mid-round
    first.process.send_signal(signal.SIGKILL)
    first.process.wait(10)

    second = Host(state, first.port)
    hosts.append(second)
    for pid, token in tokens.items():
        assert _without_connected(second.http.state(token)) == _without_connected(before[pid])
    table_after = second.http.call("GET", "/api/table?room=TEST")[1]
    assert _without_connected(table_after) == _without_connected(table_before)
    _random_moves(second.http, tokens, random.Random(4), limit=3000)
    final = second.http.state(tokens["p1"])
    assert final["phase"] == "game_over" and final["winners"]


def test_sigterm_saves_and_exits_within_two_seconds(tmp_path: Path, hosts: list[Host]) -> None:
    state = tmp_path / "s.json"
    host = Host(state, free_port("127.0.0.1", 0))
    hosts.append(host)
    host.http.join("Ana")
    started = time.monotonic()
    host.process.send_signal(signal.SIGTERM)
    status = host.process.wait(5)
    took = time.monotonic() - started
    host._reader.join(5)
    assert status == 0, host.lines
    assert took < 2.0, host.lines
    assert "Game saved. Goodbye!" in "\n".join(host.lines)
    assert '"Ana"' in state.read_text(encoding="utf-8")


def test_busy_port_takes_the_next_free_one(tmp_path: Path, hosts: list[Host]) -> None:
    busy = free_port("127.0.0.1", 0)
    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", busy))
        blocker.listen()
        host = Host(tmp_path / "s.json", busy)
        hosts.append(host)
        assert host.port > busy


def test_bad_house_rule_is_a_clear_error(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "host.cli", "--headless", "--house-rules", "H9",
         "--state", str(tmp_path / "s.json")],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
        timeout=30, check=False,
    )
    assert result.returncode == 2 and "H9" in result.stderr
    assert "Traceback" not in result.stderr
