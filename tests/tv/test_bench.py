"""Round 44: a guest who joins while a game runs is seated *waiting* (they play the next game).

The play-test saw every playing seat move round the oval the moment a latecomer joined,
mid-round: the ring was laid out for every seat, theirs included. Now the game's seats stay
where they were; the latecomer is on the bench ("Next game:", ``host/tv/bench.py``), clear of
every seat, and takes a seat in the ring when the lobby opens. Driven by the real engine
(``Rehearsal``): the join is the session's, the view and events are what the TV gets.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import pygame
import pytest

from host.i18n import Catalog
from host.rules import HouseRules
from host.tv import theme
from host.tv.app import TVApp
from host.tv.bench import Bench
from host.tv.final import final_board
from host.tv.layout import CANVAS_H, CAPTION_HEIGHT, READABLE_SIZE, readable_height
from host.tv.overlays import KickOverlay
from host.tv.rehearsal import Rehearsal
from host.tv.seats import card_rect, plate_rect
from host.tv.table import PILES_REGION, seat_region, trail_region

from .test_big_table import NAMES
from .views import StillSession, player, view

#: The oval (2-10 seats) and H7's big tables round the screen's edges (11-20).
COUNTS = [3, 6, 10, 14, 18]


def _party(catalog: Catalog, count: int, lang: str = "en") -> tuple[TVApp, Rehearsal]:
    """``count`` guests in a game's first round, some moves played, the TV caught up."""
    rules = HouseRules.parse("H7" if count >= 10 else "")  # room for the latecomer
    table = Rehearsal(rules, seed=5, people=NAMES[:count])
    table.host_next()
    app = TVApp(table.session, None, catalog, lang=lang, join_url="http://127.0.0.1:6200/")
    table.play()  # the first move: a round under way
    _catch_up(app)
    assert app.stage.phase == "turns"
    return app, table


def _catch_up(app: TVApp) -> None:
    """The TV takes every update waiting (a few a frame) and plays them out."""
    while app.pump_updates():
        app.stage.fast_forward()
    app.stage.fast_forward()


def _render(app: TVApp) -> pygame.Surface:
    canvas = pygame.Surface(theme.CANVAS_SIZE)
    app.render(canvas)
    return canvas


def _bench(app: TVApp) -> Bench:
    bench = app.table.bench(app.table.seating()[0])
    assert bench is not None
    return bench


@pytest.mark.parametrize("count", COUNTS)
def test_round44_a_latecomer_moves_no_playing_seat(catalog: Catalog, count: int) -> None:
    """The game's seats (their spots and what their plates say) are the same before and after
    a guest joins mid-round, on the oval and on a big table; the latecomer has no seat in the
    ring. (Round 44's play-test: every seat moved round the table.)"""
    app, table = _party(catalog, count)
    before = app.table.seating()
    latecomer = table.join("Latecomer")
    app.pump_updates()  # the join's beat is playing: the seats hold still meanwhile too
    during = app.table.seating()
    app.stage.fast_forward()
    after = app.table.seating()
    assert app.stage.seat_of(latecomer) is not None
    for spots, rows in (during, after):
        assert latecomer not in spots
        assert spots == before[0]
        assert [row.label for row in rows] == [row.label for row in before[1]]


@pytest.mark.parametrize("count", COUNTS)
def test_round44_the_latecomer_is_named_readably_on_the_bench_clear_of_every_seat(
    catalog: Catalog, count: int
) -> None:
    """The bench names the latecomer whole, at ``READABLE_SIZE``: on the frame, their name's
    ink on its chip is at least ``readable_height`` high. The bench meets no seat (the
    frames round it included), the piles, the trail's corner or the caption bar."""
    pygame.font.init()
    app, table = _party(catalog, count)
    latecomer = table.join("Latecomer")
    _catch_up(app)
    bench = _bench(app)
    chip = bench.chip_of(latecomer)
    assert chip is not None
    assert [c.text for c in bench.chips] == ["Latecomer"]
    spots = app.table.seating()[0]
    panel = pygame.Rect(bench.rect)
    for spot in spots.values():
        assert not panel.colliderect(pygame.Rect(seat_region(spot))), (count, spot)
    assert not panel.colliderect(pygame.Rect(PILES_REGION))
    assert not panel.colliderect(pygame.Rect(trail_region(tuple(spots.values()))))
    assert panel.bottom <= CANVAS_H - CAPTION_HEIGHT and panel.top >= 0
    frame = _render(app)
    ink = [
        y
        for y in range(chip.top, chip.bottom)
        if any(min(frame.get_at((x, y))[:3]) >= 180 for x in range(chip.left + 12, chip.right))
    ]
    assert ink and max(ink) - min(ink) + 1 >= readable_height(), (count, ink)


