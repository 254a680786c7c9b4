"""Torture-test fixtures: the real host as a child process, and invariant checks on a session.

Why a child process for crashes: only a real process can be killed with SIGKILL mid-game; the
state file on disk is then all that survives, exactly as at a party when the power goes.
Headless: SDL's dummy drivers are set here, never globally.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from host.rules import CARD_CODES, Game, may_see
from tests.api.cuckoo_http_client import Http

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

ROOT = Path(__file__).resolve().parents[2]
JOIN_LINE = re.compile(r"^Join at http://127\.0\.0\.1:(\d+)/\?room=TEST$")
CARD_PATTERN = re.compile(r'"(10|[A2-9JQK])([SHDC])"')


class HostProcess:
    """``python -m host.cli --headless`` on 127.0.0.1 (room TEST, seed 42) with ``state``."""

    def __init__(self, state: Path, *extra: str, port: int = 0) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "CI": "true"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "host.cli", "--headless", "--bind", "127.0.0.1",
             "--port", str(port), "--room", "TEST", "--seed", "42", "--state", str(state),
             "--turn-timeout", "0", *extra],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        self.port = 0
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not self.port and self.process.poll() is None:
            time.sleep(0.01)
        assert self.port, f"the host did not start: {self.lines[-10:]}"
        self.url = f"http://127.0.0.1:{self.port}"
        self.http = Http(self.url)
        assert self.http.call("GET", "/healthz") == (200, "ok")

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            line = line.rstrip("\n")
            self.lines.append(line)
            if match := JOIN_LINE.match(line):
                self.port = int(match.group(1))

    def kill_9(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)


@pytest.fixture
def host_processes() -> Iterator[list[HostProcess]]:
    """A list to append started hosts to; every one is killed at the end of the test."""
    started: list[HostProcess] = []
    yield started
    for host in started:
        host.stop()


def without_connected(view: dict[str, Any]) -> dict[str, Any]:
    """The view minus ``players[].connected`` (the one field a restart may change)."""
    return {**view, "players": [{k: v for k, v in p.items() if k != "connected"}
                                for p in view["players"]]}


def cards_in(payload: Any) -> set[str]:
    return {m.group(1) + m.group(2) for m in CARD_PATTERN.finditer(json.dumps(payload))}


def check_invariants(game: Game, lives_before: dict[str, int]) -> None:
    """The engine's invariants after an accepted request (R2, R11, hidden information)."""
    if game.phase == "turns":
        held = [game.player(pid).card for pid in game.order]
        everything = held + game.stock + game.discard + game.set_aside
        assert len(everything) == 52 and len(set(everything)) == 52, "cards not accounted"
    for player in game.players:
        assert 0 <= player.lives <= game.options.starting_lives
        if game.phase != "lobby" and player.id in lives_before:
            assert player.lives <= lives_before[player.id], "R11: a life was gained"
    for viewer in [None, *(p.id for p in game.players)]:
        view = game.view(viewer)
        seen = cards_in(view)
        assert seen <= CARD_CODES
        assert not seen - may_see(game, viewer), (viewer, game.phase, seen - may_see(game, viewer))


def wait_until(predicate: Callable[[], bool], timeout: float, interval: float = 0.02) -> bool:
    """Poll ``predicate`` until true or ``timeout`` seconds pass (a bounded wait)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return predicate()
