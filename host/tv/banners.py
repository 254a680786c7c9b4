"""The big centred banners between the seats ("Ana swaps with Chloé", "CUCKOO!", "Lowest
card: 3") and the subtitle under them: how big they may be, where they sit, and their plates.

Why a module of its own: a banner is fitted between the seats before it is drawn (its size,
its row, in one line or two), which is geometry the move painters (``host/tv/moves.py``) and
the table's resting messages (``host/tv/table.py``) share. The fitting is remembered
(``banner_fit``): banners are drawn on every frame.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import pygame

from host.tv import theme
from host.tv.cards import card_size
from host.tv.layout import (
    BANNER_Y,
    PILE_WIDTH,
    READABLE_SIZE,
    SUBTITLE_Y,
    SeatSpot,
    free_width,
    stock_spot,
)
from host.tv.scene import Props
from host.tv.trail import TRAIL_BOX

BANNER_RADIUS = 24
#: A banner's dark plate (the felt shows a little through it), in one line or two.
BANNER_PLATE = (8, 12, 20, 210)
#: Cached plates are this many pixels apart in width (``plate_parts``).
PLATE_STEP = 32
#: A banner between the seats shrinks to this size before its text is cut.
BANNER_MIN = 20
#: The biggest text drawn on the subtitle's row (``SUBTITLE_Y``): a banner lowered to pass
#: below the top seats stops above it (``banner_rows``).
SUBTITLE_MAX = 40
#: The lines of a banner in two lines are this many times its size apart: DejaVu Sans Bold's
#: own line (33 px at 28, 47 at 40), so an accent on a capital never meets a descender above.
LINE_SHARE = 1.18
#: A banner too long for one line at the readable size takes up to this many (three: at 8
#: seats the side seats leave a band of 640 px where two lines of a long name's banner do
#: not fit at ``READABLE_SIZE``).
MOST_LINES = 3
#: The plate of a banner in two lines reaches this far above and below its text (one line's
#: reaches 12): a subtitle in two lines has 84 px between the banner's row and the piles, and
#: two lines at ``READABLE_SIZE`` take 66 of them.
TWO_LINE_PAD = 6
#: The piles' band (``piles_top``) starts this far above their cards.
PILES_MARGIN = 12


@dataclass(frozen=True)
class BannerFit:
    """How a banner is drawn between the seats (``banner_fit``)."""

    size: int
    """The text's size."""
    width: int
    """How wide the band between the seats is at that size and row."""
    row: int
    """Where the banner is centred (``banner_rows``)."""
    lines: tuple[str, ...]
    """The text as drawn: one line, or two where one line would be under the readable floor."""


def piles_top() -> int:
    """Where the band the piles paint in starts (the stock's stacked cards, the discard, a cut
    King set aside; ``PILES_REGION`` in ``host/tv/table.py``): a subtitle in two lines ends
    above it."""
    return round(stock_spot()[1]) - card_size(PILE_WIDTH)[1] // 2 - PILES_MARGIN


def line_step(size: int) -> int:
    """How far apart the lines of a banner of text ``size`` are (``LINE_SHARE``)."""
    return round(size * LINE_SHARE)


def plate(size: tuple[int, int], colour: tuple[int, int, int, int], radius: int) -> pygame.Surface:
    """A translucent rounded plate behind a banner or a bubble."""
    surface = pygame.Surface(size, pygame.SRCALPHA)
    pygame.draw.rect(surface, colour, surface.get_rect(), border_radius=radius)
    return surface


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
    for part, at, area in plate_parts(props, box, BANNER_PLATE, BANNER_RADIUS):
        surface.blit(part, at, area)
    surface.blit(image, image.get_rect(center=box.center))
    return box


def banner_lines(
    surface: pygame.Surface,
    props: Props,
    lines: Sequence[str],
    size: int,
    colour: theme.Colour,
    y: int,
) -> pygame.Rect:
    """``banner`` in several lines on one plate, each line centred, ``line_step`` apart; the
    lines are drawn as they are (``banner_fit`` made them fit). Returns where it is."""
    images = [props.theme.text(line, size, colour, bold=True) for line in lines]
    step = line_step(size)
    box = pygame.Rect(0, 0, max(image.get_width() for image in images) + 50, 0)
    box.height = step * len(images) + 2 * TWO_LINE_PAD
    box.center = (960, y)
    for part, at, area in plate_parts(props, box, BANNER_PLATE, BANNER_RADIUS):
        surface.blit(part, at, area)
    for index, image in enumerate(images):
        middle = box.top + TWO_LINE_PAD + step * index + step // 2
        surface.blit(image, image.get_rect(center=(box.centerx, middle)))
    return box


def band_half(size: int, lines: int = 1) -> float:
    """Half the height a banner of text ``size`` in ``lines`` lines takes, its plate and a
    margin of 2 px included."""
    if lines == 1:
        return size * 0.6 + 14
    return lines * line_step(size) / 2 + TWO_LINE_PAD + 2


def band_width(spots: Iterable[SeatSpot], y: int, size: int, lines: int = 1) -> int:
    """How wide a banner of text ``size`` in ``lines`` lines centred at ``y`` may be between
    the seats."""
    half = band_half(size, lines)
    return free_width(list(spots), y - half, y + half)


