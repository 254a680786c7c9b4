"""Issue 15 finding 1, end to end: a windowed host (SDL's dummy video driver) resumed from a
save holding invisible names — in the lobby and for a player waiting mid-game — keeps running,
answers, and stops cleanly; before the fix it died within 3 s, again at every restart."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from ..odd_names import save_with_invisible_names

ROOT = Path(__file__).resolve().parents[2]
JOIN = re.compile(r"^Join at http://127\.0\.0\.1:(\d+)/\?room=CAKE$")


def test_issue15_windowed_host_resumes_a_save_with_invisible_names(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    save_with_invisible_names(path, 9, ("\u200d", "\ufe0f", "\u2800", "\u180b"))
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "host.cli",
            "--bind",
            "127.0.0.1",
            "--port",
            "0",
            "--mute",
            "--state",
            str(path),
            "--turn-timeout",
            "0",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: list[str] = []

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line.rstrip("\n"))

    threading.Thread(target=read, daemon=True).start()
    try:
        port = 0
        deadline = time.monotonic() + 60
        while not port and time.monotonic() < deadline and process.poll() is None:
            port = next((int(m.group(1)) for m in map(JOIN.match, list(lines)) if m), 0)
            time.sleep(0.05)
        assert port, lines
        time.sleep(4.0)  # the TV has drawn many frames by now (it died within 3 s before)
        assert process.poll() is None, lines
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as answer:
            assert answer.read() == b"ok"
        process.send_signal(signal.SIGTERM)
        assert process.wait(20) == 0, lines
        assert not [line for line in lines if "Traceback" in line or "zero width" in line]
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
