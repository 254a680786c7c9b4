"""Names that draw as nothing, shared by the join tests and the TV tests (issue 15 finding 1).

Why one list: the session refuses these names at the door and the TV must still draw them when
an old save holds one; both sides must be tested with the same characters.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from host.rules import HouseRules
from host.session import Session

#: The 25 single characters that once killed the windowed host (issue 15), and their kin.
ZERO_WIDTH = [
    "\u200c",
    "\u200d",
    "\u034f",
    *map(chr, range(0xFE00, 0xFE10)),
    "\u180b",
    "\u180c",
    "\u180d",
    "\u17b4",
    "\u17b5",
    "\ufffc",
]
#: Characters that take room but show nothing (blank patterns, fillers, format characters).
BLANK = [
    "\u2800",
    "\u3164",
    "\u115f",
    "\u1160",
    "\uffa0",
    "\u200b",
    "\u2060",
    "\u00ad",
    "\u0301",
    "\u200d\u200c\u200d",
]


def save_with_invisible_names(
    path: Path, seed: int, odd: Sequence[str], room: str = "CAKE"
) -> None:
    """A saved game (3 seated, a 4th waiting) whose names are ``odd``, as an older host wrote them."""
    session = Session(HouseRules(), seed=seed, room=room, state_path=path)
    for name in ("Ana", "Bea", "Cal"):
        session.join(name, room)
    session.host_next()
    session.join("Dan", room)  # waits for the next game
    session.close()
    saved = json.loads(path.read_text(encoding="utf-8"))
    for entry, name in zip(saved["game"]["players"], odd):
        entry["name"] = name
    path.write_text(json.dumps(saved), encoding="utf-8")
