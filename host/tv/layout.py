"""Where things sit on the 1920×1080 canvas: seats around an oval, the stock, the discard.

Pure geometry (no pygame), so it is cheap to test: seats go clockwise in seat order starting
at the bottom centre, the way players sit around a real table seen from the TV.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

CANVAS_W, CANVAS_H = 1920, 1080
CAPTION_HEIGHT = 100
TABLE_CENTRE = (960.0, 470.0)
TABLE_RADII = (700.0, 300.0)


@dataclass(frozen=True)
class SeatSpot:
    """One seat's place: its card centre and the card width to draw there."""

    index: int
    x: float
    y: float
    card_width: int

    @property
    def centre(self) -> tuple[float, float]:
        return self.x, self.y


def card_width_for(count: int) -> int:
    """Cards shrink on big tables (H7: up to 20) so neighbours never overlap."""
    if count <= 8:
        return 112
    if count <= 12:
        return 92
    return 66


def seat_spots(count: int) -> list[SeatSpot]:
    """``count`` seats, clockwise on screen from the bottom centre (seat 0)."""
    if count <= 0:
        return []
    cx, cy = TABLE_CENTRE
    rx, ry = TABLE_RADII
    width = card_width_for(count)
    spots = []
    for index in range(count):
        # Screen y grows downwards, so a growing angle walks clockwise as seen by the viewer.
        angle = math.pi / 2 + 2 * math.pi * index / count
        spots.append(SeatSpot(index, cx + rx * math.cos(angle), cy + ry * math.sin(angle), width))
    return spots


def stock_spot() -> tuple[float, float]:
    """The undealt stock, left of the centre."""
    return TABLE_CENTRE[0] - 170, TABLE_CENTRE[1] + 140


def discard_spot() -> tuple[float, float]:
    """The face-down discard (a dealer's old card after a cut), right of the centre."""
    return TABLE_CENTRE[0] + 170, TABLE_CENTRE[1] + 140


def aside_spot() -> tuple[float, float]:
    """Where a cut King is set aside face up (R9), between stock and discard."""
    return TABLE_CENTRE[0], TABLE_CENTRE[1] + 140


def lerp(a: tuple[float, float], b: tuple[float, float], t: float) -> tuple[float, float]:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


def arc(a: tuple[float, float], b: tuple[float, float], t: float,
        lift: float = 80.0) -> tuple[float, float]:
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
