"""The bench: guests who joined while a game runs, shown apart from the game's seats.

Why apart: a latecomer is seated *waiting* (they play the next game). Laid out with the game's
seats, their seat moved every playing seat round the oval mid-round, cards in flight included
(round 43's play-test; guests find themselves by where their seat is). While a game runs the
ring holds the game's players only (``host.tv.seats.ring``) and the bench says "Next game:"
with the latecomers' names, in a corner the seats, the piles, the trail and the banners leave
free. At the game's end its board names them instead (``host.tv.final``: the board covers
the felt a bench would take on a big table). In the lobby they take their seat in the ring,
and there is no bench.

Each name is on a chip with the player's colour as a stripe at its left, as their plate will
have it, in the plate's ink: the colour alone, as the text's, did not read from the sofa for
the dark ones (round 41's check of the seats' tags).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from host.tv import theme
from host.tv.banners import piles_top
from host.tv.layout import (
    BANNER_Y,
    CANVAS_H,
    CANVAS_W,
    CAPTION_HEIGHT,
    PILE_BAND_REACH,
    READABLE_SIZE,
    SMALL_TABLE_MOST,
    SeatSpot,
    discard_spot,
)
from host.tv.nameplates import BOLD, shortened_line
from host.tv.scene import Props
from host.tv.stage import SeatShow, Stage
from host.tv.trail import TRAIL_BOX

#: The bench's words: at the size every seat's name has (``READABLE_SIZE``), never smaller.
BENCH_SIZE = READABLE_SIZE
#: One line of the bench, a chip's height and the air under it.
LINE = 40
CHIP_HEIGHT = 36
#: Room inside the bench's panel, left and right then top and bottom.
PADDING = (14, 8)
#: Between two chips of a line, and between a chip's stripe and its name.
GAP = 12
STRIPE = 10
#: The bench keeps this far from the screen's edges, the caption bar and any seat.
MARGIN = 12
#: The widths the bench tries in a corner, widest first (the narrower ones fit between seats).
WIDTHS = (640, 500, 380)
#: A chip's ground: the grey of a waiting seat's plate (``host.tv.seats.GREY_PLATE``).
CHIP = (44, 48, 54)

Box = tuple[int, int, int, int]
"""A rectangle as (left, top, width, height): hashable, for the still layer's keys."""


@dataclass(frozen=True)
class BenchChip:
    """One latecomer on the bench: who, what it says, where its chip is."""

    player: str
    text: str
    colour: theme.Colour
    rect: Box


@dataclass(frozen=True)
class Bench:
    """The bench as drawn: its panel, the title's place, the chips, and "+2 more" (if some
    latecomers did not fit) with its place."""

    rect: Box
    title: str
    title_at: tuple[int, int]
    chips: tuple[BenchChip, ...]
    more: str | None = None
    more_at: tuple[int, int] = (0, 0)

    def chip_of(self, player: str) -> pygame.Rect | None:
        """Where ``player``'s chip is (``None`` when not on the bench or not shown)."""
        return next((pygame.Rect(c.rect) for c in self.chips if c.player == player), None)


def benched(stage: Stage) -> list[SeatShow]:
    """The guests who play the next game, on the bench (or the game's end's board): none in
    the lobby (they sit in the ring then, ``host.tv.seats.ring``)."""
    if stage.phase == "lobby":
        return []
    return [seat for seat in stage.players if seat.status == "waiting"]


