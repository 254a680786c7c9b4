"""Issue 13 in the pure engine: the VIP's controls, time-free (the host's facts passed in)."""

from __future__ import annotations

import random

import pytest

from host.rules import Game, HouseRules, IllegalAction, game_moves
from host.rules import controls as c
from host.rules.controls import TableFacts


def _table(names: tuple[str, ...] = ("Ana", "Bea", "Cal", "Dan"), bots: int = 0) -> Game:
    game = Game(HouseRules(), random.Random(7))
    for i, name in enumerate(names):
        game.add_player(f"p{i + 1}", name)
    for i in range(bots):
        game.add_player(f"b{i + 1}", f"Bot {i + 1}", bot=True)
    return game


def test_issue13_only_the_human_vip_gets_controls() -> None:
    game = _table(bots=1)
    facts = TableFacts()
    assert c.vip_actions(game, "p1", facts) == ("set_rules", "add_bot", "kick", "make_vip")
    for other in ("p2", "p3", "b1"):
        assert c.vip_actions(game, other, facts) == ()
    game.vip = "b1"  # a table of computer players keeps a VIP, but a bot has no controls
    assert c.vip_actions(game, "b1", facts) == ()


def test_issue13_skip_needs_an_away_or_idle_current_player_more_than_10_s() -> None:
    game = _table()
    game.apply("p1", "start")
    current = game.current
    assert current is not None
    assert "skip" not in c.vip_actions(game, "p1", TableFacts(deciding_seconds=10.0))
    assert "skip" in c.vip_actions(game, "p1", TableFacts(deciding_seconds=10.01))
    assert "skip" in c.vip_actions(game, "p1", TableFacts(away=frozenset({current})))
    with pytest.raises(IllegalAction):
        c.skip(game, TableFacts())
    step = game.step
    c.skip(game, TableFacts(deciding_seconds=11))
    assert game.step == step + 1 and game.current != current


def test_issue13_each_control_is_exactly_one_step() -> None:
    game = _table()
    steps = [game.step]
    c.set_rules(game, c.rules_from_ids(["H1"], None, game.options))
    steps.append(game.step)
    c.add_bot(game, "b1", "Ada")
    steps.append(game.step)
    c.make_vip(game, "p2", TableFacts())
    steps.append(game.step)
    c.kick(game, "p4", TableFacts())
    steps.append(game.step)
    game.apply("p2", "start")
    steps.append(game.step)
    game.misdeal()
    steps.append(game.step)
    c.end_game(game)
    steps.append(game.step)
    assert steps == list(range(steps[0], steps[0] + len(steps)))
    assert game.phase == "lobby" and all(p.lives == 5 for p in game.players)


def test_issue13_refusals_change_nothing() -> None:
    game = _table(bots=1)
    game.options = HouseRules(big_table=True)
    for i in range(7):
        game.add_player(f"x{i}", f"Extra {i}")
    before = game.to_dict()
    with pytest.raises(IllegalAction):
        c.set_rules(game, HouseRules())  # 12 seated: the table cannot shrink to 10
    with pytest.raises(IllegalAction):
        c.kick(game, "p1", TableFacts())  # not the VIP
    with pytest.raises(IllegalAction):
        c.make_vip(game, "b1", TableFacts())  # not a bot
    with pytest.raises(IllegalAction):
        c.make_vip(game, "p2", TableFacts(away=frozenset({"p2"})))  # not an away player
    with pytest.raises(IllegalAction):
        c.end_game(game)  # nothing to end in the lobby
    assert game.to_dict() == before
    game.apply("p1", "start")
    before = game.to_dict()
    with pytest.raises(IllegalAction):
        c.set_rules(game, HouseRules(five_lives=True))  # never mid-game
    with pytest.raises(IllegalAction):
        c.add_bot(game, "b9", "Zed")
    assert game.to_dict() == before


def test_issue13_next_vip_is_the_next_present_person_clockwise() -> None:
    game = _table(("Ana", "Bea", "Cal", "Dan"), bots=1)
    # seats: p1 p2 p3 p4 b1 — from Cal's seat (2): Dan, then the bot, then Ana…
    assert c.next_vip(game, 2, frozenset()) == "p4"
    assert c.next_vip(game, 2, frozenset({"p4"})) == "p1"
    assert c.next_vip(game, 2, frozenset({"p1", "p2", "p4"})) == "p3"
    assert c.next_vip(game, 2, frozenset({"p1", "p2", "p3", "p4"})) == "p4"  # nobody present
    events = game.remove_player("p1", away=frozenset({"p2"}))
    assert game.vip == "p3" and events[-1].to_dict() == {"type": "vip_changed", "player": "p3"}


def test_issue13_game_moves_leave_the_controls_out() -> None:
    assert game_moves(["start", "set_rules", "kick", "keep", "set_tv"]) == ["start", "keep"]


def test_issue13_a_person_sitting_down_takes_the_vip_from_a_bot() -> None:
    """A bot is the VIP only while no person sits at the table (``next_vip``); it has no
    controls, so the first person to join takes the role (and is told: ``vip_changed``)."""
    game = Game(HouseRules(), random.Random(7))
    game.add_player("b1", "Bot 1", bot=True)
    game.add_player("b2", "Bot 2", bot=True)
    assert game.vip == "b1"
    events = game.add_player("p1", "Ana")
    assert game.vip == "p1"
    assert [e.kind.value for e in events][-1] == "vip_changed"
    game.add_player("p2", "Bea")  # a second person does not take it from the first
    assert game.vip == "p1"
    game.add_player("b3", "Bot 3", bot=True)
    assert game.vip == "p1"
