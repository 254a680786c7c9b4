"""Where things sit on the 1920×1080 canvas: seats around an oval (round the screen's edges
for H7's tables of more than 10), the stock, the discard.

Pure geometry (no pygame), so it is cheap to test: seats go clockwise in seat order starting
at the bottom centre, the way players sit around a real table seen from the TV.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import pairwise

CANVAS_W, CANVAS_H = 1920, 1080
CAPTION_HEIGHT = 100
#: The table's header line (round, dealer, whose turn) sits above every seat.
HEADER_HEIGHT = 24
TABLE_CENTRE = (960.0, 462.0)
#: The felt's half-axes (the seats sit on their own oval, just outside it).
TABLE_RADII = (760.0, 330.0)
FULL_CARD_WIDTH = 112
SEAT_GAP = 2  # boxes already hold the frames drawn around a seat
SEAT_SCALES = (1.0, 0.92, 0.84, 0.76, 0.68, 0.6, 0.54, 0.48)
#: A tag ("out", "computer") at ``READABLE_SIZE`` is worth this much of a seat's size: a table
#: whose seats have room for readable tags only with a little smaller cards takes them (9 and
#: 10 seats with names in two lines: cards 92 px wide instead of 94, tags 28 px instead of 17,
#: plates as wide, ``_traded``).
TAG_TRADE = 0.02
#: Room kept clear above a seat's tag ("out", "computer"), which sits on its card's top edge:
#: the air between it and the seat above. Round 42: the tag sat this far above its card
#: instead, and on ten seats it read as the seat above's ("Hal — computer"); now it touches
#: its own card and is twice as far from the seat above, with the same layouts as before.
TAG_AIR = 17
#: A tag's height where it is readable: its text at ``READABLE_SIZE`` (its letters 27 px from
#: the tallest to the lowest, ``host/tv/seats.py``), as high as a tag was on the biggest seats.
TAG_HEIGHT = 30
#: The two rows of messages in the middle of the felt (a move's banner and its subtitle).
BANNER_Y = 392
SUBTITLE_Y = 488
#: What the sofa reads (3 m from a 1080p TV, round 37's play-test): no seat name and no line of
#: the round's trail has capitals smaller than this share of the screen's height — about
#: 14 minutes of arc on a 55" TV, above the smallest captions of the TV platforms (23-24 px
#: type at 1080p). The canvas is scaled whole onto the screen, so the share holds on every
#: screen: 19.3 px of 1080, 12.9 of 720, 38.6 of 2160.
READABLE_SHARE = 1 / 56
#: The smallest text size (DejaVu Sans, bold or not) whose capitals stand ``readable_height()``
#: high on the canvas: 28 draws them 20 px high, 26 only 19 (``tests/tv/test_readable.py``
#: measures the drawn pixels, at 1080p and 720p).
READABLE_SIZE = 28
#: A line of a name at ``READABLE_SIZE`` (the font's line is 33 px).
NAME_LINE = 34
#: A plate for names in two lines is this wide: 16 columns of the widest letter ("W", a name's
#: most, ``host.names.MAX_NAME_WIDTH``) then fit in two lines of 8 at ``READABLE_SIZE``.
WIDE_PLATE = 280
#: Wide plates only on seats this big: smaller cards would cost more than the plate gives.
WIDE_PLATE_MIN_SCALE = 0.68
#: The piles' cards (the stock, the discard, a cut King set aside) are this wide.
PILE_WIDTH = 80
#: The piles' names ("Stock", "Discard") are centred this far under the piles' centre, under
#: a pile card 112 px high (``TableScene._draw_pile_labels``); no seat covers them.
PILE_NAME_DROP = 78
#: How far a pile's name is sure to have room either side of its pile, and above or below its
#: centre (the ink of a line at ``READABLE_SIZE``): 56 px holds "Stock", "Discard" (107 px),
#: "Pioche", "Mazzo" and "Scarti". A wider name (French "Défausse", 131 px) takes the felt the
#: table's seats leave beside it (``pile_name_room``), which every table has: reserving 66 px
#: for it on every table shrank the 10-seat table's tags (its bottom seats' frames come within
#: 60 px of the piles' names).
PILE_NAME_REACH = 56
#: The most a pile's name may take either side of its pile (the table's still layer paints
#: the piles' band that far and a little further, ``host/tv/table.py``).
PILE_NAME_MOST = 150
#: The piles' band (``host/tv/table.py``'s ``PILES_REGION``) reaches this far either side of
#: the stock and the discard: ``PILE_NAME_MOST`` and a little more.
PILE_BAND_REACH = 160
PILE_NAME_HALF_HEIGHT = 15
#: The most seats a table has without H7 ("Big table"): these tables keep the oval above.
SMALL_TABLE_MOST = 10
#: H7's bigger tables (round 43 / H7): round 42's play-test at 18 seats read "D…nis", life
#: dots of 8 px and a tiny dealer "D" from the sofa. Their seats take small cards under
#: plates as big as a small table's (``BIG_PLATE_SCALE``: its name line, the lives' tokens,
#: the stripe, the dealer's badge), as wide as fits (``BIG_PLATE_WIDTHS``), set round the
#: screen's edges as round a long table (``_place_big``), all below the header's line.
BIG_PLATE_SCALE = 1.0
BIG_PLATE_WIDTHS = (220, 210, 200, 190, 180, 170, 160, 150)
BIG_CARD_SCALES = (0.84, 0.76, 0.68, 0.6, 0.54, 0.48)
#: The header's line across the top (``host/tv/table.py``'s ``HEADER_REGION``): the round,
#: the dealer and whose turn.
HEADER_LINE = 72
#: The big tables' seats start below the header's line, whose corners hold its words.
BIG_TABLE_TOP = HEADER_LINE


def readable_height(screen_height: float = CANVAS_H) -> float:
    """The smallest capitals' height (px) for a screen ``screen_height`` pixels high."""
    return screen_height * READABLE_SHARE


