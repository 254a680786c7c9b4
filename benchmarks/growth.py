"""Flat memory: the host's RSS after the first game and after 5 000 actions, headless and with
the TV, and — with ``--diagnose`` — what grows, from the host's own ``tracemalloc``.

Why: a party lasts an evening. Ten phones hold event streams and tap random legal moves (every
``start``, ``deal`` and ``new_game`` included, so game follows game); the resident set size
(``VmRSS``) is read after the first game ends, every ``--every`` actions, and at the end.
Target (issue 18 item 5): RSS after 5 000 actions within 5 MB of RSS after the first game.

``--diagnose``: the host runs under a probe that starts ``tracemalloc`` and, on ``SIGUSR1``,
collects garbage and dumps a snapshot plus a count of live objects by type. The benchmark
takes one after the first game and one at the end and prints the biggest growths by source
line and by type — the evidence of what keeps memory. (Tracing slows the host several times
over: its RSS figures are not the benchmark's.) ``--diagnose-from N`` takes the first snapshot
at tap N instead, to see what still grows once the host is warm.

Run: ``python -m benchmarks.growth [--actions 5000] [--tv-only|--headless-only] [--diagnose]
[--diagnose-from N] [--tv-speed 4]``.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import signal
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from benchmarks._host import (
    HostProcess,
    load_average,
    next_move,
    phones_streaming,
    print_table,
)

TARGET_MB = 5.0
MB = 2**20
Row = tuple[str, str, str]

#: Starts tracemalloc in the host, then runs its command line. On SIGUSR1 it writes
#: ``$CUCKOO_SNAPSHOT.N`` (a tracemalloc snapshot), ``.N.types`` (live objects by type),
#: ``.N.surfaces`` (the surface caches) and ``.N.malloc`` (glibc's ``mallinfo2``).
#: The census of surface caches runs *before* the snapshot: reading ``owner.__dict__`` makes
#: Python 3.11 build the instance dict of every object it looks at, and those dicts stay. Taken
#: after the snapshot, the first census's dicts showed as the top "growth" of the next one
#: (+954 KiB, 15 264 blocks, "allocated" wherever the signal fell), a growth of the probe.
MEMORY_PROBE = """
import collections, ctypes, gc, json, os, signal, sys, time, tracemalloc
tracemalloc.start(int(os.environ.get("CUCKOO_TRACE_FRAMES", "6")))
_taken = [0]
def _dump(signum, frame):
    gc.collect()
    path = f"{os.environ['CUCKOO_SNAPSHOT']}.{_taken[0]}"
    _taken[0] += 1
    caches = _surface_caches()
    malloc = _malloc_info()
    tracemalloc.take_snapshot().dump(path)
    kinds = collections.Counter(type(o).__module__ + "." + type(o).__qualname__
                                for o in gc.get_objects())
    with open(path + ".types", "w") as out:
        json.dump(kinds, out)
    with open(path + ".surfaces", "w") as out:
        json.dump(caches, out)
    with open(path + ".malloc", "w") as out:
        json.dump(malloc, out)
    print(f"SNAPSHOT {path}", flush=True)
class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]
def _malloc_info():
    # The C heap as glibc sees it (Python's objects, SDL's pixels and every library's): bytes
    # taken from the system for the heaps, in use, and free but kept. {} off glibc >= 2.33.
    try:
        libc = ctypes.CDLL(None)
        libc.mallinfo2.restype = _MallInfo2
    except (OSError, AttributeError):
        return {}
    info = libc.mallinfo2()
    return {"heaps": info.arena, "mmapped": info.hblkhd, "in use": info.uordblks,
            "free": info.fordblks}
def _surface_caches():
    # Pixels live in SDL's memory, not Python's: tracemalloc cannot see them. Every object
    # attribute that is a dict of surfaces is a cache: count its entries and pixel bytes.
    pygame = sys.modules.get("pygame")
    found = {}
    if pygame is None:
        return found
    for owner in gc.get_objects():
        try:  # lazy proxies (Flask's request, current_app) raise outside their context
            attributes = object.__getattribute__(owner, "__dict__")
        except Exception:
            continue
        if not isinstance(attributes, dict):
            continue
        for name, value in list(attributes.items()):
            if type(value).__name__ == "SurfaceCache":  # host/tv/surfaces.py: bytes counted
                key = f"{type(owner).__module__}.{type(owner).__qualname__}.{name}"
                found[key] = (len(value), value.bytes)
                continue
            if not isinstance(value, dict) or not value:
                continue
            surfaces = [s for s in value.values() if isinstance(s, pygame.Surface)]
            if not surfaces:
                continue
            key = f"{type(owner).__module__}.{type(owner).__qualname__}.{name}"
            entries, size = found.get(key, (0, 0))
            found[key] = (entries + len(surfaces),
                          size + sum(s.get_pitch() * s.get_height() for s in surfaces))
    return found
