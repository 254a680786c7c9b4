"""``last_round``: the last reveal retold during the next round (round 44's play-test).

A computer dealer dealt the next round 0.4-1.5 s after the phones showed who lost a life; the
new round's page kept no trace of it but a hollow life dot.
"""

from __future__ import annotations

import json

import pytest

from host.rules import Game, HouseRules
from host.rules.serialize import game_from_dict, game_to_dict
from host.rules.validate import SaveInvalid, check_saved_game
from tests.rules.helpers import play, rig, seated


def _tie_with_one_out() -> Game:
    """p0 and p2 hold the lowest rank; p0 had one life left and goes out."""
    game = rig(seated(4), "p3", {"p0": "3C", "p1": "9H", "p2": "3S", "p3": "7D"})
    game.player("p0").lives = 1
    play(game, ("p0", "keep"), ("p1", "keep"), ("p2", "keep"), ("p3", "keep"))
    return game


def test_next_round_names_every_loser_and_who_went_out() -> None:
    game = _tie_with_one_out()
    assert game.view(None)["last_round"] is None  # the reveal says it itself
    game.apply(game.next_dealer, "deal")  # type: ignore[arg-type]
    expected = {
        "round": 1,
        "lowest": "3",
        "losers": [
            {"player": "p0", "name": "P0", "lives": 0, "lost": 1},
            {"player": "p2", "name": "P2", "lives": 2, "lost": 1},
        ],
    }
    assert game.round == 2
    for receiver in (None, "p0", "p1", "p2", "p3"):  # public: the same for everyone
        assert game.view(receiver)["last_round"] == expected


def test_kept_through_a_redeal_gone_at_the_next_reveal_and_game() -> None:
    game = _tie_with_one_out()
    game.apply(game.next_dealer, "deal")  # type: ignore[arg-type]
    told = game.view(None)["last_round"]
    game.misdeal()  # R16: the same round again; the last one's outcome still stands
    assert game.view(None)["last_round"] == told
    while game.phase == "turns":
        game.apply(game.current, "keep")  # type: ignore[arg-type]
    assert game.view(None)["last_round"] is None
    game.reset_to_lobby()
    assert game.last_round is None
    game.apply(game.vip, "start")  # type: ignore[arg-type]
    assert game.view(None)["last_round"] is None  # a game's first round: none


def test_h4_time_out_with_the_lowest_card_lost_two() -> None:
    game = rig(seated(3, HouseRules(rapid=True)), "p2", {"p0": "2C", "p1": "5H", "p2": "8D"})
    game.timeout()
    play(game, ("p1", "keep"), ("p2", "keep"))
    game.apply(game.next_dealer, "deal")  # type: ignore[arg-type]
    last = game.view("p1")["last_round"]
    assert last is not None and last["losers"] == [
        {"player": "p0", "name": "P0", "lives": 1, "lost": 2}
    ]


def test_a_loser_who_left_after_the_reveal_is_still_named() -> None:
    game = rig(seated(4), "p3", {"p0": "3C", "p1": "9H", "p2": "8S", "p3": "7D"})
    play(game, ("p0", "keep"), ("p1", "keep"), ("p2", "keep"), ("p3", "keep"))
    game.remove_player("p0")
    game.apply(game.next_dealer, "deal")  # type: ignore[arg-type]
    last = game.view("p1")["last_round"]
    assert last is not None and last["losers"][0]["name"] == "P0"


def test_saved_and_resumed_and_checked() -> None:
    game = _tie_with_one_out()
    game.apply(game.next_dealer, "deal")  # type: ignore[arg-type]
    saved = json.loads(json.dumps(game_to_dict(game)))
    assert game_from_dict(saved).view(None)["last_round"] == game.view(None)["last_round"]
    assert check_saved_game(saved).last_round == game.last_round
    old = {key: value for key, value in saved.items() if key != "last_round"}
    assert check_saved_game(old).last_round is None  # a save from before round 44
    saved["last_round"]["losers"][0]["lives"] = "none"
    with pytest.raises(SaveInvalid, match="last_round"):
        check_saved_game(saved)