@dataclass(frozen=True)
class SeatSpot:
    """One seat's place: its card centre, and the seat's size (1.0 for small tables)."""

    index: int
    x: float
    y: float
    scale: float = 1.0
    name_lines: int = 1
    """Lines the plate holds for a name (2 when a name needs them, ``host/tv/nameplates.py``)."""
    plate_width: int = 0
    """The plate's width; 0: the seat's own (``224 × scale``)."""
    readable: bool = True
    """False only where a table is too big for names at ``READABLE_SIZE``: its names shrink to
    fit, as before the floor. No table of up to 20 seats has such plates since round 43
    (``_big_spots``); they are the last resort of ``seat_spots``."""
    readable_tag: bool = True
    """False where a tag at ``READABLE_SIZE`` would cost the table more than ``TAG_TRADE`` of
    its seats' size: the tag keeps its old size, about 20 px × ``scale``."""
    plate_scale: float = 0.0
    """The plate's own size where it is not the card's (H7's big tables: small cards, big
    plates): its name's line, the lives' tokens, the colour stripe, the dealer's badge.
    0: ``scale``."""

    @property
    def plate_factor(self) -> float:
        """What the plate and its marks are scaled by (``plate_scale``, else ``scale``)."""
        return self.plate_scale or self.scale

    @property
    def centre(self) -> tuple[float, float]:
        return self.x, self.y

    @property
    def card_width(self) -> int:
        return round(FULL_CARD_WIDTH * self.scale)

    @property
    def card_height(self) -> int:
        return round(self.card_width * 88 / 63)

    @property
    def plate_size(self) -> tuple[int, int]:
        """The name plate under the card: the name's lines over the lives' tokens."""
        scale = self.plate_factor
        line = round(35 * scale)
        if self.readable:
            line = max(line, NAME_LINE)
        height = round(5 * scale) + self.name_lines * line + round(38 * scale)
        return self.plate_width or round(224 * scale), height

    @property
    def tag_height(self) -> float:
        """The tag's height above the card ("out", "computer"): at the readable size like the
        names where the table has the room (``readable_tag``)."""
        return TAG_HEIGHT if self.readable_tag else max(20.0, 30 * self.scale)

    @property
    def tag_width(self) -> int:
        """The widest a tag may be: the seat's box (``box``), which it is centred in."""
        return round(max(self.plate_size[0], self.card_width) + 28)

    def box(self) -> tuple[float, float, float, float]:
        """Left, top, right, bottom of everything drawn for the seat (tag, card, plate).

        The tag sits on the card's top edge, as high as its text needs (``tag_height``), with
        ``TAG_AIR`` kept clear above it: more than the turn's and the winner's frames reach."""
        plate_w, plate_h = self.plate_size
        half = max(plate_w, self.card_width) / 2 + 14  # the turn's frame around card and plate
        top = self.y - self.card_height / 2 - self.tag_height - TAG_AIR
        bottom = self.y + self.card_height / 2 + 8 + plate_h + 14  # and the turn's frame
        return self.x - half, top, self.x + half, bottom

    def frames_box(self) -> tuple[float, float, float, float]:
        """Left, top, right, bottom of the card, the plate and the frames drawn around them
        (a winner's reaches 15 px out): the seat's box but for the short tag on the card's top
        edge, which reaches 15 px higher."""
        plate_w, plate_h = self.plate_size
        half = max(plate_w, self.card_width) / 2 + 15
        top = self.y - self.card_height / 2 - 15
        bottom = self.y + self.card_height / 2 + 8 + plate_h + 15
        return self.x - half, top, self.x + half, bottom


