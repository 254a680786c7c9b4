"""Cards of the ordinary 52-card pack (R2) as tiny immutable values.

A card's string form is exactly the phone API's: rank then suit, ``10D``, ``KS``, ``AH``.
Suits never matter for the game (R2); only ``rank_value`` is ever compared.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

#: Ranks from low to high (R2): the Ace is the lowest card, the King the highest.
RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
KING_VALUE = RANKS.index("K") + 1


class InvalidCard(ValueError):
    """A string that is not a card code such as ``10D`` or ``KS``."""


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the pack."""

    rank: str
    """One of ``RANKS``."""
    suit: str
    """One of ``SUITS``; never compared (R2)."""
    rank_value: int = field(init=False, compare=False, repr=False)
    """1 for an Ace … 13 for a King: higher is safer at the reveal (R2, R11)."""
    _hash: int = field(init=False, compare=False, repr=False)
    _code: str = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.rank not in RANKS or self.suit not in SUITS:
            raise InvalidCard(f"not a card: {self.rank!r}{self.suit!r}")
        # Precomputed once: rank comparisons and set lookups sit on the engine's hot path.
        object.__setattr__(self, "rank_value", RANKS.index(self.rank) + 1)
        object.__setattr__(self, "_hash", hash((self.rank, self.suit)))
        object.__setattr__(self, "_code", self.rank + self.suit)

    def __hash__(self) -> int:
        return self._hash

    @property
    def is_king(self) -> bool:
        """Kings block exchanges and cuts (R7, R9) unless house rule H2."""
        return self.rank_value == KING_VALUE

    @property
    def symbol(self) -> str:
        """Human form with the suit symbol, e.g. ``10♦`` (for display, never for the API)."""
        return f"{self.rank}{SUIT_SYMBOLS[self.suit]}"

    def __str__(self) -> str:
        return self._code

    @staticmethod
    def parse(code: str) -> Card:
        """Read ``"10D"``, ``"KS"`` …; raises InvalidCard for anything else."""
        return _parse(code)


@cache
def _parse(code: str) -> Card:
    if not isinstance(code, str) or len(code) < 2:
        raise InvalidCard(f"not a card code: {code!r}")
    rank, suit = code[:-1], code[-1]
    if rank not in RANKS or suit not in SUITS:
        raise InvalidCard(f"not a card code: {code!r}")
    return PACK[RANKS.index(rank) * 4 + SUITS.index(suit)]


#: The whole pack, one instance per card, in a fixed canonical order (rank, then suit).
PACK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in RANKS for suit in SUITS)

#: Every card code, for scanning text for leaked cards in tests and checks.
CARD_CODES: frozenset[str] = frozenset(str(card) for card in PACK)
