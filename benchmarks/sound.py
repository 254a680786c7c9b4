"""TV frame time during the reveal with the sound on, against the same reveal silent.

Run: ``python benchmarks/sound.py [--frames 600]``. Headless: SDL's dummy video driver and its
dummy audio driver (which still mixes and drains in real time on SDL's audio thread). With
sound on, the TV plays every cue through a real ``SoundBoard`` (lobby → game music, each card
turned, the drumroll) and each reveal starts a one-second duck as the voice would. Targets:
the TV's own (issue 5: p99 <= 8 ms per frame), and a cue call from the TV thread that only
queues (p99 well under a millisecond).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

NAMES = ("Ana", "Chloé", "Niccolò", "François", "Zoë", "Björn", "Inès", "Mattia")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


class TimedBoard:
    """The board as the TV sees it, timing each call made from the TV's thread."""

    def __init__(self, board: Any) -> None:
        self.board = board
        self.calls_us: list[float] = []
        self.calls_cpu_us: list[float] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.board, name)

    def cue(self, name: str) -> None:
        start, start_cpu = time.perf_counter(), time.thread_time()
        self.board.cue(name)
        self.calls_us.append((time.perf_counter() - start) * 1e6)
        self.calls_cpu_us.append((time.thread_time() - start_cpu) * 1e6)
        if name == "drumroll":
            self.board.speech_started(1.0)  # the voice says the lowest card meanwhile


def reveal_frames(count: int, sound: bool) -> tuple[list[float], list[float], TimedBoard | None]:
    """Milliseconds per reveal frame (wall-clock and the frame's CPU time), and the board
    that timed each cue call."""
    import pygame

    from host.audio import SoundBoard
    from host.i18n import Catalog
    from host.tv.app import FRAME_SECONDS, TVApp
    from host.tv.rehearsal import Rehearsal

    pygame.display.init()
    surface = pygame.display.set_mode((1920, 1080))
    board = timed = None
    if sound:
        board = SoundBoard()
        problem = board.start()
        if problem is not None:
            raise SystemExit(f"no sound output: {problem}")
        board.wait_ready(120.0)
        timed = TimedBoard(board)
    table = Rehearsal(seed=9, people=NAMES)
    app = TVApp(
        table.session,
        None,
        Catalog.load(),
        lang="en",
        join_url="http://192.168.1.20:8000/?room=CAKE",
        sounds=timed,
    )
    times: list[float] = []
    cpu: list[float] = []
    try:
        while len(times) < count:
            table.feed(app)
            start, start_cpu = time.perf_counter(), time.thread_time()
            app.step(FRAME_SECONDS)
            app.render(surface)
            pygame.display.flip()
            app.report_shown()
            if app.stage.beat is not None and app.stage.beat.kind == "reveal":
                times.append((time.perf_counter() - start) * 1000)
                cpu.append((time.thread_time() - start_cpu) * 1000)
            time.sleep(max(0.0, FRAME_SECONDS - (time.perf_counter() - start)))  # real pace
    finally:
        if board is not None:
            board.close()
        app.close()
        pygame.display.quit()
    return times, cpu, timed


def main(argv: list[str] | None = None) -> list[tuple[str, str, str]]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--frames", type=int, default=600)
    args = parser.parse_args(argv)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    quiet, quiet_cpu, _ = reveal_frames(args.frames, sound=False)
    loud, loud_cpu, timed = reveal_frames(args.frames, sound=True)
    assert timed is not None
    calls, calls_cpu = timed.calls_us, timed.calls_cpu_us

    def spread(values: list[float], unit: str, digits: int = 2) -> str:
        """``p50 / p99 / max unit`` of some timings."""
        figures = (statistics.median(values), percentile(values, 0.99), max(values))
        return " / ".join(f"{v:.{digits}f}" for v in figures) + f" {unit}"

    rows = [
        ("reveal frame p50 / p99 / max, sound off", spread(quiet, "ms"), "p99 <= 8 ms"),
        ("reveal frame p50 / p99 / max, sound on", spread(loud, "ms"), "p99 <= 8 ms"),
        ("reveal frame CPU p50 / p99 / max, sound off", spread(quiet_cpu, "ms"), "p99 <= 8 ms"),
        ("reveal frame CPU p50 / p99 / max, sound on", spread(loud_cpu, "ms"), "p99 <= 8 ms"),
        (
            f"cue call on the TV thread p50 / p99 / max ({len(calls)} cues)",
            spread(calls, "us", 0),
            "< 1 ms",
        ),
        ("cue call CPU time p50 / p99 / max", spread(calls_cpu, "us", 0), "< 1 ms"),
    ]
    for figure, measured, target in rows:
        print(f"{figure}: {measured} (target {target})")
    print(f"load_average_1min: {os.getloadavg()[0]:.2f}")
    return rows


if __name__ == "__main__":
    main()
