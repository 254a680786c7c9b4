"""Which taps make the tail of tap → phones, and where their time goes (issue 18 item 1's p99).

Why: ``versus.py``'s p99 is taken over every (tap, other phone) pair. With 80 taps and 19 other
phones that is the 15th-slowest of 1 520 arrivals, so it is decided by the slowest tap or two. Two
earlier suspects for those taps were measured and ruled out (the save's sync, Python's garbage
collector; ``docs/benchmarks-history.md``, twenty-eighth pass). This benchmark looks at the slow
taps themselves.

One host (headless, or with ``--tv`` the TV in the process as a party runs it), 20 phones on
event streams, taps one after another like ``versus.py``'s (a random legal move, ``--gap``
seconds apart). A probe in the host stamps, on the monotonic clock this process shares
(``time.perf_counter``), when each tap reached the session (``Session._act``), when its fan-out
began and ended (the first ``Session._push`` of the tap), the thread CPU time the tap's
thread spent before the fan-out and in it, and its page faults, preemptions and waits (the
GIL, a lock, I/O) from ``getrusage``. This process adds when the tap was sent and when
each other phone's reader took the new step in and when its socket had it (``StreamHub``).

Reported, per run: p50 and p99 over all (tap, phone) pairs; which kinds of tap hold the
arrivals at or over the p99 (a dealer's cut or keep ends the round and reveals every card; a
deal gives everyone a new card); and, for the slowest 5 % of taps against the rest, the medians
of each segment, wall and CPU — also among ordinary keeps and exchanges alone, so that the same
work is compared with itself. With ``--runs N`` each figure is the median of the runs with its
spread. The floor is not run here: this is an analysis of our own taps; ``versus.py`` gives the
ratio to the floor.

``--pin`` puts the host on one core and this process (the phones' reader, the tapper) on another;
``--nice N`` runs this process's threads at nice N while the taps are timed, both cores open;
``--alternate`` runs each run twice, as it is and then with ``--pin`` or ``--nice`` (pinned if
neither is given). ``--identical`` runs no host: it
times the host's own work for one keep, the same every time, at the taps' pace and back to
back, to see how much the machine alone varies it.

Run: ``python -m benchmarks.tail [--runs 3] [--taps 300] [--tv] [--gap 0.1] [--seed 1]
[--pin] [--nice N] [--alternate] [--identical]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from benchmarks import versus
from benchmarks._host import (
    FIRST_FRAME_PROBE,
    HostProcess,
    Http,
    StreamHub,
    Tapped,
    TapTimes,
    load_average,
    one_tap,
    percentile,
    phones_streaming,
    print_table,
    tap_both_ways,
)
from host.rules import Game, HouseRules
from host.rules.views import player_view, public_view

Row = tuple[str, str, str]
Timed = TypeVar("Timed")
PHONES = 20
#: The share of taps called "slowest", by their last other phone.
SLOWEST_SHARE = 0.05
#: Stamps inside the host: ``name perf_counter thread_cpu_ns thread minor_faults preemptions
#: waits`` lines appended to a file (a few microseconds each). The last three are the thread's
#: counts from ``getrusage(RUSAGE_THREAD)``: page faults served without the disk, times it was
#: made to give its core away while it could still run, and times it gave its core up to wait
#: (for the GIL, a lock or I/O). ``_act`` is where a tap reaches the session; ``_push`` (a static
#: method) sends one change to every stream, the phones first. With the TV, its thread also
#: pushes (its beats), so a tap's own push is the first one on the thread of its ``_act``.
STAMP_PROBE = """
import os, resource, threading, time
import host.session as _session_module
_stamps = os.open({path!r}, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
def _stamp(name):
    now, cpu = time.perf_counter(), time.thread_time_ns()
    usage = resource.getrusage(resource.RUSAGE_THREAD)
    line = "%s %.9f %d %d %d %d %d\\n" % (
        name, now, cpu, threading.get_ident(), usage.ru_minflt, usage.ru_nivcsw, usage.ru_nvcsw
    )
    os.write(_stamps, line.encode())
def _stamped(name, function):
    def wrapper(*args, **kwargs):
        _stamp(name + "+")
        try:
            return function(*args, **kwargs)
        finally:
            _stamp(name + "-")
    return wrapper
_Session = _session_module.Session
_Session._act = _stamped("act", _Session._act)
_Session._push = staticmethod(_stamped("push", _Session._push))
"""
LAUNCH = """
import sys
from host.cli import launch
launch(sys.argv[1:])
"""


@dataclass(frozen=True)
class Stamp:
    name: str
    at: float  # perf_counter seconds
    cpu_ns: int  # the stamping thread's CPU time
    thread: int
    faults: int  # the thread's minor page faults so far
    preemptions: int  # the thread's involuntary context switches so far
    waits: int  # the thread's voluntary context switches so far


@dataclass(frozen=True)
class Tap:
    """One tap, in ms from its send: its kind, the host's segments, and each other phone."""

    kind: str
    to_session: float
    before_fanout: float
    before_fanout_cpu: float
    fanout: float
    fanout_cpu: float
    faults: int
    preemptions: int
    fanout_preemptions: int
    fanout_waits: int
    received: list[float]
    reached: list[float]

    @property
    def last(self) -> float:
        return max(self.received)

    @property
    def reader_lag(self) -> float:
        """How much later the phones' reader took in the last step than its socket had it."""
        return max(self.received) - max(self.reached)


def read_stamps(path: Path) -> list[Stamp]:
    stamps = []
    for line in path.read_text().splitlines():
        name, at, *counts = line.split()
        cpu, thread, faults, preemptions, waits = (int(count) for count in counts)
        stamps.append(Stamp(name, float(at), cpu, thread, faults, preemptions, waits))
    return stamps


def segments(
    sent: float, stamps: Sequence[Stamp]
) -> tuple[float, float, float, float, float, int, int, int, int]:
    """From one tap's stamps (those after its send): ms to the session, before the fan-out
    (wall, CPU) and in it (wall, CPU); then the page faults and preemptions of the thread that
    took the tap, from the session to the fan-out's end; then its preemptions and waits in the
    fan-out alone."""
    act = next(stamp for stamp in stamps if stamp.name == "act+")
    first: dict[str, Stamp] = {}
    for stamp in stamps:
        if stamp.thread == act.thread and stamp.at >= act.at:
            first.setdefault(stamp.name, stamp)
    begun, ended = first["push+"], first["push-"]
    return (
        (act.at - sent) * 1000.0,
        (begun.at - act.at) * 1000.0,
        (begun.cpu_ns - act.cpu_ns) / 1e6,
        (ended.at - begun.at) * 1000.0,
        (ended.cpu_ns - begun.cpu_ns) / 1e6,
        ended.faults - act.faults,
        ended.preemptions - act.preemptions,
        ended.preemptions - begun.preemptions,
        ended.waits - begun.waits,
    )


def two_cores() -> tuple[int, int]:
    """The first two cores this process may run on: the host's, then the phones' side's."""
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        raise SystemExit("--pin needs two cores")
    return cores[0], cores[1]


def play(taps: int, seed: int, gap: float, tv: bool, pin: bool = False, nice: int = 0) -> list[Tap]:
    """``taps`` timed taps on a fresh host with ``PHONES`` phones; the host's stamps matched to
    each tap by time (a tap's are those after its send and before the next one's).

    ``pin``: the host on one core and this process (the phones' reader, the tapper) on another,
    so the phones' side never takes the host's core; set back after. ``nice``: this process's
    threads at that nice level while the taps are timed (``versus.Niced``), so the scheduler
    gives a host's thread a core before them; both cores stay open to everyone."""
    rng = random.Random(seed)
    if not pin:
        return _play(taps, rng, gap, tv, None, nice)
    cores = os.sched_getaffinity(0)
    host_core, phones_core = two_cores()

    def pin_host() -> None:
        """In the host's child process before it starts: every thread of it on its core."""
        os.sched_setaffinity(0, {host_core})

    os.sched_setaffinity(0, {phones_core})  # the reader, started after, inherits it
    try:
        return _play(taps, rng, gap, tv, pin_host, nice)
    finally:
        os.sched_setaffinity(0, cores)


def _play(
    taps: int,
    rng: random.Random,
    gap: float,
    tv: bool,
    preexec: Callable[[], None] | None,
    nice: int,
) -> list[Tap]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "stamps.txt"
        probe = STAMP_PROBE.format(path=str(path)) + (FIRST_FRAME_PROBE if tv else LAUNCH)
        host = HostProcess("--house-rules", "H7", tv=tv, probe=probe, preexec=preexec)
        with host:
            if tv:
                host.wait_first_frame()
            with phones_streaming(host, PHONES) as (http, tokens, hub):
                for _ in range(3):  # warm-up: the game starts, caches fill
                    one_tap(http, tokens, hub, rng)
                with versus.Niced(nice):
                    timed = _timed_taps(taps, rng, gap, http, tokens, hub)
        stamps = read_stamps(path)
    played = []
    for index, times in enumerate(timed):
        sent = times.tapped.sent
        until = timed[index + 1].tapped.sent if index + 1 < len(timed) else float("inf")
        its_stamps = [stamp for stamp in stamps if sent <= stamp.at < until]
        played.append(
            Tap(kind_of(times.tapped), *segments(sent, its_stamps), times.received, times.reached)
        )
    return played


def _timed_taps(
    taps: int,
    rng: random.Random,
    gap: float,
    http: Http,
    tokens: dict[str, str],
    hub: StreamHub,
) -> list[TapTimes]:
    """``taps`` taps (``tap_both_ways``), ``gap`` seconds apart."""
    timed = []
    for _ in range(taps):
        timed.append(tap_both_ways(http, tokens, hub, rng))
        time.sleep(gap)
    return timed


def kind_of(tapped: Tapped) -> str:
    """The tap's action, and whether a keep was the dealer's (it ends the round)."""
    return (
        f"{tapped.action} (dealer)"
        if tapped.action == "keep" and tapped.by_dealer
        else tapped.action
    )


def slowest(
    items: Sequence[Timed], key: Callable[[Timed], float]
) -> tuple[list[Timed], list[Timed]]:
    """The slowest ``SLOWEST_SHARE`` of ``items`` by ``key`` (at least one), and the rest."""
    ordered = sorted(items, key=key, reverse=True)
    count = max(1, round(len(ordered) * SLOWEST_SHARE))
    return ordered[:count], ordered[count:]


def last_phone(tap: Tap) -> float:
    return tap.last


SEGMENTS: tuple[tuple[str, Callable[[Tap], float]], ...] = (
    ("tap -> last other phone", lambda tap: tap.last),
    ("send -> the session", lambda tap: tap.to_session),
    ("before the fan-out, wall", lambda tap: tap.before_fanout),
    ("before the fan-out, CPU", lambda tap: tap.before_fanout_cpu),
    ("the fan-out, wall", lambda tap: tap.fanout),
    ("the fan-out, CPU", lambda tap: tap.fanout_cpu),
    ("reader's lag at the last phone", lambda tap: tap.reader_lag),
    ("page faults, session to fan-out end (mean count)", lambda tap: tap.faults),
    ("preemptions, session to fan-out end (mean count)", lambda tap: tap.preemptions),
    ("preemptions in the fan-out (mean count)", lambda tap: tap.fanout_preemptions),
    ("waits in the fan-out: GIL, lock, I/O (mean count)", lambda tap: tap.fanout_waits),
)


def figures(taps: Sequence[Tap]) -> dict[str, float]:
    """One run's figures by name (ms unless a share)."""
    arrivals = [ms for tap in taps for ms in tap.received]
    p99 = percentile(arrivals, 99)
    found = {"p50": percentile(arrivals, 50), "p99": p99}
    over = Counter(tap.kind for tap in taps for ms in tap.received if ms >= p99)
    kinds = Counter(tap.kind for tap in taps)
    total = sum(over.values())
    for kind in sorted(kinds):
        found[f"share of taps: {kind}"] = kinds[kind] / len(taps)
        found[f"share of arrivals >= p99: {kind}"] = over[kind] / total
    worst, rest = slowest(taps, last_phone)
    plain = [tap for tap in taps if tap.kind in ("keep", "exchange")]
    plain_worst, plain_rest = slowest(plain, last_phone)
    for label, of in SEGMENTS:
        middle = statistics.mean if "count" in label else statistics.median
        found[f"{label}: slowest 5 %"] = middle(of(tap) for tap in worst)
        found[f"{label}: the rest"] = middle(of(tap) for tap in rest)
        found[f"{label}: slowest 5 % of keeps/exchanges"] = middle(of(tap) for tap in plain_worst)
        found[f"{label}: the other keeps/exchanges"] = middle(of(tap) for tap in plain_rest)
    return found


def summary(values: Sequence[float], name: str) -> str:
    """``versus.summary`` of the figure called ``name``: a share in %, a count and a ratio as
    they are, the rest in ms."""
    unit, scale, digits = " ms", 1.0, 2
    if name.startswith("share"):
        unit, scale, digits = "%", 100.0, 0
    elif "count" in name:
        unit, digits = "", 1
    elif "ratio" in name:
        unit = "×"
    return versus.summary([value * scale for value in values], unit, digits)


def identical_keep() -> Callable[[], list[str]]:
    """The host's own work for one keep by the first player of a 20-player deal, identical
    every time it is called: the game restored from the same saved form, the keep applied, the
    public view and every player's view built and encoded, and the state encoded, as the
    session does for a tap (without its I/O: no stream, no journal write)."""
    game = Game(HouseRules(big_table=True), random.Random(1))
    for index in range(PHONES):
        game.add_player(f"p{index}", f"Phone {index + 1}")
    game.apply("p0", "start")
    saved = json.dumps(game.to_dict())

    def keep() -> list[str]:
        """The texts made: every player's view, then the state."""
        restored = Game.from_dict(json.loads(saved))
        restored.apply(restored.current or "", "keep")
        base = public_view(restored)
        texts = [json.dumps(player_view(restored, base, player.id)) for player in restored.players]
        return [*texts, json.dumps(restored.to_dict())]

    return keep


def identical_work(gap: float, count: int = 300) -> list[float]:
    """Thread CPU ms of ``identical_keep`` done ``count`` times ``gap`` seconds apart, on one
    core.

    Why: the slowest taps do the same work as the others at more CPU time. If the same code
    on the same data varies as much when the only difference is time, the machine makes that
    tail, not a path in the host."""
    keep = identical_keep()
    cores = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(cores)})
    try:
        for _ in range(20):  # warm-up
            keep()
        spent = []
        for _ in range(count):
            began = time.thread_time_ns()
            keep()
            spent.append((time.thread_time_ns() - began) / 1e6)
            time.sleep(gap)
    finally:
        os.sched_setaffinity(0, cores)
    return spent


