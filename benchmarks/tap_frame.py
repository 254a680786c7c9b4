"""Where a tap lands in the TV's frame: what the TV's thread is doing while a tap fans out.

Why: with the TV in the process, tap → other phones is about 2 ms slower than headless
(``versus.py``). This benchmark looks at the TV's side of each tap. The host runs under a probe
that times, with ``time.perf_counter`` (the same clock in every process on Linux), each
``TVApp.render`` (Python drawing, which holds the GIL), each ``Screen.present`` (SDL's copy,
which does not: ``host/tv/present.py``) and each ``Session.act_json`` (the tap's work in the
server). Twenty phones hold event streams; a phone taps the instant it may act, as in
``versus.py``, 0.1 s apart. For every tap it reports:

- tap → the other phones' streams, p50 (as ``versus.py``);
- the TV's frame the tap lands in: the longest render that overlaps the time from 20 ms
  before the tap to the median phone's arrival, against the median of all renders;
- how long after the start of the TV's last render the tap was sent;
- the wait before the server starts the tap (``act_json``'s start − the send) and the tap's
  own time in the server (wall and CPU of its thread).

Run: ``python -m benchmarks.tap_frame [--taps 200] [--runs 3]``. Each figure is the median of
the runs with its spread (min–max).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks._host import (
    HostProcess,
    load_average,
    percentile,
    phones_streaming,
    print_table,
    timed_tap,
)
from benchmarks.versus import summary

Row = tuple[str, str, str]
#: (start, end, CPU seconds of the thread), perf_counter seconds.
Span = tuple[float, float, float]
#: (sent, median arrival at the other phones), perf_counter seconds.
Tap = tuple[float, float]
LOOK_BEFORE = 0.020

#: Times render, present and act_json in the host; on SIGUSR1 writes them to $CUCKOO_SPANS.
PROBE = """
import json, os, signal, sys, time
import host.session as session_module
import host.tv.app as tv_app
import host.tv.screen as tv_screen
SPANS = {"render": [], "present": [], "act": []}
def _timed(owner, name, key):
    inner = getattr(owner, name)
    def timed(self, *args, **kwargs):
        start, cpu = time.perf_counter(), time.thread_time()
        try:
            return inner(self, *args, **kwargs)
        finally:
            SPANS[key].append((start, time.perf_counter(), time.thread_time() - cpu))
    setattr(owner, name, timed)
_timed(tv_screen.Screen, "present", "present")
_timed(session_module.Session, "act_json", "act")
_render = tv_app.TVApp.render
def _render_timed(self, surface):
    start, cpu = time.perf_counter(), time.thread_time()
    _render(self, surface)
    SPANS["render"].append((start, time.perf_counter(), time.thread_time() - cpu))
    if self.frames_rendered == 1:
        print(f"FIRST_FRAME {time.time():.6f}", flush=True)
tv_app.TVApp.render = _render_timed
def _dump(signum, frame):
    with open(os.environ["CUCKOO_SPANS"], "w") as out:
        json.dump(SPANS, out)
    print("SPANS WRITTEN", flush=True)
signal.signal(signal.SIGUSR1, _dump)
from host.cli import launch
launch(sys.argv[1:])
"""


def where_taps_land(
    taps: Sequence[Tap], renders: Sequence[Span], acts: Sequence[Span]
) -> dict[str, float]:
    """The figures above, in ms, from the taps and the host's spans (pure: tested with made-up
    spans). A tap's ``act`` is the first that starts after it was sent."""
    longest, since_render, waits, act_wall, act_cpu = [], [], [], [], []
    starts = sorted(acts)
    for sent, arrived in taps:
        near = [
            end - start for start, end, _ in renders if end > sent - LOOK_BEFORE and start < arrived
        ]
        longest.append(max(near, default=0.0))
        before = [start for start, _, _ in renders if start <= sent]
        if before:
            since_render.append(sent - max(before))
        act = next((span for span in starts if span[0] >= sent), None)
        if act is not None:
            waits.append(act[0] - sent)
            act_wall.append(act[1] - act[0])
            act_cpu.append(act[2])

    def ms(values: Sequence[float]) -> float:
        return 1000.0 * statistics.median(values) if values else float("nan")

    return {
        "render p50": ms([end - start for start, end, _ in renders]),
        "render at the tap": ms(longest),
        "tap after render start": ms(since_render),
        "wait before act": ms(waits),
        "act wall": ms(act_wall),
        "act cpu": ms(act_cpu),
    }


def one_run(taps: int, phones: int, seed: int) -> dict[str, float]:
    """One TV host, ``taps`` taps; its figures by name."""
    rng = random.Random(seed)
    spans_file = Path(tempfile.mkdtemp(prefix="cuckoo-spans-")) / "spans.json"
    os.environ["CUCKOO_SPANS"] = str(spans_file)
    measured: list[Tap] = []
    latencies: list[float] = []
    try:
        with HostProcess("--house-rules", "H7", tv=True, probe=PROBE) as host:
            host.wait_first_frame()
            with phones_streaming(host, phones) as (http, tokens, hub):
                for index in range(taps + 3):  # three to warm up: the game starts, caches fill
                    sent, arrivals, _ = timed_tap(http, tokens, hub, rng)
                    if index >= 3:
                        measured.append((sent, statistics.median(arrivals)))
                        latencies += [(arrival - sent) * 1000.0 for arrival in arrivals]
                    time.sleep(0.1)
            host.process.send_signal(signal.SIGUSR1)
            deadline = time.monotonic() + 30.0
            while not any(line.startswith("SPANS WRITTEN") for line in host.lines):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the host wrote no spans: {host.lines[-5:]}")
                time.sleep(0.05)
        spans = json.loads(spans_file.read_text())
    finally:
        os.environ.pop("CUCKOO_SPANS", None)
        spans_file.unlink(missing_ok=True)
        spans_file.parent.rmdir()
    figures = where_taps_land(measured, spans["render"], spans["act"])
    figures["tap → phones p50"] = percentile(latencies, 50)
    return figures


def main(argv: list[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--taps", type=int, default=200)
    parser.add_argument("--phones", type=int, default=20)
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"load average at start: {load_average()}", flush=True)
    runs = []
    for run in range(args.runs):
        figures = one_run(args.taps, args.phones, seed=run)
        print(
            f"run {run + 1}: " + ", ".join(f"{k} {v:.2f} ms" for k, v in figures.items()),
            flush=True,
        )
        runs.append(figures)
    rows: list[Row] = [
        (
            f"host + TV, {args.phones} phones: {name}",
            summary([r[name] for r in runs], " ms", 2),
            "(context)",
        )
        for name in runs[0]
    ]
    print_table(rows)
    print(f"load average at end: {load_average()}")
    return rows


if __name__ == "__main__":
    main(sys.argv[1:])
