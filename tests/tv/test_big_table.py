"""Round 43 / H7 ("Big table"): a guest at an 18- or 20-seat table reads their own name, their
lives and who deals from the sofa.

Round 42's play-test at 18 seats read names cut short ("D…nis"), life dots about 8 px and a
tiny dealer "D". Big tables now seat small cards under plates as big as a small table's,
round the screen's edges (``host/tv/layout.py``, ``_place_big``). Measured on the drawn
frame where it can be: the names' ink, the gold of the lives' tokens, the dealer's white disc.
"""

from __future__ import annotations

from typing import Any, cast

import pygame
import pytest

from host.i18n import Catalog
from host.tv import theme
from host.tv.app import TVApp
from host.tv.layout import READABLE_SIZE, readable_height
from host.tv.nameplates import name_width
from host.tv.seats import card_rect, plate_rect

from .views import StillSession, player, view

#: Ordinary party names of 3 to 9 letters (round 42's play-test had "Dennis" as "D…nis").
NAMES = (
    "Dennis",
    "Sara",
    "Giulia",
    "Mohammed",
    "Beatrice",
    "Tom",
    "Francesca",
    "Lorenzo",
    "Hannah",
    "Matteo",
    "Chiara",
    "William",
    "Isabel",
    "Roberto",
    "Nadia",
    "Patrick",
    "Eleonora",
    "Marcus",
    "Sophie",
    "Gabriel",
)
#: A line of a big table's plate holds this much at ``READABLE_SIZE`` (bold): seven
#: letters of any of ``NAMES`` ("Roberto" is 126 px, "William" 119).
ONE_LINE_WIDTH = 150
#: The lives' tokens are at least this wide, gold and rim (they were 12-13 px at 18 and 20
#: seats; now 22).
TOKEN_WIDTH = 20
#: A token's rim (``host/tv/seats.py``).
TOKEN_RIM = (120, 80, 10)
#: The dealer's badge's white disc is at least this wide, inside its 3 px dark ring (it was 16
#: px at 18 seats in a badge of 22; now 34-36 in badges of 40-42).
BADGE_WIDTH = 30
#: The dealer's badge's white disc (``host/tv/seats.py``).
BADGE_WHITE = (250, 250, 250)
BIG = [18, 20]


def _frame(catalog: Catalog, count: int, dealer: str = "p5", lives: int = 3) -> TVApp:
    players = [player(i, name=NAMES[i], lives=lives) for i in range(count)]
    shown = view("turns", players, dealer=dealer, max_players=20)
    app = TVApp(
        cast(Any, StillSession(shown)), None, catalog, lang="en", join_url="http://x/?room=CAKE"
    )
    app.stage.fast_forward()
    return app


def _render(app: TVApp) -> pygame.Surface:
    canvas = pygame.Surface(theme.CANVAS_SIZE)
    app.render(canvas)
    return canvas


def _runs(values: list[int]) -> list[tuple[int, int]]:
    """Runs of consecutive ``values`` (sorted), as (first, length)."""
    runs: list[tuple[int, int]] = []
    for value in values:
        if runs and runs[-1][0] + runs[-1][1] == value:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((value, 1))
    return runs


@pytest.mark.parametrize("count", BIG)
def test_round43_h7_every_ordinary_name_is_whole_at_the_readable_size(
    catalog: Catalog, count: int
) -> None:
    """Round 43 / H7: at 18 and 20 seats every name of ``NAMES`` is on its plate whole, never
    shortened, at ``READABLE_SIZE`` or more; names of up to 7 letters in one line (a longer
    one may take two, "Moham-" over "med"), a line holding ``ONE_LINE_WIDTH``. Drawn, the
    line with each name's capital is at least ``readable_height`` high ("cesca", a second
    line, has none)."""
    pygame.font.init()
    app = _frame(catalog, count)
    spots, rows = app.table.seating()
    frame = _render(app)
    for seat, row in zip(app.stage.players, rows):
        label, spot = row.label, spots[seat.id]
        assert label.whole and label.text == seat.name, (count, seat.name, label)
        assert label.size >= READABLE_SIZE, (count, seat.name, label.size)
        if len(seat.name) <= 7:
            assert len(label.lines) == 1, (count, seat.name, label)
        assert name_width(spot) >= ONE_LINE_WIDTH or spot.name_lines == 2, (count, spot)
        plate = plate_rect(spot)
        area = pygame.Rect(plate.left + 20, plate.top, plate.width - 24, plate.height - 30)
        ink = [
            y
            for y in range(area.top, area.bottom)
            if any(min(frame.get_at((x, y))[:3]) >= 140 for x in range(area.left, area.right))
        ]
        lines = _runs(ink)
        assert len(lines) == len(label.lines), (count, seat.name, lines)
        assert lines[0][1] >= readable_height(), (count, seat.name, lines)


@pytest.mark.parametrize("count", BIG)
def test_round43_h7_lives_are_tokens_at_least_20_px_wide(catalog: Catalog, count: int) -> None:
    """Round 43 / H7: at 18 and 20 seats each plate's lives are gold tokens at least
    ``TOKEN_WIDTH`` px wide (round 42 read dots of about 8 px), one a life left."""
    pygame.font.init()
    for lives in (3, 2):
        app = _frame(catalog, count, lives=lives)
        spots, _ = app.table.seating()
        frame = _render(app)
        for seat in app.stage.players:
            plate = plate_rect(spots[seat.id])
            widest: list[tuple[int, int]] = []
            for y in range(plate.top, plate.bottom):
                gold = [
                    x
                    for x in range(plate.left, plate.right)
                    if tuple(frame.get_at((x, y))[:3]) in (theme.GOLD, TOKEN_RIM)
                ]
                runs = _runs(gold)
                if sum(length for _, length in runs) > sum(length for _, length in widest):
                    widest = runs
            assert len(widest) == lives, (count, seat.name, widest)
            assert min(length for _, length in widest) >= TOKEN_WIDTH, (count, seat.name, widest)


@pytest.mark.parametrize("count", BIG)
def test_round43_h7_the_dealers_badge_is_at_least_30_px_wide(catalog: Catalog, count: int) -> None:
    """Round 43 / H7: at 18 and 20 seats the dealer's badge's white disc (under its "D") is
    at least ``BADGE_WIDTH`` px across wherever the dealer sits (round 42: a tiny "D" in 16 px
    of white), and lies inside the dealer's seat, beside the card."""
    pygame.font.init()
    for dealer in range(0, count, 3):
        app = _frame(catalog, count, dealer=f"p{dealer}")
        spots, _ = app.table.seating()
        spot = spots[f"p{dealer}"]
        frame = _render(app)
        left, top, right, bottom = (round(v) for v in spot.box())
        card = card_rect(spot)
        white = [
            (x, y)
            for x in range(left, right)
            for y in range(top, bottom)
            if not card.collidepoint(x, y) and tuple(frame.get_at((x, y))[:3]) == BADGE_WHITE
        ]
        assert white, (count, dealer)
        xs, ys = [x for x, _ in white], [y for _, y in white]
        assert max(xs) - min(xs) + 1 >= BADGE_WIDTH, (count, dealer, min(xs), max(xs))
        assert max(ys) - min(ys) + 1 >= BADGE_WIDTH, (count, dealer, min(ys), max(ys))
        assert min(xs) > card.right, (count, dealer)
