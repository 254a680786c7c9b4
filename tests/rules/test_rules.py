"""One test (at least) per rule id of RULES.md: R1–R16 and H1–H8, plus the seed's edge cases."""

from __future__ import annotations

import random
from typing import Any

import pytest

from host.rules import (
    PACK,
    Card,
    EventDict,
    Game,
    HouseRules,
    IllegalAction,
    MeView,
    Reason,
    Status,
    View,
)
from tests.rules.helpers import play, rig, seated


def kinds(events: list[EventDict]) -> list[str]:
    return [e["type"] for e in events]


def me(view: View) -> MeView:
    """The caller's own part of a player's view."""
    assert view["me"] is not None
    return view["me"]


# --------------------------------------------------------------------------- R1–R4


def test_r1_three_to_ten_players_at_start() -> None:
    game = seated(2)
    assert game.legal_actions("p0") == ()
    with pytest.raises(IllegalAction) as refused:
        game.apply("p0", "start")
    assert refused.value.reason is Reason.NOT_ENOUGH_PLAYERS
    game.add_player("p2", "P2")
    assert game.legal_actions("p0") == ("start",)
    full = seated(10)
    with pytest.raises(IllegalAction) as too_many:
        full.add_player("p10", "P10")
    assert too_many.value.reason is Reason.TABLE_FULL
    assert len(full.players) == 10


def test_r1_game_goes_on_with_fewer_than_three() -> None:
    game = rig(seated(3), "p2", {"p0": "2C", "p1": "9H", "p2": "8D"})
    game.player("p0").lives = 1
    play(game, ("p0", "keep"), ("p1", "keep"), ("p2", "keep"))
    assert game.phase == "reveal" and game.active_ids() == ["p1", "p2"]
    assert game.next_dealer == "p0" or game.next_dealer in ("p1", "p2")
    game.apply(game.next_dealer, "deal")
    assert game.phase == "turns" and sorted(game.order) == ["p1", "p2"]


def test_r2_pack_of_52_ranks_ace_low_king_high_suits_never_matter() -> None:
    assert len(PACK) == 52 and len(set(PACK)) == 52
    assert Card.parse("AS").rank_value < Card.parse("2S").rank_value < Card.parse("KC").rank_value
    assert str(Card.parse("10D")) == "10D" and Card.parse("KS").is_king
    game = rig(seated(3), "p2", {"p0": "7S", "p1": "7H", "p2": "9D"})
    play(game, ("p0", "keep"), ("p1", "keep"), ("p2", "keep"))
    assert game.losers == ["p0", "p1"]  # two 7s tie (suits never matter)


def test_r3_three_lives_and_no_pot() -> None:
    game = seated(4)
    assert [p.lives for p in game.players] == [3, 3, 3, 3]
    assert "pot" not in game.view("p0")


def test_r4_first_dealer_by_lot_reproducible() -> None:
    dealers = set()
    for seed in range(40):
        game = seated(5, seed=seed)
        game.apply("p0", "start")
        dealers.add(game.dealer)
        again = seated(5, seed=seed)
        again.apply("p0", "start")
        assert again.dealer == game.dealer
    assert dealers == {f"p{i}" for i in range(5)}


# --------------------------------------------------------------------------- R5–R10


def test_r5_deal_one_card_each_from_dealer_left_dealer_last() -> None:
    game = seated(5, seed=3)
    events = [e.to_dict() for e in game.apply("p0", "start")]
    dealer_seat = game.seat_of(game.dealer)  # type: ignore[arg-type]
    expected = [f"p{(dealer_seat + k) % 5}" for k in range(1, 6)]
    assert game.order == expected and game.order[-1] == game.dealer
    dealt = [e for e in events if e["type"] == "card_dealt"]
    assert [e["player"] for e in dealt] == expected
    assert len(game.stock) == 52 - 5
    held = {str(game.player(p).card) for p in game.order}
    assert len(held) == 5 and held.isdisjoint({str(c) for c in game.stock})


def test_r6_turns_clockwise_dealer_last_eliminated_skipped() -> None:
    game = seated(5)
    game.player("p2").status = Status.ELIMINATED
    rig(game, "p3", {"p4": "5C", "p0": "6C", "p1": "7C", "p3": "8C"})
    assert game.order == ["p4", "p0", "p1", "p3"]
    seen = []
    while game.phase == "turns":
        seen.append(game.current)
        game.apply(game.current, "keep")  # type: ignore[arg-type]
    assert seen == ["p4", "p0", "p1", "p3"]


