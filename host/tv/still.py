"""What holds still on the table, kept in one 1080p surface and repainted only where it changed.

Why: the table's frames start from a layer of everything that does not move (the felt, the header,
the piles, the seats that hold still, the trail), painted once and copied under each frame. That
layer changes when the turn passes (R6: the glow and the header follow the turn), which is the very
frame in which the next phone may tap. Repainting all of it then cost about 1 ms with the GIL held
at 20 seats, and the tap's fan-out waited behind it (issue 18.1, ``docs/benchmarks-history.md``,
tenth pass). A turn passing changes the header and two seats: only their rectangles are repainted.

How: the layer is a list of :class:`Piece` in painting order. Each has the rectangle it may
paint in (its region) and a key that holds everything its picture depends on. When a key
changes, or a piece comes or goes, its region is restored from the felt and every piece whose
region meets it is painted again in order, clipped to it; so inside the region the pixels are
those of a full repaint, and outside it nothing changed. What every piece shares (the
language, the phase, the seats' places …) is the ``frame`` key: when it changes the whole layer
is repainted. ``tests/tv/test_still.py`` checks that each piece paints inside its region and
that a layer patched through whole games equals a layer painted afresh, pixel for pixel.

The same :func:`patch` slides cards in flight under the seats of a frame copied from the
layer: only the rectangles the cards cover are painted again (``TableScene._fly_under``).

And a frame need not copy the whole layer either: the canvas still shows the frame before,
which differs from the layer only where that frame painted over it, so :func:`restore` copies
the layer back only there and where the layer changed (``TableScene.paint``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import NamedTuple

import pygame

from host.tv.present import copy_whole

Painter = Callable[[pygame.Surface], object]


class Piece(NamedTuple):
    """One part of the still layer: its name (unique in the layer), the rectangle it paints in
    (left, top, width, height), what its picture depends on, and how to paint it. (A named
    tuple: some twenty-five are made for every frame drawn over the layer.)"""

    name: str
    region: tuple[int, int, int, int]
    key: Hashable
    paint: Painter


class StillLayer:
    """A cached surface of ``pieces`` over ``felt``, patched where the pieces changed."""

    def __init__(self, felt: Callable[[], pygame.Surface]) -> None:
        self._felt = felt  # made on first use, shared with the table's unlayered path
        self._surface: pygame.Surface | None = None
        self._frame: Hashable = None
        self._drawn: dict[str, Piece] = {}
        self.repaints = 0
        """Whole-layer repaints so far (the first one included)."""
        self.patched: list[pygame.Rect] = []
        """The regions restored and painted again by the last call that changed anything."""
        self.changed: list[pygame.Rect] = []
        """The regions the last call changed (none if it changed nothing): what a frame copied
        from the layer shows differently from the frame before (``host/tv/damage.py``)."""

    def surface(self, frame: Hashable, pieces: Sequence[Piece]) -> pygame.Surface:
        """The layer showing ``pieces``, brought up to date at the least cost."""
        felt = self._felt()
        drawn = {piece.name: piece for piece in pieces}
        if self._surface is None or frame != self._frame:
            layer = self._surface or pygame.Surface(felt.get_size())
            copy_whole(felt, layer)
            for piece in pieces:
                piece.paint(layer)
            self._surface, self._frame, self._drawn = layer, frame, drawn
            self.repaints += 1
            self.patched = self.changed = [layer.get_rect()]
            return layer
        dirty = changed_regions(self._drawn, drawn)
        if dirty:
            patch(self._surface, felt, dirty, pieces)
            self._drawn = drawn
            self.patched = dirty
        self.changed = dirty
        return self._surface


def patch(
    surface: pygame.Surface,
    felt: pygame.Surface,
    rects: Sequence[pygame.Rect],
    pieces: Sequence[Piece],
) -> None:
    """Inside each of ``rects``, restore ``felt`` and paint again, in order and clipped to it,
    every piece whose region meets it: there the pixels become those of all ``pieces`` painted
    over the felt, and outside ``rects`` nothing changes."""
    for rect in rects:
        surface.set_clip(rect)
        try:
            surface.blit(felt, rect, rect)
            for piece in pieces:
                if rect.colliderect(piece.region):
                    piece.paint(surface)
        finally:
            surface.set_clip(None)


#: Past this share of the canvas a restore copies the whole layer: one copy without the GIL
#: (``copy_whole``) beats many blits that hold it.
WHOLE_SHARE = 0.25


def restore(layer: pygame.Surface, target: pygame.Surface, rects: Sequence[pygame.Rect]) -> int:
    """Make ``target`` show ``layer`` again inside ``rects``, where the frame before painted
    over it or the layer changed since; elsewhere ``target`` must already show the layer.
    Returns how many pixels were copied. Why: copying all 8 MB of the layer under every frame
    cost about 0.7 ms, to restore a card's few hundred pixels' square."""
    bounds = target.get_rect()
    parts = merged([rect.clip(bounds) for rect in rects if rect.colliderect(bounds)])
    area = sum(rect.width * rect.height for rect in parts)
    if area >= WHOLE_SHARE * bounds.width * bounds.height:
        copy_whole(layer, target)
        return bounds.width * bounds.height
    for rect in parts:
        target.blit(layer, rect, rect)
    return area


def merged(rects: Sequence[pygame.Rect]) -> list[pygame.Rect]:
    """``rects`` with every two that overlap replaced by their union, until none overlap: so
    no part of the picture is painted twice by :func:`patch` (cards dealt one after another
    fly one over the next)."""
    pending = [pygame.Rect(rect) for rect in rects]
    done: list[pygame.Rect] = []
    while pending:
        rect = pending.pop()
        index = rect.collidelist(pending)
        while index >= 0:
            rect.union_ip(pending.pop(index))
            index = rect.collidelist(pending)
        hit = rect.collidelist(done)
        if hit >= 0:
            pending.append(rect.union(done.pop(hit)))
        else:
            done.append(rect)
    return in_reading_order(done)


def changed_regions(before: dict[str, Piece], after: dict[str, Piece]) -> list[pygame.Rect]:
    """The regions to paint again: of every piece whose key or region changed, or that came
    or went (both its old and its new region), without repeats."""
    regions: list[pygame.Rect] = []
    for name in before.keys() | after.keys():
        old, new = before.get(name), after.get(name)
        if old is not None and new is not None and old.key == new.key and old.region == new.region:
            continue
        for piece in (old, new):
            if piece is not None:
                rect = pygame.Rect(piece.region)
                if rect not in regions:
                    regions.append(rect)
    return in_reading_order(regions)


def in_reading_order(rects: list[pygame.Rect]) -> list[pygame.Rect]:
    """Top to bottom, then left to right: one order for every list of regions, so a patch
    paints (and a test reads) them the same way each time."""
    return sorted(rects, key=lambda rect: (rect.top, rect.left, rect.width, rect.height))


__all__ = [
    "WHOLE_SHARE",
    "Piece",
    "StillLayer",
    "changed_regions",
    "in_reading_order",
    "merged",
    "patch",
    "restore",
]
