"""Issue 12 item 6 — any name renders on the TV: emoji and symbols are glyphs, never boxes.

By pixels: a font without a glyph draws the same box for every missing character, so the same
screen drawn with "🎉 Zed" and with "🎈 Zed" comes out identical when emoji are boxes, and
different when they are real glyphs. Checked in the lobby list, the table's plates, the
caption bar and the kick dialog.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import pygame
import pytest

from host.i18n import Catalog
from host.tv.app import TVApp
from host.tv.glyphs import Glyphs, emoji_font_path
from host.tv.overlays import KickOverlay
from host.tv.theme import Theme, font_path
from tests.tv.views import StillSession, player, view

PARTY, BALLOON = "🎉 Zed", "🎈 Zed"


def _screen(catalog: Catalog, name: str, phase: str, extra: Callable[[TVApp], None]) -> bytes:
    players = [player(0, name=name), *(player(i) for i in range(1, 4))]
    table = view(phase, players)
    app = TVApp(
        cast(Any, StillSession(table)), None, catalog, lang="en", join_url="http://x/?room=CAKE"
    )
    extra(app)
    canvas = pygame.Surface((1920, 1080))
    app.render(canvas)
    return pygame.image.tobytes(canvas, "RGB")


def _caption(app: TVApp) -> None:
    app._caption = app.props.t("turn_of", name=app.stage.players[0].name)


def _kick(app: TVApp) -> None:
    app.overlays.append(
        KickOverlay(app.props, list(app.stage.players), lambda s: None, lambda: None)
    )


@pytest.mark.parametrize(
    ("phase", "extra"),
    [
        ("lobby", lambda app: None),
        ("turns", lambda app: None),
        ("lobby", _caption),
        ("turns", _kick),
    ],
    ids=["lobby-list", "table-plate", "caption", "kick-dialog"],
)
def test_issue12_emoji_in_a_name_are_glyphs_not_boxes(
    catalog: Catalog, phase: str, extra: Callable[[TVApp], None]
) -> None:
    pygame.font.init()
    assert _screen(catalog, PARTY, phase, extra) != _screen(catalog, BALLOON, phase, extra)


def test_issue12_the_text_font_alone_draws_boxes() -> None:
    """The finding reproduced: DejaVu draws both emoji as the same box."""
    pygame.font.init()
    font = pygame.font.Font(str(font_path(True)), 40)
    party = pygame.image.tobytes(font.render("🎉", True, (255, 255, 255)), "RGBA")
    balloon = pygame.image.tobytes(font.render("🎈", True, (255, 255, 255)), "RGBA")
    assert party == balloon


def test_issue12_runs_keep_text_font_for_letters_and_use_fallback_for_emoji() -> None:
    glyphs = Glyphs([font_path(), emoji_font_path()])
    assert glyphs.runs("🎉 Zoë ★♠") == [(1, "🎉"), (0, " Zoë ★♠")]
    assert glyphs.runs("👍🏽 Bo") == [(1, "👍🏽"), (0, " Bo")]
    assert glyphs.runs("❤\ufe0f Ana") == [(0, "❤\ufe0f Ana")]  # DejaVu has the heart


def test_issue12_mixed_text_has_one_baseline_and_measures_its_width() -> None:
    pygame.font.init()
    theme = Theme()
    image = theme.text(PARTY, 40)
    assert image.get_width() == theme.measure(PARTY, 40)
    assert image.get_bounding_rect().width > theme.text(" Zed", 40).get_bounding_rect().width
