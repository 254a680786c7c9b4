"""The floor of issue 18 item 6 speaks the host's protocol, so the same client times both."""

from __future__ import annotations

import random
import sys

from benchmarks._host import HostProcess, one_tap, phones_streaming


def test_issue18_floor_fans_each_tap_out_to_every_stream_with_views_of_the_asked_size() -> None:
    floor = HostProcess(
        command=[sys.executable, "-m", "benchmarks.floor", "--serve", "--bytes", "3000"]
    )
    with floor, phones_streaming(floor, 4) as (http, tokens, hub):
        meter = floor.cpu()
        meter.start()
        for _ in range(3):
            latencies, round_trip = one_tap(http, tokens, hub, random.Random(1))
            assert len(latencies) == 3 and all(ms >= 0 for ms in latencies)  # the 3 others
            assert round_trip > 0
        used_ms, _ = meter.stop()
        assert used_ms > 0  # the meter sees the floor's own CPU time
        views = [hub.view(pid) for pid in tokens]
        assert {view["step"] for view in views} == {3}
        assert views[0]["current"] in tokens  # the next tapper is a joined phone
        with hub.lock:
            assert all(abs(len(text) - 3000) <= 2 for text in hub.latest.values())
        status, _ = http.call(
            "POST", "/api/action", {"action": "keep", "step": 0}, next(iter(tokens.values()))
        )
        assert status == 409  # a stale step is refused, as the host does
