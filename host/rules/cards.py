"""Cards of the ordinary 52-card pack (R2) as tiny immutable values.

A card's string form is exactly the phone API's: rank then suit, ``10D``, ``KS``, ``AH``.
Suits never matter for the game (R2); only ``rank_value`` is ever compared.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Ranks from low to high (R2): the Ace is the lowest card, the King the highest.
RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
KING = "K"
"""The highest rank, which blocks exchanges and cuts (R7, R9)."""


class InvalidCard(ValueError):
    """A string that is not a card code such as ``10D`` or ``KS``."""


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the pack."""

    rank: str
    """One of ``RANKS``."""
    suit: str
    """One of ``SUITS``; never compared (R2)."""

    def __post_init__(self) -> None:
        if self.rank not in RANKS or self.suit not in SUITS:
            raise InvalidCard(f"not a card: {self.rank!r}{self.suit!r}")

    @property
    def rank_value(self) -> int:
        """1 for an Ace … 13 for a King: higher is safer at the reveal (R2, R11)."""
        return RANKS.index(self.rank) + 1

    @property
    def is_king(self) -> bool:
        """Kings block exchanges and cuts (R7, R9) unless house rule H2."""
        return self.rank == KING

    @property
    def symbol(self) -> str:
        """Human form with the suit symbol, e.g. ``10♦`` (for display, never for the API)."""
        return f"{self.rank}{SUIT_SYMBOLS[self.suit]}"

    def __str__(self) -> str:
        """The API's card code, e.g. ``10D``."""
        return self.rank + self.suit

    @staticmethod
    def parse(code: str) -> Card:
        """Read ``"10D"``, ``"KS"`` …; raises InvalidCard for anything else."""
        card = _BY_CODE.get(code) if isinstance(code, str) else None
        if card is None:
            raise InvalidCard(f"not a card code: {code!r}")
        return card


#: The whole pack, one instance per card, in a fixed canonical order (rank, then suit).
PACK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in RANKS for suit in SUITS)

_BY_CODE: dict[str, Card] = {str(card): card for card in PACK}

#: Every card code, for scanning text for leaked cards in tests and checks.
CARD_CODES: frozenset[str] = frozenset(_BY_CODE)
