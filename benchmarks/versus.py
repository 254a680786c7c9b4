"""Our host against the floor, interleaved in one run: tap → every other phone, CPU per tap.

Why interleaved: on a shared virtual machine a figure taken at 20:00 and one taken at 20:05
are not comparable. Here three servers run side by side for the whole run — the floor
(``benchmarks/floor.py``: one asyncio thread, one message for everyone), our headless host, and
our host with the TV in the process (SDL dummy driver, as a party runs it) — each with its own
phones holding event streams, and they take turns in short batches of taps (the order rotates
every batch). Whatever the machine does to one batch it does to its neighbours, so the ratios
hold even when the absolute figures drift.

Measured for each server, with 10 and then 20 phones:

- tap → every other phone's stream receiving the new step, p50 and p99 (the same client and the
  same ``StreamHub`` for all three), timed two ways: when the phones' reader took the step in,
  and when it had reached their sockets (the kernel's stamp). The reader shares this machine's
  two cores with the server — and with the TV's thread in the TV host — where a real phone is
  another device; the second time leaves out the reader's own wait for a core, and
  ``reader's wait`` (its run-queue time per tap, from ``schedstat``) shows how long that was;
- server CPU per tap: the server process's own CPU time (all threads, nanoseconds from
  ``/proc/PID/task/*/schedstat``) over each batch, divided by its taps. Taps are spaced by
  ``--gap`` seconds, so the TV host's figure includes the frames it draws between taps;
- the same apart from the TV's own work: the TV host's CPU without its main thread, which runs
  the TV and nothing else, but with what that thread spends re-pacing the phones
  (``Session.tv_shown``: a phone sees a move as the TV shows it, so the TV's beats send
  updates). What the TV in the process costs the web server, the session and the fan-out,
  against the headless host (whose main thread only waits); issue 18 item 3 asks ≤ 1.3×;
- the cost of one more phone: the slope of CPU per tap between 10 and 20 phones;
- what shares the cores, per tap: how long the server's threads other than its main one were
  ready but waited for a core, and the CPU this benchmark's own process (the phones' reader and
  the tapper) used over the same batch. With ``--client-nice N`` the benchmark's threads run at
  nice N once the servers are up (root: nice is set back after), so the scheduler gives a
  core to a server's thread before them, as it would if the phones were other devices.

With ``--think S`` a player taps S seconds after their phone shows they may (default 0: at
once). With the TV that news is the TV's own beat, so at 0 every tap lands in what the TV does
right after its beat, which no person's thumb does.

Run: ``python -m benchmarks.versus [--runs 3] [--taps 160] [--batch 20] [--gap 0.1]
[--client-nice 10] [--think 0.3]``. With
several runs, every figure is the median of the runs with its spread (min–max).
"""

from __future__ import annotations

import argparse
import mmap
import os
import random
import statistics
import struct
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks._host import (
    FIRST_FRAME_PROBE,
    CpuMeter,
    HostProcess,
    Http,
    StreamHub,
    load_average,
    one_tap,
    percentile,
    phones_streaming,
    tap_both_ways,
)

Row = tuple[str, str, str]
FLOOR, HEADLESS, TV = "floor", "host headless", "host + TV"
#: Issue 18 item 1's goals, against the floor in the same run.
GOAL_RATIO, GOAL_CPU_MS, GOAL_SLOPE_MS = 3.0, 5.0, 0.1
SETTLE_SECONDS = 0.3
#: The TV host's probe: ``FIRST_FRAME_PROBE`` plus a counter of the CPU time (ns) the TV's
#: thread spends in ``Session.tv_shown``, kept in a file of 8 bytes that the benchmark reads
#: at the edges of each batch (a shared mapping: no signal, no pipe, no wait).
REPACE_PROBE = """
import mmap, struct, threading, time
import host.session as session_module
_file = open({path!r}, "r+b")
_spent = mmap.mmap(_file.fileno(), 8)
_tv_shown = session_module.Session.tv_shown
def _timed(self, shown):
    began = time.thread_time_ns()
    try:
        return _tv_shown(self, shown)
    finally:
        used = time.thread_time_ns() - began
        struct.pack_into("q", _spent, 0, struct.unpack_from("q", _spent)[0] + used)
session_module.Session.tv_shown = _timed
"""