signal.signal(signal.SIGUSR1, _dump)
"""
TV_TAIL = """
import host.tv.app as tv_app
_render = tv_app.TVApp.render
def _probe(self, surface):
    _render(self, surface)
    if self.frames_rendered == 1:
        print(f"FIRST_FRAME {time.time():.6f}", flush=True)
tv_app.TVApp.render = _probe
"""
#: ``--tv-speed``: the TV's clock runs ``speed`` times as fast, as ``Stage.update`` already does
#: by itself (2.5× or 8×) when the phones are ahead of it. Every frame is still drawn and
#: presented at the TV's rate; a beat just takes fewer of them. Why: at the TV's own pace
#: 5 000 taps take about 3 hours (the phones wait for the TV to show each move).
SPEED_TAIL = """
import sys, time  # TV_TAIL and MAIN_TAIL after it use them
import host.tv.stage as tv_stage
_update = tv_stage.Stage.update
def _faster(self, dt):
    _update(self, dt * {speed!r})
tv_stage.Stage.update = _faster
"""
MAIN_TAIL = """
from host.cli import launch
launch(sys.argv[1:])
"""


def faster_tv_probe(speed: float) -> str:
    """The TV host's probe with its clock ``speed`` times as fast (``SPEED_TAIL``), its first
    frame announced and the party command launched."""
    return SPEED_TAIL.format(speed=speed) + TV_TAIL + MAIN_TAIL


def snapshot(host: HostProcess, timeout: float = 60.0) -> str:
    """Ask the probed host for a snapshot; returns its path once written."""
    seen = sum(line.startswith("SNAPSHOT ") for line in host.lines)
    host.process.send_signal(signal.SIGUSR1)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done = [line for line in host.lines if line.startswith("SNAPSHOT ")]
        if len(done) > seen:
            return done[-1].split(" ", 1)[1]
        time.sleep(0.05)
    raise RuntimeError(f"the host wrote no snapshot: {host.lines[-8:]}")


def progress(taps: int, host: HostProcess) -> tuple[int, float]:
    """The host's RSS now, in MB, printed at once: a run of hours (5 000 taps paced by the TV)
    still tells how far it got and what it saw if it is stopped early."""
    mb = host.rss_bytes() / MB
    print(f"  tap {taps}: RSS {mb:.1f} MB ({time.strftime('%H:%M:%S')})", flush=True)
    return taps, mb


def play(
    host: HostProcess,
    actions: int,
    every: int,
    players: int = 10,
    seed: int = 7,
    diagnose: bool = False,
    gap: float = 0.0,
    walls: list[float] | None = None,
    diagnose_from: int = 0,
) -> tuple[list[tuple[int, float]], int, list[str]]:
    """Ten phones play ``actions`` taps, ``gap`` seconds apart; returns (taps, RSS MB) every
    ``every`` taps, after the first game and at the end, the index of the first game's reading
    among them (the baseline: readings before it are the warm-up), and the snapshots taken
    (with ``diagnose``). ``walls``, if given, gets each reading's wall time (``heap_tv.py``
    lines the readings up with a heap profile). ``diagnose_from``: the first snapshot is taken
    at that tap instead of after the first game (what still grows once the host is warm)."""
    rng = random.Random(seed)
    marks: list[tuple[int, float]] = []
    shots: list[str] = []
    first_game_over = False
    baseline = 0

    def mark(done: int) -> None:
        marks.append(progress(done, host))
        if walls is not None:
            walls.append(time.time())

    def first_game_ended(done: int) -> None:
        nonlocal first_game_over, baseline
        first_game_over = True
        time.sleep(1.0)  # the TV's and the voice's reactions to the game's end
        baseline = len(marks)
        mark(done)
        if diagnose and not diagnose_from:
            shots.append(snapshot(host))

    with phones_streaming(host, players, "Player") as (http, tokens, hub):
        for taps in range(1, actions + 1):
            who, mine, moves = next_move(hub, tokens)
            if not first_game_over and mine["phase"] == "game_over":
                # with the TV, phones see the end once the TV has played it: a tap or so later
                first_game_ended(taps - 1)
            status, body = http.call(
                "POST",
                "/api/action",
                {"action": rng.choice(moves), "step": mine["step"]},
                tokens[who],
            )
            if status != 200:
                raise RuntimeError(f"tap refused: {status} {body}")
            if not hub.wait_all(mine["step"] + 1):
                raise RuntimeError("a stream fell behind")
            time.sleep(gap)
            if not first_game_over and hub.view(who)["phase"] == "game_over":
                first_game_ended(taps)
            elif taps % every == 0 and taps < actions:
                mark(taps)
            if diagnose and taps == diagnose_from:
                shots.append(snapshot(host))
        time.sleep(1.0)
        mark(actions)
        if diagnose:
            shots.append(snapshot(host))
    return marks, baseline, shots


def measure(
    tv: bool,
    actions: int,
    every: int,
    diagnose: bool,
    gap: float = 0.0,
    tv_speed: float = 1.0,
    diagnose_from: int = 0,
) -> tuple[list[tuple[int, float]], int, list[str]]:
    """One host (TV or headless), one evening of ``actions`` taps."""
    probe = None
    env_keys: dict[str, str] = {}
    faster = SPEED_TAIL.format(speed=tv_speed) if tv and tv_speed != 1.0 else ""
    if diagnose:
        folder = tempfile.mkdtemp(prefix="cuckoo-growth-")
        env_keys["CUCKOO_SNAPSHOT"] = str(Path(folder) / ("tv" if tv else "headless"))
        probe = MEMORY_PROBE + faster + (TV_TAIL if tv else "") + MAIN_TAIL
    elif faster:
        probe = faster_tv_probe(tv_speed)
    os.environ.update(env_keys)  # inherited by the host's process
    try:
        with HostProcess(tv=tv, probe=probe, start_timeout=120.0) as host:
            if tv:
                host.wait_first_frame(120.0)
            return play(
                host, actions, every, diagnose=diagnose, gap=gap, diagnose_from=diagnose_from
            )
    finally:
        for key in env_keys:
            os.environ.pop(key, None)


def report_growth(paths: list[str], top: int = 15) -> None:
    """The biggest growths between the first snapshot and the last, by line and by type."""
    first, last = (tracemalloc.Snapshot.load(path) for path in (paths[0], paths[-1]))
    print(f"-- tracemalloc: growth from {paths[0]} to {paths[-1]} (by traceback)")
    for stat in last.compare_to(first, "traceback")[:top]:
        print(f"{stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+7d} blocks")
        for line in stat.traceback.format()[-6:]:
            print(f"      {line}")
    before = collections.Counter(json.loads(Path(paths[0] + ".types").read_text()))
    after = collections.Counter(json.loads(Path(paths[-1] + ".types").read_text()))
    after.subtract(before)
    print("-- live objects by type (gc), growth")
    for kind, count in after.most_common(top):
        print(f"{count:+9d}  {kind}")
    caches = [json.loads(Path(path + ".surfaces").read_text()) for path in (paths[0], paths[-1])]
    for cache in sorted(set(caches[0]) | set(caches[1])):
        (n0, b0), (n1, b1) = (found.get(cache, (0, 0)) for found in caches)
        print(
            f"-- surface cache {cache}: {n0} -> {n1} surfaces, "
            f"{b0 / MB:.1f} -> {b1 / MB:.1f} MB of pixels (outside tracemalloc)"
        )
    heaps = [json.loads(Path(path + ".malloc").read_text()) for path in (paths[0], paths[-1])]
    for figure in heaps[0]:
        print(
            f"-- glibc malloc, {figure}: {heaps[0][figure] / MB:.1f} -> "
            f"{heaps[1][figure] / MB:.1f} MB"
        )


def main(argv: list[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--actions", type=int, default=5000)
    parser.add_argument("--every", type=int, default=1000, help="RSS read every N actions")
    parser.add_argument("--diagnose", action="store_true", help="tracemalloc in the host")
    parser.add_argument(
        "--diagnose-from",
        type=int,
        default=0,
        help="with --diagnose: compare the end with this tap instead of the first game's end",
    )
    parser.add_argument(
        "--gap",
        type=float,
        default=0.0,
        help="seconds between taps (0: as fast as the host answers, which "
        "leaves the TV's animations a backlog)",
    )
    parser.add_argument(
        "--tv-speed",
        type=float,
        default=1.0,
        help="the TV's clock runs this many times as fast (every frame still drawn): "
        "5 000 taps in under an hour instead of about 3",
    )
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--tv-only", action="store_true")
    which.add_argument("--headless-only", action="store_true")
    args = parser.parse_args(argv)
    print(f"load average at start: {load_average()}", flush=True)
    rows: list[Row] = []
    hosts = [(True, "with TV"), (False, "headless")]
    hosts = [
        h for h in hosts if not (args.tv_only and not h[0]) and not (args.headless_only and h[0])
    ]
    for tv, label in hosts:
        marks, baseline, shots = measure(
            tv, args.actions, args.every, args.diagnose, args.gap, args.tv_speed, args.diagnose_from
        )
        if tv and args.tv_speed != 1.0:
            label = f"{label} (its clock at {args.tv_speed:g}x)"
        print(
            f"{label}: RSS (taps, MB): " + ", ".join(f"({taps}, {mb:.1f})" for taps, mb in marks),
            flush=True,
        )
        rows.append(
            (
                f"RSS, host {label}, after the first game ({marks[baseline][0]} taps)",
                f"{marks[baseline][1]:.1f} MB",
                "(context)",
            )
        )
        rows.append(
            (f"RSS, host {label}, after {args.actions} taps", f"{marks[-1][1]:.1f} MB", "(context)")
        )
        rows.append(
            (
                f"RSS growth, host {label}, first game -> {args.actions} taps",
                f"{marks[-1][1] - marks[baseline][1]:+.1f} MB",
                f"<= {TARGET_MB:.0f} MB",
            )
        )
        if shots:
            report_growth(shots)
    print_table(rows)
    print(f"load average at end: {load_average()}")
    return rows


if __name__ == "__main__":
    main(sys.argv[1:])
