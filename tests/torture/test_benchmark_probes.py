"""The benchmarks' probes patch the host they time (``pi.py``'s frame probe wraps
``Screen.present``): a change of signature there must break a test, not a 30-minute run."""

from __future__ import annotations

import importlib.util
import json
import os
import random
import time
from pathlib import Path

import pytest

from benchmarks import tail
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


def test_issue18_the_tail_probe_times_each_tap_inside_the_host() -> None:
    """``tail.py`` matches the host's stamps to each tap: every tap reaches the session after
    its send, spends CPU before its fan-out and in it, and reaches the 19 other phones after
    the fan-out began; every arrival at or over the p99 is charged to a kind of tap."""
    taps = tail.play(taps=8, seed=5, gap=0.05, tv=False)
    assert len(taps) == 8
    for tap in taps:
        assert tap.kind in ("keep", "exchange", "cut", "deal", "keep (dealer)")
        assert len(tap.received) == len(tap.reached) == tail.PHONES - 1
        assert 0 < tap.to_session < min(tap.received)
        assert tap.before_fanout_cpu > 0 and tap.fanout_cpu > 0
        assert tap.to_session + tap.before_fanout <= min(tap.reached) + 0.01  # one clock
        assert tap.faults >= 0 and tap.preemptions >= tap.fanout_preemptions >= 0
        assert tap.fanout_waits >= 0
    found = tail.figures(taps)
    assert found["p50"] <= found["p99"]
    shares = [value for name, value in found.items() if name.startswith("share of arrivals")]
    assert abs(sum(shares) - 1.0) < 1e-9


def test_issue18_the_identical_keep_is_the_same_work_every_time() -> None:
    """``tail.py --identical`` times one piece of the host's work, and it must be the same
    work each call: a keep on the same restored deal, whose views encode the same way."""
    keep = tail.identical_keep()
    first = keep()
    assert keep() == first  # the saved deal is restored anew: the same keep, the same texts
    assert len(first) == tail.PHONES + 1  # every player's view, then the state
    assert len({json.loads(text)["step"] for text in first[:-1]}) == 1
    spent = tail.identical_work(0.0, count=5)
    assert len(spent) == 5 and all(ms > 0 for ms in spent)
    found = tail.identical_figures(spent, 0.0)
    assert found["identical keep, back to back: CPU, median"] == sorted(spent)[2]


def test_issue18_the_tail_probe_pins_the_host_and_the_phones_apart_then_lets_go() -> None:
    """``tail.py --pin``: the host on one core, the phones' side on another, for one run; this
    process may use every core it could before, afterwards. With one core it refuses."""
    cores = os.sched_getaffinity(0)
    if len(cores) < 2:
        with pytest.raises(SystemExit):
            tail.play(taps=2, seed=6, gap=0.05, tv=False, pin=True)
    else:
        taps = tail.play(taps=4, seed=6, gap=0.05, tv=False, pin=True)
        assert len(taps) == 4 and all(tap.fanout_cpu > 0 for tap in taps)
    assert os.sched_getaffinity(0) == cores


def test_issue18_the_tail_probe_nices_the_phones_side_for_the_taps_only() -> None:
    """``tail.py --nice N``: the taps are timed with this process's threads at nice N, and
    every thread is back at its own level afterwards."""
    before = os.getpriority(os.PRIO_PROCESS, 0)
    taps = tail.play(taps=3, seed=7, gap=0.05, tv=False, nice=5)
    assert len(taps) == 3 and all(len(tap.received) == tail.PHONES - 1 for tap in taps)
    assert os.getpriority(os.PRIO_PROCESS, 0) == before


@pytest.mark.skipif(
    importlib.util.find_spec("numpy") is None or not Path("/proc/self/maps").exists(),
    reason="needs numpy installed and Linux's /proc to see it loaded",
)
def test_issue18_a_probed_tv_host_imports_pygame_as_the_party_does() -> None:
    """Round 37: the probes import the TV's modules, which import pygame, before the party
    does; the probed host must still come without numpy (``PARTY_PYGAME``), or ``memory.py``
    measures a host the ``cuckoo-party`` command never runs."""
    with HostProcess(tv=True, start_timeout=120.0) as host:
        host.wait_first_frame(120.0)
        maps = Path(f"/proc/{host.process.pid}/maps").read_text()
    assert "/numpy/" not in maps