def seat_spots(count: int, name_lines: int = 1) -> list[SeatSpot]:
    """``count`` seats, clockwise on screen from the bottom centre (seat 0), as large as fits.

    Seats are spread by equal *arc length* around the oval (equal angles would crowd the
    narrow ends); the first seat size in ``SEAT_SCALES`` with no overlap wins. Tables of
    more than ``SMALL_TABLE_MOST`` (H7) sit round the screen's edges instead, with small
    cards under big plates (``_big_spots``, round 43).
    ``name_lines``: 2 asks for plates that hold a name in two lines (wide ones if the seats
    stay big enough); where none fits, one line.
    """
    if count <= 0:
        return []
    if name_lines not in (1, 2):
        raise ValueError(f"a plate holds a name in 1 or 2 lines, not {name_lines}")
    return list(_spots(count, name_lines))


def _plates(name_lines: int) -> list[SeatSpot]:
    """The plates to try, best first, as templates (``_place`` sets the rest): then the
    plates of before the floor, whose names may shrink (only the biggest H7 tables)."""
    tries = [SeatSpot(0, 0.0, 0.0, name_lines=1)]
    if name_lines == 2:
        tries[:0] = [
            SeatSpot(0, 0.0, 0.0, name_lines=2, plate_width=WIDE_PLATE),
            SeatSpot(0, 0.0, 0.0, name_lines=2),
        ]
    return [*tries, SeatSpot(0, 0.0, 0.0, readable=False, readable_tag=False)]


@lru_cache(maxsize=64)
def _spots(count: int, name_lines: int) -> tuple[SeatSpot, ...]:
    if count > SMALL_TABLE_MOST:
        big = _big_spots(count, name_lines)
        if big is not None:
            return big
    plates = _plates(name_lines)
    for plate in plates:
        for scale in SEAT_SCALES:
            if plate.plate_width and scale < WIDE_PLATE_MIN_SCALE:
                break
            spots = _place(count, replace(plate, scale=scale))
            if not _overlap(spots):
                return spots
            if plate.readable_tag:
                small_tags = _place(count, replace(plate, scale=scale, readable_tag=False))
                if not _overlap(small_tags):
                    return _traded(count, plate, scale) or small_tags
    return _place(count, replace(plates[-1], scale=SEAT_SCALES[-1]))


