"""Issue 14 (tonight's standings on the TV), read from a sofa with up to 20 guests.

Round 40: with ten guests holding titles the table's names were 24 px and the titles 20 px,
under the TV's floor (``READABLE_SIZE``, measured as ``tests/tv/test_readable.py`` does: the
drawn capitals at least ``readable_height`` of the screen, at 1080p and 720p). Now every line
is at the floor or above, and no two of its texts meet (``host/tv/standings_table.py``).
"""

from __future__ import annotations

from itertools import combinations, pairwise
from typing import Any, cast

import pygame
import pytest

from host.i18n import LANGUAGES, Catalog
from host.tv import theme
from host.tv.app import TVApp
from host.tv.evening import LOBBY_BOX, TABLE_BOX, standings_of
from host.tv.layout import READABLE_SIZE, readable_height
from host.tv.nameplates import NameLabel, could_be, shortened_line
from host.tv.standings_table import (
    COLUMNS,
    WORTH,
    Titles,
    heading_lines,
    standings_board,
)
from tests.tv.test_readable import (
    SCALE_720,
    _frames,
    _scaled,
)
from tests.tv.views import StillSession, player, view

#: Twenty guests, long names first: 16 letters ("Marie-Antoinette"), "Marie-Éléonore", a
#: name as wide as a name may be (16 "W", ``host.names.MAX_NAME_WIDTH``).
NAMES = (
    "Marie-Éléonore",
    "Marie-Antoinette",
    "Jean-Christophe",
    "W" * 16,
    "Chloé",
    "Niccolò",
    "François",
    "Zoë",
    "Björn",
    "Maëlle",
    "Hildegard-Beate",
    "Bartholomew",
    "Giovannantonio",
    "Massimiliano",
    "Anne-Charlotte",
    "Pierre-Olivier",
    "Christabel-Anne",
    "Gianni",
    "Ada",
    "Lou",
)
#: The evening's five titles as the engine gives them (``host.standings.TITLES``: each held by
#: one guest at most), spread over the first ten lines: one guest holds two.
HELD = {
    0: ["most_cuckoos", "survivor"],
    2: ["closest_escape"],
    5: ["king_cutter"],
    8: ["best_guesser"],
}


def _row(index: int, titles: list[str]) -> dict[str, Any]:
    return {
        "player": f"p{index}",
        "name": NAMES[index % len(NAMES)] if index < len(NAMES) else f"Guest {index}",
        "bot": index == 4,
        "games": 12,
        "wins": max(0, 6 - index),
        "rounds": 40,
        "survived": 38 - index,
        "lives_lost": 10 + index,
        "cuckoos": index % 4,
        "king_cuts": 0,
        "close_escapes": 0,
        "guesses": 12,
        "good_guesses": 10 - index % 10,
        "rank": index + 1,
        "titles": titles,
    }


def _rows(count: int, held: dict[int, list[str]] | None = None) -> list[dict[str, Any]]:
    held = HELD if held is None else held
    return [_row(i, held.get(i, [])) for i in range(count)]


def _app(catalog: Catalog, rows: list[dict[str, Any]], lang: str) -> TVApp:
    """The TV between games, showing tonight's standings. The seated players are others
    than the standings' guests (who came and left): no colour dot, which the measures below
    could take for a letter."""
    seated = [player(i, name=f"Seat {i}") for i in range(3)]
    for seat in seated:
        seat["id"] = f"s{seat['seat']}"
    shown = view("game_over", seated, standings=rows, winners=["s0"], current=None, max_players=20)
    app = TVApp(cast(Any, StillSession(shown)), None, catalog, lang=lang, join_url="http://x/")
    app.stage.fast_forward()
    assert type(app.base_scene()).__name__ == "StandingsScene"
    return app


#: The table's inks: names and figures, the leader's line and the titles, headings and ranks
#: (colour, reach: how far a channel may be from it, ``test_readable._near``).
INKS = {"ink": (theme.INK, 40), "gold": (theme.GOLD, 60), "muted": (theme.MUTED_INK, 30)}
#: Any ink at least half covering a pixel: a channel 65 or more from the panel's (the
#: faintest ink, the headings' grey, is 130 from it).
ANY_INK = 65


