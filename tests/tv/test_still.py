"""Issue 18.3 — the table's still layer is repainted only where something changed.

``host/tv/still.py`` keeps what holds still (the felt, the header, the piles, the seats that do
not move, the trail) in one surface and, when the turn passes (R6: the glow and the header
follow it), restores and paints again only the rectangles of the pieces that changed. That is
right only if every piece paints inside its rectangle and its key holds everything it reads;
these tests check both, the first piece by piece and the second over whole games, against a
layer painted afresh.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pygame
import pytest

from host.i18n import Catalog
from host.rules import HouseRules
from host.tv import seats, theme
from host.tv import table as table_module
from host.tv.app import FRAME_SECONDS, TVApp
from host.tv.final import dim_table
from host.tv.layout import seat_spots
from host.tv.rehearsal import Rehearsal
from host.tv.seats import stamp
from host.tv.still import Piece, StillLayer, changed_regions, merged
from host.tv.table import FLYING_KINDS, HEADER_REGION, PILES_REGION, TableScene, seat_region
from host.tv.theme import CANVAS_SIZE

from .test_overlap import SIXTEEN
from .test_scenes import app_for, colour_at
from .views import events, player, view

RED, BLUE, GREEN = (200, 0, 0), (0, 0, 200), (0, 160, 0)
#: Tables to play through: seats, names, house rules, language.
TABLES = {
    "20 seats, H7, long names, en": (list(SIXTEEN), "H7", "en"),
    "5 seats, fr": (["Ana", "Chloé", "Niccolò", "François", "Zoë"], "", "fr"),
    "4 seats, H1 H4, it": (["Ana", "Björn", "Inès", "Mattia"], "H1,H4", "it"),
}


def painter(colour: tuple[int, int, int], rect: tuple[int, int, int, int]) -> Any:
    return lambda surface: surface.fill(colour, rect)


def felt() -> pygame.Surface:
    surface = pygame.Surface((200, 100))
    surface.fill(GREEN)
    return surface


def test_changed_regions_are_those_of_pieces_changed_come_or_gone() -> None:
    keep = Piece("keep", (0, 0, 10, 10), 1, painter(RED, (0, 0, 10, 10)))
    before = {
        "keep": keep,
        "turn": Piece("turn", (20, 0, 10, 10), "p0", painter(RED, (20, 0, 10, 10))),
        "gone": Piece("gone", (40, 0, 10, 10), 1, painter(RED, (40, 0, 10, 10))),
        "moved": Piece("moved", (60, 0, 10, 10), 1, painter(RED, (60, 0, 10, 10))),
    }
    after = {
        "keep": Piece("keep", (0, 0, 10, 10), 1, painter(BLUE, (0, 0, 10, 10))),
        "turn": Piece("turn", (20, 0, 10, 10), "p1", painter(RED, (20, 0, 10, 10))),
        "moved": Piece("moved", (60, 20, 10, 10), 1, painter(RED, (60, 20, 10, 10))),
        "new": Piece("new", (80, 0, 10, 10), 1, painter(RED, (80, 0, 10, 10))),
    }
    regions = {tuple(rect) for rect in changed_regions(before, after)}
    # The painter is not part of the key: "keep" holds still even with another function.
    assert regions == {
        (20, 0, 10, 10),
        (40, 0, 10, 10),
        (60, 0, 10, 10),
        (60, 20, 10, 10),
        (80, 0, 10, 10),
    }
    assert changed_regions(before, dict(before)) == []


def test_a_changed_piece_is_painted_again_in_its_region_only_with_the_pieces_it_meets() -> None:
    pygame.init()
    layer = StillLayer(felt)
    under = Piece("under", (0, 0, 60, 60), 1, painter(BLUE, (0, 0, 60, 60)))
    over = Piece("over", (40, 40, 40, 40), "a", painter(RED, (40, 40, 40, 40)))
    surface = layer.surface("frame", [under, over])
    assert layer.repaints == 1
    assert colour_at(surface, (10, 10)) == BLUE and colour_at(surface, (70, 70)) == RED
    # "over" changes: its region is restored from the felt, then "under" (which it meets) and
    # "over" are painted again in order, clipped to it.
    surface.fill((1, 2, 3), (0, 0, 30, 30))  # a mark outside: left alone by a patch
    changed = Piece("over", (40, 40, 40, 40), "b", painter(GREEN, (50, 50, 30, 30)))
    surface = layer.surface("frame", [under, changed])
    assert layer.repaints == 1 and [tuple(rect) for rect in layer.patched] == [(40, 40, 40, 40)]
    assert colour_at(surface, (45, 45)) == BLUE  # "under", painted again below "over"
    assert colour_at(surface, (75, 42)) == GREEN  # the felt where "over" no longer paints
    assert colour_at(surface, (70, 70)) == GREEN
    assert colour_at(surface, (10, 10)) == (1, 2, 3)
    # A piece that goes is wiped; nothing else changes.
    surface = layer.surface("frame", [under])
    assert colour_at(surface, (70, 70)) == GREEN and colour_at(surface, (10, 10)) == (1, 2, 3)
    # Nothing changed: nothing painted (the last patch is still the one reported).
    before = pygame.image.tobytes(surface, "RGB")
    assert pygame.image.tobytes(layer.surface("frame", [under]), "RGB") == before
    # Another frame key: the whole layer painted again.
    surface = layer.surface("other frame", [under])
    assert layer.repaints == 2 and colour_at(surface, (10, 10)) == BLUE


def test_r6_a_turn_passing_repaints_the_header_and_the_two_seats_only(
    canvas: pygame.Surface, make_app: Any
) -> None:
    app = app_for(make_app, view("turns", current="p0"))
    app.render(canvas)
    assert app.table.still.repaints == 1
    spots = seat_spots(len(app.stage.players))
    for before, after in ((0, 1), (1, 2), (2, 3), (3, 0)):
        app.stage.receive(view("turns", current=f"p{after}"), [])
        app.render(canvas)
        assert app.table.still.repaints == 1
        assert {tuple(rect) for rect in app.table.still.patched} == {
            HEADER_REGION,
            seat_region(spots[before]),
            seat_region(spots[after]),
        }
    area = sum(rect.width * rect.height for rect in app.table.still.patched)
    assert area < 0.25 * CANVAS_SIZE[0] * CANVAS_SIZE[1]


def test_issue18_a_swap_paints_again_only_the_seats_its_cards_cross(
    canvas: pygame.Surface, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R7: the two swapped cards cross between neighbours under the seats. Each frame of it
    starts from the still layer and paints again only the rectangles the cards cover: the
    seats they meet, not all twenty (issue 18.1); and the layer is patched, not repainted,
    for the swap and for the turn after it."""
    seated = [player(i, name=name) for i, name in enumerate(SIXTEEN)]
    app = app_for(make_app, view("turns", seated, current="p4", order=[f"p{i}" for i in range(20)]))
    app.render(canvas)
    painted: list[str] = []
    real = seats.draw_seat

    def draw_seat(surface: pygame.Surface, props: Any, stage: Any, seat: Any, *rest: Any) -> None:
        painted.append(seat.id)
        real(surface, props, stage, seat, *rest)

    monkeypatch.setattr("host.tv.table.draw_seat", draw_seat)
    app.stage.receive(
        view("turns", seated, current="p5", order=[f"p{i}" for i in range(20)]),
        events({"type": "exchanged", "player": "p4", "target": "p5"}),
    )
    flying = 0
    met: set[str] = set()
    for _ in range(200):
        beat = app.stage.beat
        if beat is None:
            break
        painted.clear()
        app.render(canvas)
        if beat.kind == "exchanged":
            flying += 1
            # The pair and their neighbours at most (a seat met by both cards is painted in
            # each card's rectangle), or none: not the twenty seats.
            assert len(set(painted)) <= 4 and len(painted) <= 8, painted
            met.update(painted)
        app.step(FRAME_SECONDS)
    # Leaving and landing, the cards pass under the pair's seats, and under no seat further.
    assert {"p4", "p5"} <= met <= {"p3", "p4", "p5", "p6"}
    assert flying > 10
    assert app.table.still.repaints == 1
    app.render(canvas)
    assert app.table.still.repaints == 1
    spots = seats.seat_plan(app.props, app.stage).spots  # plates for names in two lines
    assert {tuple(rect) for rect in app.table.still.patched} <= {
        HEADER_REGION,
        *(seat_region(spots[index]) for index in (4, 5)),
    }


