"""Round 40's play-test: the events say *why* a round was dealt again and why a player kept.

A kick mid-round read as a faulty deal on the TV, and a VIP's skip as a time-out; the screens
can only word these apart if the engine's events tell them apart (R16, H4, issue 13).
"""

from __future__ import annotations

import pytest

from host.rules import HouseRules, IllegalAction
from host.rules import controls as c
from host.rules.contract import KeepReason
from host.rules.controls import TableFacts
from host.rules.events import EventKind, event_from_dict
from tests.rules.helpers import rig, seated


def test_r16_a_kick_mid_round_redeals_with_reason_player_left_and_their_name() -> None:
    game = rig(seated(4), "p3", {"p0": "2C", "p1": "9H", "p2": "5S", "p3": "7D"})
    game.vip = "p0"
    events = [e.to_dict() for e in c.kick(game, "p1", TableFacts())]
    misdeal = next(e for e in events if e["type"] == "misdeal")
    assert misdeal["reason"] == "player_left"
    assert (misdeal["player"], misdeal["name"]) == ("p1", "P1")
    # The new deal's log opens with it: a view retells why the round was dealt again.
    assert game.log[0].kind == EventKind.MISDEAL and game.log[1].kind == EventKind.ROUND_DEALT
    assert "p1" not in game.order


def test_r16_a_called_misdeal_says_so_and_counts_the_deals_of_the_round() -> None:
    game = rig(seated(4), "p3", {"p0": "2C", "p1": "9H", "p2": "5S", "p3": "7D"})
    first = game.misdeal()[0].to_dict()
    second = game.misdeal()[0].to_dict()
    assert first["type"] == second["type"] == "misdeal"
    assert first["reason"] == "misdeal" and first["player"] is None and first["name"] is None
    # Two redeals in a row differ, so a phone can tell the second one from the first.
    assert (first["deal"], second["deal"]) == (2, 3)


def test_issue13_a_vip_skip_is_a_kept_with_reason_skipped() -> None:
    game = rig(seated(3), "p2", {"p0": "2C", "p1": "9H", "p2": "5S"})
    kept = c.skip(game, TableFacts(deciding_seconds=11))[0].to_dict()
    assert kept["type"] == "kept"
    assert kept["reason"] == "skipped" and kept["auto"] and not kept["timed_out"]


def test_h4_a_vip_skip_costs_a_life_at_the_reveal_like_a_time_out() -> None:
    """RULES.md H4 "runs out of time": the engine counts a skip as one (PHONE_API.md: "as on
    a time-out"); the phones word it so (round 40)."""
    game = rig(seated(3, HouseRules(rapid=True)), "p2", {"p0": "9C", "p1": "9H", "p2": "5S"})
    kept = c.skip(game, TableFacts(deciding_seconds=11))[0].to_dict()
    assert kept["type"] == "kept" and kept["reason"] == "skipped" and kept["timed_out"]
    game.apply("p1", "keep")
    events = [e.to_dict() for e in game.apply("p2", "keep")]
    lost = [e for e in events if e["type"] == "life_lost" and e["player"] == "p0"]
    assert lost and lost[0]["timed_out"]


def test_r6_a_keep_the_player_chose_has_reason_chosen_and_timeout_refuses_it() -> None:
    game = rig(seated(3), "p2", {"p0": "2C", "p1": "9H", "p2": "5S"})
    kept = game.apply("p0", "keep")[0].to_dict()
    assert kept["type"] == "kept" and kept["reason"] == "chosen" and not kept["auto"]
    before = game.to_dict()
    with pytest.raises(IllegalAction):
        game.timeout(KeepReason.CHOSEN)
    assert game.to_dict() == before


def test_a_kept_or_misdeal_saved_before_round_40_is_read_with_its_new_fields() -> None:
    old_auto = {"type": "kept", "player": "p0", "auto": True, "timed_out": False}
    old_own = {"type": "kept", "player": "p0", "auto": False, "timed_out": False}
    old_misdeal = {"type": "misdeal", "round": 2, "dealer": "p1"}
    assert event_from_dict(old_auto).data["reason"] == KeepReason.TIME
    assert event_from_dict(old_own).data["reason"] == KeepReason.CHOSEN
    misdeal = event_from_dict(old_misdeal).data
    assert (misdeal["reason"], misdeal["player"], misdeal["deal"]) == ("misdeal", None, 2)


def test_r16_a_player_removed_after_the_reveal_stays_named_in_the_rounds_log() -> None:
    """Round 40: the TV's story read "? kept (time out)" once Eva had been removed."""
    game = rig(seated(4), "p3", {"p0": "2C", "p1": "9H", "p2": "5S", "p3": "7D"})
    game.vip = "p0"
    for pid in ("p0", "p1", "p2", "p3"):
        game.apply(pid, "keep")
    assert game.phase == "reveal"
    c.kick(game, "p1", TableFacts())
    logged = [e.to_dict() for e in game.log]
    assert {"type": "player_removed", "player": "p1", "name": "P1"} in logged
    assert any(e["type"] == "kept" and e["player"] == "p1" for e in logged)
