"""The headless host as a real process: start-up line, kill -9 and resume, SIGTERM, busy port."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from host.network import free_port
from host.rules import game_moves
from tests.api.cuckoo_http_client import Http
from tests.host_process import ROOT, HostProcess, without_connected


def _random_moves(
    http: Http,
    tokens: dict[str, str],
    rng: random.Random,
    *,
    limit: int,
    until_phase: str | None = None,
) -> None:
    for _ in range(limit):
        views = {pid: http.state(t) for pid, t in tokens.items()}
        phase = next(iter(views.values()))["phase"]
        if phase == until_phase or phase == "game_over":
            return
        pid = rng.choice([p for p, v in views.items() if game_moves(v["can"])])
        status, body = http.act(
            tokens[pid], rng.choice(game_moves(views[pid]["can"])), views[pid]["step"]
        )
        assert status == 200, body


def test_kill_9_then_resume_exactly_and_finish(
    tmp_path: Path, host_processes: list[HostProcess]
) -> None:
    state = tmp_path / "s.json"
    first = HostProcess(state, port=free_port("127.0.0.1", 0))
    host_processes.append(first)
    tokens = {}
    for name in ("Ana", "Bea", "Cal", "Dan"):
        joined = first.http.join(name)
        tokens[joined["player_id"]] = joined["token"]
    first.present(tokens.values())
    assert first.http.act(tokens["p1"], "start", 0)[0] == 200
    _random_moves(first.http, tokens, random.Random(3), limit=2)
    before = {pid: first.http.state(token) for pid, token in tokens.items()}
    table_before = first.http.call("GET", "/api/table?room=TEST")[1]
    assert table_before["phase"] == "turns" and table_before["step"] == 3  # mid-round
    first.process.send_signal(signal.SIGKILL)
    first.process.wait(10)

    second = HostProcess(state, port=first.port)
    host_processes.append(second)
    second.present(tokens.values())
    for pid, token in tokens.items():
        assert without_connected(second.http.state(token)) == without_connected(before[pid])
    table_after = second.http.call("GET", "/api/table?room=TEST")[1]
    assert without_connected(table_after) == without_connected(table_before)
    _random_moves(second.http, tokens, random.Random(4), limit=3000)
    final = second.http.state(tokens["p1"])
    assert final["phase"] == "game_over" and final["winners"]


def test_sigterm_saves_and_exits_within_two_seconds(
    tmp_path: Path, host_processes: list[HostProcess]
) -> None:
    state = tmp_path / "s.json"
    host = HostProcess(state, port=free_port("127.0.0.1", 0))
    host_processes.append(host)
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


def test_busy_port_takes_the_next_free_one(
    tmp_path: Path, host_processes: list[HostProcess]
) -> None:
    busy = free_port("127.0.0.1", 0)
    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", busy))
        blocker.listen()
        host = HostProcess(tmp_path / "s.json", port=busy)
        host_processes.append(host)
        assert host.port > busy


def test_bad_house_rule_is_a_clear_error(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "host.cli",
            "--headless",
            "--house-rules",
            "H9",
            "--state",
            str(tmp_path / "s.json"),
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert result.returncode == 2 and "H9" in result.stderr
    assert "Traceback" not in result.stderr
