"""A frozen host as a real process (``kill -STOP`` / ``kill -CONT``, as a machine that froze): H4's
limit must not end during the freeze (the play-test's lost turn; ``host/stall.py``).

Why a real process: only the kernel stops every thread of the host at once while the monotonic
clock runs on; ``tests/session/test_stall.py`` checks the same with the test's clock.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

from tests.api.cuckoo_http_client import wait_until
from tests.host_process import HostProcess

RAPID_SECONDS = 5
FREEZE_SECONDS = 7.0


def test_h4_a_stopped_host_does_not_time_her_out(
    tmp_path: Path, host_processes: list[HostProcess]
) -> None:
    """H4 at 5 s; the host is stopped for 7 s in her turn. Once it runs again her phone gets
    the seconds she still had, she is not timed out, and her keep is a normal one."""
    host = HostProcess(
        tmp_path / "s.json", "--house-rules", "H4", "--rapid-seconds", str(RAPID_SECONDS)
    )
    host_processes.append(host)
    tokens = host.seat_present("Ana", "Bea", "Cal")
    vip = next(iter(tokens.values()))
    assert host.http.act(vip, "start", 0)[0] == 200
    view = host.http.state(vip)
    her, step = view["current"], view["step"]
    phone = host.streams[list(tokens).index(her)]
    host.process.send_signal(signal.SIGSTOP)
    try:
        time.sleep(FREEZE_SECONDS)
        seen = len(phone.snapshot())
    finally:
        host.process.send_signal(signal.SIGCONT)
    time.sleep(1.0)  # the runner wakes every 0.5 s at most: it would have timed her out
    view = host.http.state(tokens[her])
    assert (view["step"], view["current"]) == (step, her) and "keep" in view["can"]
    assert phone.wait_for(lambda views: len(views) > seen, timeout=5.0)  # the resync
    resynced = phone.snapshot()[-1]
    assert (resynced["step"], resynced["current"]) == (step, her)
    assert 1.0 < resynced["turn_seconds_left"] <= RAPID_SECONDS
    assert wait_until(lambda: any("did not run" in line for line in host.lines), timeout=5.0)
    status, body = host.http.act(tokens[her], "keep", step)
    assert status == 200, body
    kept = [e for e in host.http.state(vip)["log"] if e["type"] == "kept"][-1]
    assert kept["player"] == her and kept["auto"] is False and kept["timed_out"] is False
