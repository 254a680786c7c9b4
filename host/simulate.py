"""``cuckoo-party simulate``: many bot games, win rates per strategy and per seat, with a CI."""

from __future__ import annotations

import argparse
import math
import random
import sys
from dataclasses import dataclass, field
from typing import TextIO

from host.i18n import Catalog
from host.rules.bots import STRATEGIES
from host.rules.options import HouseRules, UnknownHouseRule
from host.rules.playout import new_game, play_game

Z95 = 1.96


@dataclass
class SimulationResult:
    """Win shares (joint winners split a win) per strategy and per seat."""

    games: int
    players: int
    strategies: list[str]
    wins_by_strategy: dict[str, float] = field(default_factory=dict)
    seats_by_strategy: dict[str, int] = field(default_factory=dict)
    wins_by_seat: list[float] = field(default_factory=list)
    per_game_edge: list[float] = field(default_factory=list)
    """Per game: win share per seat of strategies[1] minus that of strategies[0]."""

    def win_rate(self, strategy: str) -> float:
        """Mean win share of one seat played by ``strategy`` (fair share is 1/players)."""
        return self.wins_by_strategy[strategy] / max(self.seats_by_strategy[strategy], 1)

    def edge_interval(self) -> tuple[float, float, float]:
        """Mean edge of the second strategy over the first, with a 95 % normal interval."""
        n = len(self.per_game_edge)
        if n == 0:
            return 0.0, 0.0, 0.0
        mean = sum(self.per_game_edge) / n
        var = sum((x - mean) ** 2 for x in self.per_game_edge) / max(n - 1, 1)
        half = Z95 * math.sqrt(var / n)
        return mean, mean - half, mean + half


def simulate(
    games: int,
    players: int,
    strategies: list[str],
    options: HouseRules,
    seed: int,
    progress: TextIO | None = None,
) -> SimulationResult:
    """Play ``games`` games; seat strategies in rotation, shifted each game so every strategy
    sits in every seat equally often."""
    rng = random.Random(seed)
    result = SimulationResult(
        games,
        players,
        strategies,
        {s: 0.0 for s in strategies},
        {s: 0 for s in strategies},
        [0.0] * players,
    )
    for index in range(games):
        rotated = strategies[index % len(strategies) :] + strategies[: index % len(strategies)]
        game, seats = new_game(players, options, rng.randrange(2**32), rotated)
        winners = play_game(game, seats, rng)
        share = 1.0 / len(winners)
        per_strategy = {s: 0.0 for s in strategies}
        count = {s: 0 for s in strategies}
        for seat, pid in enumerate(seats):
            strategy = seats[pid]
            count[strategy] += 1
            result.seats_by_strategy[strategy] += 1
            if pid in winners:
                per_strategy[strategy] += share
                result.wins_by_strategy[strategy] += share
                result.wins_by_seat[seat] += share
        if len(strategies) >= 2:
            a, b = strategies[0], strategies[1]
            if count[a] and count[b]:
                result.per_game_edge.append(per_strategy[b] / count[b] - per_strategy[a] / count[a])
        finished = index + 1
        if progress is not None and (finished % max(games // 50, 1) == 0 or finished == games):
            done = finished * 30 // games
            progress.write(f"\r[{'#' * done}{'.' * (30 - done)}] {finished}/{games}")
            progress.flush()
    if progress is not None:
        progress.write("\n")
    return result


def format_result(result: SimulationResult, catalog: Catalog, lang: str) -> str:
    _ = catalog.translator(lang)
    lines = [
        _(
            "sim.header",
            games=result.games,
            players=result.players,
            fair=f"{100 / result.players:.1f}",
        )
    ]
    for strategy in dict.fromkeys(result.strategies):
        lines.append(
            _("sim.strategy_row", strategy=strategy, rate=f"{100 * result.win_rate(strategy):.1f}")
        )
    lines.append(_("sim.seat_header"))
    for seat, wins in enumerate(result.wins_by_seat):
        lines.append(_("sim.seat_row", seat=seat + 1, rate=f"{100 * wins / result.games:.1f}"))
    if len(set(result.strategies)) >= 2:
        mean, low, high = result.edge_interval()
        a, b = result.strategies[0], result.strategies[1]
        lines.append(
            _(
                "sim.edge",
                first=a,
                second=b,
                edge=f"{100 * mean:+.1f}",
                low=f"{100 * low:+.1f}",
                high=f"{100 * high:+.1f}",
            )
        )
        if low > 0:
            lines.append(_("sim.verdict_stronger", stronger=b, weaker=a))
        elif high < 0:
            lines.append(_("sim.verdict_stronger", stronger=a, weaker=b))
        else:
            lines.append(_("sim.verdict_unclear"))
    return "\n".join(lines)


def run_simulation_command(args: argparse.Namespace) -> int:
    catalog = Catalog.load()
    _ = catalog.translator(args.lang)
    strategies = [s.strip() for s in args.strategies.split(",") if s.strip()]
    unknown = [s for s in strategies if s not in STRATEGIES]
    if not strategies or unknown:
        print(
            _("sim.bad_strategy", names=", ".join(unknown) or "-", known=", ".join(STRATEGIES)),
            file=sys.stderr,
        )
        return 2
    try:
        options = HouseRules.parse(args.sim_house_rules or args.house_rules)
    except UnknownHouseRule as error:
        print(error, file=sys.stderr)
        return 2
    if not 3 <= args.players <= options.max_players or args.games < 1:
        print(_("sim.bad_numbers", max=options.max_players), file=sys.stderr)
        return 2
    progress = None if args.no_progress else sys.stderr
    result = simulate(args.games, args.players, strategies, options, args.sim_seed, progress)
    print(format_result(result, catalog, args.lang))
    return 0
