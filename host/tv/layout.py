"""Where things sit on the 1920×1080 canvas: seats around an oval, the stock, the discard.

Pure geometry (no pygame), so it is cheap to test: seats go clockwise in seat order starting
at the bottom centre, the way players sit around a real table seen from the TV.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
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
#: A seat's tag ("out", "computer") sits this far above its card: clear of the turn's and the
#: winner's frames drawn around the card.
TAG_LIFT = 17
#: The two rows of messages in the middle of the felt (a move's banner and its subtitle).
BANNER_Y = 392
SUBTITLE_Y = 488


@dataclass(frozen=True)
class SeatSpot:
    """One seat's place: its card centre, and the seat's size (1.0 for small tables)."""

    index: int
    x: float
    y: float
    scale: float = 1.0

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
        """The name plate under the card."""
        return round(224 * self.scale), round(78 * self.scale)

    def box(self) -> tuple[float, float, float, float]:
        """Left, top, right, bottom of everything drawn for the seat (tag, card, plate).

        The tag sits above the highlight frames around the card (``TAG_LIFT``)."""
        plate_w, plate_h = self.plate_size
        half = max(plate_w, self.card_width) / 2 + 14  # the turn's frame around card and plate
        top = self.y - self.card_height / 2 - TAG_LIFT - max(20.0, 30 * self.scale)
        bottom = self.y + self.card_height / 2 + 8 + plate_h + 14  # and the turn's frame
        return self.x - half, top, self.x + half, bottom


def seat_spots(count: int) -> list[SeatSpot]:
    """``count`` seats, clockwise on screen from the bottom centre (seat 0), as large as fits.

    Seats are spread by equal *arc length* around the oval (equal angles would crowd the
    narrow ends); the first seat size in ``SEAT_SCALES`` with no overlap wins.
    """
    if count <= 0:
        return []
    return list(_spots(count))


@lru_cache(maxsize=32)
def _spots(count: int) -> tuple[SeatSpot, ...]:
    for scale in SEAT_SCALES:
        spots = _place(count, scale)
        if not _overlap(spots):
            return spots
    return _place(count, SEAT_SCALES[-1])


def _place(count: int, scale: float) -> tuple[SeatSpot, ...]:
    probe = SeatSpot(0, 0.0, 0.0, scale)
    _, top, right, bottom = probe.box()
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
        spots.append(SeatSpot(index, x, y, scale))
    return tuple(spots)


def _overlap(spots: tuple[SeatSpot, ...]) -> bool:
    boxes = [spot.box() for spot in spots]
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