def test_r6_only_current_player_may_act() -> None:
    game = rig(seated(4), "p3", {"p0": "2C", "p1": "9H", "p2": "5S", "p3": "7D"})
    before = game.to_dict()
    with pytest.raises(IllegalAction) as refused:
        game.apply("p1", "keep")
    assert refused.value.reason is Reason.NOT_YOUR_TURN
    assert game.to_dict() == before


def test_r7_exchange_with_left_neighbour() -> None:
    game = rig(seated(4), "p3", {"p0": "2C", "p1": "9H", "p2": "5S", "p3": "7D"})
    events = play(game, ("p0", "exchange"))
    assert str(game.player("p0").card) == "9H" and str(game.player("p1").card) == "2C"
    assert {"type": "exchanged", "player": "p0", "target": "p1"} in events


def test_r7_king_blocks_exchange() -> None:
    game = rig(seated(4), "p3", {"p0": "2C", "p1": "KS", "p2": "5S", "p3": "7D"})
    events = play(game, ("p0", "exchange"))
    assert str(game.player("p0").card) == "2C" and str(game.player("p1").card) == "KS"
    assert {
        "type": "blocked",
        "player": "p0",
        "target": "p1",
        "king": "KS",
        "call": "cuckoo",
    } in events
    assert game.current == "p1"  # not redirected, not retried: the turn is over
    assert game.view("p2")["players"][1]["card"] == "KS"  # everyone sees the shown King


def test_r7_last_player_before_dealer_exchanges_with_dealer() -> None:
    game = rig(seated(4), "p3", {"p0": "9C", "p1": "9H", "p2": "2S", "p3": "7D"})
    play(game, ("p0", "keep"), ("p1", "keep"), ("p2", "exchange"))
    assert str(game.player("p2").card) == "7D" and str(game.player("p3").card) == "2S"


def test_r8_received_card_may_be_passed_on() -> None:
    game = rig(seated(4), "p3", {"p0": "2C", "p1": "9H", "p2": "5S", "p3": "7D"})
    play(game, ("p0", "exchange"))
    assert game.current == "p1"  # the forced exchange did not use p1's turn
    play(game, ("p1", "exchange"))
    assert str(game.player("p2").card) == "2C"


def test_r9_dealer_cut_takes_card_and_discards_old() -> None:
    game = rig(seated(3), "p2", {"p0": "9C", "p1": "9H", "p2": "3D"}, stock=["8S"])
    events = play(game, ("p0", "keep"), ("p1", "keep"), ("p2", "cut"))
    assert str(game.player("p2").card) == "8S" and [str(c) for c in game.discard] == ["3D"]
    assert "cut_taken" in kinds(events)
    reveal = next(e for e in events if e["type"] == "reveal")
    assert "3D" not in reveal["cards"].values()  # the discarded card is never shown


def test_r9_cut_king_blocks_and_is_set_aside() -> None:
    game = rig(seated(3), "p2", {"p0": "9C", "p1": "9H", "p2": "3D"}, stock=["KH", "4S"])
    events = play(game, ("p0", "keep"), ("p1", "keep"), ("p2", "cut"))
    assert str(game.player("p2").card) == "3D"
    assert [str(c) for c in game.set_aside] == ["KH"] and game.view(None)["cut_king"] == "KH"
    assert {"type": "cut_king", "dealer": "p2", "king": "KH", "call": "cuckoo"} in events
    assert all(str(game.player(p).card) != "KH" for p in game.order)  # never given to anyone
    assert game.phase == "reveal"  # no second attempt


def test_r9_cut_lower_card_is_still_the_dealers() -> None:
    game = rig(seated(3), "p2", {"p0": "9C", "p1": "9H", "p2": "5D"}, stock=["AS"])
    play(game, ("p0", "keep"), ("p1", "keep"), ("p2", "cut"))
    assert str(game.player("p2").card) == "AS" and game.losers == ["p2"]


def test_r9_dealer_never_exchanges() -> None:
    game = rig(seated(3), "p2", {"p0": "9C", "p1": "9H", "p2": "5D"})
    play(game, ("p0", "keep"), ("p1", "keep"))
    assert game.legal_actions("p2") == ("keep", "cut")
    with pytest.raises(IllegalAction) as refused:
        game.apply("p2", "exchange")
    assert refused.value.reason is Reason.NOT_ALLOWED_NOW


