"""Round 37's play-test: the TV must read from the sofa (3 m from a 1080p TV).

A name of 16 "W" was shrunk to fit its plate and drawn 9 px high; the round's trail was grey
text 14 px high. Now seat names and the trail never have capitals under ``readable_height``
of the screen (1/56: 19.3 px at 1080p, 12.9 at 720p), and the trail's ink has a WCAG contrast of
at least 4.5:1 on the felt. Heights are measured on the drawn pixels, at 1080p and on the same
frame scaled to 720p (the canvas is scaled whole to the screen).
"""

from __future__ import annotations

from itertools import combinations, pairwise
from typing import Any, cast

import pygame
import pytest

from host.i18n import Catalog
from host.tv import theme
from host.tv.app import TVApp
from host.tv.layout import (
    PILE_NAME_DROP,
    PILE_NAME_HALF_HEIGHT,
    READABLE_SIZE,
    SUBTITLE_Y,
    TAG_AIR,
    TAG_HEIGHT,
    discard_spot,
    readable_height,
    stock_spot,
)
from host.tv.lobby import PLAYERS_X
from host.tv.seats import GREY_PLATE, card_rect, plate_rect
from host.tv.trail import trail_room
from tests.tv.views import StillSession, player, view

#: Names as wide as a name may be (16 columns, ``host.names.MAX_NAME_WIDTH``), told apart by
#: their last letter only (a plate that cut their end would show them alike).
WIDE_NAMES = tuple("W" * 15 + letter for letter in "WMOQDGHNUV")
SCALE_720 = 720 / 1080


def _app(catalog: Catalog, shown: Any, lang: str = "en") -> TVApp:
    """A TV showing ``shown`` (a view), its moves played out."""
    app = TVApp(
        cast(Any, StillSession(shown)), None, catalog, lang=lang, join_url="http://x/?room=CAKE"
    )
    app.stage.fast_forward()
    return app


def _table(catalog: Catalog, names: tuple[str, ...]) -> TVApp:
    players = [player(i, name=name) for i, name in enumerate(names)]
    turns = view("turns", players, dealer=f"p{len(names) - 1}")
    app = TVApp(
        cast(Any, StillSession(turns)), None, catalog, lang="en", join_url="http://x/?room=CAKE"
    )
    app.stage.fast_forward()
    return app


def _frames(app: TVApp) -> dict[float, pygame.Surface]:
    """The frame at 1080p and the same frame on a 720p screen."""
    pygame.font.init()
    canvas = pygame.Surface(theme.CANVAS_SIZE)
    app.render(canvas)
    small = pygame.transform.smoothscale(canvas, (1280, 720))
    return {1.0: canvas, SCALE_720: small}


def _scaled(rect: pygame.Rect, scale: float) -> pygame.Rect:
    left, top = int(rect.left * scale), int(rect.top * scale)
    return pygame.Rect(
        left, top, round(rect.right * scale) - left, round(rect.bottom * scale) - top
    )


def _ink_rows(surface: pygame.Surface, area: pygame.Rect, is_ink: Any) -> list[tuple[int, int]]:
    """Runs of rows (top, height) in ``area`` holding a pixel ``is_ink`` says is text."""
    rows = [
        y
        for y in range(area.top, area.bottom)
        if any(is_ink(surface.get_at((x, y))) for x in range(area.left, area.right))
    ]
    runs: list[tuple[int, int]] = []
    for y in rows:
        if runs and runs[-1][0] + runs[-1][1] == y:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((y, 1))
    return runs


def _name_ink(colour: pygame.Color) -> bool:
    """A name's white ink (at least half covering its pixel) on the dark plate; not the gold
    tokens (blue under 150) nor the plate (all channels under 70)."""
    return min(colour.r, colour.g, colour.b) >= 140


def _name_area(app: TVApp, seat_id: str) -> pygame.Rect:
    """Where a seat's name may be drawn: its plate but for the colour stripe and the lives'
    tokens along its bottom."""
    spots, _ = app.table.seating()
    spot = spots[seat_id]
    plate = plate_rect(spot)
    stripe = max(6, round(12 * spot.scale))
    bottom = plate.bottom - round(38 * spot.scale)
    return pygame.Rect(
        plate.left + stripe + 1, plate.top, plate.width - stripe - 1, bottom - plate.top
    )


@pytest.mark.parametrize("count", [5, 10])
def test_round37_a_16_w_name_is_drawn_at_least_the_floor_at_1080p_and_720p(
    catalog: Catalog, count: int
) -> None:
    """The name of 16 "W" (and every other name as wide) has capitals at least
    ``readable_height`` of the screen: each of its lines, on every seat."""
    app = _table(catalog, WIDE_NAMES[:count])
    for scale, frame in _frames(app).items():
        floor = readable_height(1080 * scale)
        for seat in app.stage.players:
            lines = _ink_rows(frame, _scaled(_name_area(app, seat.id), scale), _name_ink)
            assert lines, (scale, seat.name)
            for _, height in lines:
                assert height >= floor, (scale, seat.name, height, floor)


