"""Round 40's play-test: an away player's lives must not read as lives lost.

Bruno's phone slept and his plate's three tokens turned grey; a guest across the room read
"Bruno has no lives left". A life is a gold token on every plate, greyed or not; only a lost
life is grey (an empty ring). Checked on the drawn pixels at each token's centre, at 1080p and
on the same frame scaled to 720p, for every table size (3 to 10 seats, and 20 under H7).
"""

from __future__ import annotations

from typing import Any, cast

import pygame
import pytest

from host.i18n import Catalog
from host.tv import theme
from host.tv.app import TVApp
from host.tv.seats import plate_rect, token_centres
from tests.tv.views import StillSession, player, view

SCALE_720 = 720 / 1080


def _is_gold(colour: pygame.Color) -> bool:
    """A token's gold (250, 200, 60), blurred a little by the 720p scaling: warm and bright,
    unlike the grey of a lost life's ring (90, 96, 104) and of either plate."""
    return colour.r >= 180 and colour.g >= 140 and colour.b <= 130 and colour.r - colour.b >= 100


def _table(catalog: Catalog, count: int) -> TVApp:
    """``count`` seats in turn: seat 0 with 1 life of 3, seat 1 away with 2, seat 2 out, the
    others playing with 3."""
    players = [player(i, name=f"Guest {i}") for i in range(count)]
    players[0] = player(0, name="Ana", lives=1)
    players[1] = player(1, name="Bruno", lives=2, connected=False)
    players[2] = player(2, name="Chloé", lives=0, status="eliminated", out_round=1)
    shown = view(
        "turns",
        players,
        dealer=f"p{count - 1}",
        max_players=20 if count > 10 else 10,
        house_rules=["big_table"] if count > 10 else [],
    )
    app = TVApp(
        cast(Any, StillSession(shown)), None, catalog, lang="en", join_url="http://x/?room=CAKE"
    )
    app.stage.fast_forward()
    return app


def _token_colours(app: TVApp, frame: pygame.Surface, scale: float) -> dict[str, list[bool]]:
    """Per seat id: whether each of its three tokens' centres is gold in ``frame``."""
    spots, _ = app.table.seating()
    found = {}
    for seat in app.stage.players:
        spot = spots[seat.id]
        centres = token_centres(plate_rect(spot), 3, spot.scale)
        found[seat.id] = [
            _is_gold(frame.get_at((int(x * scale), int(y * scale)))) for x, y in centres
        ]
    return found


@pytest.mark.parametrize("count", [3, 4, 5, 6, 7, 8, 9, 10, 20])
def test_round40_an_away_players_lives_stay_gold_and_only_lost_lives_are_grey(
    catalog: Catalog, count: int
) -> None:
    """Away with 2 lives: two gold tokens and one grey ring, as a seat at the table with 2
    lives; out: no gold token; 1 life: one. At 1080p and scaled to 720p."""
    pygame.font.init()
    app = _table(catalog, count)
    canvas = pygame.Surface(theme.CANVAS_SIZE)
    app.render(canvas)
    frames = {1.0: canvas, SCALE_720: pygame.transform.smoothscale(canvas, (1280, 720))}
    for scale, frame in frames.items():
        gold = _token_colours(app, frame, scale)
        assert gold["p1"] == [True, True, False], (scale, "away, 2 lives")
        assert gold["p2"] == [False, False, False], (scale, "out")
        assert gold["p0"] == [True, False, False], (scale, "1 life")
        for seat in range(3, count):
            assert gold[f"p{seat}"] == [True, True, True], (scale, seat, "3 lives")
