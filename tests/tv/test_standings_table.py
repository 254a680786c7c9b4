"""Issue 14 (tonight's standings on the TV), read from a sofa: headings at one readable size,
and each line's titles on a line of their own that never runs into the next name."""

from __future__ import annotations

import functools
from typing import Any, cast

import pygame
import pytest

from host.i18n import LANGUAGES, Catalog
from host.tv import theme
from host.tv.app import TVApp
from host.tv.evening import (
    COLUMNS,
    HEAD_SIZE,
    ROW_GAP,
    TABLE_BOX,
    draw_standings_table,
    headings,
    row_layout,
    standings_of,
    table_geometry,
)
from tests.tv.views import StillSession, player, view

TITLES = ["most_cuckoos", "survivor", "king_cutter", "closest_escape"]


def _row(index: int, titles: list[str]) -> dict[str, Any]:
    return {
        "player": f"p{index}",
        "name": f"Guest number {index}",
        "bot": False,
        "games": 2,
        "wins": 1 if index == 0 else 0,
        "rounds": 9,
        "survived": 9 - index % 9,
        "lives_lost": 3,
        "cuckoos": index % 3,
        "king_cuts": 0,
        "close_escapes": 0,
        "guesses": 0,
        "good_guesses": 0,
        "rank": index + 1,
        "titles": titles,
    }


def _app(catalog: Catalog, count: int, titled: bool, lang: str = "en") -> TVApp:
    players = [player(i, name=f"Guest number {i}") for i in range(count)]
    rows = [_row(i, TITLES[i % 2 : i % 2 + 2] if titled and i < 4 else []) for i in range(count)]
    table = view("lobby", players, standings=rows, max_players=20)
    app = TVApp(cast(Any, StillSession(table)), None, catalog, lang=lang, join_url="http://x/")
    app.stage.receive(table, [])
    return app


def _height(size: int) -> int:
    """The font's height, as the TV measures it (``Theme.font`` keeps each size's font)."""
    return _theme().font(size).get_height()


@functools.cache
def _theme() -> theme.Theme:
    """One theme for the module's measurements, made on first use (not at import)."""
    return theme.Theme()


@pytest.mark.parametrize("titled", [True, False])
def test_issue14_standings_lines_fit_the_box_for_any_table(titled: bool) -> None:
    pygame.font.init()
    room = TABLE_BOX.height - 140
    sizes: dict[bool, list[int]] = {True: [], False: []}  # by "titles shown"
    for count in range(1, 21):
        layout = row_layout(count, room, titled, _height)
        assert count * layout.height <= room, count
        assert layout.height >= _height(layout.size) + ROW_GAP
        if layout.title_size:
            assert layout.height >= _height(layout.size) + _height(layout.title_size) + ROW_GAP
        sizes[bool(layout.title_size)].append(layout.size)
    for shown in sizes.values():
        assert shown == sorted(shown, reverse=True)  # fewer guests, bigger type
    assert row_layout(5, room, titled, _height).size >= 40  # five guests: read from the sofa
    if titled:
        assert row_layout(10, room, True, _height).title_size >= 20  # a full table keeps them


@pytest.mark.parametrize("lang", LANGUAGES)
def test_issue14_standings_headings_wrap_at_one_size(lang: str, catalog: Catalog) -> None:
    pygame.font.init()
    th = theme.Theme()
    width = 150
    texts = [catalog.t(lang, f"evening.{key}") for key, _ in COLUMNS]
    size, lines = headings(th, texts, width)
    assert size >= 24  # not the small print one shrunk heading was
    for text, wrapped in zip(texts, lines):
        assert 1 <= len(wrapped) <= 2
        assert " ".join(wrapped) == text  # every word, none cut
        assert all(th.measure(line, size, True) <= width for line in wrapped)
    assert size == HEAD_SIZE or lang != "en"


@pytest.mark.parametrize("count", [5, 10, 20])
def test_issue14_standings_titles_never_touch_the_next_name(
    count: int, catalog: Catalog, canvas: pygame.Surface
) -> None:
    """Between two lines, across the name column, only the panel shows: the titles under a
    name end before the next name begins (before: they ran into it)."""
    app = _app(catalog, count, titled=True)
    canvas.fill(theme.BACKGROUND)
    draw_standings_table(canvas, app.props, app.stage, TABLE_BOX)
    th = app.props.theme
    geometry = table_geometry(app.props, standings_of(app.stage), TABLE_BOX)
    first, layout = geometry.first, geometry.rows
    panel = pygame.Color(theme.PANEL)
    names = range(TABLE_BOX.left + 120, TABLE_BOX.left + 630)  # the name column
    for line in range(1, count):
        y = first + line * layout.height - 2  # just above the next line's name
        assert all(canvas.get_at((x, y)) == panel for x in names), (count, line)
    if count <= 10:  # titles shown, in gold, right under the first name
        y = first + th.font(layout.size).get_height() + layout.title_size // 2
        assert any(canvas.get_at((x, y)) != panel for x in names)
