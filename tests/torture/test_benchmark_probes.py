"""The benchmarks' probes patch the host they time (``pi.py``'s frame probe wraps
``Screen.present``): a change of signature there must break a test, not a 30-minute run."""

from __future__ import annotations

import random
import time

from benchmarks._host import HostProcess, one_tap, phones_streaming
from benchmarks.pi import FRAME_PROBE


def test_issue18_the_pi_frame_probe_runs_a_party_and_reports_every_frame() -> None:
    """Without the CPU quota (that needs root): the probed host starts its TV, plays a few
    taps of four phones and prints one FRAME line per frame shown, with the rate asked for."""
    host = HostProcess(tv=True, probe=FRAME_PROBE, start_timeout=120.0)
    with host:
        host.wait_first_frame(120.0)
        with phones_streaming(host, 4) as (http, tokens, hub):
            rng = random.Random(3)
            for _ in range(4):
                latencies, _ = one_tap(http, tokens, hub, rng)
                assert len(latencies) == 3
                time.sleep(0.2)
        assert host.process.poll() is None  # still running: the probe did not break it
        frames = [line.split() for line in host.lines if line.startswith("FRAME ")]
    assert len(frames) > 5
    for frame in frames:
        assert len(frame) == 6  # end, work, animating, loop turn, frames a second
        assert float(frame[2]) >= 0 and frame[3] in ("0", "1") and int(frame[5]) in (60, 45, 30)
    assert any(frame[3] == "1" for frame in frames)  # the taps' cards moved