def test_r9_dealer_holding_a_king_keeps_it_and_blocks() -> None:
    game = rig(seated(3), "p2", {"p0": "9C", "p1": "4H", "p2": "KD"})
    events = play(game, ("p0", "keep"), ("p1", "exchange"), ("p2", "keep"))
    assert "blocked" in kinds(events) and str(game.player("p2").card) == "KD"
    assert game.losers == ["p1"]


def test_r10_queens_and_jacks_have_no_powers() -> None:
    game = rig(seated(4), "p3", {"p0": "2C", "p1": "QS", "p2": "JS", "p3": "7D"})
    play(game, ("p0", "exchange"), ("p1", "exchange"))
    assert str(game.player("p2").card) == "2C" and str(game.player("p1").card) == "JS"


def test_r10_shown_king_blocks_only_that_attempt() -> None:
    game = rig(seated(4), "p3", {"p0": "2C", "p1": "KS", "p2": "5S", "p3": "7D"})
    play(game, ("p0", "exchange"), ("p1", "exchange"))
    assert str(game.player("p2").card) == "KS" and str(game.player("p1").card) == "5S"
    assert game.view(None)["players"][2]["card"] == "KS"  # the shown King stays shown on its holder


# --------------------------------------------------------------------------- R11–R16


def test_r11_lowest_rank_loses_one_life_ties_all_lose() -> None:
    game = rig(seated(4), "p3", {"p0": "3C", "p1": "9H", "p2": "3S", "p3": "7D"})
    events = play(game, ("p0", "keep"), ("p1", "keep"), ("p2", "keep"), ("p3", "keep"))
    assert game.losers == ["p0", "p2"]
    assert [p.lives for p in game.players] == [2, 3, 2, 3]
    reveal = next(e for e in events if e["type"] == "reveal")
    assert reveal["lowest"] == "3" and reveal["cards"]["p1"] == "9H"


def test_r12_elimination_at_zero_and_all_cards_return() -> None:
    game = rig(seated(4), "p3", {"p0": "AC", "p1": "9H", "p2": "5S", "p3": "7D"})
    game.player("p0").lives = 1
    events = play(game, ("p0", "keep"), ("p1", "keep"), ("p2", "keep"), ("p3", "keep"))
    assert game.player("p0").status == "eliminated" and game.eliminated == ["p0"]
    assert {"type": "eliminated", "player": "p0"} in events
    game.apply(game.next_dealer, "deal")  # type: ignore[arg-type]
    assert "p0" not in game.order
    held = {game.player(p).card for p in game.order}
    assert len(game.stock) + len(held) == 52  # everything went back into the pack


def test_r13_deal_passes_left_skipping_eliminated() -> None:
    game = rig(seated(4), "p1", {"p2": "9C", "p3": "AH", "p0": "5S", "p1": "7D"})
    game.player("p2").status = Status.ELIMINATED
    rig(game, "p1", {"p3": "AH", "p0": "5S", "p1": "7D"})
    play(game, ("p3", "keep"), ("p0", "keep"), ("p1", "keep"))
    assert game.next_dealer == "p3"
    with pytest.raises(IllegalAction):
        game.apply("p0", "deal")
    game.apply("p3", "deal")
    assert game.dealer == "p3" and game.order[-1] == "p3"


def test_r13_deal_passes_over_a_dealer_just_eliminated() -> None:
    game = rig(seated(4), "p1", {"p2": "9C", "p3": "8H", "p0": "5S", "p1": "2D"})
    game.player("p1").lives = 1
    play(game, ("p2", "keep"), ("p3", "keep"), ("p0", "keep"), ("p1", "keep"))
    assert game.player("p1").status == "eliminated"
    assert game.next_dealer == "p2"


def test_r14_sole_survivor_wins() -> None:
    game = rig(seated(3), "p2", {"p0": "2C", "p1": "9H", "p2": "8D"})
    game.player("p0").lives = 1
    game.player("p1").lives = 1
    game.player("p2").status = Status.ELIMINATED
    rig(game, "p1", {"p0": "2C", "p1": "9H"})
    events = play(game, ("p0", "keep"), ("p1", "keep"))
    assert game.phase == "game_over" and game.winners == ["p1"]
    assert events[-1] == {
        "type": "game_over",
        "winners": ["p1"],
        "joint": False,
        "walkover": False,  # won at a reveal: a real win (round 46)
    }
    assert game.view(None)["walkover"] is False
    assert game.legal_actions("p0") == ("new_game",)


