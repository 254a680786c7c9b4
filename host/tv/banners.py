"""The big centred banners between the seats ("Ana swaps with Chloé", "CUCKOO!", "Lowest
card: 3") and the subtitle under them: how big they may be, where they sit, and their plates.

Why a module of its own: a banner is fitted between the seats before it is drawn (its size
and its row), which is geometry the move painters (``host/tv/moves.py``) and the table's
resting messages (``host/tv/table.py``) share. The fitting is remembered (``banner_fit``):
banners are drawn on every frame.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import pygame

from host.tv import theme
from host.tv.layout import BANNER_Y, SUBTITLE_Y, SeatSpot, free_width
from host.tv.scene import Props

BANNER_RADIUS = 24
#: Cached plates are this many pixels apart in width (``plate_parts``).
PLATE_STEP = 32
#: A banner between the seats shrinks to this size before its text is cut.
BANNER_MIN = 20
#: The biggest text drawn on the subtitle's row (``SUBTITLE_Y``): a banner lowered to pass
#: below the top seats stops above it (``banner_rows``).
SUBTITLE_MAX = 40


def plate(size: tuple[int, int], colour: tuple[int, int, int, int], radius: int) -> pygame.Surface:
    """A translucent rounded plate behind a banner or a bubble."""
    surface = pygame.Surface(size, pygame.SRCALPHA)
    pygame.draw.rect(surface, colour, surface.get_rect(), border_radius=radius)
    return surface


def banner(
    surface: pygame.Surface,
    props: Props,
    text: str,
    size: int,
    colour: theme.Colour,
    y: int = BANNER_Y,
    max_width: int = 1300,
) -> pygame.Rect:
    """Big centred text on a dark plate, readable from the sofa; returns where it is."""
    image = props.theme.fitted_text(text, size, min(1300, max_width - 50), colour, bold=True)
    box = image.get_rect(center=(960, y)).inflate(50, 24)
    for part, at, area in plate_parts(props, box, (8, 12, 20, 210), BANNER_RADIUS):
        surface.blit(part, at, area)
    surface.blit(image, image.get_rect(center=box.center))
    return box


def plate_parts(
    props: Props, box: pygame.Rect, colour: tuple[int, int, int, int], radius: int
) -> list[tuple[pygame.Surface, tuple[int, int], pygame.Rect]]:
    """A plate exactly ``box``'s size as two blits (image, where, area) of a cached plate
    whose width is rounded up to ``PLATE_STEP``: its left part, then its right end with the
    far corners. Every column between the corners is the same, so the pixels are those of a
    plate drawn at ``box``'s size, while banners of a hundred widths share a few cached plates
    (issue 18 item 5)."""
    width = -(-box.width // PLATE_STEP) * PLATE_STEP
    wide = props.memo(
        ("plate", width, box.height, colour, radius),
        lambda: plate((width, box.height), colour, radius),
    )
    end = min(box.width, radius + 1)
    return [
        (wide, box.topleft, pygame.Rect(0, 0, box.width - end, box.height)),
        (wide, (box.right - end, box.top), pygame.Rect(width - end, 0, end, box.height)),
    ]


def band_half(size: int) -> float:
    """Half the height a banner of text ``size`` takes, its plate and a margin included."""
    return size * 0.6 + 14


def band_width(spots: Iterable[SeatSpot], y: int, size: int) -> int:
    """How wide a banner of text ``size`` centred at ``y`` may be between the seats."""
    half = band_half(size)
    return free_width(list(spots), y - half, y + half)


def banner_rows(y: int, size: int) -> range:
    """Where a banner of text ``size`` meant for row ``y`` may be centred, highest first.

    Why: at 5 seats the two top seats hang low and cut ``BANNER_Y``'s band to 458 px at any
    size, so French's "Carte la plus basse : 3" fell to 32 px (smaller than the subtitle
    under it) while the felt was free a few pixels lower. A banner on ``BANNER_Y`` may go down
    in 4 px steps as long as its band stays above the subtitle's; other rows stay put.
    """
    if y != BANNER_Y:
        return range(y, y + 1)
    lowest = SUBTITLE_Y - band_half(SUBTITLE_MAX) - band_half(size)
    return range(y, max(y, int(lowest)) + 1, 4)


def seated_banner(
    surface: pygame.Surface,
    props: Props,
    text: str,
    size: int,
    colour: theme.Colour,
    spots: Iterable[SeatSpot],
    y: int = BANNER_Y,
) -> pygame.Rect:
    """``banner`` between the seats, at the biggest size up to ``size`` that fits its own band
    (a little lower than ``y`` if that is where it fits: ``banner_rows``)."""
    fit, width, row = banner_fit(props.theme, text, size, y, tuple(spots))
    return banner(surface, props, text, fit, colour, row, width)


@lru_cache(maxsize=256)
def banner_fit(
    th: theme.Theme, text: str, size: int, y: int, spots: tuple[SeatSpot, ...]
) -> tuple[int, int, int]:
    """The size of a banner meant for row ``y``, the width it may take and the row it takes:
    the biggest size up to ``size`` whose band between the seats holds the whole text, at
    the highest of its ``banner_rows``. Why: the band was measured at ``size`` and the text
    shrunk into it, so a banner a little too tall to pass between the seats was squeezed into
    the narrow gap between the seats it met (at 7 seats the reveal's 60 px "Lowest card: 3"
    fell to 24 px, and to 14 in French, where 56 px clears them).
    Remembered: banners are drawn every frame."""
    for candidate in range(size, BANNER_MIN - 1, -2):
        for row in banner_rows(y, candidate):
            width = band_width(spots, row, candidate)
            if th.measure(text, candidate, True) <= min(1300, width - 50):
                return candidate, width, row
    return BANNER_MIN, band_width(spots, y, BANNER_MIN), y  # shrunk further by ``banner``
