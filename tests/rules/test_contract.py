"""Issue 16 item 1: the typed contract says exactly what the engine produces.

The TypedDicts of ``host/rules/contract.py`` are only worth something if they agree with the
engine at run time: every event of every kind has exactly its TypedDict's fields, and every
view, seat and ``me`` exactly theirs. Checked over seeded games with every house rule.
"""

from __future__ import annotations

import typing
from typing import get_args

from benchmarks.trace import GAMES, play
from host.rules import Action, EventKind, Phase, Status, contract
from host.rules.contract import EventDict, MeView, SeatView, View


def event_shapes() -> dict[str, frozenset[str]]:
    """``type`` value -> the field names its TypedDict declares."""
    shapes: dict[str, frozenset[str]] = {}
    for shape in get_args(EventDict):
        for member in get_args(shape) or (shape,):
            kind = get_args(typing.get_type_hints(member)["type"])[0]
            shapes[kind] = frozenset(member.__required_keys__)
    return shapes


def test_issue16_every_event_kind_has_exactly_one_typed_dict() -> None:
    assert set(event_shapes()) == {kind.value for kind in EventKind}


def test_issue16_enums_hold_the_api_words() -> None:
    assert [p.value for p in Phase] == ["lobby", "turns", "reveal", "game_over"]
    assert {s.value for s in Status} == {"active", "eliminated", "waiting"}
    assert {a.value for a in Action} == {"start", "keep", "exchange", "cut", "deal", "new_game"}
    assert contract.Call("chase") is contract.Call.CHASE


def test_issue16_events_and_views_have_exactly_the_contracts_fields() -> None:
    shapes = event_shapes()
    view_keys = View.__required_keys__
    seat_keys, me_keys = SeatView.__required_keys__, MeView.__required_keys__
    seen: set[str] = set()
    for seed in range(0, GAMES, 25):
        for _, shot in play(seed):
            result = shot["result"]
            if isinstance(result, list):
                for entry in result:
                    event = entry["event"]
                    seen.add(event["type"])
                    assert set(event) == shapes[event["type"]], event
            views = shot["views"]
            assert isinstance(views, dict)
            for view in views.values():
                assert set(view) == view_keys
                assert all(set(seat) == seat_keys for seat in view["players"])
                if view["me"] is not None:
                    assert set(view["me"]) == me_keys
                for logged in [*view["log"], *(view["me"] or {}).get("history", [])]:
                    assert set(logged) == shapes[logged["type"]], logged
    # The VIP's controls and presence are not played by the engine trace; their shapes are
    # checked below and their behaviour in tests/rules/test_controls.py.
    session_kinds = {"rules_set", "vip_changed", "game_ended", "player_away"}
    assert seen >= {kind.value for kind in EventKind} - {"sudden_death"} - session_kinds
    assert session_kinds <= set(shapes)
