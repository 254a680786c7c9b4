"""Each player keeps their own colour all party long, on the TV and on their phone.

Round 40's play-test: colours were the seats', and seats close up when a player leaves, so
removing one player changed the colour of everyone seated after them, mid-game (Wilhelmina
orange → blue, Gwendolyn pink → orange…). Guests find themselves by colour.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from host.palette import PLAYER_COLOURS, css_hex, free_colour
from host.persistence import CorruptSave
from host.rules import HouseRules
from host.session import Session

NAMES = ("Ana", "Bea", "Cal", "Dan", "Eve")


def _colours(session: Session) -> dict[str, str]:
    return {p["name"]: p["color"] for p in session.view(None)["players"]}


def _seated(session: Session, names: tuple[str, ...] = NAMES) -> list[str]:
    return [session.join(name, "ROOM").player_id for name in names]


def test_round40_a_removed_player_leaves_everyone_elses_colour_as_it_was(
    tmp_path: Path,
) -> None:
    session = Session(HouseRules(), room="ROOM", seed=3, state_path=tmp_path / "s.json")
    ids = _seated(session)
    session.act(ids[0], "start", session.step)
    before = _colours(session)
    assert len(set(before.values())) == len(NAMES)
    session.kick(ids[1])  # Bea leaves mid-round: the seats after hers close up
    after = _colours(session)
    assert after == {name: colour for name, colour in before.items() if name != "Bea"}
    phone = session.view(ids[2])  # Cal's phone shows his colour as the TV does
    assert next(p["color"] for p in phone["players"] if p["id"] == ids[2]) == before["Cal"]
    session.close()


def test_round40_a_newcomer_takes_the_first_colour_nobody_has(tmp_path: Path) -> None:
    session = Session(HouseRules(), room="ROOM", seed=3, state_path=tmp_path / "s.json")
    ids = _seated(session)
    freed = _colours(session)["Bea"]
    session.kick(ids[1])
    session.join("Fay", "ROOM")
    colours = _colours(session)
    assert colours["Fay"] == freed and len(set(colours.values())) == len(colours)
    session.close()


def test_round40_colours_survive_a_restart_and_an_old_save_keeps_the_seats_colours(
    tmp_path: Path,
) -> None:
    path = tmp_path / "s.json"
    first = Session(HouseRules(), room="ROOM", seed=3, state_path=path)
    ids = _seated(first)
    first.kick(ids[0])
    colours = _colours(first)
    # no close(): as if the process died; the journal carries the colours
    again = Session(HouseRules(), room="ROOM", seed=3, state_path=path)
    assert _colours(again) == colours
    again.close()
    saved = json.loads(path.read_text())
    del saved["colours"]  # as a save from before round 40
    path.write_text(json.dumps(saved))
    old = Session(HouseRules(), room="ROOM", seed=3, state_path=path)
    players = old.view(None)["players"]
    assert [p["color"] for p in players] == [css_hex(PLAYER_COLOURS[p["seat"]]) for p in players]
    old.close()


@pytest.mark.parametrize(
    ("colours", "fault"),
    [
        ({"p1": 0, "p2": 0}, "share a colour"),
        ({"p1": len(PLAYER_COLOURS)}, "not a colour of the palette"),
        ({"p9": 0}, "is not seated"),
        ({"p1": "0"}, "whole number"),
        ([], "expected an object"),
    ],
)
def test_round40_a_save_with_bad_colours_is_refused_with_one_line(
    tmp_path: Path, colours: Any, fault: str
) -> None:
    path = tmp_path / "s.json"
    first = Session(HouseRules(), room="ROOM", seed=3, state_path=path)
    _seated(first, NAMES[:3])
    first.close()
    saved = json.loads(path.read_text())
    saved["colours"] = colours
    path.write_text(json.dumps(saved))
    with pytest.raises(CorruptSave, match=fault):
        Session(HouseRules(), room="ROOM", seed=3, state_path=path)


def test_free_colour_is_the_first_nobody_has() -> None:
    assert free_colour([]) == 0
    assert free_colour([0, 1, 3]) == 2