class RepaceCounter:
    """The TV host's running total of re-pacing CPU, read through ``REPACE_PROBE``'s file."""

    def __init__(self, folder: str) -> None:
        self.path = Path(folder) / "repace.bin"
        self.path.write_bytes(bytes(8))

    def probe(self) -> str:
        return REPACE_PROBE.format(path=str(self.path)) + FIRST_FRAME_PROBE

    def ms(self) -> float:
        with (
            self.path.open("rb") as file,
            mmap.mmap(file.fileno(), 8, access=mmap.ACCESS_READ) as shared,
        ):
            (spent_ns,) = struct.unpack_from("q", shared)
        return int(spent_ns) / 1e6


@dataclass
class Contender:
    """One server with its phones, and what its batches measured."""

    name: str
    server: HostProcess
    http: Http
    tokens: dict[str, str]
    hub: StreamHub
    latencies: list[float] = field(default_factory=list)
    reached: list[float] = field(default_factory=list)
    waited_ms: float = 0.0
    server_waited_ms: float = 0.0
    client_ms: float = 0.0
    cpu_ms: float = 0.0
    main_ms: float = 0.0
    repace_ms: float = 0.0
    ticks_ms: float = 0.0
    taps: int = 0
    repace: RepaceCounter | None = None

    def batch(self, taps: int, gap: float, rng: random.Random, think: float = 0.0) -> None:
        """``taps`` taps ``gap`` seconds apart, each ``think`` seconds after the player may, with
        the server's CPU time over the batch."""
        meter = self.server.cpu()
        repaced = self.repace.ms() if self.repace else 0.0
        waited = self.hub.waited_ms()
        client = CpuMeter(os.getpid())
        client.start()
        meter.start()
        for _ in range(taps):
            times = tap_both_ways(self.http, self.tokens, self.hub, rng, think)
            self.latencies += times.received
            self.reached += times.reached
            time.sleep(gap)
        used, ticks = meter.stop()
        self.client_ms += client.stop()[0]
        self.server_waited_ms += meter.waited_ms
        self.waited_ms += self.hub.waited_ms() - waited
        self.cpu_ms += used
        self.main_ms += meter.main_ms
        if self.repace:
            self.repace_ms += self.repace.ms() - repaced
        self.ticks_ms += ticks
        self.taps += taps


def view_bytes(contender: Contender) -> int:
    """The mean size of the views the host's phones hold now (the floor sends as much)."""
    with contender.hub.lock:
        sizes = [len(view) for view in contender.hub.latest.values()]
    return round(statistics.mean(sizes))


class Niced:
    """The benchmark's own threads at nice ``level`` while it lasts (0: untouched), then back.

    Why by thread: on Linux a nice value is a thread's, and a new thread or child process
    takes its creator's; the servers are started before, so they keep theirs."""

    def __init__(self, level: int) -> None:
        self.level = level
        self._before: dict[int, int] = {}

    def __enter__(self) -> Niced:  # noqa: PYI034 - Self needs Python 3.11
        if self.level:
            for task in Path("/proc/self/task").iterdir():
                tid = int(task.name)
                self._before[tid] = os.getpriority(os.PRIO_PROCESS, tid)
                os.setpriority(os.PRIO_PROCESS, tid, self.level)
        return self

    def __exit__(self, *exc: object) -> None:
        for tid, level in self._before.items():
            try:
                os.setpriority(os.PRIO_PROCESS, tid, level)
            except ProcessLookupError:
                continue  # that thread has ended


