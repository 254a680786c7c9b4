"""Does the GIL's switch interval change tap → phones? Two hosts side by side, each with 20
phones, one per switch interval, and the floor beside them, in interleaved batches of taps.

Why kept: two questions of issue 18, each answered by a measurement, not an argument.

- Headless (the default): ``docs/benchmarks.md`` once explained the p99 by stream threads
  waiting out the 5 ms switch interval. If that were so, a headless host switching ten times
  as often (0.5 ms) would have a shorter tail. It did not.
- ``--tv``: with the TV in the process, its thread draws in Python for a few milliseconds a
  frame while taps arrive. Here the hosts run with their TV (SDL's dummy driver, as a party
  runs it), one at Python's default 5 ms and one at 1 ms: does a tap wait less for the TV's
  frame when the TV must hand the GIL over sooner? (On a quiet machine it did not; see
  ``docs/benchmarks-history.md``, eighth pass.)

The floor (``benchmarks/floor.py``) takes its turn in the same rotation, so each host's figure
is also given as a multiple of the floor's, which is what the issue's goal compares.

Run: ``python -m benchmarks.switch_interval [--tv] [--runs 3] [--batches 10] [--batch 20]``.
Not part of ``python -m benchmarks``: it answers these questions only.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from contextlib import ExitStack

from benchmarks._host import (
    FIRST_FRAME_PROBE,
    HostProcess,
    load_average,
    one_tap,
    percentile,
    phones_streaming,
    print_table,
)
from benchmarks.versus import summary

#: Sets the switch interval; the host's command line follows (``MAIN`` or, with the TV,
#: ``FIRST_FRAME_PROBE``, which also runs it).
SWITCH = """
import sys
sys.setswitchinterval({interval})
"""
MAIN = """
from host.cli import launch
launch(sys.argv[1:])
"""
Row = tuple[str, str, str]
PHONES = 20
FLOOR = "floor"


def start(stack: ExitStack, interval: float | None, tv: bool) -> HostProcess:
    """One host at ``interval`` (None: the floor), with or without its TV."""
    if interval is None:
        command = [sys.executable, "-m", "benchmarks.floor", "--serve"]
        return stack.enter_context(HostProcess(command=command))
    if tv:
        probe = SWITCH.format(interval=interval) + FIRST_FRAME_PROBE
        host = stack.enter_context(HostProcess("--house-rules", "H7", tv=True, probe=probe))
        host.wait_first_frame()
        return host
    probe = SWITCH.format(interval=interval) + MAIN
    return stack.enter_context(HostProcess("--house-rules", "H7", probe=probe))


def one_run(
    intervals: list[float], tv: bool, batches: int, batch: int, gap: float, seed: int
) -> dict[str, tuple[float, float]]:
    """p50 and p99 of tap → the other phones, in ms, for each host and the floor."""
    rng = random.Random(seed)
    names: list[str] = [f"{interval * 1000:g} ms" for interval in intervals] + [FLOOR]
    samples: dict[str, list[float]] = {name: [] for name in names}
    with ExitStack() as stack:
        phones = {}
        for name, interval in zip(names, [*intervals, None], strict=True):
            host = start(stack, interval, tv)
            phones[name] = stack.enter_context(phones_streaming(host, PHONES))
            for _ in range(3):  # warm-up: the game starts, caches fill
                one_tap(*phones[name], rng)
        for index in range(batches):
            shift = index % len(names)
            for name in names[shift:] + names[:shift]:  # the order rotates every batch
                time.sleep(0.3)  # the previous server's last frames and writes end
                for _ in range(batch):
                    samples[name] += one_tap(*phones[name], rng)[0]
                    time.sleep(gap)
    return {name: (percentile(found, 50), percentile(found, 99)) for name, found in samples.items()}


def main(argv: list[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tv", action="store_true", help="the hosts run with their TV")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--batches", type=int, default=10)
    parser.add_argument("--batch", type=int, default=20)
    parser.add_argument("--gap", type=float, default=0.05, help="seconds between taps")
    args = parser.parse_args(argv)
    intervals = [0.005, 0.001] if args.tv else [0.005, 0.0005]
    print(f"load average at start: {load_average()}", flush=True)
    runs = []
    for run in range(args.runs):
        runs.append(one_run(intervals, args.tv, args.batches, args.batch, args.gap, 3 + run))
        print(f"run {run + 1}: {runs[-1]} (load average {load_average()})", flush=True)
    where = "with the TV" if args.tv else "headless"
    rows: list[Row] = []
    for name in runs[0]:
        p50s, p99s = [run[name][0] for run in runs], [run[name][1] for run in runs]
        label = FLOOR if name == FLOOR else f"{where}, switch interval {name}"
        rows.append((f"{label}: tap -> 19 phones p50", summary(p50s, " ms"), "(question)"))
        rows.append((f"{label}: tap -> 19 phones p99", summary(p99s, " ms"), "(question)"))
        if name != FLOOR:
            ratio50 = [run[name][0] / run[FLOOR][0] for run in runs]
            ratio99 = [run[name][1] / run[FLOOR][1] for run in runs]
            ratios = f"{summary(ratio50, 'x')} / {summary(ratio99, 'x')}"
            rows.append((f"{label}: p50 / p99 x the floor's", ratios, "<= 3x"))
    print_table(rows)
    print(f"load average at end: {load_average()}")
    return rows


if __name__ == "__main__":
    main(sys.argv[1:])
