"""Start-up and idling: start → QR on screen (target <= 2 s) and the host's CPU while it waits
in the lobby (target <= 3 % of one core).

Why measured from outside: the party starts from a cold ``python`` process, so the figure
includes the interpreter, every import, loading the catalog, the saved game, the web server and
the TV's first frame (the lobby with its QR). The host is the real ``cuckoo-party`` command
with the TV on SDL's dummy video driver; a probe in the child prints the wall time when
``TVApp.render`` finishes its first frame. Idle CPU is the child's own CPU time (user + system,
``psutil``) over a quiet stretch in the lobby with nobody connected — TV loop, web server,
announcer and bot timers together.

Run: ``python -m benchmarks.startup [--runs N] [--idle-seconds S]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from benchmarks._host import HostProcess, load_average, print_table

TARGET_START_S = 2.0
TARGET_IDLE_PCT = 3.0
Row = tuple[str, str, str]


def start_to_qr(runs: int) -> list[float]:
    """Seconds from spawning the host to the end of the TV's first frame, one per run."""
    seconds = []
    for _ in range(runs):
        with HostProcess(tv=True) as host:
            seconds.append(host.wait_first_frame() - host.started_wall)
    return seconds


def start_to_ready_headless(runs: int) -> list[float]:
    """Seconds from spawning a headless host to its printed join line."""
    seconds = []
    for _ in range(runs):
        with HostProcess() as host:
            assert host.join_line_wall is not None
            seconds.append(host.join_line_wall - host.started_wall)
    return seconds


def idle_cpu_percent(seconds: float) -> float:
    """The TV host's CPU use in the lobby, in % of one core."""
    import psutil

    with HostProcess(tv=True) as host:
        host.wait_first_frame()
        time.sleep(1.0)  # past start-up work (first frame, announcer warm-up)
        process = psutil.Process(host.process.pid)
        before, began = process.cpu_times(), time.perf_counter()
        time.sleep(seconds)
        after, ended = process.cpu_times(), time.perf_counter()
    used = (after.user - before.user) + (after.system - before.system)
    return float(100.0 * used / (ended - began))


def main(argv: list[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--idle-seconds", type=float, default=10.0)
    args = parser.parse_args(argv)
    print(f"load average at start: {load_average()}", flush=True)
    qr = start_to_qr(args.runs)
    ready = start_to_ready_headless(args.runs)
    idle = idle_cpu_percent(args.idle_seconds)
    rows: list[Row] = [
        (
            f"start -> QR on screen (TV host), median of {args.runs}",
            f"{statistics.median(qr):.2f} s",
            f"<= {TARGET_START_S:.0f} s",
        ),
        (
            f"start -> QR on screen (TV host), worst of {args.runs}",
            f"{max(qr):.2f} s",
            f"<= {TARGET_START_S:.0f} s",
        ),
        (
            f"start -> join line (headless), median of {args.runs}",
            f"{statistics.median(ready):.2f} s",
            "(context)",
        ),
        (
            f"TV host idle CPU in the lobby ({args.idle_seconds:.0f} s)",
            f"{idle:.1f} %",
            f"<= {TARGET_IDLE_PCT:.0f} % of a core",
        ),
    ]
    print_table(rows)
    print(f"load average at end: {load_average()}")
    return rows


if __name__ == "__main__":
    main()