def bench_rooms(spots: Sequence[SeatSpot], avoid: Sequence[pygame.Rect]) -> list[pygame.Rect]:
    """Where a bench may go, best first: each a rectangle that meets no seat (``SeatSpot.box``)
    and nothing of ``avoid`` (the piles, the trail, a board), above the caption bar.

    The bottom-right corner first (under the seats of the right side: the trail takes the
    left corners first, ``host.tv.trail``), then the bottom-left one; on H7's big tables,
    whose seats run round the screen's edges, the felt right of the piles instead (the
    mirror of the trail's room there)."""
    boxes = [pygame.Rect(_box(spot)) for spot in spots]
    blocks = [b for b in [*boxes, *avoid, banner_band()] if b.width and b.height]
    floor = CANVAS_H - CAPTION_HEIGHT - MARGIN
    rooms: list[pygame.Rect] = []
    for width in WIDTHS:
        for left in (CANVAS_W - 30 - width, 30):
            column = pygame.Rect(left, 0, width, floor)
            top = max([MARGIN, *(b.bottom + MARGIN for b in blocks if _meets(column, b, floor))])
            rooms.append(pygame.Rect(left, top, width, max(0, floor - top)))
    if len(spots) > SMALL_TABLE_MOST:
        rooms.insert(0, _on_the_felt(boxes, floor))
    return [room for room in rooms if room.height and room.collidelist(blocks) == -1]


def _box(spot: SeatSpot) -> Box:
    left, top, right, bottom = spot.box()
    return round(left), round(top), round(right - left), round(bottom - top)


def _meets(column: pygame.Rect, block: pygame.Rect, floor: int) -> bool:
    """``block`` is over the ``column``'s width, above the floor."""
    return block.right > column.left and block.left < column.right and block.top < floor


def banner_band() -> pygame.Rect:
    """The felt's two rows of messages, as far as a banner in lines reaches (``lines_room``:
    from the trail's top-left corner's bottom) down to the piles' band: no bench there, nor a
    bench's reaction, whatever a seat leaves free."""
    top = min(TRAIL_BOX.bottom, BANNER_Y - 60)
    return pygame.Rect(0, top, CANVAS_W, piles_top() - top)


def _on_the_felt(boxes: Sequence[pygame.Rect], floor: int) -> pygame.Rect:
    """H7's big tables: the felt right of the piles' band, under the banners' rows, left of
    the seats up the right side and over the bottom row's."""
    top = piles_top()
    left = round(discard_spot()[0]) + PILE_BAND_REACH + MARGIN
    right = min([CANVAS_W - 30, *(b.left - MARGIN for b in boxes if b.right >= CANVAS_W - 16)])
    below = [b.top - MARGIN for b in boxes if b.top >= top and b.left < right and b.right > left]
    bottom = min([floor, *below])
    return pygame.Rect(left, top, max(0, right - left), max(0, bottom - top))


def plan_bench(
    props: Props, stage: Stage, spots: Sequence[SeatSpot], avoid: Sequence[pygame.Rect] = ()
) -> Bench | None:
    """The bench for ``stage`` beside the ring's ``spots`` (pure: the same stage, the same
    bench); ``None`` with nobody waiting, at the game's end (its board names them) or, on a
    table with no free corner, no room at all.

    In the first room that holds every latecomer, the title then the chips run in lines; where
    no room holds them all, the room with the most lines holds as many as fit and "+N more"."""
    waiting = benched(stage)
    if not waiting or stage.phase == "game_over":
        return None
    best: Bench | None = None
    for room in bench_rooms(spots, avoid):
        bench, shown = _flow(props, waiting, room)
        if bench is None:
            continue
        if shown == len(waiting):
            return bench
        if best is None or len(bench.chips) > len(best.chips):
            best = bench
    return best


