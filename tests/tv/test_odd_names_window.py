"""Issue 15 finding 1, end to end: a windowed host (SDL's dummy video driver) resumed from a
save holding invisible names — in the lobby and for a player waiting mid-game — keeps running,
answers, and stops cleanly; before the fix it died within 3 s, again at every restart."""

from __future__ import annotations

import signal
import time
from pathlib import Path

from ..host_process import HostProcess
from ..odd_names import save_with_invisible_names


def test_issue15_windowed_host_resumes_a_save_with_invisible_names(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    save_with_invisible_names(path, 9, ("\u200d", "\ufe0f", "\u2800", "\u180b"), room="TEST")
    host = HostProcess(path, headless=False)  # the party with its TV, resuming that save
    try:
        time.sleep(4.0)  # the TV has drawn many frames by now (it died within 3 s before)
        assert host.process.poll() is None, host.lines
        assert host.http.call("GET", "/healthz") == (200, "ok")
        host.process.send_signal(signal.SIGTERM)
        assert host.process.wait(20) == 0, host.lines
        assert not [line for line in host.lines if "Traceback" in line or "zero width" in line]
    finally:
        host.stop()