def test_overlapping_rectangles_are_merged_and_apart_ones_kept() -> None:
    rects = [pygame.Rect(0, 0, 10, 10), pygame.Rect(5, 5, 10, 10), pygame.Rect(40, 0, 5, 5)]
    assert [tuple(rect) for rect in merged(rects)] == [(0, 0, 15, 15), (40, 0, 5, 5)]
    # A union that reaches a rectangle already kept takes it in too.
    chain = [pygame.Rect(0, 0, 10, 10), pygame.Rect(30, 0, 10, 10), pygame.Rect(8, 0, 25, 4)]
    assert [tuple(rect) for rect in merged(chain)] == [(0, 0, 40, 10)]
    assert merged([]) == []


def party(name: str, catalog: Catalog) -> tuple[TVApp, Rehearsal]:
    names, rules, lang = TABLES[name]
    table = Rehearsal(HouseRules.parse(rules), seed=11, people=names)
    table.host_next()
    app = TVApp(table.session, None, catalog, lang=lang, join_url="http://127.0.0.1:8000/")
    return app, table


def frames(app: TVApp, table: Rehearsal, canvas: pygame.Surface, count: int) -> Iterator[int]:
    """Plays ``count`` frames of the party (new games included) with the TV's clock at 4×
    (as the loop does when it runs late: every beat still passes through its frames, fewer
    of them), yielding after each frame drawn with the table on screen. 3 500 frames hold a
    whole game of four or five players, and eliminations at twenty."""
    for tick in range(count):
        table.feed(app)
        for _ in range(4):
            app.step(FRAME_SECONDS)
        if app.needs_render:
            app.render(canvas)
            if app.base_scene() is app.table:
                yield tick