def _big_spots(count: int, name_lines: int) -> tuple[SeatSpot, ...] | None:
    """An H7 table's seats: of the plates (``BIG_PLATE_WIDTHS``) and cards
    (``BIG_CARD_SCALES``) that fit, those whose plate and card are widest together (a tie:
    the wider plate). Why together: at 18 seats, plates 20 px narrower take cards of 94 px
    instead of 54 (a card is read at the reveal as a name is all along). Plates for two
    lines only where ``name_lines`` asks for them, else (or where they do not fit) for
    one. None where none fits (the oval's layouts then)."""
    for lines in sorted({name_lines, 1}, reverse=True):
        best: tuple[tuple[int, int], tuple[SeatSpot, ...]] | None = None
        for width in BIG_PLATE_WIDTHS:
            for scale in BIG_CARD_SCALES:
                template = SeatSpot(
                    0,
                    0.0,
                    0.0,
                    scale=scale,
                    name_lines=lines,
                    plate_width=width,
                    plate_scale=BIG_PLATE_SCALE,
                )
                score = (width + template.card_width, width)
                if best is not None and score <= best[0]:
                    continue
                for side in range(count // 2, -1, -1):
                    spots = _place_big(count, template, side)
                    if spots is not None and not _overlap(spots):
                        best = (score, spots)
                        break
        if best is not None:
            return best[1]
    return None


def _place_big(count: int, template: SeatSpot, side: int) -> tuple[SeatSpot, ...] | None:
    """``count`` seats like ``template`` round the screen's edges, as round a long table: a
    row along the top (under the header's line) and one along the bottom (over the
    captions), ``side`` seats up each side between them; the bottom row has the odd seat.

    Why not the oval: an H7 seat is a tall box (tag, card, plate) that an oval sets aslant
    on its way round, where it takes both a seat's width and its height; rows and columns
    hold 18 seats with plates 200 px wide where the oval held 170 (round 43). None where the
    seats do not fit so (the rows, the columns, or a corner where they meet)."""
    left, top, right, bottom = template.box()
    across, high = right - left, bottom - top
    rows = count - 2 * side
    if rows < 2:
        return None
    top_row, bottom_row = rows // 2, rows - rows // 2
    y_top = BIG_TABLE_TOP - top
    y_bottom = CANVAS_H - CAPTION_HEIGHT - 12 - bottom
    x_left, x_right = 16 - left, CANVAS_W - 16 - right
    # The sides' seats, evenly between the rows' heights, as far apart as they go.
    span = y_bottom - y_top
    if side > 1 and span / (side - 1) < high + SEAT_GAP:
        return None
    gap = min(span / (side - 1), max(span / (side + 1), high + SEAT_GAP)) if side > 1 else 0.0
    middle = (y_top + y_bottom) / 2
    side_ys = [middle + (k - (side - 1) / 2) * gap for k in range(side)]
    # The rows run between the sides' seats where those reach their heights.

    def row(y: float, seats: int) -> list[float] | None:
        reached = any(abs(side_y - y) < high + SEAT_GAP for side_y in side_ys)
        inset = across + SEAT_GAP if reached else 0.0
        first, last = x_left + inset, x_right - inset
        if seats == 1:
            return [(first + last) / 2]
        if (last - first) / (seats - 1) < across + SEAT_GAP:
            return None
        # Each seat in the middle of its share of the row, or closer to the ends where a
        # share is narrower than a seat.
        step = max((last - first) / seats, across + SEAT_GAP)
        start = (first + last) / 2 - step * (seats - 1) / 2
        return [start + i * step for i in range(seats)]

    tops, bottoms = row(y_top, top_row), row(y_bottom, bottom_row)
    if tops is None or bottoms is None:
        return None
    # Clockwise as the viewer sees it, from the bottom row's right end: leftwards along the
    # bottom, up the left side, rightwards along the top, down the right side.
    ring = (
        [(x, y_bottom) for x in reversed(bottoms)]
        + [(x_left, y) for y in reversed(side_ys)]
        + [(x, y_top) for x in tops]
        + [(x_right, y) for y in side_ys]
    )
    first = min(range(bottom_row), key=lambda i: abs(ring[i][0] - TABLE_CENTRE[0]))
    ring = ring[first:] + ring[:first]  # seat 0 at the bottom centre
    return tuple(replace(template, index=i, x=x, y=y) for i, (x, y) in enumerate(ring))


def _traded(count: int, plate: SeatSpot, scale: float) -> tuple[SeatSpot, ...] | None:
    """Seats ``TAG_TRADE`` smaller than ``scale`` with readable tags, where they fit (the
    seats fit at ``scale`` only with the old small tags). Their plates keep the width they
    have at ``scale``: a narrower plate cut names in two lines worse ("Guillaum" / "e-Henri"
    for "Guillaume" / "-Henri" on 10 seats)."""
    width = replace(plate, scale=scale).plate_size[0]
    spots = _place(count, replace(plate, scale=round(scale - TAG_TRADE, 2), plate_width=width))
    return None if _overlap(spots) else spots


def _place(count: int, template: SeatSpot) -> tuple[SeatSpot, ...]:
    """``count`` seats like ``template`` (its size and plate) around the oval."""
    _, top, right, bottom = template.box()
    cx, cy = TABLE_CENTRE
    rx = CANVAS_W / 2 - 16 - right
    ry = min(cy + top - HEADER_HEIGHT, CANVAS_H - CAPTION_HEIGHT - 12 - cy - bottom)
    # Screen y grows downwards, so a growing angle walks clockwise as seen by the viewer.
    samples = 720
    points = [
        (
            cx + rx * math.cos(math.pi / 2 + 2 * math.pi * i / samples),
            cy + ry * math.sin(math.pi / 2 + 2 * math.pi * i / samples),
        )
        for i in range(samples + 1)
    ]
    lengths = [0.0]
    for a, b in pairwise(points):
        lengths.append(lengths[-1] + math.dist(a, b))
    spots = []
    j = 0
    for index in range(count):
        wanted = lengths[-1] * index / count
        while lengths[j + 1] < wanted:
            j += 1
        x, y = lerp(
            points[j], points[j + 1], (wanted - lengths[j]) / ((lengths[j + 1] - lengths[j]) or 1.0)
        )
        spots.append(replace(template, index=index, x=x, y=y))
    return tuple(spots)


def pile_name_boxes() -> list[tuple[float, float, float, float]]:
    """Left, top, right, bottom of each pile's name, under the stock and the discard."""
    return [
        (
            x - PILE_NAME_REACH,
            y + PILE_NAME_DROP - PILE_NAME_HALF_HEIGHT,
            x + PILE_NAME_REACH,
            y + PILE_NAME_DROP + PILE_NAME_HALF_HEIGHT,
        )
        for x, y in (stock_spot(), discard_spot())
    ]


def pile_name_room(spots: Iterable[SeatSpot], pile: tuple[float, float]) -> tuple[float, float]:
    """Left and right of the felt a name under ``pile`` may take: its side of the table's
    centre, at most ``PILE_NAME_MOST`` either side of the pile, and clear of the card, plate
    and frames of every seat beside it (``SeatSpot.frames_box``) on the name's rows. It holds
    at least the reserved ``PILE_NAME_REACH`` either side (``_overlap`` sees to it)."""
    x, y = pile
    top, bottom = (
        y + PILE_NAME_DROP - PILE_NAME_HALF_HEIGHT,
        y + PILE_NAME_DROP + PILE_NAME_HALF_HEIGHT,
    )
    centre = TABLE_CENTRE[0]
    left, right = x - PILE_NAME_MOST, x + PILE_NAME_MOST
    left, right = (left, min(right, centre)) if x < centre else (max(left, centre), right)
    for spot in spots:
        s_left, s_top, s_right, s_bottom = spot.frames_box()
        if s_top >= bottom or s_bottom <= top:
            continue
        if s_right <= x:
            left = max(left, s_right)
        elif s_left >= x:
            right = min(right, s_left)
    return left, right


def _overlap(spots: tuple[SeatSpot, ...]) -> bool:
    """Whether two seats' boxes meet, or a seat's card, plate or frames meet the piles' names
    (round 37: the wide plates of two-line names reached "Stock"; a seat's tag is short and
    centred over its card, clear of them)."""
    boxes = [spot.box() for spot in spots]
    frames = [spot.frames_box() for spot in spots]
    for left, top, right, bottom in pile_name_boxes():
        if any(l < right and left < r and t < bottom and top < b for l, t, r, b in frames):
            return True
    for i, (l1, t1, r1, b1) in enumerate(boxes):
        for l2, t2, r2, b2 in boxes[i + 1 :]:
            if (
                l1 < r2 + SEAT_GAP
                and l2 < r1 + SEAT_GAP
                and t1 < b2 + SEAT_GAP
                and t2 < b1 + SEAT_GAP
            ):
                return True
    return False


def free_width(spots: list[SeatSpot], top: float, bottom: float, margin: float = 16) -> int:
    """How wide a centred message between ``top`` and ``bottom`` may be without touching a
    seat (big tables put seats beside the middle of the felt)."""
    cx = CANVAS_W / 2
    half = cx - 40
    for spot in spots:
        left, s_top, right, s_bottom = spot.box()
        if s_top >= bottom or s_bottom <= top:
            continue
        if right <= cx:
            half = min(half, cx - right - margin)
        elif left >= cx:
            half = min(half, left - cx - margin)
    return max(200, round(2 * half))


def stock_spot() -> tuple[float, float]:
    """The undealt stock, left of the centre."""
    return TABLE_CENTRE[0] - 198, TABLE_CENTRE[1] + 140


def discard_spot() -> tuple[float, float]:
    """The face-down discard (a dealer's old card after a cut), right of the centre."""
    return TABLE_CENTRE[0] + 198, TABLE_CENTRE[1] + 140


def aside_spot() -> tuple[float, float]:
    """Where a cut King is set aside face up (R9), between stock and discard."""
    return TABLE_CENTRE[0], TABLE_CENTRE[1] + 140


def lerp(a: tuple[float, float], b: tuple[float, float], t: float) -> tuple[float, float]:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


def arc(
    a: tuple[float, float], b: tuple[float, float], t: float, lift: float = 80.0
) -> tuple[float, float]:
    """A point on a gentle arc from ``a`` to ``b`` (two cards crossing pass apart)."""
    x, y = lerp(a, b, t)
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    bulge = math.sin(math.pi * t) * lift
    return x - dy / length * bulge, y + dx / length * bulge


def ease(t: float) -> float:
    """Smooth start and stop (cubic ease-in-out) for moving cards."""
    t = min(max(t, 0.0), 1.0)
    return 4 * t * t * t if t < 0.5 else 1 - (-2 * t + 2) ** 3 / 2
