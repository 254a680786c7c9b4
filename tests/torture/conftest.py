"""Torture-test fixtures: started host processes (``tests/host_process.py``) and invariant
checks on a session. Headless: SDL's dummy drivers are set here, never globally.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

from host.rules import CARD_CODES, Game, may_see

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

CARD_PATTERN = re.compile(r'"(10|[A2-9JQK])([SHDC])"')


def cards_in(payload: Any) -> set[str]:
    return {m.group(1) + m.group(2) for m in CARD_PATTERN.finditer(json.dumps(payload))}


def check_invariants(game: Game, lives_before: dict[str, int]) -> None:
    """The engine's invariants after an accepted request (R2, R11, hidden information)."""
    if game.phase == "turns":
        held = [game.player(pid).card for pid in game.order]
        everything = held + game.stock + game.discard + game.set_aside
        assert len(everything) == 52 and len(set(everything)) == 52, "cards not accounted"
    for player in game.players:
        assert 0 <= player.lives <= game.options.starting_lives
        if game.phase != "lobby" and player.id in lives_before:
            assert player.lives <= lives_before[player.id], "R11: a life was gained"
    for viewer in [None, *(p.id for p in game.players)]:
        view = game.view(viewer)
        seen = cards_in(view)
        assert seen <= CARD_CODES
        assert not seen - may_see(game, viewer), (viewer, game.phase, seen - may_see(game, viewer))