@pytest.mark.parametrize("name", list(TABLES))
def test_issue18_every_piece_paints_inside_its_region(name: str, catalog: Catalog) -> None:
    """Whatever a piece paints lies in its region (else a patch would leave some of it
    behind): each piece painted alone, in every shape it took over two games (a seat's name
    and lives stay inside its plate, so a seat's shape is what draws around it: its card's
    look, the glow, the dealer's button, its tag, a winner's frame)."""
    canvas = pygame.Surface(CANVAS_SIZE)
    app, table = party(name, catalog)
    alone = pygame.Surface(CANVAS_SIZE, pygame.SRCALPHA)
    seen: set[Any] = set()
    names: set[str] = set()
    for _ in frames(app, table, canvas, 3500):
        stage = app.stage
        spots, rows = app.table.seating()
        by_name = {f"seat {row.seat.id}": row for row in rows}
        _, pieces = app.table.still_pieces(spots, [row for row in rows if not row.moving])
        for piece in pieces:
            names.add(piece.name)
            row = by_name.get(piece.name)
            shape: Any = (
                piece.key
                if row is None
                else (
                    row.look.kind,
                    row.look.lowest,
                    stage.current == row.seat.id,
                    stage.dealer == row.seat.id,
                    row.seat.status,
                    row.seat.connected,
                    row.seat.bot,
                    row.seat.id in stage.winners,
                )
            )
            mark = (piece.name, piece.region, stage.phase, shape)
            if mark in seen:
                continue
            seen.add(mark)
            alone.fill((0, 0, 0, 0))
            piece.paint(alone)
            painted = alone.get_bounding_rect(min_alpha=1)
            if painted.width and painted.height:
                assert pygame.Rect(piece.region).contains(painted), (piece.name, painted)
    assert {"header", "piles", "labels", "trail"} <= names
    assert sum(name.startswith("seat ") for name in names) == len(app.stage.players)
    assert len(seen) > 40


def test_the_piles_and_header_regions_lie_where_they_should() -> None:
    header = pygame.Rect(HEADER_REGION)
    assert header.top == 0 and header.width == CANVAS_SIZE[0]
    piles = pygame.Rect(PILES_REGION)
    assert piles.top > header.bottom and piles.bottom < CANVAS_SIZE[1]


def test_the_felt_kept_at_8_bits_copies_out_as_the_felt_painted_on_the_canvas(
    canvas: pygame.Surface, make_app: Any
) -> None:
    """The felt under the still layer is a quarter of a canvas in memory (the host's peak RSS
    target), yet what it restores, whole or clipped to a patch, is the felt painted straight
    on a full-colour canvas, pixel for pixel."""
    app = app_for(make_app, view("turns", current="p0"))
    app.render(canvas)
    felt = app.table._felt_surface()
    assert felt.get_bitsize() == 8
    assert felt.get_pitch() * felt.get_height() <= CANVAS_SIZE[0] * CANVAS_SIZE[1]
    painted = pygame.Surface(CANVAS_SIZE)
    TableScene._paint_felt(painted)
    whole = pygame.Surface(CANVAS_SIZE)
    whole.fill(RED)
    whole.blit(felt, (0, 0))
    assert pygame.image.tobytes(whole, "RGB") == pygame.image.tobytes(painted, "RGB")
    rim = pygame.Rect(150, 420, 120, 90)  # the wooden rim's left end, between dark and felt
    patched = pygame.Surface(CANVAS_SIZE)
    patched.fill(RED)
    patched.blit(felt, rim, rim)
    assert {colour_at(patched, (x, rim.centery)) for x in range(rim.left, rim.right)} == {
        theme.BACKGROUND,
        theme.FELT_EDGE,
        theme.FELT,
    }
    assert pygame.image.tobytes(patched.subsurface(rim), "RGB") == pygame.image.tobytes(
        painted.subsurface(rim), "RGB"
    )
    assert colour_at(patched, (rim.left - 1, rim.top)) == RED  # nothing outside the patch


