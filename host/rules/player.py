"""A seat at the table."""

from __future__ import annotations

from dataclasses import dataclass

from host.rules.cards import Card
from host.rules.contract import Status


@dataclass(slots=True)
class Player:
    """A seat at the table. ``card`` is secret: only views decide who sees it."""

    id: str
    name: str
    lives: int
    status: Status = Status.ACTIVE
    bot: bool = False
    card: Card | None = None
    out_round: int | None = None
    """The round of this game this player was knocked out in (R12); None while still in.

    Why the seat keeps it: the final standings rank the knocked-out by when they went out,
    and the TV that learnt it from the events forgot it when the host restarted."""
