"""Does the GIL's switch interval make the tail of tap → phones? Two headless hosts, one with
Python's default 5 ms switch interval and one with 0.5 ms, each with 20 phones, in interleaved
batches of taps.

Why kept: ``docs/benchmarks.md`` once explained the p99 by stream threads waiting out the 5 ms
switch interval. If that were so, a host switching ten times as often would have a shorter
tail. This measures it (issue 18 item 6: no explanation without a measurement).

Run: ``python -m benchmarks.switch_interval [--batches 10] [--batch 20]``. Not part of
``python -m benchmarks``: it answers one question.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from contextlib import ExitStack

from benchmarks._host import (
    HostProcess,
    load_average,
    one_tap,
    percentile,
    phones_streaming,
    print_table,
)

#: Sets the switch interval, then runs the host's command line.
PROBE = """
import sys
sys.setswitchinterval({interval})
from host.cli import main
sys.exit(main(sys.argv[1:]))
"""
Row = tuple[str, str, str]


def main(argv: list[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--batches", type=int, default=10)
    parser.add_argument("--batch", type=int, default=20)
    parser.add_argument("--gap", type=float, default=0.05, help="seconds between taps")
    args = parser.parse_args(argv)
    print(f"load average at start: {load_average()}", flush=True)
    rng = random.Random(3)
    samples: dict[float, list[float]] = {0.005: [], 0.0005: []}
    with ExitStack() as stack:
        phones = {}
        for interval in samples:
            host = stack.enter_context(
                HostProcess("--house-rules", "H7", probe=PROBE.format(interval=interval))
            )
            phones[interval] = stack.enter_context(phones_streaming(host, 20))
            for _ in range(3):  # warm-up
                one_tap(*phones[interval], rng)
        for _ in range(args.batches):
            for interval, found in samples.items():
                time.sleep(0.3)
                for _ in range(args.batch):
                    found += one_tap(*phones[interval], rng)[0]
                    time.sleep(args.gap)
    rows: list[Row] = [
        (
            f"switch interval {interval * 1000:.1f} ms: tap -> 19 phones p50 / p99",
            f"{percentile(found, 50):.1f} / {percentile(found, 99):.1f} ms",
            "(question)",
        )
        for interval, found in samples.items()
    ]
    print_table(rows)
    print(f"load average at end: {load_average()}")
    return rows


if __name__ == "__main__":
    main(sys.argv[1:])
