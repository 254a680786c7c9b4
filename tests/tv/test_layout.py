"""Seats around the oval: clockwise in seat order (R6), never overlapping, up to 20 (H7)."""

from __future__ import annotations

import math
from itertools import pairwise

import pytest

from host.tv.layout import CANVAS_H, CANVAS_W, CAPTION_HEIGHT, TABLE_CENTRE, ease, seat_spots
from host.tv.seats import card_rect, plate_rect


def screen_angle(x: float, y: float) -> float:
    """Angle from the table centre, growing clockwise as the viewer sees the screen."""
    return math.atan2(y - TABLE_CENTRE[1], x - TABLE_CENTRE[0]) % (2 * math.pi)


@pytest.mark.parametrize("count", [3, 4, 7, 10])
def test_r6_seats_go_clockwise_from_the_bottom_centre(count: int) -> None:
    spots = seat_spots(count)
    assert spots[0].x == pytest.approx(TABLE_CENTRE[0])
    assert spots[0].y > TABLE_CENTRE[1]  # seat 0 at the bottom, facing the TV
    angles = [screen_angle(s.x, s.y) for s in spots]
    steps = [(b - a) % (2 * math.pi) for a, b in pairwise(angles)]
    assert all(0 < step < math.pi for step in steps)  # always onwards, clockwise
    assert spots[1].x < spots[0].x  # the left neighbour of the bottom seat is on its left


@pytest.mark.parametrize("count", [3, 5, 8, 10, 12, 16, 20])
def test_seats_never_overlap_and_stay_on_screen(count: int) -> None:
    spots = seat_spots(count)
    boxes = [card_rect(s).union(plate_rect(s)) for s in spots]
    for i, box in enumerate(boxes):
        assert box.left >= 0 and box.right <= CANVAS_W and box.top >= 0
        assert box.bottom <= CANVAS_H - CAPTION_HEIGHT, (count, i)
        for other in boxes[i + 1 :]:
            assert not box.colliderect(other), (count, i)


def test_small_tables_get_full_size_seats_big_ones_shrink() -> None:
    assert {spot.scale for spot in seat_spots(8)} == {1.0}
    # 10 seats hold their frames and tags too (issue 12: nothing overlaps): nearly full size.
    assert {spot.scale for spot in seat_spots(10)} == {0.92}
    assert 0.4 < seat_spots(20)[0].scale < 1.0


def test_ease_starts_and_ends_still() -> None:
    assert ease(0) == 0 and ease(1) == 1 and ease(0.5) == pytest.approx(0.5)
    assert ease(-1) == 0 and ease(2) == 1