def measure(
    phones: int,
    taps: int,
    batch: int,
    gap: float,
    seed: int,
    nice: int = 0,
    think: float = 0.0,
) -> dict[str, float]:
    """One interleaved run with ``phones`` phones on each server; figures by name."""
    rng = random.Random(seed)
    figures: dict[str, float] = {}
    with ExitStack() as stack:
        contenders: list[Contender] = []

        def enter(name: str, server: HostProcess, repace: RepaceCounter | None = None) -> Contender:
            stack.enter_context(server)
            http, tokens, hub = stack.enter_context(phones_streaming(server, phones))
            contender = Contender(name, server, http, tokens, hub, repace=repace)
            contenders.append(contender)
            return contender

        headless = enter(HEADLESS, HostProcess("--house-rules", "H7"))
        repace = RepaceCounter(stack.enter_context(tempfile.TemporaryDirectory()))
        tv_server = HostProcess("--house-rules", "H7", tv=True, probe=repace.probe())
        tv_server.wait_first_frame()
        enter(TV, tv_server, repace)
        for contender in contenders:  # warm-up: the game starts, caches fill
            for _ in range(3):
                one_tap(contender.http, contender.tokens, contender.hub, rng)
        size = view_bytes(headless)
        figures["view bytes"] = size
        floor = HostProcess(
            command=[sys.executable, "-m", "benchmarks.floor", "--serve", "--bytes", str(size)]
        )
        enter(FLOOR, floor)
        for _ in range(3):
            one_tap(contenders[-1].http, contenders[-1].tokens, contenders[-1].hub, rng)
        rounds = max(1, taps // batch)
        stack.enter_context(Niced(nice))
        for index in range(rounds):
            shift = index % len(contenders)
            for contender in contenders[shift:] + contenders[:shift]:
                time.sleep(SETTLE_SECONDS)  # the previous server's last frames and writes end
                contender.batch(batch, gap, rng, think)
        for contender in contenders:
            figures[f"{contender.name} p50"] = percentile(contender.latencies, 50)
            figures[f"{contender.name} p99"] = percentile(contender.latencies, 99)
            figures[f"{contender.name} socket p50"] = percentile(contender.reached, 50)
            figures[f"{contender.name} socket p99"] = percentile(contender.reached, 99)
            figures[f"{contender.name} reader waited"] = contender.waited_ms / contender.taps
            figures[f"{contender.name} server waited"] = contender.server_waited_ms / contender.taps
            figures[f"{contender.name} client cpu"] = contender.client_ms / contender.taps
            figures[f"{contender.name} cpu"] = contender.cpu_ms / contender.taps
            figures[f"{contender.name} cpu main"] = contender.main_ms / contender.taps
            figures[f"{contender.name} cpu apart from the TV"] = (
                contender.cpu_ms - contender.main_ms + contender.repace_ms
            ) / contender.taps
            figures[f"{contender.name} repace"] = contender.repace_ms / contender.taps
            figures[f"{contender.name} cpu ticks"] = contender.ticks_ms / contender.taps
    return figures


def one_run(args: argparse.Namespace, seed: int) -> dict[str, float]:
    """10 phones then 20 phones; adds ratios and slopes."""
    figures: dict[str, float] = {}
    by_count = {
        count: measure(
            count, args.taps, args.batch, args.gap, seed + count, args.client_nice, args.think
        )
        for count in (args.few, args.many)
    }
    for count, found in by_count.items():
        figures.update({f"{count}: {name}": value for name, value in found.items()})
    many, few = by_count[args.many], by_count[args.few]
    for name in (HEADLESS, TV):
        figures[f"{name} / floor p50"] = many[f"{name} p50"] / many[f"{FLOOR} p50"]
        figures[f"{name} / floor p99"] = many[f"{name} p99"] / many[f"{FLOOR} p99"]
        for which in ("p50", "p99"):
            figures[f"{name} / floor socket {which}"] = (
                many[f"{name} socket {which}"] / many[f"{FLOOR} socket {which}"]
            )
        figures[f"{name} / floor cpu"] = many[f"{name} cpu"] / max(many[f"{FLOOR} cpu"], 1e-6)
    figures["TV / headless cpu"] = many[f"{TV} cpu"] / many[f"{HEADLESS} cpu"]
    figures["TV / headless cpu apart from the TV"] = (
        many[f"{TV} cpu apart from the TV"] / many[f"{HEADLESS} cpu apart from the TV"]
    )
    for name in (FLOOR, HEADLESS, TV):
        figures[f"{name} one more phone"] = (many[f"{name} cpu"] - few[f"{name} cpu"]) / (
            args.many - args.few
        )
    return figures


def summary(values: list[float], unit: str, digits: int = 1) -> str:
    """``median`` alone for one run; ``median [min–max]`` for several."""
    middle = f"{statistics.median(values):.{digits}f}{unit}"
    if len(values) == 1:
        return middle
    return f"{middle} [{min(values):.{digits}f}–{max(values):.{digits}f}]"


def rows_of(runs: list[dict[str, float]], many: int, few: int) -> list[Row]:
    def cell(key: str, unit: str = " ms", digits: int = 1) -> str:
        return summary([run[key] for run in runs], unit, digits)

    rows: list[Row] = []
    for count in (many, few):
        for name in (FLOOR, HEADLESS, TV):
            rows.append(
                (
                    f"{count} phones, {name}: tap -> other phones p50 / p99",
                    f"{cell(f'{count}: {name} p50')} / {cell(f'{count}: {name} p99')}",
                    "(context)",
                )
            )
            rows.append(
                (
                    f"{count} phones, {name}: tap -> other phones' sockets p50 / p99",
                    " / ".join(cell(f"{count}: {name} socket {which}") for which in ("p50", "p99")),
                    "(context)",
                )
            )
            rows.append(
                (
                    f"{count} phones, {name}: per tap, waits for a core: the server's "
                    + "threads (not main) / the phones' reader",
                    " / ".join(
                        cell(f"{count}: {name} {who} waited", " ms", 2)
                        for who in ("server", "reader")
                    ),
                    "(context)",
                )
            )
            rows.append(
                (
                    f"{count} phones, {name}: the benchmark's own CPU per tap (reader, tapper)",
                    cell(f"{count}: {name} client cpu", " ms", 2),
                    "(context)",
                )
            )
            rows.append(
                (
                    f"{count} phones, {name}: server CPU per tap",
                    cell(f"{count}: {name} cpu", " ms", 2),
                    f"<= {GOAL_CPU_MS:.0f} ms" if name != FLOOR else "(context)",
                )
            )
    for name in (HEADLESS, TV):
        for which in ("p50", "p99"):
            rows.append(
                (
                    f"{name} / floor, {which}, {many} phones",
                    cell(f"{name} / floor {which}", "x"),
                    f"<= {GOAL_RATIO:.0f}x",
                )
            )
            rows.append(
                (
                    f"{name} / floor, {which} at the phones' sockets, {many} phones",
                    cell(f"{name} / floor socket {which}", "x"),
                    f"<= {GOAL_RATIO:.0f}x",
                )
            )
        rows.append(
            (
                f"{name} / floor, CPU per tap, {many} phones",
                cell(f"{name} / floor cpu", "x", 0),
                "(context)",
            )
        )
    rows.append(
        (
            f"CPU per tap, host + TV / headless, {many} phones",
            cell("TV / headless cpu", "x", 2),
            "<= 1.3x",
        )
    )
    rows.append(
        (
            f"{many} phones, {TV}: CPU per tap of the TV's thread / of it re-pacing the phones",
            f"{cell(f'{many}: {TV} cpu main', ' ms', 1)} / {cell(f'{many}: {TV} repace', ' ms', 2)}",
            "(context)",
        )
    )
    rows.append(
        (
            f"{many} phones, {TV}: CPU per tap apart from the TV's own work",
            cell(f"{many}: {TV} cpu apart from the TV", " ms", 2),
            "(context)",
        )
    )
    rows.append(
        (
            f"CPU per tap apart from the TV's own work, host + TV / headless, {many} phones",
            cell("TV / headless cpu apart from the TV", "x", 2),
            "<= 1.3x",
        )
    )
    for name in (FLOOR, HEADLESS, TV):
        rows.append(
            (
                f"{name}: CPU per tap of one more phone ({few} -> {many})",
                cell(f"{name} one more phone", " ms", 3),
                f"<= {GOAL_SLOPE_MS} ms" if name != FLOOR else "(context)",
            )
        )
    rows.append(
        (
            f"{many} phones, host view size on the wire (floor pads to it)",
            cell(f"{many}: view bytes", " B", 0),
            "(context)",
        )
    )
    return rows


def main(argv: list[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=1, help="whole runs; figures are medians")
    parser.add_argument("--taps", type=int, default=160, help="per server and phone count")
    parser.add_argument("--batch", type=int, default=20, help="taps per turn of a server")
    parser.add_argument("--gap", type=float, default=0.1, help="seconds between taps")
    parser.add_argument("--few", type=int, default=10, help="phones for the slope's low end")
    parser.add_argument("--many", type=int, default=20, help="phones (the headline figure)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--client-nice",
        type=int,
        default=0,
        help="the benchmark's own threads at this nice level while it taps (root, to restore)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="seconds a player looks at their phone, once they may act, before tapping",
    )
    args = parser.parse_args(argv)
    print(f"load average at start: {load_average()}", flush=True)
    runs = []
    for index in range(args.runs):
        runs.append(one_run(args, args.seed + 100 * index))
        print(f"run {index + 1}/{args.runs} done, load average {load_average()}", flush=True)
    rows = rows_of(runs, args.many, args.few)
    width = max(len(row[0]) for row in rows)
    print(f"{'figure':<{width}}  {'measured':>24}  target")
    for figure, measured, target in rows:
        print(f"{figure:<{width}}  {measured:>24}  {target}")
    print(
        f"taps {args.taps} per server and phone count, batches of {args.batch}, "
        f"{args.gap:.2f} s apart, {args.runs} run(s), the benchmark's threads at nice "
        f"{args.client_nice}, each tap {args.think:.2f} s after the player may"
    )
    ticks = [run[f"{args.many}: {HEADLESS} cpu ticks"] for run in runs]
    print(
        f"check: headless CPU per tap by clock ticks (all threads, even ended ones): "
        f"{summary(ticks, ' ms', 2)}"
    )
    print(f"load average at end: {load_average()}")
    return rows


if __name__ == "__main__":
    main(sys.argv[1:])
