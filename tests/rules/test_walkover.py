"""R14 by walkover (round 46): a game whose other players were all removed or left.

R14 still names the last one at the table the winner, but the game-over event and the view
say the game ended because the others left, so that no front-end cheers a win; a game that
ends at a reveal (a sole survivor, joint winners, H5's sudden death) says it did not.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from host.rules import Game, HouseRules, may_see
from host.rules.events import event_from_dict
from host.rules.serialize import game_to_dict
from host.rules.validate import SaveInvalid, check_saved_game
from tests.rules.helpers import play, rig, seated


def _walked_over() -> tuple[Game, list[dict[str, Any]]]:
    """Four players mid-round; the host removes three of them: p0 is the last one left."""
    game = rig(seated(4), "p3", {"p0": "2C", "p1": "9H", "p2": "5S", "p3": "7D"})
    play(game, ("p0", "keep"))
    events: list[dict[str, Any]] = []
    for pid in ("p1", "p2", "p3"):
        events += [dict(e.to_dict()) for e in game.remove_player(pid)]
    return game, events


def test_r14_the_last_one_at_the_table_wins_by_walkover() -> None:
    game, events = _walked_over()
    assert events[-1] == {"type": "game_over", "winners": ["p0"], "joint": False, "walkover": True}
    assert game.phase == "game_over" and game.winners == ["p0"] and game.walkover
    for viewer in (None, "p0"):
        view = game.view(viewer)
        assert view["winners"] == ["p0"] and view["walkover"] is True
        assert view["log"][-1] == events[-1]  # a reloaded page reads it from the log too


def test_r14_a_walkover_after_the_reveal_is_one_too() -> None:
    """The others leave between rounds (phase ``reveal``): the same honest end."""
    game = rig(seated(3), "p2", {"p0": "2C", "p1": "9H", "p2": "5S"})
    play(game, ("p0", "keep"), ("p1", "keep"), ("p2", "keep"))
    assert game.phase == "reveal"
    game.remove_player("p1")
    over = [e.to_dict() for e in game.remove_player("p2")][-1]
    assert over == {"type": "game_over", "winners": ["p0"], "joint": False, "walkover": True}


def test_r14_joint_winners_are_no_walkover() -> None:
    game = rig(seated(3), "p2", {"p0": "4C", "p1": "4H", "p2": "4D"})
    for p in game.players:
        p.lives = 1
    over = play(game, ("p0", "keep"), ("p1", "keep"), ("p2", "keep"))[-1]
    assert over["type"] == "game_over" and over["joint"] is True
    assert over["walkover"] is False and game.view(None)["walkover"] is False


def test_h5_a_sudden_death_winner_is_no_walkover() -> None:
    game = rig(seated(3, HouseRules(sudden_death=True)), "p2", {"p0": "4C", "p1": "4H", "p2": "4D"})
    for p in game.players:
        p.lives = 1
    events = play(game, ("p0", "keep"), ("p1", "keep"), ("p2", "keep"))
    assert "sudden_death" in [e["type"] for e in events]
    over = events[-1]
    assert over["type"] == "game_over" and len(over["winners"]) == 1
    assert over["walkover"] is False and game.view(None)["walkover"] is False


def test_r14_the_next_game_forgets_the_walkover() -> None:
    game, _ = _walked_over()
    for pid, name in (("p4", "P4"), ("p5", "P5")):
        game.add_player(pid, name)  # they wait: they play the next game
    assert game.vip is not None
    game.apply(game.vip, "new_game")
    assert not game.walkover and game.view(None)["walkover"] is False
    game.apply(game.vip, "start")
    assert game.view(None)["walkover"] is False


def test_r14_a_walkover_is_saved_and_resumes_identically() -> None:
    game, _ = _walked_over()
    saved = json.loads(json.dumps(game_to_dict(game)))
    assert saved["walkover"] is True
    restored = check_saved_game(saved)
    assert restored.walkover
    assert game_to_dict(restored) == game_to_dict(game)
    for viewer in (None, "p0"):
        assert restored.view(viewer) == game.view(viewer)


def test_r14_a_save_from_before_round_46_reads_as_a_game_won() -> None:
    game, _ = _walked_over()
    saved = json.loads(json.dumps(game_to_dict(game)))
    del saved["walkover"]
    for event in saved["log"]:
        event.pop("walkover", None)
    restored = check_saved_game(saved)
    assert not restored.walkover and restored.view(None)["walkover"] is False
    assert restored.log[-1].data["walkover"] is False
    old = event_from_dict({"type": "game_over", "winners": ["p0"], "joint": False})
    assert old.data["walkover"] is False


def test_r14_a_save_with_a_walkover_not_true_or_false_is_refused() -> None:
    game, _ = _walked_over()
    saved = json.loads(json.dumps(game_to_dict(game)))
    saved["walkover"] = "yes"
    with pytest.raises(SaveInvalid, match="walkover"):
        check_saved_game(saved)


def test_hidden_a_walkover_mid_round_turns_no_card_face_up() -> None:
    """Hidden information: a game that ends mid-round by walkover had no reveal (R10), so the
    last one's card stays theirs alone: not on the TV's seat, not on a waiting guest's phone."""
    game = rig(seated(4), "p3", {"p0": "2C", "p1": "9H", "p2": "5S", "p3": "7D"})
    game.add_player("p9", "Bench")  # joins mid-game: waits for the next one
    for pid in ("p1", "p2", "p3"):
        game.remove_player(pid)
    assert game.phase == "game_over" and game.walkover
    card = game.player("p0").card
    assert card is not None
    for viewer in (None, "p9"):
        view = game.view(viewer)
        assert [seat["card"] for seat in view["players"]] == [None, None]
        assert str(card) not in json.dumps(view)
        assert str(card) not in may_see(game, viewer)
    me = game.view("p0")["me"]
    assert me is not None and me["card"] == str(card)  # their own card, as before
