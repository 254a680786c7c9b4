"""A seat at the table and the statuses it can have."""

from __future__ import annotations

from dataclasses import dataclass

from host.rules.cards import Card

ACTIVE, ELIMINATED, WAITING = "active", "eliminated", "waiting"


@dataclass(slots=True)
class Player:
    """A seat at the table. ``card`` is secret: only views decide who sees it."""

    id: str
    name: str
    lives: int
    status: str = ACTIVE
    bot: bool = False
    card: Card | None = None
