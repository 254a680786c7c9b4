"""Play whole games with computer players, from their own views only (simulation, tests)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from host.rules.bots import choose_action
from host.rules.game import Game
from host.rules.options import HouseRules

#: A game of 20 players with 5 lives ends well within this many actions; it bounds every loop.
MAX_ACTIONS = 20_000


def seat_table(game: Game, count: int, *, bots: bool = True) -> list[str]:
    """Seat ``count`` players named p0…pN-1 (ids) / Player 1… (names)."""
    ids = [f"p{i}" for i in range(count)]
    for i, pid in enumerate(ids):
        game.add_player(pid, f"Player {i + 1}", bot=bots)
    return ids


def play_game(
    game: Game, strategies: Mapping[str, str], rng: random.Random, *, max_actions: int = MAX_ACTIONS
) -> list[str]:
    """From the lobby to ``game_over``; each player moves by its strategy. Returns the winners."""
    for _ in range(max_actions):
        if game.phase == "game_over":
            return list(game.winners)
        actor = _whose_move(game)
        view = game.view(actor)
        game.apply(actor, choose_action(strategies[actor], view, rng))
    raise RuntimeError("game did not end within the action limit")


def _whose_move(game: Game) -> str:
    if game.phase == "lobby":
        assert game.vip is not None
        return game.vip
    if game.phase == "turns":
        assert game.current is not None
        return game.current
    if game.phase == "reveal":
        assert game.next_dealer is not None
        return game.next_dealer
    raise RuntimeError("the game is over")


def new_game(
    players: int,
    options: HouseRules | None = None,
    seed: int | None = None,
    strategies: Sequence[str] = ("random",),
) -> tuple[Game, dict[str, str]]:
    """A seated lobby and the strategy of each seat (assigned in rotation)."""
    game = Game(options or HouseRules(), random.Random(seed))
    ids = seat_table(game, players)
    return game, {pid: strategies[i % len(strategies)] for i, pid in enumerate(ids)}
