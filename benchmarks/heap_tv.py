"""What the TV host's C heap holds as a party goes on: ``growth.py``'s evening under heaptrack.

Why: with the TV the host's RSS grows after the first game (about 4 MB over the next 300 taps,
then slower) while Python's own heap (``growth.py --diagnose``, tracemalloc) stays flat. The
rest is C memory — SDL's surfaces, SDL_ttf/FreeType, pygame — that only a malloc tracer sees.
This runs the windowed host (SDL dummy driver, muted) under ``heaptrack`` (Debian package
``heaptrack``), lets ten phones play as ``growth.py`` does, and prints, at each RSS reading,
the bytes that ``malloc`` had handed out and not yet got back (heaptrack's own record of every
allocation and free, read from its massif export). If RSS grows while those stay flat, the
growth is the allocator keeping freed memory, not something the program holds. (The RSS
lines printed on the way are the wrapper's, not the host's: read RSS with ``growth.py``.)

The readings are lined up by time: heaptrack's clock starts with the host's process, which
``HostProcess`` notes when it starts it. Run: ``python -m benchmarks.heap_tv [--actions 500]``
(about 2.2 s a tap, the TV's pace; reading the profile takes a few minutes more).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks._host import HostProcess, host_flags, load_average
from benchmarks.growth import MB, play
from host.relaunch import ENVIRONMENT_KEY, tuned_tunables


def heap_over_time(massif: Path) -> list[tuple[float, int]]:
    """(seconds since the host started, bytes in use) for every snapshot of a massif file."""
    points: list[tuple[float, int]] = []
    moment = 0.0
    with massif.open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            if line.startswith("time="):
                moment = float(line[5:])
            elif line.startswith("mem_heap_B="):
                points.append((moment, int(line[11:])))
    return points


def heap_at(points: list[tuple[float, int]], moment: float) -> int:
    """The heap in use at the snapshot nearest ``moment``."""
    return min(points, key=lambda point: abs(point[0] - moment))[1]


def stop_traced_host(host: HostProcess, timeout: float = 60.0) -> None:
    """SIGTERM the Python process under heaptrack's wrapper (a shell script that does not pass
    signals on), then wait for it, so that heaptrack writes its whole record."""
    found = subprocess.run(
        ["pgrep", "-P", str(host.process.pid), "-f", "host.cli"],
        capture_output=True,
        text=True,
        check=False,
    )
    for pid in found.stdout.split():
        subprocess.run(["kill", "-TERM", pid], check=False)
    deadline = time.monotonic() + timeout
    while host.process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--actions", type=int, default=500)
    parser.add_argument("--every", type=int, default=100, help="readings every N actions")
    args = parser.parse_args(argv)
    if shutil.which("heaptrack") is None or shutil.which("heaptrack_print") is None:
        sys.exit("heaptrack is needed: apt-get install -y heaptrack")
    print(f"load average at start: {load_average()}", flush=True)
    with tempfile.TemporaryDirectory(prefix="cuckoo-heap-") as folder:
        record = Path(folder) / "tv"
        command = ["heaptrack", "-o", str(record), sys.executable, "-m", "host.cli", "--mute"]
        flags = host_flags(Path(folder) / "state.json")
        walls: list[float] = []
        # The allocator setting the party command starts itself with (``host.relaunch``), given
        # here so the traced process never replaces itself under heaptrack.
        tunables = tuned_tunables(os.environ)
        extra = {} if tunables is None else {ENVIRONMENT_KEY: tunables}
        with HostProcess(*flags, command=command, start_timeout=120.0, extra_env=extra) as host:
            started = host.started_wall
            time.sleep(3.0)  # the TV's first frames (no FIRST_FRAME probe under the wrapper)
            marks, baseline, _ = play(host, args.actions, args.every, walls=walls)
            stop_traced_host(host)
        massif = Path(folder) / "tv.massif"
        subprocess.run(
            ["heaptrack_print", "-f", f"{record}.zst", "-n", "0", "--print-leaks", "0"]
            + ["--print-peaks", "0", "--print-allocators", "0", "--print-temporary", "0"]
            + ["--massif-detailed-freq", "0", "-M", str(massif)],
            check=True,
            capture_output=True,
        )
        points = heap_over_time(massif)
    first = heap_at(points, walls[baseline] - started)
    print("taps  malloc'd bytes in use (MB)  change since the first game (MB)")
    for (taps, _rss), wall in zip(marks, walls, strict=True):
        heap = heap_at(points, wall - started)
        print(f"{taps:>5}  {heap / MB:>10.1f}  {(heap - first) / MB:>+10.1f}")
    print(f"load average at end: {load_average()}")


if __name__ == "__main__":
    main(sys.argv[1:])