@pytest.mark.parametrize("count", [6, 14])
def test_round44_in_the_lobby_the_latecomer_takes_a_seat_in_the_ring(
    catalog: Catalog, count: int
) -> None:
    """The latecomer is not in the ring while the game runs; once it is over and the lobby
    opens (the host's Space), they sit in the ring like everyone, and the bench is gone."""
    app, table = _party(catalog, count)
    latecomer = table.join("Latecomer")
    _catch_up(app)
    assert latecomer not in app.table.seating()[0]  # on the bench while the game runs
    for _ in range(2000):
        if table.phase == "game_over":
            break
        table.play()
    _catch_up(app)
    table.host_next()  # a new game: the lobby
    _catch_up(app)
    assert app.stage.phase == "lobby"
    assert latecomer in app.table.seating()[0]
    assert len(app.table.seating()[0]) == len(app.stage.players)
    assert app.table.bench(app.table.seating()[0]) is None


@pytest.mark.parametrize("count", [6, 14, 18])
def test_round44_the_game_over_board_names_the_latecomer_apart_from_its_standings(
    catalog: Catalog, count: int
) -> None:
    """At the game's end the board names the latecomer on a line of their own ("Joining the
    next game: …", readable), never in the game's standings, and the board stays as wide as
    without them (a board narrowed beside the winner cut the standings short)."""
    app, table = _party(catalog, count)
    for _ in range(2000):
        if table.phase == "game_over":
            break
        table.play()
    _catch_up(app)
    winners = app.stage.winners
    lit = [pygame.Rect(seat_region(app.table.seating()[0][w])) for w in winners]
    bare = final_board(app.props, app.stage, lit)
    table.join("Latecomer")
    _catch_up(app)
    assert app.stage.phase == "game_over"
    board = final_board(app.props, app.stage, lit)
    line = next(line for line in board.lines if "Latecomer" in line.text)
    assert line.text == "Joining the next game: Latecomer"
    assert line.size >= READABLE_SIZE
    assert sum("Latecomer" in text for text in board.texts()) == 1
    assert board.rect.width >= bare.rect.width * 0.9, (count, board.rect, bare.rect)
    assert app.table.bench(app.table.seating()[0]) is None  # the board names them


def test_round44_a_reaction_from_the_bench_floats_by_the_latecomers_name(
    catalog: Catalog,
) -> None:
    """A latecomer's reaction mid-game goes just above their chip on the bench, on no seat."""
    from host.tv.evening import reaction_spots

    app, table = _party(catalog, 6)
    latecomer = table.join("Latecomer")
    _catch_up(app)
    bench = _bench(app)

    class Sent:
        player, emoji = latecomer, "👏"

    placed = reaction_spots(app.props, app.stage, [Sent()], bench)
    assert len(placed) == 1
    rect = placed[0][1]
    chip = bench.chip_of(latecomer)
    assert chip is not None and rect.bottom <= pygame.Rect(bench.rect).top
    assert abs(rect.centerx - chip.centerx) <= 1
    for spot in app.table.seating()[0].values():
        assert not rect.colliderect(card_rect(spot)) and not rect.colliderect(plate_rect(spot))


