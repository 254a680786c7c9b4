"""A saved game's random state: one string in the save, and old saves still resume (R-none:
persistence; issue 18's cheaper journal record). And R12's round each player went out in."""

from __future__ import annotations

import base64
import json
import random

import pytest

from host.rules import Game, HouseRules
from host.rules.playout import new_game, play_game
from host.rules.serialize import game_from_dict, game_to_dict
from host.rules.validate import SaveInvalid, check_saved_game


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


def _over(seed: int) -> Game:
    """A whole game of six computer players, played to its winner (R14)."""
    game, strategies = new_game(6, seed=seed, strategies=("random", "smart"))
    play_game(game, strategies, random.Random(seed))
    return game


def test_r12_the_round_each_player_went_out_in_is_saved_and_resumes() -> None:
    """The final standings rank the knocked-out by when they went out; a restarted host reads
    that from the save (the TV that learnt it from the events forgot it)."""
    game = _over(3)
    out = {p.id: p.out_round for p in game.players if p.status == "eliminated"}
    assert out and all(isinstance(r, int) and 1 <= r <= game.round for r in out.values())
    restored = check_saved_game(json.loads(json.dumps(game_to_dict(game))))
    assert {p.id: p.out_round for p in restored.players if p.out_round is not None} == out
    seats = restored.view(None)["players"]
    assert {s["id"]: s["out_round"] for s in seats if s["out_round"] is not None} == out


def test_r12_a_save_from_before_the_round_was_kept_still_resumes() -> None:
    saved = json.loads(json.dumps(game_to_dict(_over(4))))
    for player in saved["players"]:
        del player["out_round"]
    restored = check_saved_game(saved)
    assert all(p.out_round is None for p in restored.players)


@pytest.mark.parametrize(
    ("change", "fault"),
    [
        ("active", "still in"),
        ("future", "out_round"),
        ("text", "whole number"),
        ("zero", "out_round"),
    ],
)
def test_r12_a_save_with_an_impossible_out_round_is_refused(change: str, fault: str) -> None:
    game = _over(5)
    saved = json.loads(json.dumps(game_to_dict(game)))
    out = next(p for p in saved["players"] if p["status"] == "eliminated")
    winner = next(p for p in saved["players"] if p["status"] == "active")
    if change == "active":
        winner["out_round"] = 1
    else:
        out["out_round"] = {"future": game.round + 1, "text": "1", "zero": 0}[change]
    with pytest.raises(SaveInvalid, match=fault):
        check_saved_game(saved)


def test_r12_a_new_game_forgets_who_went_out() -> None:
    """R12: eliminated until the next complete game; the new game starts with nobody out."""
    game = _over(6)
    assert any(p.out_round is not None for p in game.players)
    assert game.vip is not None
    game.apply(game.vip, "new_game")
    assert all(p.out_round is None and p.status == "active" for p in game.players)
    assert all(seat["out_round"] is None for seat in game.view(None)["players"])