def _flow(props: Props, waiting: Sequence[SeatShow], room: pygame.Rect) -> tuple[Bench | None, int]:
    """The bench laid out in ``room``, anchored at the room's corner nearest the screen's
    edge (its bottom in a bottom corner), and how many latecomers it shows."""
    th = props.theme
    inner = room.width - 2 * PADDING[0]
    lines = (room.height - 2 * PADDING[1] + LINE - CHIP_HEIGHT) // LINE
    title = props.t("bench_title")
    title_width = th.measure(title, BENCH_SIZE, BOLD)
    if lines < 1 or title_width > inner:
        return None, 0
    names = [seat.name for seat in waiting]
    places: list[tuple[int, int, int]] = []  # (line, x, width) of each chip
    texts: list[str] = []
    line, x = 0, title_width + GAP
    for i, seat in enumerate(waiting):
        room_left = inner - 2 * GAP - STRIPE
        text = shortened_line(th, seat.name, names[:i] + names[i + 1 :], BENCH_SIZE, room_left)
        width = STRIPE + GAP + th.measure(text, BENCH_SIZE, BOLD) + GAP
        if x + width > inner:
            line, x = line + 1, 0
        places.append((line, x, width))
        texts.append(text)
        x += width + GAP
    shown, more = len(waiting), None
    more_line, more_x = 0, 0
    if places[-1][0] >= lines:  # too many: as many as fit, then "+N more"
        for shown in range(len(waiting) - 1, -1, -1):
            more = props.t("bench_more", count=len(waiting) - shown)
            more_line, more_x = _after(places[:shown], title_width)
            if more_x + th.measure(more, BENCH_SIZE, BOLD) > inner:
                more_line, more_x = more_line + 1, 0
            if more_line < lines:
                break
        else:
            return None, 0
    used = places[:shown]
    rows = 1 + max([p[0] for p in used] + [more_line if more else 0])
    widest = max(
        [title_width, *(p[1] + p[2] for p in used)]
        + ([more_x + th.measure(more, BENCH_SIZE, BOLD)] if more else [])
    )
    width, height = widest + 2 * PADDING[0], rows * LINE + 2 * PADDING[1] - (LINE - CHIP_HEIGHT)
    left = room.right - width if room.centerx > CANVAS_W // 2 else room.left
    top = room.bottom - height if room.bottom >= CANVAS_H - CAPTION_HEIGHT - MARGIN else room.top
    origin = (left + PADDING[0], top + PADDING[1])

    def at(line: int, x: int) -> tuple[int, int]:
        return origin[0] + x, origin[1] + line * LINE

    chips = tuple(
        BenchChip(seat.id, text, seat.colour, (*at(line, x), width, CHIP_HEIGHT))
        for seat, text, (line, x, width) in zip(waiting, texts, used)
    )
    bench = Bench(
        (left, top, width, height),
        title,
        at(0, 0),
        chips,
        more,
        at(more_line, more_x),
    )
    return bench, shown


def _after(places: Sequence[tuple[int, int, int]], title_width: int) -> tuple[int, int]:
    """The line and x just after the last of ``places`` (after the title when none)."""
    if not places:
        return 0, title_width + GAP
    line, x, width = places[-1]
    return line, x + width + GAP


def draw_bench(surface: pygame.Surface, props: Props, bench: Bench) -> None:
    """Paint the bench: its panel, "Next game:" and a chip for each latecomer."""
    th = props.theme
    panel = pygame.Rect(bench.rect)
    pygame.draw.rect(surface, theme.PANEL, panel, border_radius=14)
    pygame.draw.rect(surface, theme.PANEL_EDGE, panel, 2, border_radius=14)
    middle = CHIP_HEIGHT // 2
    title = th.text(bench.title, BENCH_SIZE, theme.MUTED_INK, BOLD)
    x, y = bench.title_at
    surface.blit(title, title.get_rect(midleft=(x, y + middle)))
    for chip in bench.chips:
        rect = pygame.Rect(chip.rect)
        pygame.draw.rect(surface, CHIP, rect, border_radius=8)
        pygame.draw.rect(surface, chip.colour, (rect.left, rect.top, STRIPE, rect.height), 0, 4)
        name = th.text(chip.text, BENCH_SIZE, theme.INK, BOLD)
        surface.blit(name, name.get_rect(midleft=(rect.left + STRIPE + GAP, rect.centery)))
    if bench.more is not None:
        more = th.text(bench.more, BENCH_SIZE, theme.MUTED_INK, BOLD)
        x, y = bench.more_at
        surface.blit(more, more.get_rect(midleft=(x, y + middle)))