def test_round44_the_kick_list_numbers_the_ring_then_marks_the_latecomer(
    catalog: Catalog, phrases_asked: Callable[[TVApp], list[str]]
) -> None:
    """K's list numbers the game's seats in the ring's order, then the latecomer, whose line
    says "next game" as the bench does (the host sees who is in this game)."""
    pygame.font.init()
    app, table = _party(catalog, 6)
    latecomer = table.join("Latecomer")
    _catch_up(app)
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_k, mod=0, unicode="k"))
    kick = app.overlays[-1]
    assert isinstance(kick, KickOverlay)
    ring = list(app.table.seating()[0])
    assert [seat.id for seat in kick.players] == [*ring, latecomer]
    asked = phrases_asked(app)
    kick.draw(pygame.Surface(theme.CANVAS_SIZE))
    assert asked.count("waiting_tag") == 1


@pytest.mark.parametrize(
    ("seated", "waiting", "lang", "more"),
    [(3, 17, "fr", "autres"), (6, 14, "en", "more"), (10, 10, "it", None)],
)
def test_round46_the_board_names_many_latecomers_whole_and_counts_the_rest(
    catalog: Catalog, seated: int, waiting: int, lang: str, more: str | None
) -> None:
    """Round 46's check of H7's biggest tables' end: 17 latecomers with 15-16 letter names
    ran the board's line on to "Bartholo…", six of them never named. The line names as many
    as fit whole, at ``READABLE_SIZE`` or more in two lines at most, then "+N more"; each
    latecomer is named or counted, inside the board (at 1920×1080, and so at 1280×720)."""
    names = [f"{LONG[i % len(LONG)]}{i}"[-16:] for i in range(waiting)]
    players = [player(i, name=f"Guest {i}") for i in range(seated)]
    players += [player(seated + i, name=name, status="waiting") for i, name in enumerate(names)]
    shown = view("game_over", players, winners=["p0"], max_players=20, house_rules=["H7"])
    session = cast(Any, StillSession(shown))
    app = TVApp(session, None, catalog, lang=lang, join_url="http://x/?room=CAKE")
    app.stage.fast_forward()
    board = final_board(app.props, app.stage)
    lines = [line for line in board.lines if any(name in line.text for name in names)]
    assert 1 <= len(lines) <= 2
    said = " ".join(line.text for line in lines)
    assert "…" not in said
    named = [name for name in names if name in said]
    assert named == names[: len(named)]  # whole names, in the order they joined
    if more is None:
        assert named == names
    else:
        assert said.endswith(f"+{waiting - len(named)} {more}"), said
        assert len(named) >= 2
    for line in lines:
        assert line.size >= READABLE_SIZE
        width = app.props.theme.measure(line.text, line.size, True)
        assert board.rect.left <= line.topleft[0] and line.topleft[0] + width <= board.rect.right


#: Names as wide as a guest may type them (round 37's widest Latin names).
LONG = (
    "Bartholomew-Jon",
    "Maximilienne-R",
    "Giovannantonio",
    "Anne-Charlotte",
    "Jean-Christoph",
    "Marie-Antoinet",
    "Pierluigi-Erne",
    "Wilhelmina Oos",
)


@pytest.mark.parametrize(("count", "lang"), [(11, "en"), (13, "fr"), (15, "it")])
def test_round47_a_full_bench_names_whole_names_then_counts_the_rest(
    catalog: Catalog, count: int, lang: str
) -> None:
    """Round 47's look at H7's tables with five latecomers of ordinary names (6-8 letters):
    the bench's one room (the felt right of the piles, 314×144 px) holds fewer chips than
    latecomers. It names whole names, in the order they joined, never one cut with "…",
    then "+N more" counting exactly the rest. (15 seats is the most with five waiting: H7
    seats 20.)"""
    app, table = _party(catalog, count, lang)
    late = ("Rosalind", "Emanuel", "Clemence", "Dominik", "Isadora")
    for name in late:
        table.join(name)
    _catch_up(app)
    bench = _bench(app)
    named = [chip.text for chip in bench.chips]
    assert 1 <= len(named) < len(late)
    assert named == list(late[: len(named)])
    assert bench.more == app.props.t("bench_more", count=len(late) - len(named))