def _ink_mask(frame: pygame.Surface, area: pygame.Rect, colour: Any, reach: int) -> Any:
    """Which pixels of ``area`` are ``colour`` (``_near``), or any ink if ``colour`` is None:
    ``test_readable``'s measures, done by pygame's masks (a box of 1680×760 pixels read one by
    one takes seconds)."""
    image = frame.subsurface(area)
    if colour is None:
        mask = pygame.mask.from_threshold(image, theme.PANEL, (ANY_INK, ANY_INK, ANY_INK, 255))
        mask.invert()
        return mask
    return pygame.mask.from_threshold(image, colour, (reach, reach, reach, 255))


def _mask_lines(mask: Any) -> list[tuple[int, int]]:
    """Runs of rows (top, height) holding ink (``test_readable._ink_rows``)."""
    width, height = mask.get_size()
    row = pygame.mask.Mask((width, 1), fill=True)
    runs: list[tuple[int, int]] = []
    for y in range(height):
        if mask.overlap(row, (0, y)):
            if runs and sum(runs[-1]) == y:
                runs[-1] = (runs[-1][0], runs[-1][1] + 1)
            else:
                runs.append((y, 1))
    return runs


def _mask_lead(mask: Any, top: int, height: int) -> int | None:
    """The ink height of a line's first letter (``test_readable._lead_height``)."""
    width = mask.get_size()[0]
    column = pygame.mask.Mask((1, height), fill=True)
    inked = [x for x in range(width) if mask.overlap(column, (x, top))]
    if not inked:
        return None
    end = next((a + 1 for a, b in pairwise(inked) if b != a + 1), inked[-1] + 1)
    letter = pygame.mask.Mask((end - inked[0], 1), fill=True)
    rows = [y for y in range(top, top + height) if mask.overlap(letter, (inked[0], y))]
    return rows[-1] - rows[0] + 1


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("count", [3, 6, 10, 20])
def test_round40_every_line_of_tonights_standings_reads_from_the_sofa(
    catalog: Catalog, count: int, lang: str
) -> None:
    """Each line of the table starts with a letter at least ``readable_height`` high: at
    1080p in each ink (names and figures, the leader and the titles in gold, the headings and
    ranks in grey), at 720p in any ink (the scaled letters' rims blur one ink into another).
    With ten guests holding titles the names were 24 px (capitals 17 px), the titles 20 px."""
    app = _app(catalog, _rows(count), lang)
    inner = TABLE_BOX.inflate(-12, -12)
    frames = _frames(app)
    checks: list[tuple[float, str, Any, int]] = [
        (1.0, ink, colour, reach) for ink, (colour, reach) in INKS.items()
    ]
    checks.append((SCALE_720, "any", None, 0))
    for scale, ink, colour, reach in checks:
        mask = _ink_mask(frames[scale], _scaled(inner, scale), colour, reach)
        floor = readable_height(1080 * scale)
        lines = [run for run in _mask_lines(mask) if run[1] >= 6]
        assert lines, (ink, scale)
        for top, height in lines:
            capital = _mask_lead(mask, top, height)
            assert capital is not None and capital >= floor, (ink, scale, top, capital)


def _board_lines(catalog: Catalog, rows: list[dict[str, Any]], lang: str) -> Any:
    app = _app(catalog, rows, lang)
    return app, standings_board(app.props, standings_of(app.stage), TABLE_BOX)


def _assert_apart_and_readable(board: Any) -> None:
    """Every text of the table lies in the box, at ``READABLE_SIZE`` or more, and none meets
    another."""
    inner = TABLE_BOX.inflate(-8, -8)
    for line in board.lines:
        assert inner.contains(line.rect), (line.text, line.rect)
        assert line.size >= READABLE_SIZE, (line.text, line.size)
    for one, other in combinations(board.lines, 2):
        assert not one.rect.colliderect(other.rect), (one.text, other.text)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("count", [3, 6, 10, 20])
