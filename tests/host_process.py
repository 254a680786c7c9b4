"""The headless host as a real child process, for tests that must start, kill or restart it.

Why a child process: only a real process can be killed with SIGKILL mid-game or sent SIGTERM;
the state file on disk is then all that survives, exactly as at a party when the power goes.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tests.api.cuckoo_http_client import EventStream, Http

ROOT = Path(__file__).resolve().parents[1]
JOIN_LINE = re.compile(r"^Join at http://127\.0\.0\.1:(\d+)/\?room=TEST$")


class HostProcess:
    """``python -m host.cli --headless`` on 127.0.0.1 (room TEST, seed 42) with ``state``.

    ``headless=False``: the party with its TV (SDL's dummy drivers, muted), as it runs at home.
    """

    def __init__(self, state: Path, *extra: str, port: int = 0, headless: bool = True) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "CI": "true"}
        if not headless:
            env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "host.cli",
                "--headless" if headless else "--mute",
                "--bind",
                "127.0.0.1",
                "--port",
                str(port),
                "--room",
                "TEST",
                "--seed",
                "42",
                "--state",
                str(state),
                "--turn-timeout",
                "0",
                *extra,
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        self.streams: list[EventStream] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
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

    def present(self, tokens: Iterable[str]) -> None:
        """Hold one event stream per token, as phones do, so those players count as present
        (PHONE_API.md "Presence": only present players count toward ``start``)."""
        for token in tokens:
            stream = EventStream(self.url, token)
            stream.start()
            self.streams.append(stream)

    def seat_present(self, *names: str) -> dict[str, str]:
        """``names`` join, each holding a stream as a phone does; their tokens by player id."""
        tokens = {}
        for name in names:
            joined = self.http.join(name)
            tokens[joined["player_id"]] = joined["token"]
        self.present(tokens.values())  # only present players count toward the start
        return tokens

    def kill_9(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        for stream in self.streams:
            stream.close()
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)


#: Controls offered because of who is connected or for how long someone has been deciding.
PRESENCE_CONTROLS = ("skip", "make_vip")


def without_connected(view: dict[str, Any]) -> dict[str, Any]:
    """The view minus ``players[].connected`` (the one field a restart may change) and the
    VIP's controls that follow from it (a restart forgets who was deciding since when)."""
    return {
        **view,
        "players": [{k: v for k, v in p.items() if k != "connected"} for p in view["players"]],
        "can": [a for a in view["can"] if a not in PRESENCE_CONTROLS],
    }
