"""Hand-written public views and events of the documented shape (docs/architecture.md)."""

from __future__ import annotations

from typing import Any, cast

from host.rules import MIN_PLAYERS, EventDict, View

NAMES = ("Ana", "Chloé", "Niccolò", "François", "Zoë", "Björn")


def player(
    index: int,
    *,
    lives: int = 3,
    status: str = "active",
    card: str | None = None,
    bot: bool = False,
    connected: bool = True,
    name: str | None = None,
    out_round: int | None = None,
) -> dict[str, Any]:
    return {
        "id": f"p{index}",
        "name": name or NAMES[index % len(NAMES)],
        "seat": index,
        "lives": lives,
        "status": status,
        "connected": connected,
        "bot": bot,
        "card": card,
        "out_round": out_round,
    }


def view(phase: str = "turns", players: list[dict[str, Any]] | None = None, **fields: Any) -> View:
    """A public view of the contract's shape; ``players`` defaults to four active players."""
    seated = players if players is not None else [player(i) for i in range(4)]
    ids = [p["id"] for p in seated if p["status"] != "waiting"]
    base: dict[str, Any] = {
        "room": "CAKE",
        "phase": phase,
        "step": 5,
        "round": 0 if phase == "lobby" else 1,
        "me": None,
        "can": [],
        "players": seated,
        "dealer": None if phase == "lobby" else "p3",
        "current": "p0" if phase == "turns" else None,
        "cut_king": None,
        "losers": [],
        "eliminated": [],
        "winners": [],
        "vip": "p0",
        "next_dealer": None,
        "order": [] if phase == "lobby" else ids[:],
        "shown": {},
        "log": [],
        "sudden_death": [],
        "house_rules": [],
        "rapid_seconds": 10,
        "stock_count": 48,
        "discard_count": 0,
        "min_players": MIN_PLAYERS,
        "max_players": 10,
        "max_lives": 3,
        "cuts_left": 1,
        "lowest": None,
        "last_round": None,
        "walkover": False,
    }
    base.update(fields)
    return cast(View, base)


def events(*items: dict[str, Any]) -> list[EventDict]:
    """Hand-written events (the tests also send bad ones the TV must survive)."""
    return cast("list[EventDict]", list(items))


class StillSession:
    """A session that only hands out one view and never an update (scenes are driven by
    ``stage.receive`` in the tests, or the TV stays idle)."""

    def __init__(self, first: View) -> None:
        self.first = first

    def subscribe(self, player_id: str | None) -> Any:
        class Empty:
            def get(self, timeout: float | None = None) -> None:
                return None

        return Empty()

    def view(self, player_id: str | None) -> View:
        return self.first


class FakeClock:
    """Game time that moves 50 ms per reading (three 1/60 s steps of ``run``): the TV's loop
    never sleeps in tests."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.05
        return self.now
