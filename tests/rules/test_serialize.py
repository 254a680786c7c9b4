"""A saved game's random state: one string in the save, and old saves still resume (R-none:
persistence; issue 18's cheaper journal record)."""

from __future__ import annotations

import base64
import json
import random

from host.rules import Game, HouseRules
from host.rules.serialize import game_from_dict, game_to_dict


def _played(seed: int) -> Game:
    """A big table (H7) after its first deal: the shuffle has moved the generator."""
    game = Game(HouseRules(big_table=True), random.Random(seed))
    for i in range(20):
        game.add_player(f"p{i}", f"P{i}")
    game.apply("p0", "start")  # the first to join is the VIP
    return game


def _draws(game: Game) -> list[float]:
    return [game.rng.random() for _ in range(50)]


def test_issue18_the_random_state_is_one_string_and_resumes_exactly() -> None:
    game = _played(7)
    saved = game_to_dict(game)
    words = saved["rng"][1]
    assert isinstance(words, str)
    assert len(base64.b64decode(words)) == 625 * 4  # the Mersenne Twister's 625 words
    assert len(json.dumps(saved["rng"])) < 3500  # 625 numbers took about 7 300 characters
    restored = game_from_dict(json.loads(json.dumps(saved)))
    assert restored.rng.getstate() == game.rng.getstate()
    assert _draws(restored) == _draws(game)


def test_issue18_a_save_holding_the_random_state_as_numbers_still_resumes_exactly() -> None:
    """Saves written before the state became one string (a list of 625 numbers) still load."""
    game = _played(8)
    saved = game_to_dict(game)
    version, internal, gauss = game.rng.getstate()
    saved["rng"] = [version, list(internal), gauss]  # as ``game_to_dict`` wrote it before
    restored = game_from_dict(json.loads(json.dumps(saved)))
    assert restored.rng.getstate() == game.rng.getstate()
    assert _draws(restored) == _draws(game)
    assert game_to_dict(restored)["rng"][1] == game_to_dict(game)["rng"][1]
