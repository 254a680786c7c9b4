"""Memory: the host's peak resident set size (RSS) during a whole 10-player game (target
<= 120 MB).

Why the kernel's figure: ``VmHWM`` in ``/proc/PID/status`` is the highest RSS the process ever
had, so no short peak between two samples is missed. The host is the real ``cuckoo-party``
command with its TV (SDL dummy driver, so the 1080p canvas, fonts and card images are all
there) and muted voice; ten phones join, hold their event streams and play random legal moves
until someone wins. The headless host is measured the same way for comparison. ``tracemalloc``
adds, in this process, the peak of Python allocations made by one engine game with views, to
show how little of the RSS the game itself is.

With the TV the phones follow its pace, so the game takes as long as the TV takes to play it;
``--tv-speed`` (default 10) runs the TV's clock faster, as ``growth.py`` does: every frame is
still drawn at the TV's rate, a beat just takes fewer of them.

Run: ``python -m benchmarks.memory [--tv-speed 10]``.
"""

from __future__ import annotations

import argparse
import random
import tracemalloc

from benchmarks._host import (
    HostProcess,
    actor_of,
    load_average,
    next_move,
    one_tap,
    phones_streaming,
    print_table,
)
from benchmarks.growth import faster_tv_probe

TARGET_MB = 120.0
MAX_TAPS = 5000
Row = tuple[str, str, str]


def play_game(host: HostProcess, players: int = 10, seed: int = 3) -> int:
    """Ten phones with streams play one game to the end; returns how many taps it took."""
    rng = random.Random(seed)
    with phones_streaming(host, players, "Player") as (http, tokens, hub):
        for taps in range(MAX_TAPS):
            # Whoever may act next, as their phone shows it: with the TV leading, the phones
            # learn the game is over only once the TV has played it, and then the VIP may
            # start a new one (a check of the table before waiting used to miss the end).
            _, mine, _ = next_move(hub, tokens)
            if mine["phase"] == "game_over":
                return taps
            one_tap(http, tokens, hub, rng)
        raise RuntimeError("the game did not end")


def peak_rss_mb(tv: bool, tv_speed: float = 1.0) -> tuple[float, int]:
    probe = faster_tv_probe(tv_speed) if tv and tv_speed != 1.0 else None
    with HostProcess(tv=tv, probe=probe, start_timeout=120.0) as host:
        if tv:
            host.wait_first_frame(120.0)
        taps = play_game(host)
        return host.peak_rss_bytes() / 2**20, taps


def engine_peak_kb() -> float:
    """Peak traced Python memory for one 10-player engine game, with every view computed."""
    from host.rules import Game, HouseRules

    rng = random.Random(4)
    tracemalloc.start()
    game = Game(HouseRules(), random.Random(4))
    for i in range(10):
        game.add_player(f"p{i}", f"Player {i}")
    for _ in range(MAX_TAPS):
        if game.phase == "game_over":
            break
        who = actor_of(game.view(None))
        assert who is not None
        game.apply(who, rng.choice(game.legal_actions(who)))
        for p in game.players:
            game.view(p.id)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1024


def main(argv: list[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--tv-speed", type=float, default=10.0, help="the TV's clock runs this many times as fast"
    )
    args = parser.parse_args(argv)
    print(f"load average at start: {load_average()}", flush=True)
    with_tv, taps = peak_rss_mb(tv=True, tv_speed=args.tv_speed)
    clock = f", its clock at {args.tv_speed:g}x" if args.tv_speed != 1.0 else ""
    headless, _ = peak_rss_mb(tv=False)
    rows: list[Row] = [
        (
            f"peak RSS, host with TV, 10-player game ({taps} taps{clock})",
            f"{with_tv:.1f} MB",
            f"<= {TARGET_MB:.0f} MB",
        ),
        ("peak RSS, headless host, same game", f"{headless:.1f} MB", f"<= {TARGET_MB:.0f} MB"),
        (
            "peak Python allocations of the engine game (tracemalloc)",
            f"{engine_peak_kb():.0f} KB",
            "(context)",
        ),
    ]
    print_table(rows)
    print(f"load average at end: {load_average()}")
    return rows


if __name__ == "__main__":
    main()