def test_round40_no_two_texts_of_the_standings_meet(
    catalog: Catalog, count: int, lang: str
) -> None:
    """Every text of the table lies in the box, none meets another (a title under its name
    never runs into the next name, as it did before issue 14's first fix), each is at
    ``READABLE_SIZE`` or more, and the drawing has no ink outside them (but for the box's
    rim): what the board says is what the sofa sees."""
    app, board = _board_lines(catalog, _rows(count), lang)
    _assert_apart_and_readable(board)
    frame = _frames(app)[1.0]
    stray = pygame.mask.from_threshold(frame.subsurface(TABLE_BOX), theme.PANEL, (8, 8, 8, 255))
    stray.invert()  # all but the panel: the texts, and the box's rounded rim
    for rect in [line.rect for line in board.lines] + _rim(TABLE_BOX):
        stray.erase(
            pygame.mask.Mask(rect.size, fill=True),
            rect.move(-TABLE_BOX.left, -TABLE_BOX.top).topleft,
        )
    assert stray.count() == 0, stray.get_bounding_rects()[:3]


def _rim(box: pygame.Rect) -> list[pygame.Rect]:
    """The box's edge and its rounded corners (``border_radius`` 24)."""
    edge, corner = 4, 24
    return [
        pygame.Rect(box.left, box.top, box.width, edge),
        pygame.Rect(box.left, box.bottom - edge, box.width, edge),
        pygame.Rect(box.left, box.top, edge, box.height),
        pygame.Rect(box.right - edge, box.top, edge, box.height),
        *(
            pygame.Rect(x, y, corner, corner)
            for x in (box.left, box.right - corner)
            for y in (box.top, box.bottom - corner)
        ),
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_round40_ten_guests_keep_every_figure_and_every_title(catalog: Catalog, lang: str) -> None:
    """Ten guests with the evening's five titles: every figure's column stays, each title
    shows whole beside its holder's name (or in the awards' band under the table), every
    name is whole, and the type is bigger than the floor."""
    _, board = _board_lines(catalog, _rows(10), lang)
    texts = " ".join(line.text for line in board.lines)
    assert board.layout.fields == tuple(field for _, field in COLUMNS)
    assert board.layout.size > READABLE_SIZE
    for name in NAMES[:10]:  # whole, or (16 "W") shortened as its plate would be
        assert name in texts or (name == "W" * 16 and "WWWWW\u2026WWW" in texts), name
    for titles in HELD.values():
        for title in titles:
            assert catalog.t(lang, f"evening.title_{title}") in texts


def test_round40_twenty_guests_two_columns_wins_first(catalog: Catalog) -> None:
    """H7's 20 seats: the guests in two columns, the wins kept (``WORTH``'s first), every
    guest shown, a name too wide shortened as a plate shortens it, never cut mid-letter; a
    short name beside a computer's mark whole (it was "C…é (ordinateur)" in a first draft)."""
    _, board = _board_lines(catalog, _rows(20), "fr")
    assert board.layout.guest_columns == 2
    assert "wins" in board.layout.fields
    # round 45's play-test: the order's next figure is shown, so the order reads as right
    assert "survived" in board.layout.fields, board.layout.fields
    assert all(WORTH.index(f) < len(board.layout.fields) for f in board.layout.fields)
    texts = [line.text for line in board.lines]
    for index in range(20):
        assert str(index + 1) in texts
    assert "Chloé (ordinateur)" in texts  # not "C…é": the mark took the name's room
    widest = next(text for text in texts if text.startswith("WWWW"))
    assert "\u2026" in widest or widest == "W" * 16


def test_round40_more_guests_than_two_columns_hold_are_told(catalog: Catalog) -> None:
    """An evening's guests who came and went can be more than 20: the lines two columns hold
    at the floor show, and the last one says how many more there are; nothing meets."""
    _, board = _board_lines(catalog, _rows(40), "en")
    texts = [line.text for line in board.lines]
    hidden = 40 - board.layout.shown
    assert hidden > 0
    assert catalog.t("en", "evening.more_guests", count=hidden) in texts
    for one, other in combinations(board.lines, 2):
        assert not one.rect.colliderect(other.rect), (one.text, other.text)
    assert all(line.size >= READABLE_SIZE for line in board.lines)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_issue14_standings_headings_keep_every_word_at_a_readable_size(
    lang: str, catalog: Catalog
) -> None:
    """A heading takes one line or two, cut at a space, all its words kept: its column is
    as wide as it needs at the readable size (one shrunk alone read as small print)."""
    pygame.font.init()
    th = theme.Theme()
    for key, _ in COLUMNS:
        text = catalog.t(lang, f"evening.{key}")
        lines = heading_lines(th, text, READABLE_SIZE)
        assert 1 <= len(lines) <= 2
        assert " ".join(lines) == text


@pytest.mark.parametrize("count", range(1, 21))
def test_issue14_standings_fit_the_box_for_any_table(catalog: Catalog, count: int) -> None:
    """From one guest to twenty, with or without titles: every text in the box, none over
    another; fewer guests never get smaller type than more."""
    sizes = []
    for held in (HELD, {}):
        _, board = _board_lines(catalog, _rows(count, held), "fr")
        for line in board.lines:
            assert TABLE_BOX.contains(line.rect), (count, line.text)
        for one, other in combinations(board.lines, 2):
            assert not one.rect.colliderect(other.rect), (count, one.text, other.text)
        sizes.append(board.layout.size)
    if count <= 5:
        assert min(sizes) >= 40  # a few guests: big type


def test_round40_an_awards_band_names_each_title_once(catalog: Catalog) -> None:
    """Where the titles go in the band under the table, each title held is there once, with
    its holder's name."""
    held = {i: ["most_cuckoos", "survivor"] if i == 0 else [] for i in range(10)}
    held.update({1: ["closest_escape"], 2: ["king_cutter"], 3: ["best_guesser"]})
    _, board = _board_lines(catalog, _rows(10, held), "it")
    if board.layout.titles == Titles.BAND:
        texts = [line.text for line in board.lines]
        award = catalog.t("it", "evening.title_holder", title="Re del cuckoo", name=NAMES[0])
        assert texts.count(award) == 1


def test_round40_a_shortened_name_never_reads_as_anothers(catalog: Catalog) -> None:
    """Two names alike but for their end, too wide for their room: each is shortened so
    that it could not be read as the other (as the seats' plates do)."""
    pygame.font.init()
    th = theme.Theme()
    one, other = "W" * 15 + "A", "W" * 15 + "B"
    width = th.measure("W" * 10, READABLE_SIZE, True)
    for name, rival in ((one, other), (other, one)):
        shown = shortened_line(th, name, [rival], READABLE_SIZE, width)
        assert th.measure(shown, READABLE_SIZE, True) <= width
        assert "\u2026" in shown
        assert not could_be(NameLabel((shown,), READABLE_SIZE, whole=False), rival)
    assert shortened_line(th, "Ana", [], READABLE_SIZE, width) == "Ana"


def test_round40_the_lobby_tonight_box_keeps_long_names_readable(catalog: Catalog) -> None:
    """The lobby's "Tonight" box with ten guests (the first a name 16 "W" wide, a computer
    among them): its top lines and its "+7 more" are at least ``readable_height`` (1080p and
    720p); the wide name is shortened, not shrunk to 20 px as before."""
    rows = _rows(10)
    rows[0]["name"], rows[3]["name"] = rows[3]["name"], rows[0]["name"]
    seated = [player(i, name=str(row["name"])) for i, row in enumerate(rows)]
    shown = view("lobby", seated, standings=rows, max_players=20)
    app = TVApp(cast(Any, StillSession(shown)), None, catalog, lang="fr", join_url="http://x/")
    app.stage.fast_forward()
    # The box's lines, under its title (no house rule: the box is at ``LOBBY_BOX``'s top).
    area = pygame.Rect(LOBBY_BOX.left + 8, LOBBY_BOX.top + 46, LOBBY_BOX.width - 16, 146)
    frames = _frames(app)
    for scale in (1.0, SCALE_720):
        mask = _ink_mask(frames[scale], _scaled(area, scale), None, 40)
        lines = [run for run in _mask_lines(mask) if run[1] >= 6]
        assert len(lines) == 4, (scale, lines)  # the top three and "+7 more"
        for top, height in lines[:3]:
            capital = _mask_lead(mask, top, height)
            assert capital is not None and capital >= readable_height(1080 * scale), scale
        assert lines[3][1] >= readable_height(1080 * scale), scale  # "+7": the 7's height


def _lobby_texts(catalog: Catalog, count: int, lang: str, rules: list[str]) -> list[str]:
    """Every text the lobby draws with ``count`` guests in tonight's standings (as many
    seated) and ``rules`` on."""
    rows = _rows(count)
    seated = [player(i, name=str(row["name"])) for i, row in enumerate(rows)]
    shown = view("lobby", seated, standings=rows, max_players=20, house_rules=rules)
    app = TVApp(cast(Any, StillSession(shown)), None, catalog, lang=lang, join_url="http://x/")
    app.stage.fast_forward()
    drawn: list[str] = []
    blit_text = app.props.theme.blit_text

    def recording(surface: pygame.Surface, text: str, *args: Any, **kwargs: Any) -> Any:
        drawn.append(text)
        return blit_text(surface, text, *args, **kwargs)

    app.props.theme.blit_text = recording  # type: ignore[method-assign]
    app.render(pygame.Surface((1920, 1080)))
    return drawn


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    ("count", "rules"),
    [(3, []), (4, ["H1"]), (6, ["H1", "H8"]), (10, []), (20, ["H1", "H3", "H8"])],
)
def test_round46_the_lobby_tonight_box_names_everyone_or_says_how_many_more(
    catalog: Catalog, count: int, rules: list[str], lang: str
) -> None:
    """Round 46's play-test: "Tonight" listed 4 of 6 guests and said nothing of the other two,
    who looked for their names. Every guest is named, or the last line says how many more
    ("+3 more", "+3 autres", "+3 altri"): the lines named and the count add up to the table."""
    drawn = _lobby_texts(catalog, count, lang, rules)
    named = [text for text in drawn if text[:1].isdigit() and ". " in text]
    assert named and all(text.startswith(f"{i + 1}. ") for i, text in enumerate(named))
    more = count - len(named)
    said = catalog.t(lang, "evening.lobby_more", count=more)
    assert (said in drawn) == (more > 0), (named, drawn)


