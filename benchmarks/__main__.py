"""``python -m benchmarks``: run every benchmark module and print one table of all figures.

Why each module runs in its own child process: a module may be missing (not written yet),
raise, hang or take down its interpreter (SDL, a browser); none of that may stop the others.
A module reports its figures by returning rows ``(figure, measured, target)`` from
``main(argv)``; the child prints them as one JSON line after a marker, which this runner reads.
Modules that return nothing still run, and are listed as "ran (see its output)".

With ``--runs N`` every module runs N times (round after round, so a noisy minute hits each
module once rather than one module N times) and each figure is given as the median of the runs
followed by its spread, ``[min–max]``, number by number.

Run: ``python -m benchmarks [--only engine,latency] [--timeout SECONDS] [--runs N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

#: In the order they run. Owned by: engine (lead), frames (TV), voice (voice), the rest (perf).
MODULES = (
    "engine",
    "latency",
    "versus",
    "load",
    "abuse",
    "frames",
    "game_end",
    "voice",
    "page",
    "startup",
    "save",
    "memory",
    "growth",
    "pi",
    "tv_cpu",
    "sound",
)
MARKER = "BENCHMARK-ROWS "
NUMBER = re.compile(r"[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|[+-]?\d+(?:\.\d+)?")
KEY_VALUE = re.compile(r"^([a-z][a-z0-9_]*): (\S+)$")
#: ``label  n= 21  median  1.9 ms  p95  8.0 ms …`` (the voice module's lines).
SUMMARY = re.compile(r"^(\S.*?)\s+n=\s*\d+\s+median\s+([\d.]+ ?m?s)\s+p95\s+([\d.]+ ?m?s)")
ROOT = Path(__file__).resolve().parents[1]
Row = tuple[str, str, str]


def module_path(name: str) -> str:
    """``latency`` → ``benchmarks.latency``; a dotted name is taken as a full module path."""
    return name if "." in name else f"benchmarks.{name}"


def run_one(name: str) -> None:
    """In the child: import the module, call its ``main([])``, print the marker line."""
    import importlib

    path = module_path(name)
    try:
        module = importlib.import_module(path)
    except ModuleNotFoundError as error:
        if error.name is not None and path.startswith(error.name):
            print(MARKER + json.dumps({"status": "missing"}), flush=True)
            sys.exit(3)
        raise
    main = getattr(module, "main", None)
    if not callable(main):
        print(MARKER + json.dumps({"status": "no main()"}), flush=True)
        sys.exit(4)
    try:
        rows = main([])
    except TypeError:
        rows = main()
    sys.stdout.flush()
    clean = [list(map(str, row))[:3] for row in rows] if isinstance(rows, (list, tuple)) else None
    print(MARKER + json.dumps({"status": "ok", "rows": clean}), flush=True)


def run_child(name: str, timeout: float) -> tuple[str, list[Row], float]:
    """Run one module in a child; returns (status, rows, seconds). Its output is passed through."""
    started = time.perf_counter()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
    }
    try:
        done = subprocess.run(
            [sys.executable, "-m", "benchmarks", "--child", name],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        output, code = done.stdout + done.stderr, done.returncode
    except subprocess.TimeoutExpired as expired:
        out = expired.stdout or ""
        output = out.decode() if isinstance(out, bytes) else out
        code = None
    seconds = time.perf_counter() - started
    report = None
    for line in output.splitlines():
        if line.startswith(MARKER):
            report = json.loads(line[len(MARKER) :])
        else:
            print(f"  [{name}] {line}")
    if code is None:
        return f"timed out after {timeout:.0f} s", [], seconds
    if report is None:
        last = [line for line in output.splitlines() if line.strip()][-1:] or ["no output"]
        return f"failed (exit {code}): {last[0][:80]}", [], seconds
    if report["status"] != "ok":
        return str(report["status"]), [], seconds
    rows = [tuple(row) for row in report["rows"] or []]
    if not rows:  # a module that prints ``name: value`` lines instead of returning rows
        rows = [
            (m.group(1), m.group(2), "(see its output)")
            for line in output.splitlines()
            if (m := KEY_VALUE.match(line))
        ]
        for line in output.splitlines():
            if match := SUMMARY.match(line):
                rows += [
                    (f"{match.group(1)}, median", match.group(2), "(see its output)"),
                    (f"{match.group(1)}, p95", match.group(3), "(see its output)"),
                ]
    return ("ok" if rows else "ran (see its output)"), rows, seconds


def combine(cells: list[str]) -> str:
    """Several runs' cells as one: each number's median, then ``[min–max]`` of each number.

    ``["7.8 / 12.8 ms", "8.4 / 14.0 ms", "7.5 / 12.1 ms"]`` → ``"7.8 / 12.8 ms [7.5–8.4 /
    12.1–14.0]"``. Cells of different shapes (a module that printed something else) are
    listed as they are, separated by ``|``.
    """
    if len(cells) == 1:
        return cells[0]
    shapes = {NUMBER.sub("#", cell) for cell in cells}
    numbers = [NUMBER.findall(cell) for cell in cells]
    if len(shapes) != 1 or not numbers[0]:
        return " | ".join(cells)
    medians, spreads = [], []
    for column in zip(*numbers):
        values = sorted(float(text.replace(",", "")) for text in column)
        digits = max(len(text.partition(".")[2]) for text in column)
        sign = "+" if any(text.startswith("+") for text in column) else ""
        group = "," if any("," in text for text in column) else ""
        middle = statistics.median(values)
        medians.append(f"{middle:{sign}{group}.{digits}f}")
        spreads.append(f"{values[0]:{sign}{group}.{digits}f}–{values[-1]:{sign}{group}.{digits}f}")
    pieces = iter(medians)
    middle_cell = NUMBER.sub(lambda _: next(pieces), cells[0])
    return f"{middle_cell} [{' / '.join(spreads)}]"


def machine() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return (
        f"{os.cpu_count()} CPUs, {model}, Python {platform.python_version()}, load average {load}"
    )


def merge(found: list[tuple[str, list[Row], float]]) -> tuple[str, list[Row], float]:
    """One module's runs as one result: the first bad status if any, the rows' cells combined
    (figures in the order of their first appearance), the total seconds."""
    bad = [status for status, _, _ in found if status != "ok" and not status.startswith("ran")]
    status = bad[0] if bad else found[0][0]
    cells: dict[tuple[str, str], list[str]] = {}
    for _, rows, _ in found:
        for figure, measured, target in rows:
            cells.setdefault((figure, target), []).append(measured)
    rows = [(figure, combine(measured), target) for (figure, target), measured in cells.items()]
    return status, rows, sum(seconds for _, _, seconds in found)


def write_markdown(path: Path, rows: list[tuple[str, str, str, str]]) -> None:
    """The table as Markdown, headed by the date and the machine, ready to paste."""
    lines = [
        f"Run of {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {machine()}.",
        "",
        "| module | figure | measured | target |",
        "| --- | --- | --- | --- |",
    ]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", default="", help="comma list of modules to run")
    parser.add_argument("--timeout", type=float, default=600.0, help="per module, in seconds")
    parser.add_argument(
        "--markdown",
        default=None,
        metavar="PATH",
        help="also write the table as Markdown (for docs/benchmarks.md)",
    )
    parser.add_argument(
        "--runs",
        type=int,
        default=1,
        help="run every module N times; figures are medians [min–max]",
    )
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        run_one(args.child)
        return 0
    names = [n for n in args.only.split(",") if n] or list(MODULES)
    print(f"Cuckoo Party benchmarks, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(f"machine: {machine()}")
    runs: dict[str, list[tuple[str, list[Row], float]]] = {name: [] for name in names}
    for index in range(args.runs):
        for name in names:
            suffix = f" (run {index + 1}/{args.runs})" if args.runs > 1 else ""
            print(f"== {name}{suffix}", flush=True)
            runs[name].append(run_child(name, args.timeout))
    results = [(name, *merge(found)) for name, found in runs.items()]
    print()
    table = [
        (name, figure, measured, target)
        for name, _, rows, _ in results
        for figure, measured, target in rows
    ]
    status_rows = [
        (name, f"[{status}, {seconds:.0f} s]", "", "")
        for name, status, rows, seconds in results
        if not rows or status != "ok"
    ]
    every = table + status_rows
    widths = [
        max([len(h)] + [len(r[i]) for r in every])
        for i, h in enumerate(("module", "figure", "measured", "target"))
    ]
    header = ("module", "figure", "measured", "target")
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    print("  ".join("-" * w for w in widths))
    for row in every:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths)))
    print(f"machine: {machine()}")
    if args.markdown:
        write_markdown(Path(args.markdown), every)
    return (
        0 if all(status == "ok" or status.startswith("ran") for _, status, _, _ in results) else 1
    )


if __name__ == "__main__":
    sys.exit(main())
