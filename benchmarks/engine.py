"""Engine speed: full random 10-player rounds per second on one core (floor 5 000).

A reporting figure, not a design goal: the engine is written to be read, and 5 000 rounds/s is
far above anything a party needs (a 2 000-game ``simulate`` stays under 30 s).


A round is the deal, ten decisions (random legal moves) and the reveal, through the public
``Game.apply`` path with its validation and events, exactly as the host plays it. Players
start with a huge number of lives so every round has ten players.

Run: ``python -m benchmarks.engine [--rounds N]``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from host.rules import Game, HouseRules

TARGET = 5_000


def rounds_per_second(rounds: int, players: int = 10, seed: int = 1) -> float:
    """Play ``rounds`` rounds of random legal moves and return rounds per second.

    The moves are drawn before the clock starts, by role (R6–R9: everyone but the dealer keeps
    or exchanges, the dealer, last in the round's order, keeps or cuts), so the figure is the
    engine's time. Every move still goes through ``Game.apply``, which validates it first; the
    players move in the engine's own turn order, and a round that did not end after its last
    move would make the next deal raise, so nothing is skipped unnoticed.
    """
    rng = random.Random(seed)
    game = Game(HouseRules(), random.Random(seed))
    for i in range(players):
        game.add_player(f"p{i}", f"P{i}")
    for p in game.players:
        p.lives = 10**9  # nobody is ever eliminated: every round has all ten players
    game.apply("p0", "start")
    plans = [
        [rng.choice(("keep", "exchange")) for _ in range(players - 1)]
        + [rng.choice(("keep", "cut"))]
        for _ in range(rounds)
    ]
    apply = game.apply
    start = time.perf_counter()
    for plan in plans:
        for who, action in zip(game.order, plan):
            apply(who, action)
        apply(game.next_dealer, "deal")  # type: ignore[arg-type]
    elapsed = time.perf_counter() - start
    assert game.round == rounds + 1, "every round was played to its reveal"
    return rounds / elapsed


def main(argv: list[str] | None = None) -> list[tuple[str, str, str]]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5_000)
    args = parser.parse_args(argv)
    load = os.getloadavg()
    rate = statistics.median(rounds_per_second(args.rounds, seed=s) for s in (1, 2, 3))
    print(f"load average: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    rows = [("engine: random 10-player rounds/s (median of 3)", f"{rate:,.0f}", f">= {TARGET:,}")]
    print(f"{'figure':<48} {'measured':>12} {'target':>12}")
    for row in rows:
        print(f"{row[0]:<48} {row[1]:>12} {row[2]:>12}")
    return rows


if __name__ == "__main__":
    main()
