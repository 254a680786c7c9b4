"""Issue 18.1: every player's view built from one shared public view, per change.

"Hidden information" (RULES.md): each view may carry only the cards its receiver may see. The
session now builds the public part of a change once (``public_view``) and each player's view
from it (``player_view``): these tests play many seeded games and check at every step that the
views so built equal the views built one by one, leak nothing, and that building them leaves
the shared public part untouched (one player's facts never reach another's view).
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from host.rules import Game, HouseRules, may_see
from host.rules.options import RULE_FIELDS
from host.rules.views import build_view, build_views, public_view
from tests.rules.test_properties import actor, cards_in

GAMES = 40


def _options(rng: random.Random) -> HouseRules:
    return HouseRules(**{name: rng.random() < 0.4 for name in RULE_FIELDS.values()})


def _seeded_game(seed: int) -> Game:
    """A seeded table in the lobby: random house rules, 3 up to the most players allowed."""
    rng = random.Random(seed)
    options = _options(rng)
    game = Game(options, random.Random(seed))
    for i in range(rng.randint(3, options.max_players)):
        game.add_player(f"p{i}", f"P{i}")
    return game


def _steps(seed: int, game: Game) -> list[int]:
    """Plays the game to its end (misdeals and kicks too), checking the views at every step."""
    rng = random.Random(seed + 1)
    steps = []
    for _ in range(3000):
        if game.phase == "game_over" or (game.phase == "lobby" and len(game.active_ids()) < 3):
            break
        if game.phase == "turns" and rng.random() < 0.03:
            game.misdeal()
        elif rng.random() < 0.004 and len(game.players) > 3:
            game.remove_player(rng.choice(game.players).id)
        else:
            who = actor(game)
            game.apply(who, rng.choice(game.legal_actions(who)))
        steps.append(game.step)
        check_shared_views(game)
    return steps


def check_shared_views(game: Game) -> None:
    viewers: list[str | None] = [None, *(p.id for p in game.players)]
    fresh_public = public_view(game)
    shared = build_views(game, viewers)
    assert list(shared) == viewers
    for viewer in viewers:
        alone = build_view(game, viewer)
        assert shared[viewer] == alone, (viewer, game.phase)
        # The same bytes on the wire, key order included.
        assert json.dumps(shared[viewer]) == json.dumps(alone)
        leaked = cards_in(shared[viewer]) - may_see(game, viewer)
        assert not leaked, (viewer, game.phase, leaked)
        me = shared[viewer]["me"]
        assert (me is None) if viewer is None else (me is not None and me["id"] == viewer)
    # Building every player's view left the shared public part as it was.
    assert shared[None] == fresh_public
    assert shared[None]["me"] is None and shared[None]["can"] == []


@pytest.mark.parametrize("seed", range(GAMES))
def test_issue18_hidden_information_views_from_one_public_base_equal_views_one_by_one(
    seed: int,
) -> None:
    game = _seeded_game(seed)
    check_shared_views(game)  # the lobby
    steps = _steps(seed, game)
    assert steps, "the game made no move"


def test_issue18_hidden_information_a_players_view_never_changes_the_public_base() -> None:
    """Changing one player's own part (``me``, ``can``) reaches nobody else's view."""
    game = _seeded_game(7)
    for _ in range(5):
        who = actor(game)
        game.apply(who, game.legal_actions(who)[0])
    viewers: list[str | None] = [None, *(p.id for p in game.players)]
    shared = build_views(game, viewers)
    before = copy.deepcopy(shared)
    first = game.players[0].id
    mine = shared[first]
    assert mine["me"] is not None
    history: list[Any] = mine["me"]["history"]
    history.append({"type": "swap", "gave": "AS", "got": "KH"})
    mine["can"].append("exchange")
    for viewer in viewers:
        if viewer != first:
            assert shared[viewer] == before[viewer], viewer