def test_r14_all_eliminated_together_are_joint_winners() -> None:
    game = rig(seated(3), "p2", {"p0": "4C", "p1": "4H", "p2": "4D"})
    for p in game.players:
        p.lives = 1
    play(game, ("p0", "keep"), ("p1", "keep"), ("p2", "keep"))
    view = game.view(None)
    assert view["phase"] == "game_over" and sorted(view["winners"]) == ["p0", "p1", "p2"]
    assert all(p["status"] == "eliminated" and p["lives"] == 0 for p in view["players"])
    assert sorted(view["eliminated"]) == ["p0", "p1", "p2"]


def test_r14_two_players_left() -> None:
    game = seated(3)
    game.player("p2").status = Status.ELIMINATED
    rig(game, "p1", {"p0": "6C", "p1": "6H"})
    game.player("p0").lives = 2
    play(game, ("p0", "exchange"), ("p1", "keep"))
    assert game.losers == ["p0", "p1"] and game.phase == "reveal"


def test_r15_no_early_winner_before_the_reveal() -> None:
    game = rig(seated(3), "p2", {"p0": "AC", "p1": "9H", "p2": "8D"})
    game.player("p0").lives = 1
    play(game, ("p0", "keep"))
    for viewer in (None, "p0", "p1", "p2"):
        view = game.view(viewer)
        assert view["winners"] == [] and view["losers"] == [] and view["eliminated"] == []
        assert all(p["status"] == "active" for p in view["players"])
        assert all(p["card"] is None for p in view["players"])
    play(game, ("p1", "keep"), ("p2", "keep"))
    assert game.view(None)["eliminated"] == ["p0"]


def test_r16_misdeal_redeals_same_dealer_no_lives_lost() -> None:
    game = rig(seated(4), "p3", {"p0": "2C", "p1": "9H", "p2": "5S", "p3": "7D"})
    play(game, ("p0", "exchange"))
    lives = [p.lives for p in game.players]
    step, rnd = game.step, game.round
    events = [e.to_dict() for e in game.misdeal()]
    assert events[0] == {
        "type": "misdeal",
        "round": rnd,
        "dealer": "p3",
        "reason": "misdeal",
        "player": None,
        "name": None,
        "deal": 2,
    }
    assert game.dealer == "p3" and game.round == rnd and game.step == step + 1
    assert game.current == "p0" and [p.lives for p in game.players] == lives
    assert len(game.stock) == 48


def test_r16_misdeal_refused_after_the_reveal() -> None:
    game = rig(seated(3), "p2", {"p0": "2C", "p1": "9H", "p2": "5S"})
    play(game, ("p0", "keep"), ("p1", "keep"), ("p2", "keep"))
    before = game.to_dict()
    with pytest.raises(IllegalAction):
        game.misdeal()
    assert game.to_dict() == before


# --------------------------------------------------------------------------- worked example


def test_seed_worked_example() -> None:
    """A, B, C and dealer D hold 2♣ 9♥ K♠ 7♦; A exchanges, B asks C, C shows K♠; C, D keep."""
    game = seated(4)
    rig(game, "p3", {"p0": "2C", "p1": "9H", "p2": "KS", "p3": "7D"})
    a, b, c, d = "p0", "p1", "p2", "p3"
    events = play(game, (a, "exchange"))
    assert str(game.player(a).card) == "9H"
    events += play(game, (b, "exchange"))
    assert {"type": "blocked", "player": b, "target": c, "king": "KS", "call": "cuckoo"} in events
    events += play(game, (c, "keep"), (d, "keep"))
    reveal = next(e for e in events if e["type"] == "reveal")
    assert reveal["cards"] == {a: "9H", b: "2C", c: "KS", d: "7D"}
    assert game.losers == [b]
    assert {p.id: p.lives for p in game.players} == {a: 3, b: 2, c: 3, d: 3}


# --------------------------------------------------------------------------- house rules


def test_h1_five_lives() -> None:
    game = seated(3, HouseRules(five_lives=True))
    assert [p.lives for p in game.players] == [5, 5, 5]
    rig(game, "p2", {"p0": "2C", "p1": "9H", "p2": "5S"})
    play(game, ("p0", "keep"), ("p1", "keep"), ("p2", "keep"))
    assert [p.lives for p in game.players] == [4, 5, 5]


