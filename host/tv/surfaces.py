"""A cache of drawn surfaces bounded by the bytes of their pixels, not by their count.

Why bytes: a surface's cost is its pixels, and at 1080p they vary a hundredfold — a "Keeps"
bubble is a few kilobytes, a winner's banner half a megabyte. A cache capped at 600 entries
held anything from 2 to 45 MB depending on which texts the evening produced, and grew all
evening (issue 18 item 5: +27.7 MB over 5 000 taps). Pixels live in SDL's memory, outside
Python's ``tracemalloc``; ``pixel_bytes`` counts them as the allocator does (pitch × height).

Least recently used entries go first, so what every frame draws (names, the header, the card
faces at the table's size) stays while one-off texts (a long banner, last game's names) leave.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable

import pygame

MB = 2**20
#: Budgets (issue 18 item 5: 2–4 MB each, 8 MB in all). One animated frame at 1080p uses well
#: under 1 MB of text, of plates and of cards (ten faces at the seats' width are 0.8 MB), so a
#: frame never re-renders what the frame before drew.
TEXT_BUDGET = 3 * MB
PIECE_BUDGET = 3 * MB
CARD_BUDGET = 2 * MB


def pixel_bytes(surface: pygame.Surface) -> int:
    """What a surface's pixels take in memory."""
    return int(surface.get_pitch() * surface.get_height())


class SurfaceCache:
    """Surfaces by key, least recently used first out, within ``budget`` bytes of pixels.

    The newest entry always stays, even alone over the budget: the frame drawing it needs it.
    """

    def __init__(self, budget: int) -> None:
        if budget <= 0:
            raise ValueError(f"a cache needs a positive budget, not {budget}")
        self.budget = budget
        self._entries: OrderedDict[Hashable, tuple[pygame.Surface, int]] = OrderedDict()
        self._bytes = 0

    @property
    def bytes(self) -> int:
        """Pixel bytes held now (never above ``budget`` unless one surface alone is bigger)."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._entries

    def held(self) -> list[Hashable]:
        """The keys held, least recently used first."""
        return list(self._entries)

    def get(self, key: Hashable) -> pygame.Surface | None:
        """The cached surface (now the most recently used), or None."""
        entry = self._entries.get(key)
        if entry is None:
            return None
        self._entries.move_to_end(key)
        return entry[0]

    def put(self, key: Hashable, surface: pygame.Surface) -> pygame.Surface:
        """Keep ``surface`` under ``key``; the oldest entries leave until the budget holds."""
        old = self._entries.pop(key, None)
        if old is not None:
            self._bytes -= old[1]
        size = pixel_bytes(surface)
        self._entries[key] = (surface, size)
        self._bytes += size
        while self._bytes > self.budget and len(self._entries) > 1:
            _, (_, gone) = self._entries.popitem(last=False)
            self._bytes -= gone
        return surface

    def fetch(self, key: Hashable, make: Callable[[], pygame.Surface]) -> pygame.Surface:
        """The cached surface, made (and kept) on a miss."""
        surface = self.get(key)
        return surface if surface is not None else self.put(key, make())

    def clear(self) -> None:
        self._entries.clear()
        self._bytes = 0