def lines_room(y: int) -> tuple[float, float] | None:
    """Top and bottom of the felt a banner meant for row ``y`` may take in two lines or more
    (None: a row with no such room, whose banners stay in one line).

    Why these bounds: a banner on ``BANNER_Y`` keeps below the trail's top-left corner and
    above the subtitle's row (``SUBTITLE_MAX``, as a lowered banner does: ``banner_rows``); a
    subtitle keeps below that row's top, which no banner above it crosses, and above the piles
    (a cut King set aside lies right under it)."""
    subtitle_top = SUBTITLE_Y - band_half(SUBTITLE_MAX)
    if y == BANNER_Y:
        return TRAIL_BOX.bottom, subtitle_top
    if y == SUBTITLE_Y:
        return subtitle_top, piles_top()
    return None


def banner_rows(y: int, size: int, lines: int = 1) -> Sequence[int]:
    """Where a banner of text ``size`` in ``lines`` lines meant for row ``y`` may be centred,
    the row to try first first.

    One line: highest first. Why: at 5 seats the two top seats hang low and cut ``BANNER_Y``'s
    band to 458 px at any size, so French's "Carte la plus basse : 3" fell to 32 px (smaller
    than the subtitle under it) while the felt was free a few pixels lower. A banner on
    ``BANNER_Y`` may go down in 4 px steps as long as its band stays above the subtitle's;
    other rows stay put.
    Two lines or more: within ``lines_room``, nearest ``y`` first (none where the lines do not
    fit in it)."""
    if lines == 1:
        if y != BANNER_Y:
            return range(y, y + 1)
        lowest = SUBTITLE_Y - band_half(SUBTITLE_MAX) - band_half(size)
        return range(y, max(y, int(lowest)) + 1, 4)
    room = lines_room(y)
    if room is None:
        return []
    half = band_half(size, lines)
    highest, lowest = math.ceil(room[0] + half), math.floor(room[1] - half)
    if highest > lowest:
        return []
    nearest = min(max(y, highest), lowest)
    return sorted({*range(highest, lowest + 1, 4), lowest, nearest}, key=lambda r: (abs(r - y), r))


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
    (a little lower than ``y`` if that is where it fits: ``banner_rows``), in two lines (or
    three) where one line would be under the readable floor (``banner_fit``)."""
    fit = banner_fit(props.theme, text, size, y, tuple(spots))
    if len(fit.lines) > 1:
        return banner_lines(surface, props, fit.lines, fit.size, colour, fit.row)
    return banner(surface, props, text, fit.size, colour, fit.row, fit.width)


def _fits(th: theme.Theme, lines: Sequence[str], size: int, width: int) -> bool:
    """Whether each of ``lines`` at ``size`` fits a band ``width`` wide (``banner``'s room)."""
    room = min(1300, width - 50)
    return all(th.measure(line, size, True) <= room for line in lines)


def _in_lines(
    th: theme.Theme,
    text: str,
    sizes: Iterable[int],
    y: int,
    spots: tuple[SeatSpot, ...],
    count: int,
) -> BannerFit | None:
    """The biggest of ``sizes`` whose band between the seats holds the text in ``count``
    lines (``Theme.split_evenly`` past one), at the first of its ``banner_rows`` where it
    fits (one line: the highest)."""
    for size in sizes:
        rows = banner_rows(y, size, count)
        if not rows:
            continue
        lines = (text,) if count == 1 else th.split_evenly(text, size, count, bold=True)
        if lines is None:
            return None  # too few words, or words a no-break space holds together
        for row in rows:
            width = band_width(spots, row, size, count)
            if _fits(th, lines, size, width):
                return BannerFit(size, width, row, lines)
    return None


@lru_cache(maxsize=256)
def banner_fit(
    th: theme.Theme, text: str, size: int, y: int, spots: tuple[SeatSpot, ...]
) -> BannerFit:
    """How a banner meant for row ``y`` is drawn: the biggest size up to ``size`` whose band
    between the seats holds the whole text in one line, at the highest of its ``banner_rows``
    — or, where that size would be under ``READABLE_SIZE``, two lines at the biggest size
    that fits their own band, if that is bigger; and three where two are still under it.

    Why the band is measured at the size drawn: it was measured at ``size`` and the text
    shrunk into it, so a banner a little too tall to pass between the seats was squeezed into
    the narrow gap between the seats it met (at 7 seats the reveal's 60 px "Lowest card: 3"
    fell to 24 px, and to 14 in French, where 56 px clears them).
    Why two lines: a long phrase with a long name ("Marie-Éléonore peut appuyer sur
    Distribuer — ou appuie sur Espace") fell to 20-24 px where the seats leave a narrow band,
    under what the sofa reads; a text that is readable in one line keeps it. Why three: at 8
    seats the side seats leave 640 px, where the first dealer's banner with "Marie-Éléonore"
    was 26 px in two lines in Italian.
    Remembered: banners are drawn every frame."""
    sizes = range(size, BANNER_MIN - 1, -2)
    one = _in_lines(th, text, [s for s in sizes if s >= READABLE_SIZE], y, spots, 1)
    if one is not None:
        return one
    best = _in_lines(th, text, [s for s in sizes if s < READABLE_SIZE], y, spots, 1)
    for count in range(2, MOST_LINES + 1):
        if best is not None and best.size >= READABLE_SIZE:
            break  # fewer lines at a readable size read better than more
        more = _in_lines(th, text, sizes, y, spots, count)
        if more is not None and (best is None or more.size > best.size):
            best = more
    if best is not None:
        return best
    # Shrunk further by ``banner``.
    return BannerFit(BANNER_MIN, band_width(spots, y, BANNER_MIN), y, (text,))
