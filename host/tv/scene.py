"""What every scene shares: the drawing kit (``Props``) and the tiny scene lifecycle.

Scenes follow the Tuxemon-style contract: ``update(dt)`` moves time, ``handle(event)`` reacts to
a key, ``draw(surface)`` paints and never changes state — every draw is the same for a given
game time, which is what lets screenshots and tests render any moment exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Protocol

import pygame

from host.i18n import LANGUAGE_NAMES, Catalog
from host.tv.cards import CardPainter
from host.tv.nameplates import NamePlates
from host.tv.surfaces import PIECE_BUDGET, SurfaceCache
from host.tv.theme import CANVAS_SIZE, Theme


@dataclass
class Props:
    """The drawing kit handed to every scene, plus the TV's current language."""

    theme: Theme
    cards: CardPainter
    catalog: Catalog
    lang: str
    join_url: str
    house_rules: list[str] = field(default_factory=list)
    pieces: SurfaceCache = field(default_factory=lambda: SurfaceCache(PIECE_BUDGET), repr=False)
    join_offline: bool = False
    """No network: ``join_url`` is this computer's own address, which no phone can reach."""
    plates: NamePlates = field(default_factory=NamePlates, repr=False)
    """Where the table's seats sit and what their plates say, by the names seated."""

    @cached_property
    def shade(self) -> pygame.Surface:
        """The whole canvas's shade under an overlay or the game's end (``overlays.dim``),
        made once and kept apart from ``pieces``: at 8.3 MB it is bigger than that cache's
        budget, so kept there it pushed every cached plate out and was made again on each
        dimmed frame (a frame of the game's end with confetti took 7.1 ms; 4.5 with this)."""
        shade = pygame.Surface(CANVAS_SIZE, pygame.SRCALPHA)
        shade.fill((0, 0, 0, 150))
        return shade

    def memo(self, key: Hashable, make: Callable[[], pygame.Surface]) -> pygame.Surface:
        """A drawn piece kept for reuse (plates, labels): frames at 60 fps redraw the same
        things, and blitting a cached surface is far cheaper than drawing it again. Bounded
        by pixel bytes (``host.tv.surfaces``), so an evening of new names stays flat."""
        return self.pieces.fetch(key, make)

    def t(self, key: str, /, count: int | None = None, **params: Any) -> str:
        """A TV phrase (``tv.<key>``) in the current language."""
        return self.catalog.t(self.lang, f"tv.{key}", count=count, **params)

    def common(self, key: str, /, count: int | None = None, **params: Any) -> str:
        """A shared phrase (``common.<key>``): suits, ranks, lives."""
        return self.catalog.t(self.lang, f"common.{key}", count=count, **params)

    @property
    def language_name(self) -> str:
        return LANGUAGE_NAMES[self.lang]

    def rank_name(self, rank: str) -> str:
        """``"Q"`` → "Queen"/"Dame"/"Donna"; number ranks stay digits in every language."""
        return self.common(f"rank_{rank}") if rank in ("A", "J", "Q", "K") else rank


class Scene(Protocol):
    """A layer of the TV: the lobby or the table at the bottom, overlays above."""

    def update(self, dt: float) -> None: ...

    def handle(self, event: pygame.event.Event) -> bool:
        """Return True when the scene used the event (it then goes no further down)."""
        ...

    def draw(self, surface: pygame.Surface) -> None: ...