def test_round43_every_guest_tied_first_is_drawn_in_gold(catalog: Catalog) -> None:
    """Round 43: lines equal on every figure share a rank (``host/standings.py``). Two guests
    tied first are both the leaders: both gold, with the same rank; the third is not."""
    from host.tv.standings_table import guests_of

    rows = _rows(3)
    for row in rows[:2]:
        row.update(wins=2, survived=9, lives_lost=1, good_guesses=0, rank=1)
    rows[2].update(wins=1, rank=3)
    app = _app(catalog, rows, "en")
    guests = guests_of(app.props, cast(Any, rows))
    assert [(g.rank, g.leads) for g in guests] == [("1", True), ("1", True), ("3", False)]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("count", [3, 10, 20])
def test_round45_a_shared_win_says_so_and_the_table_still_fits(
    catalog: Catalog, count: int, lang: str
) -> None:
    """R14: two guests who won the same game jointly each have a win; round 44's play-test saw
    "1" and "1" and nothing said why. Their wins now read "1 (1 shared)" ("1 (dont 1
    partagée)", "1 (1 condivisa)"), a sole winner's plain "1"; the table still fits its box,
    at ``READABLE_SIZE`` or more, no two texts meeting, the wins kept."""
    rows = _rows(count)
    for index in (0, 1):
        rows[index]["shared_wins"] = 1 + index
    _, board = _board_lines(catalog, rows, lang)
    texts = [line.text for line in board.lines]
    for index in (0, 1):
        said = catalog.t(lang, "evening.wins_shared", wins=rows[index]["wins"], count=1 + index)
        assert said in texts, (said, texts)
    assert str(rows[2]["wins"]) in texts  # a win of one's own: the figure alone
    assert "wins" in board.layout.fields
    _assert_apart_and_readable(board)