def identical_figures(spent: Sequence[float], gap: float) -> dict[str, float]:
    slow, others = slowest(spent, float)
    pace = f"{gap:g} s apart" if gap else "back to back"
    worst, rest = statistics.median(slow), statistics.median(others)
    return {
        f"identical keep, {pace}: CPU, median": statistics.median(spent),
        f"identical keep, {pace}: CPU, slowest 5 %": worst,
        f"identical keep, {pace}: slowest 5 % / the rest (ratio)": worst / rest,
    }


def announce(run: str) -> None:
    """A run's first line: when it began and the machine's load then."""
    began = time.strftime("%H:%M:%S", time.gmtime())
    print(f"{run} at {began} UTC, load average: {load_average()}", flush=True)


@dataclass(frozen=True)
class Variant:
    """How the phones' side shares the cores with the host in a run."""

    pin: bool = False
    nice: int = 0

    @property
    def label(self) -> str:
        return (", pinned" if self.pin else "") + (
            f", phones at nice {self.nice}" if self.nice else ""
        )


def main(argv: list[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--taps", type=int, default=300)
    parser.add_argument("--gap", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tv", action="store_true", help="the TV in the process (dummy SDL)")
    parser.add_argument(
        "--pin", action="store_true", help="the host on one core, the phones' side on another"
    )
    parser.add_argument(
        "--nice", type=int, default=0, help="the phones' side at this nice level (root: 0-19)"
    )
    parser.add_argument(
        "--alternate",
        action="store_true",
        help="each run twice: as it is, then with --pin or --nice (neither given: pinned)",
    )
    parser.add_argument(
        "--identical",
        action="store_true",
        help="no host: the same keep's work at the taps' pace, then back to back",
    )
    args = parser.parse_args(argv)
    if args.identical:
        return identical_main(args.runs, args.gap)
    variant = Variant(args.pin or (args.alternate and not args.nice), args.nice)
    variants = [Variant(), variant] if args.alternate else [variant]
    runs: dict[Variant, list[dict[str, float]]] = {each: [] for each in variants}
    for index in range(args.runs):
        for each in variants:
            announce(f"run {index + 1}{each.label}")
            played = play(
                args.taps, args.seed + 100 * index, args.gap, args.tv, each.pin, each.nice
            )
            runs[each].append(figures(played))
    rows: list[Row] = []
    for each, found in runs.items():
        names = list(dict.fromkeys(name for run in found for name in run))  # kinds may vary
        where = ("host + TV" if args.tv else "host headless") + each.label
        rows += [
            (f"{where}, {name}", summary([run.get(name, 0.0) for run in found], name), "")
            for name in names
        ]
    print_table(rows)
    return rows


def identical_main(runs: int, gap: float) -> list[Row]:
    """``--identical``: each run, the work at the taps' pace and then back to back."""
    found: list[dict[str, float]] = []
    for index in range(runs):
        announce(f"run {index + 1}")
        found.append(
            identical_figures(identical_work(gap), gap)
            | identical_figures(identical_work(0.0), 0.0)
        )
    rows = [(name, summary([run[name] for run in found], name), "") for name in found[0]]
    print_table(rows)
    return rows


if __name__ == "__main__":
    main()