@pytest.mark.parametrize("name", list(TABLES))
def test_issue18_a_layer_patched_through_whole_games_equals_one_painted_afresh(
    name: str, catalog: Catalog
) -> None:
    """After every patch, the table's frame is the one a table painting its layers from
    nothing draws, pixel for pixel: so every key holds all that its painter reads."""
    canvas = pygame.Surface(CANVAS_SIZE)
    app, table = party(name, catalog)
    first = pygame.Surface(CANVAS_SIZE)
    fresh = pygame.Surface(CANVAS_SIZE)
    unlayered = pygame.Surface(CANVAS_SIZE)
    compared = flying = 0
    last: object = None
    phases: set[str] = set()
    for tick in frames(app, table, canvas, 3500):
        phases.add(app.stage.phase)
        beat = app.stage.beat
        in_flight = beat is not None and beat.kind in FLYING_KINDS
        if app.table.still.patched is last and not (in_flight and tick % 2 == 0):
            continue  # the layer did not change in this frame, and no card flies (one in two)
        last = app.table.still.patched
        app.table.paint(first, keep_still=True)
        TableScene(app.stage, app.props).paint(fresh, keep_still=True)
        assert pygame.image.tobytes(first, "RGB") == pygame.image.tobytes(fresh, "RGB"), tick
        if in_flight:  # cards slid under the layer: as if every piece were painted in order
            TableScene(app.stage, app.props).paint(unlayered, keep_still=False)
            assert pygame.image.tobytes(first, "RGB") == pygame.image.tobytes(unlayered, "RGB")
            flying += 1
        compared += 1
    assert app.table.still.repaints < compared
    assert compared > 100 and flying > 20
    assert phases >= ({"turns", "reveal"} if "20" in name else {"turns", "reveal", "game_over"})


@pytest.mark.parametrize("width,radius", [(8, 22), (12, 22), (3, 10)])
def test_a_seat_frame_blitted_is_the_frame_pygame_draws_and_the_same_under_a_clip(
    width: int, radius: int, make_app: Any
) -> None:
    """The seat's frames are drawn once and blitted (``seats.stamp``): the same pixels as
    ``pygame.draw.rect`` unclipped, and the same again with a clip, which pygame's own
    rounded frames are not (the reason for the stamp)."""
    props = app_for(make_app, view("turns")).props
    rect = pygame.Rect(17, 388, 135, 170)
    drawn, stamped, clipped = (pygame.Surface((400, 700)) for _ in range(3))
    for surface in (drawn, stamped, clipped):
        surface.fill((14, 24, 38))
    pygame.draw.rect(drawn, (250, 200, 0), rect, width, border_radius=radius)
    stamp(stamped, props, rect, (250, 200, 0), width, radius)
    assert pygame.image.tobytes(drawn, "RGB") == pygame.image.tobytes(stamped, "RGB")
    clip = pygame.Rect(115, 555, 139, 174)
    clipped.set_clip(clip)
    stamp(clipped, props, rect, (250, 200, 0), width, radius)
    clipped.set_clip(None)
    inside = clip.clip(clipped.get_rect())
    assert pygame.image.tobytes(clipped.subsurface(inside), "RGB") == pygame.image.tobytes(
        drawn.subsurface(inside), "RGB"
    )


def test_issue18_the_games_end_dims_the_table_once_not_on_every_frame_of_its_confetti(
    make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R14's game over: the table is dimmed behind the final board, but for the winner's seat,
    and confetti falls for seconds. The dimmed table is kept in the still layer (made once)
    instead of dimming all 1920×1080 pixels again on every frame (4.5 ms of CPU a frame, 2.5
    before the board); each frame is still the one that dims and lights in order."""
    names = ("Jean-Christophe", "Marie-Éléonore", "Ana", "Chloé", "Niccolò")
    players = [player(0, name=names[0], lives=2)] + [
        player(i, name=names[i], lives=0, status="eliminated", out_round=3 + i)
        for i in range(1, len(names))
    ]
    app = app_for(make_app, view("game_over", players, winners=["p0"], current=None, vip="p0"))
    app.stage.fast_forward()
    app.stage.celebrating_since = app.stage.time
    dims: list[object] = []

    def counted(surface: pygame.Surface, props: Any) -> None:
        dims.append(surface)
        dim_table(surface, props)

    monkeypatch.setattr(table_module, "dim_table", counted)
    layered, unlayered = pygame.Surface(CANVAS_SIZE), pygame.Surface(CANVAS_SIZE)
    for _ in range(30):
        app.stage.time += FRAME_SECONDS
        assert app.stage.celebrating
        app.table.paint(layered, keep_still=True)
    assert len(dims) == 1  # the still layer's, once
    TableScene(app.stage, app.props).paint(unlayered, keep_still=False)
    assert pygame.image.tobytes(layered, "RGB") == pygame.image.tobytes(unlayered, "RGB")
