"""The TV's CPU per frame at the game's end, while its confetti falls over the dimmed table.

Why its own benchmark: ``frames.py`` times a game's moves, which never reach the game's end.
There the table is dimmed behind the final board (``host/tv/final.py``) and confetti falls for
seconds, every frame drawn; round 38's board made such a frame 3× dearer unnoticed (issue 18
item 3: frame CPU p50 ≤ 2.5 ms at 1080p during animations).

Run: ``python -m benchmarks.game_end [--frames 180] [--runs 3]``. Headless (SDL's dummy
drivers), ten players with long names, in French. Prints the load average and each run's
median CPU per frame; the figure is the median of the runs with their spread.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from benchmarks._host import load_average, print_table
from benchmarks.versus import summary

Row = tuple[str, str, str]
TARGET_MS = 2.5
#: A game of ten is over long before this many moves.
MOST_MOVES = 5000
NAMES = (
    "Jean-Christophe",
    "Marie-Éléonore",
    "Ana",
    "Chloé",
    "Niccolò",
    "François",
    "Zoë",
    "Björn",
    "Maëlle",
    "Gianni",
)


def one_run(frames: int) -> tuple[float, bool]:
    """CPU milliseconds per frame (median) over ``frames`` frames of confetti, and whether
    the confetti was still falling at the last one (else the figure timed a still board)."""
    import pygame

    from host.i18n import Catalog
    from host.tv.app import FRAME_SECONDS, TVApp
    from host.tv.rehearsal import Rehearsal

    pygame.init()
    table = Rehearsal(seed=11, people=NAMES)
    table.host_next()  # the game starts
    for _ in range(MOST_MOVES):
        if table.phase == "game_over":
            break
        table.play()
    else:
        raise RuntimeError(f"no game over after {MOST_MOVES} moves")
    app = TVApp(table.session, None, Catalog.load(), lang="fr", join_url="http://192.0.2.1/")
    app.pump_updates()
    app.stage.fast_forward()  # the last reveal played: the game's end stands
    canvas = pygame.Surface((1920, 1080))
    app.stage.celebrating_since = app.stage.time  # the confetti starts now
    for _ in range(5):  # the first frames build the layers and caches
        app.render(canvas)
    cpu: list[float] = []
    for _ in range(frames):
        app.stage.time += FRAME_SECONDS
        start = time.thread_time()
        app.render(canvas)
        cpu.append((time.thread_time() - start) * 1000)
    return statistics.median(cpu), app.stage.phase == "game_over" and app.stage.celebrating


def main(argv: list[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=180)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    print(f"load average at start: {load_average()}", flush=True)
    medians = []
    for run in range(args.runs):
        median, falling = one_run(args.frames)
        print(f"run {run + 1}: {median:.2f} ms a frame (confetti falling: {falling})", flush=True)
        medians.append(median)
    rows: list[Row] = [
        (
            "TV frame CPU at the game's end, confetti falling, 10 players",
            summary(medians, " ms", 2),
            f"≤ {TARGET_MS} ms (issue 18 item 3)",
        )
    ]
    print_table(rows)
    print(f"load average at end: {load_average()}")
    return rows


if __name__ == "__main__":
    main(sys.argv[1:])