def test_round37_no_two_seats_names_overlap_with_10_widest_names(catalog: Catalog) -> None:
    """Ten seats of names 16 columns wide: each name lies on its own plate, clear of the lives'
    tokens, and no two names' rectangles meet, at 1080p and at 720p."""
    app = _table(catalog, WIDE_NAMES)
    for scale, frame in _frames(app).items():
        names = []
        for seat in app.stage.players:
            area = _scaled(_name_area(app, seat.id), scale)
            runs = _ink_rows(frame, area, _name_ink)
            top, bottom = runs[0][0], runs[-1][0] + runs[-1][1]
            columns = [
                x
                for x in range(area.left, area.right)
                if any(_name_ink(frame.get_at((x, y))) for y in range(top, bottom))
            ]
            names.append(pygame.Rect(columns[0], top, columns[-1] + 1 - columns[0], bottom - top))
            assert area.contains(names[-1]), (scale, seat.name)
        for (i, a), (j, b) in combinations(enumerate(names), 2):
            assert not a.colliderect(b), (scale, i, j, a, b)


def _relative_luminance(colour: tuple[int, int, int]) -> float:
    """WCAG 2.x relative luminance of an sRGB colour."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(one: tuple[int, int, int], other: tuple[int, int, int]) -> float:
    """WCAG 2.x contrast ratio, 1 to 21."""
    light, dark = sorted((_relative_luminance(one), _relative_luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_contrast_ratio_matches_wcag_examples() -> None:
    assert contrast_ratio((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert contrast_ratio((118, 118, 118), (255, 255, 255)) == pytest.approx(4.54, abs=0.01)


def _trail_app(catalog: Catalog) -> TVApp:
    app = _table(catalog, ("Ana", "Chloé", "Niccolò", "François", "Zoë"))
    app.stage.receive(
        view("turns", [player(i) for i in range(5)], dealer="p4", current="p3"),
        cast(
            Any,
            [
                {"type": "round_dealt", "round": 1, "dealer": "p4", "order": ["p0", "p1", "p2"]},
                {"type": "exchanged", "player": "p0", "target": "p1"},
                {"type": "kept", "player": "p1", "auto": False, "timed_out": False},
                {"type": "exchanged", "player": "p2", "target": "p3"},
            ],
        ),
    )
    app.stage.fast_forward()
    return app


def test_round37_the_trail_is_readable_and_stands_out_on_the_felt(catalog: Catalog) -> None:
    """Each line of the round's trail has capitals at least ``readable_height`` (1080p and
    720p), and its text colour has a WCAG contrast of 4.5:1 or more against the felt, its rim
    and the background it may lie on."""
    app = _trail_app(catalog)
    spots, _ = app.table.seating()
    room = trail_room(list(spots.values()))
    frames = _frames(app)
    canvas = frames[1.0]
    surfaces = {theme.BACKGROUND, theme.FELT, theme.FELT_EDGE}
    counts: dict[tuple[int, int, int], int] = {}
    for y in range(room.top, room.bottom):
        for x in range(room.left, room.right):
            r, g, b, _ = canvas.get_at((x, y))
            if (r, g, b) not in surfaces:
                counts[r, g, b] = counts.get((r, g, b), 0) + 1
    # The most frequent colour but the title's gold: the core of the lines' letters.
    ink = max((c for c in counts if c != theme.GOLD), key=lambda c: counts[c])
    for surface in surfaces:
        assert contrast_ratio(ink, surface) >= 4.5, (ink, surface)

    def is_text(colour: pygame.Color) -> bool:
        return min(colour.r, colour.g, colour.b) >= min(ink) // 2 + 20

    for scale, frame in frames.items():
        area = _scaled(room, scale)
        capitals = [
            _first_letter_height(frame, area, top, height, is_text)
            for top, height in _ink_rows(frame, area, is_text)
        ]
        moves = [height for height in capitals if height is not None]
        assert len(moves) == 3, (scale, capitals)  # the title's gold is not counted
        for height in moves:
            assert height >= readable_height(1080 * scale), (scale, moves)


def _first_letter_height(
    frame: pygame.Surface, area: pygame.Rect, top: int, height: int, is_ink: Any
) -> int | None:
    """The ink height of a line's first letter (each move starts with a capital: "Ana",
    "Chloé", "Niccolò"), or None for a line set in (a move's second line)."""
    columns = [
        x
        for x in range(area.left, area.right)
        if any(is_ink(frame.get_at((x, y))) for y in range(top, top + height))
    ]
    if not columns or columns[0] > area.left + 8:
        return None
    end = next((a + 1 for a, b in pairwise(columns) if b != a + 1), columns[-1] + 1)
    letter = range(columns[0], end)
    rows = [
        y for y in range(top, top + height) if any(is_ink(frame.get_at((x, y))) for x in letter)
    ]
    return rows[-1] - rows[0] + 1


# Round 37, second part: the rest of the TV's small text (the pile names, the seats' tags, the
# header's names, the greyed names of players out or away, the lobby's names and marks).


def _lead_height(
    frame: pygame.Surface, area: pygame.Rect, top: int, height: int, is_ink: Any
) -> int | None:
    """The ink height of the first letter of the line of ``area`` from ``top``, wherever the
    line starts (``_first_letter_height`` for a line that may be set in)."""
    columns = [
        x
        for x in range(area.left, area.right)
        if any(is_ink(frame.get_at((x, y))) for y in range(top, top + height))
    ]
    if not columns:
        return None
    start = pygame.Rect(columns[0], area.top, area.right - columns[0], area.height)
    return _first_letter_height(frame, start, top, height, is_ink)


def _ink_span(frame: pygame.Surface, area: pygame.Rect, is_ink: Any) -> int:
    """The height from the first to the last row of ``area`` holding ink."""
    runs = _ink_rows(frame, area, is_ink)
    assert runs, area
    return runs[-1][0] + runs[-1][1] - runs[0][0]


def _readable_span(text: str, colour: Any, background: Any, is_ink: Any, scale: float) -> int:
    """The ink height (as ``is_ink`` sees it) of ``text`` drawn bold at ``READABLE_SIZE`` in
    ``colour`` on ``background``, on a screen ``scale`` times the canvas: a text in small
    letters ("out", "computer") has no capital to measure, so it is measured against itself
    at the floor."""
    image = theme.Theme().text(text, READABLE_SIZE, colour, True)
    sample = pygame.Surface(image.get_rect().inflate(12, 12).size)
    sample.fill(background)
    sample.blit(image, (6, 6))
    if scale != 1.0:
        width, height = sample.get_size()
        sample = pygame.transform.smoothscale(sample, (round(width * scale), round(height * scale)))
    return _ink_span(sample, sample.get_rect(), is_ink)


def _core_colour(frame: pygame.Surface, area: pygame.Rect, is_ink: Any) -> tuple[int, int, int]:
    """The colour most of ``area``'s ink pixels have: the text's own, inside its letters."""
    counts: dict[tuple[int, int, int], int] = {}
    for y in range(area.top, area.bottom):
        for x in range(area.left, area.right):
            colour = frame.get_at((x, y))
            if is_ink(colour):
                key = (colour.r, colour.g, colour.b)
                counts[key] = counts.get(key, 0) + 1
    return max(counts, key=lambda c: counts[c])


def _near(colour: tuple[int, int, int], reach: int = 40) -> Any:
    """Whether a pixel is ``colour``, or close to it (the anti-aliased rim of its letters)."""

    def test(pixel: pygame.Color) -> bool:
        return (
            max(abs(pixel.r - colour[0]), abs(pixel.g - colour[1]), abs(pixel.b - colour[2]))
            < reach
        )

    return test


def _light(pixel: pygame.Color) -> bool:
    """Light text on the felt, a dark box or a plate (none of which has a channel over 120)."""
    return min(pixel.r, pixel.g, pixel.b) >= 120


#: More guests for a table of 10 (with the five of ``_trail_app``).
NAMES_10 = ("Björn", "Maëlle", "Gianni", "Ada", "Lou")
#: Five guests, and ten with long names (plates of two lines on 9 and 10 seats).
NAMES_5 = ("Ana", "Chloé", "Niccolò", "François", "Zoë")
LONG_NAMES_10 = ("Jean-Christophe", "Marie-Éléonore", *NAMES_5, "Björn", "Maëlle", "Gianni")
#: How far either side of its pile a pile's name is measured (French "Défausse" is 131 px).
PILE_NAME_SEEN = 75


@pytest.mark.parametrize(
    ("count", "lang", "long"),
    [(5, "en", False), (10, "en", False), (5, "fr", False), (10, "fr", False), (10, "fr", True)],
)
def test_round37_the_pile_names_are_readable_and_stand_out_on_the_felt(
    catalog: Catalog, count: int, lang: str, long: bool
) -> None:
    """ "Stock" and "Discard" have capitals at least ``readable_height`` (1080p and 720p) and a
    WCAG contrast of 4.5:1 on the felt: they were grey 22 px text, 3.8:1. French "Pioche" and
    "Défausse" too, on 5 and 10 seats: "Défausse", wider than the room kept under its pile,
    was 24 px (capitals 17 px); it now takes the felt beside that room."""
    names = (LONG_NAMES_10 if long else (*NAMES_5, *NAMES_10))[:count]
    players = [player(i, name=name) for i, name in enumerate(names)]
    app = _app(catalog, view("turns", players, dealer=f"p{count - 1}", discard_count=1), lang)
    frames = _frames(app)
    for x, y in (stock_spot(), discard_spot()):
        box = pygame.Rect(
            round(x) - PILE_NAME_SEEN,
            round(y) + PILE_NAME_DROP - PILE_NAME_HALF_HEIGHT,
            2 * PILE_NAME_SEEN,
            2 * PILE_NAME_HALF_HEIGHT,
        )
        assert contrast_ratio(_core_colour(frames[1.0], box, _light), theme.FELT) >= 4.5
        for scale, frame in frames.items():
            area = _scaled(box, scale)
            ((top_row, height),) = _ink_rows(frame, area, _light)
            capital = _lead_height(frame, area, top_row, height, _light)
            floor = readable_height(1080 * scale)
            assert capital is not None and capital >= floor, (lang, scale, x, capital)


#: A seat's tag box (``host/tv/seats.py``).
TAG_BOX = (20, 24, 30)
#: The lobby's list of players starts under its title ("10 players").
LIST_TOP = 262


def _tag_area(app: TVApp, seat_id: str) -> pygame.Rect:
    """Where a seat's tag lies: on its card's top edge (a seat waiting for the next game has
    no card: on its plate's, round 43), as wide as the seat, as high as a readable tag's box
    (a seat stacked above on 10 seats is higher still)."""
    spot = app.table.seating()[0][seat_id]
    seat = app.stage.seat_of(seat_id)
    waiting = seat is not None and seat.status == "waiting"
    bottom = plate_rect(spot).top if waiting else card_rect(spot).top
    width = plate_rect(spot).width + 28
    return pygame.Rect(round(spot.x - width / 2), bottom - TAG_HEIGHT, width, TAG_HEIGHT)


@pytest.mark.parametrize(
    ("count", "lang", "long"),
    [(5, "en", False), (5, "fr", False), (10, "en", False), (10, "fr", True), (10, "it", True)],
)
def test_round37_seat_tags_are_readable_and_stand_out(
    catalog: Catalog, count: int, lang: str, long: bool
) -> None:
    """The tags "computer", "out" and "away" are drawn at least as high as at
    ``READABLE_SIZE`` (1080p and 720p), each with a WCAG contrast of 4.5:1 or more on its box:
    they were 20 px; on 10 seats 18 px (17 with names in two lines). (A guest waiting for the
    next game has no seat in the ring since round 44: the bench names them,
    ``tests/tv/test_bench.py``.)"""
    names = (LONG_NAMES_10 if long else (*NAMES_5, *NAMES_10))[:count]
    players = [
        player(0, name=names[0]),
        player(1, name=names[1], bot=True),
        player(2, name=names[2], status="eliminated", lives=0),
        player(3, name=names[3], connected=False),
        *(player(i, name=names[i]) for i in range(4, count)),
    ]
    app = _app(catalog, view("turns", players, dealer="p0"), lang)
    frames = _frames(app)
    tags = {
        "p1": catalog.t(lang, "tv.bot"),
        "p2": catalog.t(lang, "tv.out"),
        "p3": catalog.t(lang, "vip.away"),
    }
    for seat_id, text in tags.items():
        area = _tag_area(app, seat_id)

        def bright(pixel: pygame.Color) -> bool:
            return max(pixel.r, pixel.g, pixel.b) >= 140

        ink = _core_colour(frames[1.0], area, bright)
        assert contrast_ratio(ink, TAG_BOX) >= 4.5, (text, ink)
        for scale, frame in frames.items():
            span = _ink_span(frame, _scaled(area, scale), bright)
            floor = _readable_span(text, ink, TAG_BOX, bright, scale)
            assert span >= floor - 1, (text, scale, span, floor)


@pytest.mark.parametrize(("phase", "tagged"), [("turns", True), ("game_over", False)])
def test_round41_nobody_is_tagged_away_once_the_game_is_won(
    catalog: Catalog, phase: str, tagged: bool
) -> None:
    """Round 41's check: the winners' board tagged a winner whose phone slept "away". Once
    the game is won nothing waits for anyone: no "away" tag (during a round, still one)."""
    players = [player(0, name="Zoe", connected=False), player(1), player(2)]
    shown = view(phase, players, dealer="p1", winners=["p0"] if phase == "game_over" else [])
    from tests.tv.test_tv_vip import _texts  # every text a frame draws

    drawn = _texts(_app(catalog, shown))
    assert (catalog.t("en", "vip.away") in drawn) is tagged


def test_round41_a_seat_tag_carries_its_players_colour(catalog: Catalog) -> None:
    """Round 41's play-test, ten seats: a computer player's tag, above her card and just under
    the plate of the seat above, read as that seat's ("Hal — computer"). Each tag's left edge
    now has its own player's colour, as the plate has, and not the seat above's."""
    names = (*NAMES_5, *NAMES_10)[:10]
    players = [player(i, name=names[i], bot=i in (4, 8)) for i in range(10)]
    app = _app(catalog, view("turns", players, dealer="p0"))
    frame = _frames(app)[1.0]
    for seat_id in ("p4", "p8"):
        area = _tag_area(app, seat_id)
        seat = app.stage.seat_of(seat_id)
        assert seat is not None
        colours = {
            tuple(frame.get_at((x, y)))[:3]
            for x in range(area.left, area.right)
            for y in range(area.top, area.bottom)
        }
        assert tuple(seat.colour) in colours, seat_id
        others = {tuple(s.colour) for s in app.stage.players if s.id != seat_id}
        assert not (others & colours), seat_id


@pytest.mark.parametrize("long", [False, True], ids=["one-line", "two-lines"])
def test_round42_a_seat_tag_sits_on_its_own_card_well_clear_of_the_seat_above(
    catalog: Catalog, long: bool
) -> None:
    """Round 41's check (its one FAIL): on ten seats a side seat's tag sat 17 px above its
    card and about as far under the plate of the seat above, and from 3 m "computer" read as
    that seat's. Now every tag's box touches its own card's top edge, and no other seat's
    plate comes within ``TAG_AIR`` + 16 px of the tag's top (the seats' boxes keep the air)."""
    names = (LONG_NAMES_10 if long else (*NAMES_5, *NAMES_10))[:10]
    players = [player(i, name=names[i], bot=True) for i in range(10)]
    app = _app(catalog, view("turns", players, dealer="p0"))
    frame = _frames(app)[1.0]
    spots = app.table.seating()[0]
    for seat_id, spot in spots.items():
        card = card_rect(spot)
        tag = pygame.Rect(card.centerx - 20, card.top - TAG_HEIGHT, 40, TAG_HEIGHT)
        for y in (tag.top, tag.bottom - 1):  # the box's first and last rows, at its middle
            assert tuple(frame.get_at((tag.centerx, y)))[:3] == TAG_BOX, (seat_id, y)
        for other_id, other in spots.items():
            plate = plate_rect(other)
            if other_id == seat_id or plate.bottom > tag.top or plate.top > tag.top:
                continue
            if plate.right <= tag.left - 60 or plate.left >= tag.right + 60:
                continue  # not above the tag
            assert tag.top - plate.bottom >= TAG_AIR + 16, (seat_id, other_id)


@pytest.mark.parametrize("count", [5, 10])
@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_round37_the_header_keeps_the_widest_names_readable(
    catalog: Catalog, lang: str, count: int
) -> None:
    """The header's "X deals" and "X's turn" with two names 16 "W" wide: their capitals stay
    at least ``readable_height`` (1080p and 720p). Before, whose turn it is had 596 px in
    French and shrank to 24 px; the Italian dealer's line shrank to 26. At 10 seats the top
    seat takes the middle of the line: a name that does not fit shows as its plate shortens
    it ("WWWWW…WWWW")."""
    players = [player(i, name=name) for i, name in enumerate(WIDE_NAMES[:count])]
    app = _app(catalog, view("turns", players, dealer=f"p{count - 1}", current="p0"), lang)
    gold = _near(theme.GOLD, 60)
    muted = _near(theme.MUTED_INK, 30)
    for scale, frame in _frames(app).items():
        header = _scaled(pygame.Rect(0, 0, 1920, 64), scale)
        for colour, part in ((muted, 0), (gold, 1)):
            # The dealer's line: the first muted text; whose turn: the gold text.
            area = header if part else _scaled(pygame.Rect(0, 0, 1000, 64), scale)
            runs = _ink_rows(frame, area, colour)  # one line (and specks of a rim at 720p)
            top, bottom = runs[0][0], runs[-1][0] + runs[-1][1]
            capital = _lead_height(frame, area, top, bottom - top, colour)
            assert capital is not None
            assert capital >= readable_height(1080 * scale), (lang, scale, part, capital)


def test_round37_greyed_names_of_players_out_or_away_read_from_the_sofa(
    catalog: Catalog,
) -> None:
    """A player out or away has a greyed plate: its name keeps capitals of at least
    ``readable_height`` and a WCAG contrast of 4.5:1 or more on the grey plate."""
    players = [
        player(0),
        player(1, name="Chloé", status="eliminated", lives=0),
        player(2, name="Niccolò", connected=False),
        player(3),
        player(4),
    ]
    app = _app(catalog, view("turns", players, dealer="p4"))
    frames = _frames(app)
    for seat_id in ("p1", "p2"):
        area = _name_area(app, seat_id)
        ink = _core_colour(frames[1.0], area, _light)
        assert contrast_ratio(ink, GREY_PLATE) >= 4.5, (seat_id, ink)
        for scale, frame in frames.items():
            scaled = _scaled(area, scale)
            ((top, height),) = _ink_rows(frame, scaled, _light)
            capital = _lead_height(frame, scaled, top, height, _light)
            assert capital is not None and capital >= readable_height(1080 * scale)


@pytest.mark.parametrize("count", [15, 20])
def test_round45_a_big_tables_lobby_halves_its_list_and_keeps_names_readable(
    catalog: Catalog, count: int
) -> None:
    """H7's lobby of 15 or 20 guests with long names, the first the VIP, one a computer
    player, one away. Round 44's check found 14 names in one column and the 15th alone at the
    top of a second, and names in the first column shrunk (14 px at worst) to leave that
    column room. Now the list is halved (the first half one longer) and every name keeps
    capitals of at least ``readable_height``; each column's names stay left of the next."""
    names = ["Bartholomew", "Evangeline", "Wilhelmina", "Jean-Baptiste", "Maximilian"]
    players = [
        player(i, name=f"{names[i % 5]} {i}", bot=i == 1, connected=i != 2) for i in range(count)
    ]
    app = _app(catalog, view("lobby", players, house_rules=["H7"]))
    frame = _frames(app)[1.0]
    half = -(-count // 2)
    second = PLAYERS_X + 310
    dots = [(x, 268 + 20) for x in (PLAYERS_X + 14, second + 14)]
    assert tuple(frame.get_at(dots[0]))[:3] == theme.player_colour(0)
    assert tuple(frame.get_at(dots[1]))[:3] == theme.player_colour(half)
    white = _near(theme.INK, 12)
    for left, right, rows in ((PLAYERS_X + 30, second, half), (second + 30, 1920, count - half)):
        area = pygame.Rect(left, LIST_TOP, right - left, 900 - LIST_TOP)
        found = _ink_rows(frame, area, white)
        assert len(found) == rows, (left, found)
        for top, height in found:
            capital = _lead_height(frame, area, top, height, white)
            assert capital is not None and capital >= readable_height(1080), (left, capital)
    # the first column's names end before the second column's dots
    inked = [
        x
        for x in range(PLAYERS_X + 30, second + 2)
        for y in range(LIST_TOP, 900, 2)
        if white(frame.get_at((x, y)))
    ]
    assert max(inked) < second, max(inked)


def test_round37_lobby_names_and_marks_are_readable_at_10_widest_names(
    catalog: Catalog,
) -> None:
    """Ten guests with names 16 "W" wide in the lobby, the first the VIP, one a computer
    player, one away, one for the next game: every name keeps capitals of at least
    ``readable_height`` (it shrank to fit beside its marks), and the marks ("★ VIP",
    "computer", "away", "next game": 22 px before) are drawn as high as at
    ``READABLE_SIZE``, with a WCAG contrast of 4.5:1 or more on the background."""
    players = [
        player(i, name=name, bot=i == 1, connected=i != 2, status="waiting" if i == 3 else "active")
        for i, name in enumerate(WIDE_NAMES)
    ]
    app = _app(catalog, view("lobby", players))
    frames = _frames(app)
    column = pygame.Rect(PLAYERS_X + 30, LIST_TOP, 1900 - PLAYERS_X - 30, 640)
    white = _near(theme.INK, 12)
    for scale, frame in frames.items():
        area = _scaled(column, scale)
        names = _ink_rows(frame, area, white)
        assert len(names) == len(players), (scale, names)
        for top, height in names:
            capital = _lead_height(frame, area, top, height, white)
            assert capital is not None and capital >= readable_height(1080 * scale), scale
    marks = (
        ("\u2605 VIP", theme.GOLD),
        ("computer", theme.MUTED_INK),
        ("next game", theme.MUTED_INK),
        ("away", theme.ALERT),
    )
    for text, colour in marks:
        assert contrast_ratio(colour, theme.BACKGROUND) >= 4.5, text
    # The marks at 1080p only: at 720p the names' grey rims blur into the marks' grey (the
    # picture is the same one scaled, as the names' 720p heights above show).
    frame = frames[1.0]
    for colour, texts in (
        (theme.GOLD, ["\u2605 VIP"]),
        (theme.MUTED_INK, ["computer", "next game"]),
        (theme.ALERT, ["away"]),
    ):
        near = _near(colour, 12)  # not the grey rims of the white names
        # Not the specks of the white names' grey rims: only rows of a line of text.
        runs = [run for run in _ink_rows(frame, column, near) if run[1] >= 8]
        assert len(runs) == len(texts), (colour, runs)
        for (_, height), text in zip(runs, texts):
            floor = _readable_span(text, colour, theme.BACKGROUND, near, 1.0)
            assert height >= floor - 1, (text, height, floor)


# Round 37, third part: the final standings at the game's end, on their own board.

#: Where the game's end is measured: under the header, above the bottom seats, where the
#: winner (seat 0, the one lit seat) does not reach; the other seats' names are greyed.
GAME_END_AREA = pygame.Rect(40, 60, 1840, 580)


def _game_end(catalog: Catalog, count: int, lang: str) -> TVApp:
    """A game won by seat 0 (2 lives left), every other player out in a round of its own."""
    names = LONG_NAMES_10[:count]
    players = [player(0, name=names[0], lives=2)] + [
        player(i, name=names[i], lives=0, status="eliminated", out_round=3 + i)
        for i in range(1, count)
    ]
    return _app(catalog, view("game_over", players, winners=["p0"], current=None), lang)


def _without_cards(app: TVApp, frames: dict[float, pygame.Surface]) -> dict[float, pygame.Surface]:
    """``frames`` with the seats' cards that show in full light blacked out: their white rims
    are not text (a card dimmed or under the game's end board is left as it is)."""
    clean = {scale: frame.copy() for scale, frame in frames.items()}
    for spot in app.table.seating()[0].values():
        card = card_rect(spot)
        if _near(theme.CARD_FACE, 12)(frames[1.0].get_at((card.centerx, card.top + 1))):
            for scale, frame in clean.items():
                frame.fill((0, 0, 0), _scaled(card.inflate(8, 8), scale))
    return clean


@pytest.mark.parametrize(
    ("count", "lang"), [(3, "fr"), (5, "fr"), (10, "fr"), (10, "it"), (10, "en")]
)
def test_round37_the_final_standings_are_readable_and_the_winner_is_the_biggest(
    catalog: Catalog, count: int, lang: str
) -> None:
    """At the game's end every line of the final standings (and the new-game hint) has
    capitals at least ``readable_height`` (1080p and 720p) and a WCAG contrast of 4.5:1 or
    more on what lies around it; the winner's line stays the biggest text. They were 24 px
    on 5 seats and 18-20 px on 10 (there was no room between the seats for 28 px lines)."""
    app = _game_end(catalog, count, lang)
    white = _near(theme.INK, 12)
    gold = _near(theme.GOLD, 12)
    frames = _without_cards(app, _frames(app))
    for scale, frame in frames.items():
        area = _scaled(GAME_END_AREA, scale)
        lines = [run for run in _ink_rows(frame, area, white) if run[1] >= 6]
        rows = -(-count // 2) if count > 5 else count  # two columns over five players
        assert len(lines) >= rows + 1, (scale, lines)  # the players' lines and the hint
        capitals = [_lead_height(frame, area, top, height, white) for top, height in lines]
        floor = readable_height(1080 * scale)
        assert all(c is not None and c >= floor for c in capitals), (scale, capitals, floor)
        golden = [run for run in _ink_rows(frame, area, gold) if run[1] >= 6]
        winner = max(_lead_height(frame, area, top, height, gold) or 0 for top, height in golden)
        assert winner > max(c or 0 for c in capitals), (scale, winner, capitals)
    canvas = frames[1.0]
    ink = _core_colour(canvas, GAME_END_AREA, white)
    for top, height in _ink_rows(canvas, GAME_END_AREA, white):
        band = pygame.Rect(GAME_END_AREA.left, top, GAME_END_AREA.width, height)
        counts: dict[tuple[int, int, int], int] = {}
        for y in range(band.top, band.bottom):
            for x in range(band.left, band.right, 3):
                pixel = canvas.get_at((x, y))
                counts[pixel.r, pixel.g, pixel.b] = counts.get((pixel.r, pixel.g, pixel.b), 0) + 1
        ground = max(counts, key=lambda c: counts[c])  # what the line lies on
        assert contrast_ratio(ink, ground) >= 4.5, (ink, ground)


#: Ten long names: a swap between two of them takes two lines of the trail.
SWAPPING_NAMES = (
    "Jean-Christophe",
    "Marie-Éléonore",
    "Anne-Charlotte",
    "Pierre-Olivier",
    "Marie-Antoinette",
    "Bartholomew",
    "Giovannantonio",
    "Massimiliano",
    "Hildegard-Beate",
    "Christabel-Anne",
)


@pytest.mark.parametrize(
    ("lang", "long"), [("fr", False), ("fr", True), ("it", True), ("en", True)]
)
def test_round37_the_trail_shows_several_moves_at_10_seats(
    catalog: Catalog, lang: str, long: bool
) -> None:
    """At 10 seats the round's trail shows more than the newest move: its top-left corner
    held the title and two lines (105 px), a swap between long names or a keep; now the
    bottom-left corner holds the title and four lines (three with names in two lines): a
    keep and the swap before it, or more. Each move shown starts with a capital at least
    ``readable_height`` (1080p and 720p)."""
    names = (SWAPPING_NAMES if long else (*NAMES_5, *NAMES_10))[:10]
    players = [player(i, name=name) for i, name in enumerate(names)]
    shown = view("turns", players, dealer="p9", current="p4")
    app = _app(catalog, shown, lang)
    app.stage.receive(
        shown,
        cast(
            Any,
            [
                {"type": "round_dealt", "round": 1, "dealer": "p9", "order": ["p0", "p9"]},
                *(
                    {"type": "exchanged", "player": f"p{i}", "target": f"p{i + 1}"}
                    for i in range(3)
                ),
                {"type": "kept", "player": "p3", "auto": False, "timed_out": False},
            ],
        ),
    )
    app.stage.fast_forward()
    spots, _ = app.table.seating()
    room = trail_room(list(spots.values()))

    def text(colour: pygame.Color) -> bool:  # the trail's light ink, its rims included
        return min(colour.r, colour.g, colour.b) >= min(theme.TRAIL_INK) // 2 + 20

    for scale, frame in _frames(app).items():
        area = _scaled(room, scale)
        starts = [
            _first_letter_height(frame, area, top, height, text)
            for top, height in _ink_rows(frame, area, text)
        ]
        moves = [height for height in starts if height is not None]
        assert len(moves) >= 2, (lang, scale, starts)
        assert min(moves) >= readable_height(1080 * scale), (lang, scale, moves)


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_round37_the_help_hints_are_readable(catalog: Catalog, lang: str) -> None:
    """The host's key hints: "H: host keys" in the header of a 10-seat table (24 px before)
    and, in the lobby's corner, the language, "H: host keys" and "T: how to play" (26 px
    before) have capitals at least ``readable_height`` (1080p and 720p), with a WCAG contrast
    of 4.5:1 or more on the background."""
    assert contrast_ratio(theme.MUTED_INK, theme.BACKGROUND) >= 4.5

    def muted(pixel: pygame.Color) -> bool:  # grey ink and its rims, not the turn's gold
        return min(pixel.r, pixel.g, pixel.b) >= 90

    players = [player(i, name=name) for i, name in enumerate((*NAMES_5, *NAMES_10))]
    table = _app(catalog, view("turns", players, dealer="p9", current="p0"), lang)
    lobby = _app(catalog, view("lobby", players[:5]), lang)
    for app, corner, lines in (
        (table, pygame.Rect(1500, 8, 400, 52), 1),
        (lobby, pygame.Rect(1300, 30, 580, 130), 3),
    ):
        for scale, frame in _frames(app).items():
            area = _scaled(corner, scale)
            runs = [run for run in _ink_rows(frame, area, muted) if run[1] >= 6]
            assert len(runs) == lines, (scale, runs)
            for top, height in runs:
                capital = _lead_height(frame, area, top, height, muted)
                assert capital is not None and capital >= readable_height(1080 * scale), (
                    lang,
                    scale,
                    capital,
                )


def test_round37_the_sudden_deaths_names_are_readable(catalog: Catalog) -> None:
    """H5: the names under a sudden death's cards have capitals at least ``readable_height``
    and a WCAG contrast of 4.5:1 or more on the felt (grey 22 px, 3.8:1 before). Measured at
    1080p only, in the names' own ink: the first card's name lies over the stock's white rim,
    which the 720p picture blurs into the letters (the picture is the same one scaled)."""
    names = ("Ana", "Chloé", "Niccolò", "François", "Zoë")
    shown = view("reveal", [player(i, name=name) for i, name in enumerate(names)], dealer="p4")
    app = _app(catalog, shown)
    duel = {"p0": "5H", "p1": "9S", "p2": "KD"}
    app.stage.receive(
        shown, cast(Any, [{"type": "sudden_death", "players": list(duel), "cards": duel}])
    )
    app.stage.update(1.0)
    assert app.stage.beat is not None and app.stage.beat.kind == "sudden_death"
    frame = _frames(app)[1.0]
    ink = _near(theme.TRAIL_INK, 25)
    row = pygame.Rect(540, SUBTITLE_Y + 40 + 70 + 4, 840, 34)  # under the cards
    assert contrast_ratio(_core_colour(frame, row, ink), theme.FELT) >= 4.5
    ((top, height),) = _ink_rows(frame, row, ink)
    columns = [
        x
        for x in range(row.left, row.right)
        if any(ink(frame.get_at((x, y))) for y in range(top, top + height))
    ]
    starts = [columns[0]] + [b for a, b in pairwise(columns) if b - a > 40]
    assert len(starts) == len(duel), starts
    for start in starts:
        word = pygame.Rect(start, row.top, 30, row.height)
        capital = _first_letter_height(frame, word, top, height, ink)
        assert capital is not None and capital >= readable_height(), (start, capital)


@pytest.mark.parametrize(
    ("count", "lang", "reason"),
    [(14, "fr", "skipped"), (14, "en", "away"), (20, "it", "away"), (4, "en", "chosen")],
)
def test_round45_why_a_seat_kept_is_readable_on_its_card(
    catalog: Catalog, count: int, lang: str, reason: str
) -> None:
    """R7's bubble on a seat that kept ("Keeps", "Garde (tour passé)", "Tiene (assente)"):
    round 44's check read "Garde (tour…" 10 px high on a 14-seat table, fitted to its small
    card. It is now as wide as the seat's plate at most, in one or two lines whose capitals
    are at least ``readable_height``. (Four seats' "Keeps" passed before too: a guard.)"""
    players = [player(i, name=f"Guest {i}") for i in range(count)]
    order = [f"p{i}" for i in range(count)]
    shown = view("turns", players, current="p0", dealer=order[-1], order=order, max_players=20)
    app = _app(catalog, shown, lang)
    kept = {"type": "kept", "player": "p2", "auto": False, "timed_out": False, "reason": reason}
    app.stage.receive(shown, cast(Any, [kept]))
    app.stage.update(0.3)
    frame = _frames(app)[1.0]
    spot = app.table.seating()[0]["p2"]
    plate = plate_rect(spot)
    card = card_rect(spot)
    area = pygame.Rect(plate.left - 30, card.top, plate.width + 60, card.height)
    gold = [
        (x, y)
        for x in range(area.left, area.right)
        for y in range(area.top, area.bottom)
        if tuple(frame.get_at((x, y)))[:3] == theme.GOLD
    ]
    assert gold
    xs, ys = [x for x, _ in gold], [y for _, y in gold]
    bubble = pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
    assert bubble.width <= plate.width and plate.left <= bubble.left, (bubble, plate)
    near_dark = _near(theme.DARK_INK, 60)
    rows: dict[int, list[int]] = {}
    columns: dict[int, list[int]] = {}
    for x, y in gold:
        rows.setdefault(y, []).append(x)
        columns.setdefault(x, []).append(y)

    def dark(pixel: pygame.Color, at: tuple[int, int]) -> bool:
        """Dark ink inside the gold plate (not the screen behind its rounded corners)."""
        x, y = at
        return (
            near_dark(pixel)
            and min(rows.get(y, [x])) < x < max(rows.get(y, [x]))
            and min(columns.get(x, [y])) < y < max(columns.get(x, [y]))
        )

    inside = {
        (x, y)
        for x in range(bubble.left, bubble.right)
        for y in range(bubble.top, bubble.bottom)
        if dark(frame.get_at((x, y)), (x, y))
    }
    lines: list[tuple[int, int]] = []  # runs of rows with ink: (top, height)
    for y in sorted({y for _, y in inside}):
        if lines and sum(lines[-1]) == y:
            lines[-1] = (lines[-1][0], lines[-1][1] + 1)
        else:
            lines.append((y, 1))
    assert 1 <= len(lines) <= 2, lines
    for top, height in lines:
        first = min(x for x, y in inside if top <= y < top + height)
        letter: set[int] = set()
        for x in range(first, bubble.right):  # the first letter: columns of ink up to a gap
            column = {y for xx, y in inside if xx == x and top <= y < top + height}
            if not column:
                break
            letter |= column
        capital = max(letter) - min(letter) + 1
        assert capital >= readable_height(1080), (capital, lines)


def test_round45_a_full_big_lobby_puts_marks_under_as_many_names_as_fit(
    catalog: Catalog,
) -> None:
    """Round 45's play-test: 20 seats, 17 of them computer players: a column too long with
    every "computer" under its name put them all beside instead, and its names shrank to 60 %.
    Now the marks go under as many names as the column has room for (four), from the top: the
    guest without a mark and four names a column (the VIP's among them) keep capitals of
    ``readable_height`` (one did before)."""
    players = [
        player(i, name=f"Katherine{i:02d}", bot=i not in (0, 10), connected=True) for i in range(20)
    ]
    app = _app(catalog, view("lobby", players, house_rules=["H7"], max_players=20))
    frame = _frames(app)[1.0]
    white = _near(theme.INK, 12)
    readable = 0
    for left, right in ((PLAYERS_X + 30, PLAYERS_X + 310), (PLAYERS_X + 340, 1920)):
        area = pygame.Rect(left, LIST_TOP, right - left, 900 - LIST_TOP)
        for top, height in _ink_rows(frame, area, white):
            capital = _lead_height(frame, area, top, height, white)
            readable += capital is not None and capital >= readable_height(1080)
    assert readable >= 9, readable