def test_h2_no_blocking_kings_are_just_high() -> None:
    game = rig(
        seated(3, HouseRules(no_blocking=True)),
        "p2",
        {"p0": "2C", "p1": "KS", "p2": "5D"},
        stock=["KH"],
    )
    events = play(game, ("p0", "exchange"), ("p1", "keep"), ("p2", "cut"))
    assert "blocked" not in kinds(events) and "cut_king" not in kinds(events)
    assert str(game.player("p0").card) == "KS" and str(game.player("p2").card) == "KH"


def test_h3_double_cut() -> None:
    options = HouseRules(double_cut=True)
    game = rig(seated(3, options), "p2", {"p0": "9C", "p1": "9H", "p2": "3D"}, stock=["4S", "8C"])
    play(game, ("p0", "keep"), ("p1", "keep"), ("p2", "cut"))
    assert game.phase == "turns" and game.legal_actions("p2") == ("keep", "cut")
    play(game, ("p2", "cut"))
    assert str(game.player("p2").card) == "8C" and [str(c) for c in game.discard] == ["3D", "4S"]
    assert game.phase == "reveal"
    plain = rig(seated(3), "p2", {"p0": "9C", "p1": "9H", "p2": "3D"}, stock=["4S", "8C"])
    play(plain, ("p0", "keep"), ("p1", "keep"), ("p2", "cut"))
    assert plain.phase == "reveal"  # without H3 there is no second cut


def test_h3_cut_king_still_blocks_second_attempt() -> None:
    game = rig(
        seated(3, HouseRules(double_cut=True)),
        "p2",
        {"p0": "9C", "p1": "9H", "p2": "3D"},
        stock=["4S", "KC"],
    )
    events = play(game, ("p0", "keep"), ("p1", "keep"), ("p2", "cut"), ("p2", "cut"))
    assert "cut_king" in kinds(events) and str(game.player("p2").card) == "4S"


def test_h4_rapid_timeout_keeps_and_loses_a_life_at_the_reveal() -> None:
    game = rig(seated(3, HouseRules(rapid=True)), "p2", {"p0": "9C", "p1": "5H", "p2": "8D"})
    events = [e.to_dict() for e in game.timeout()]
    assert events[0] == {
        "type": "kept",
        "player": "p0",
        "auto": True,
        "timed_out": True,
        "reason": "time",
    }
    assert game.player("p0").lives == 3  # R15: not before the reveal
    play(game, ("p1", "keep"), ("p2", "keep"))
    assert game.player("p0").lives == 2 and game.player("p1").lives == 2
    assert sorted(game.losers) == ["p0", "p1"]


def test_idle_timeout_without_h4_keeps_without_penalty() -> None:
    game = rig(seated(3), "p2", {"p0": "9C", "p1": "5H", "p2": "8D"})
    step = game.step
    events = [e.to_dict() for e in game.timeout()]
    assert events[0] == {
        "type": "kept",
        "player": "p0",
        "auto": True,
        "timed_out": False,
        "reason": "time",
    }
    assert game.step == step + 1
    play(game, ("p1", "keep"), ("p2", "keep"))
    assert game.player("p0").lives == 3


def test_h5_sudden_death_instead_of_joint_winners() -> None:
    game = rig(
        seated(3, HouseRules(sudden_death=True), seed=7), "p2", {"p0": "4C", "p1": "4H", "p2": "4D"}
    )
    for p in game.players:
        p.lives = 1
    events = play(game, ("p0", "keep"), ("p1", "keep"), ("p2", "keep"))
    duels = [e for e in events if e["type"] == "sudden_death"]
    assert duels and duels[-1]["winner"] is not None
    winner = duels[-1]["winner"]
    assert game.phase == "game_over" and game.winners == [winner]
    final = duels[-1]["cards"]
    assert Card.parse(final[winner]).rank_value == max(
        Card.parse(c).rank_value for c in final.values()
    )
    assert game.player(winner).status == "active" and game.player(winner).lives == 1
    assert sorted(game.eliminated) == sorted({"p0", "p1", "p2"} - {winner})
    assert [duel["deal"] for duel in duels] == list(range(1, len(duels) + 1))  # round 43


