"""Where the TV host's CPU goes while a party plays (issue 18 item 3's "CPU per tap with the TV").

Why this exists: ``versus.py`` reports the TV host's CPU per tap, but with the TV leading a tap
waits until the TV has shown the last move (as a player does), so a tap with the TV lasts as
long as its animation and that figure is mostly the TV's frames. This module says what those
milliseconds are, measured rather than guessed: the party with its TV (SDL's dummy driver,
1920×1080) and 20 phones holding event streams and tapping random legal moves; in the host,
the TV thread's CPU time (``time.thread_time``) is summed per piece of its loop — drawing
(``TVApp.render``), presenting (``Screen.present``), the stage's steps, the updates it
takes, and re-pacing the phones (``Session.tv_shown``) — and the whole process's CPU is read
per thread from ``/proc`` (the TV's loop runs on the main thread; the rest is the server, the
saves, the bots). Also: the TV thread's CPU while nothing moves.

Run: ``python -m benchmarks.tv_cpu [--runs 3] [--seconds 25]``.
"""

from __future__ import annotations

import argparse
import ast
import random
import time

from benchmarks._host import HostProcess, load_average, one_tap, phones_streaming, print_table
from benchmarks.versus import summary

Row = tuple[str, str, str]
#: The pieces of the TV's loop that are timed, by the label they are reported under.
PIECES = {
    "render": "drawing (TVApp.render)",
    "flip": "presenting (Screen.present)",
    "step": "the stage's steps (TVApp.step)",
    "pump": "taking updates (TVApp.pump_updates)",
    "paced": "re-pacing the phones (Session.tv_shown)",
}
#: Wraps the loop's pieces in the child, on the main (TV) thread only, and prints the sums.
SPLIT_PROBE = """
import sys, threading, time
import host.session as session_module
import host.tv.app as tv_app
import host.tv.screen as tv_screen
spent = {}
def timed(owner, name, label):
    original = getattr(owner, name)
    def wrapper(*args, **kwargs):
        if threading.current_thread() is not threading.main_thread():
            return original(*args, **kwargs)
        began = time.thread_time()
        try:
            return original(*args, **kwargs)
        finally:
            spent[label] = spent.get(label, 0.0) + time.thread_time() - began
    setattr(owner, name, wrapper)
timed(tv_app.TVApp, "render", "render")
timed(tv_screen.Screen, "present", "flip")
timed(tv_app.TVApp, "step", "step")
timed(tv_app.TVApp, "pump_updates", "pump")
timed(session_module.Session, "tv_shown", "paced")
def report():
    while True:
        time.sleep(0.25)
        print("SPLIT " + repr(dict(spent)), flush=True)
threading.Thread(target=report, daemon=True).start()
from host.cli import launch
launch(sys.argv[1:])
"""


def last_split(host: HostProcess) -> dict[str, float]:
    """The probe's latest sums (seconds of TV-thread CPU per piece)."""
    for line in reversed(host.lines):
        if line.startswith("SPLIT "):
            sums = ast.literal_eval(line.split(" ", 1)[1])
            return {str(key): float(value) for key, value in sums.items()}
    return {}


def one_run(seconds: float, phones: int, seed: int) -> dict[str, float]:
    """One party: idle for a while, then ``seconds`` of taps; figures in ms per second."""
    figures: dict[str, float] = {}
    with (
        HostProcess("--house-rules", "H7", tv=True, probe=SPLIT_PROBE, start_timeout=60.0) as host,
        phones_streaming(host, phones) as (http, tokens, hub),
    ):
        rng = random.Random(seed)
        for _ in range(3):
            one_tap(http, tokens, hub, rng)
        meter = host.cpu()  # the main thread runs the TV; the others serve, save, play bots
        time.sleep(8.0)  # the last move's animation ends: the table holds still
        meter.start()
        time.sleep(5.0)
        meter.stop()
        figures["idle"] = meter.main_ms / 5.0
        time.sleep(0.5)
        split_before = last_split(host)
        meter.start()
        began, taps = time.monotonic(), 0
        while time.monotonic() - began < seconds:
            one_tap(http, tokens, hub, rng)
            taps += 1
            time.sleep(0.1)
        wall = time.monotonic() - began
        used, _ = meter.stop()
        time.sleep(0.5)  # the probe's next report covers the last tap
        split_after = last_split(host)
    figures["taps per second"] = taps / wall
    figures["tv thread"] = meter.main_ms / wall
    figures["other threads"] = (used - meter.main_ms) / wall
    for key in PIECES:
        spent = split_after.get(key, 0.0) - split_before.get(key, 0.0)
        figures[key] = spent * 1000.0 / wall
    return figures


def main(argv: list[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=1, help="whole runs; figures are medians")
    parser.add_argument("--seconds", type=float, default=25.0, help="of taps per run")
    parser.add_argument("--phones", type=int, default=20)
    args = parser.parse_args(argv)
    print(f"load average at start: {load_average()}", flush=True)
    runs = []
    for index in range(args.runs):
        runs.append(one_run(args.seconds, args.phones, 1 + 100 * index))
        print(f"run {index + 1}/{args.runs} done, load average {load_average()}", flush=True)

    def cell(key: str, unit: str = " ms/s", digits: int = 1) -> str:
        return summary([run[key] for run in runs], unit, digits)

    rows: list[Row] = [
        (f"TV host, {args.phones} phones: taps per second (the TV sets the pace)",
         cell("taps per second", "/s", 2), "(context)"),
        ("TV thread CPU while the party plays", cell("tv thread"), "(context)"),
        *[(f"  of which {label}", cell(key), "(context)") for key, label in PIECES.items()],
        ("all other threads' CPU (server, saves, bots)", cell("other threads"), "(context)"),
        ("TV thread CPU while nothing moves", cell("idle"), "(context)"),
    ]  # fmt: skip
    print_table(rows)
    print(f"load average at end: {load_average()}")
    return rows


if __name__ == "__main__":
    main()