class _TieFirst(random.Random):
    """Deals a tie for highest at the first sudden death deal, then as a Random would."""

    def __init__(self) -> None:
        super().__init__(3)
        self.deals = 0

    def sample(self, population: Any, k: int, **kwargs: Any) -> list[Any]:
        self.deals += 1
        if self.deals == 1 and k == 3:
            return [Card.parse(code) for code in ("9C", "9H", "2D")]
        return super().sample(population, k, **kwargs)


def test_round43_h5_sudden_death_deals_are_numbered_from_1() -> None:
    """H5: after a tie for highest the tied players are dealt again; each deal says which it
    is (``deal``), so the first can tell why there is a sudden death."""
    game = rig(
        seated(3, HouseRules(sudden_death=True), seed=7), "p2", {"p0": "4C", "p1": "4H", "p2": "4D"}
    )
    for p in game.players:
        p.lives = 1
    game.rng = _TieFirst()
    events = play(game, ("p0", "keep"), ("p1", "keep"), ("p2", "keep"))
    duels = [e for e in events if e["type"] == "sudden_death"]
    assert duels[0] == {
        "type": "sudden_death",
        "cards": {"p0": "9C", "p1": "9H", "p2": "2D"},
        "winner": None,
        "deal": 1,
    }
    assert sorted(duels[1]["cards"]) == ["p0", "p1"] and duels[1]["deal"] == 2
    assert [duel["deal"] for duel in duels] == list(range(1, len(duels) + 1))


def test_h6_fixed_dealer() -> None:
    game = rig(
        seated(4, HouseRules(fixed_dealer=True)),
        "p1",
        {"p2": "9C", "p3": "2H", "p0": "5S", "p1": "7D"},
    )
    play(game, ("p2", "keep"), ("p3", "keep"), ("p0", "keep"), ("p1", "keep"))
    assert game.next_dealer == "p1"


def test_h6_fixed_dealer_moves_on_when_eliminated() -> None:
    game = rig(
        seated(4, HouseRules(fixed_dealer=True)),
        "p1",
        {"p2": "9C", "p3": "8H", "p0": "5S", "p1": "2D"},
    )
    game.player("p1").lives = 1
    play(game, ("p2", "keep"), ("p3", "keep"), ("p0", "keep"), ("p1", "keep"))
    assert game.next_dealer == "p2"


def test_h7_big_table_twenty_players() -> None:
    game = seated(20, HouseRules(big_table=True))
    with pytest.raises(IllegalAction) as refused:
        game.add_player("p20", "P20")
    assert refused.value.reason is Reason.TABLE_FULL
    game.apply("p0", "start")
    assert len(game.order) == 20 and len(game.stock) == 32


def test_h8_chase_call() -> None:
    game = rig(seated(3, HouseRules(chase_call=True)), "p2", {"p0": "2C", "p1": "KS", "p2": "5D"})
    events = play(game, ("p0", "exchange"))
    assert next(e for e in events if e["type"] == "blocked")["call"] == "chase"
    assert "H8" in game.view(None)["house_rules"]


def test_house_rules_parse_ids_and_names() -> None:
    rules = HouseRules.parse("H1, double_cut,chase_the_ace")
    assert rules.five_lives and rules.double_cut and rules.chase_call
    assert rules.ids() == ["H1", "H3", "H8"]
    assert HouseRules.parse("") == HouseRules()
    with pytest.raises(ValueError):
        HouseRules.parse("H9")


# --------------------------------------------------------------------------- misuse


def test_unknown_action_changes_nothing() -> None:
    game = rig(seated(3), "p2", {"p0": "2C", "p1": "9H", "p2": "5S"})
    before = game.to_dict()
    for action, reason in (
        ("fold", Reason.UNKNOWN_ACTION),
        ("deal", Reason.NOT_ALLOWED_NOW),
        ("cut", Reason.NOT_ALLOWED_NOW),
        ("start", Reason.NOT_ALLOWED_NOW),
    ):
        with pytest.raises(IllegalAction) as refused:
            game.apply("p0", action)
        assert refused.value.reason is reason
    with pytest.raises(IllegalAction) as stranger:
        game.apply("nobody", "keep")
    assert stranger.value.reason is Reason.UNKNOWN_PLAYER
    assert game.to_dict() == before


def test_name_taken_and_waiting_joiners() -> None:
    game = seated(3)
    for clash in ("P0", "p0", "P0"):  # names are unique regardless of case
        with pytest.raises(IllegalAction) as taken:
            game.add_player("x", clash)
        assert taken.value.reason is Reason.NAME_TAKEN
    assert len(game.players) == 3
    game.apply("p0", "start")
    game.add_player("late", "Late")
    assert game.player("late").status == "waiting" and "late" not in game.order
    while game.phase != "game_over":
        actor = game.current or game.next_dealer
        game.apply(actor, game.legal_actions(actor)[0])  # type: ignore[arg-type]
    game.apply("p0", "new_game")
    assert game.phase == "lobby" and all(p.status == "active" for p in game.players)
    assert all(p.lives == 3 for p in game.players)


def test_kick_mid_round_redeals_among_those_left() -> None:
    game = rig(seated(4), "p3", {"p0": "2C", "p1": "9H", "p2": "5S", "p3": "7D"})
    step = game.step
    events = [e.to_dict() for e in game.remove_player("p3")]
    assert kinds(events)[:2] == ["player_removed", "misdeal"]
    assert game.step == step and game.phase == "turns" and "p3" not in game.order
    assert game.dealer == "p0"  # the dealer left: the next active player on the left deals


def test_same_seed_same_game() -> None:
    def run(seed: int) -> list[EventDict]:
        game = seated(6, seed=seed)
        log: list[EventDict] = []
        rng = random.Random(seed)
        while game.phase != "game_over":
            actor = {"lobby": game.vip, "turns": game.current, "reveal": game.next_dealer}[
                game.phase
            ]
            log += [e.to_dict() for e in game.apply(actor, rng.choice(game.legal_actions(actor)))]  # type: ignore[arg-type]
        return log

    assert run(11) == run(11)
    assert run(11) != run(12)


# ----------------------------------------------------------- rule facts in the view (issue 16)


def test_view_states_rule_facts_r1_r3_h1_h7() -> None:
    """R1/R3 (H1, H7): the view carries the minimum, the cap and the starting lives."""
    from host.rules import MIN_PLAYERS

    plain = Game(HouseRules(), random.Random(1)).view(None)
    assert (plain["min_players"], plain["max_players"], plain["max_lives"]) == (MIN_PLAYERS, 10, 3)
    house = Game(HouseRules(five_lives=True, big_table=True), random.Random(1)).view(None)
    assert (house["max_players"], house["max_lives"]) == (20, 5)


def test_view_exchange_target_r7_only_for_the_player_who_may_exchange() -> None:
    """R7: ``me.target`` is the nearest active player on the left, only while exchange is legal."""
    game = Game(HouseRules(), random.Random(3))
    for number in range(4):
        game.add_player(f"p{number}", f"N{number}")
    game.apply("p0", "start")
    current = game.current
    assert current is not None and current != game.dealer
    assert me(game.view(current))["target"] == game.left_of(current)
    others = [p.id for p in game.players if p.id != current]
    assert all(me(game.view(pid))["target"] is None for pid in others)
    while game.current != game.dealer:
        game.apply(game.current, "keep")  # type: ignore[arg-type]
    assert game.dealer is not None
    assert me(game.view(game.dealer))["target"] is None  # R9: the dealer never exchanges


def test_view_cuts_left_r9_h3() -> None:
    """R9 / H3: one cut for the dealer, two under double cut; 0 once spent or outside turns."""
    for options, cuts in ((HouseRules(), 1), (HouseRules(double_cut=True), 2)):
        game = Game(options, random.Random(5))
        assert game.view(None)["cuts_left"] == 0
        for number in range(3):
            game.add_player(f"p{number}", f"N{number}")
        game.apply("p0", "start")
        assert game.view(None)["cuts_left"] == cuts


def test_view_lowest_rank_r11_only_from_the_reveal() -> None:
    """R11/R15: the losing rank is in the view at the reveal, never before."""
    game = Game(HouseRules(), random.Random(7))
    for number in range(3):
        game.add_player(f"p{number}", f"N{number}")
    game.apply("p0", "start")
    while game.phase == "turns":
        assert game.view(None)["lowest"] is None
        game.apply(game.current, "keep")  # type: ignore[arg-type]
    view = game.view(None)
    losing = {
        p["card"][:-1]
        for p in view["players"]
        if p["id"] in view["losers"] and p["card"] is not None
    }
    assert losing == {view["lowest"]}
