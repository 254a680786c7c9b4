"""Issue 18.3 / 18.4: only what changed is shown (``host/tv/damage.py``), and what the window
shows is still the canvas, pixel for pixel, after every frame of whole games.

A frame of the table is its still layer with a few things painted over it; the TV copies to
the window only where the layer changed and where this frame or the one before painted over
it. If any painter drew outside what it reports, the window would keep a stale patch: these
games compare the window with the canvas after every frame, with captions, notices, a menu
and reactions coming and going.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pygame
import pytest

from host.i18n import Catalog
from host.rules import HouseRules
from host.social import REACTIONS, ReactionDesk
from host.tv.app import FRAME_SECONDS, TVApp, open_window
from host.tv.damage import MOST_RECTS, Damage
from host.tv.rehearsal import Rehearsal
from host.tv.screen import Screen
from host.tv.still import WHOLE_SHARE, restore
from tests.clock import Clock

from .conftest import FakeAnnouncer
from .test_still import TABLES

CANVAS = (1920, 1080)


def shown(screen: Screen, into: pygame.Surface | None = None) -> bytes:
    """What the window shows now (SDL reads its pixels back). ``into``: a surface to read
    them into; pygame's ``to_surface()`` without one keeps every surface it makes (8 MB a
    call)."""
    into = into or pygame.Surface(screen.canvas.get_size())
    return pygame.image.tobytes(screen.renderer.to_surface(into), "RGB")


def drawn(screen: Screen) -> bytes:
    return pygame.image.tobytes(screen.canvas, "RGB")


def test_damage_is_whole_until_a_frame_says_where_and_nothing_once_shown() -> None:
    damage = Damage()
    assert damage.take() is None  # nothing shown yet
    assert damage.take() == []  # shown: nothing differs
    a, b, c = pygame.Rect(0, 0, 10, 10), pygame.Rect(50, 50, 5, 5), pygame.Rect(90, 0, 4, 4)
    damage.frame([], [a])
    assert damage.take() is None  # the frame before did not say where it painted
    damage.frame([c], [b])
    assert damage.take() == [c, b, a]  # the layer's change, this frame's and the last's
    damage.frame([], [])
    damage.frame([], [a])  # two frames drawn, one shown: both count
    assert damage.take() == [b, a]
    damage.frame([], None)  # a menu over the table
    assert damage.take() is None
    damage.frame([], [a])
    assert damage.take() is None  # the frame before was whole
    damage.frame([], [a])
    damage.whole()  # the window was uncovered
    assert damage.take() is None


def test_frames_drawn_and_never_shown_do_not_pile_up_rectangles() -> None:
    """Screenshots and a loop without a window draw frames nobody shows: past MOST_RECTS
    waiting rectangles the canvas counts as changed everywhere, and the list is dropped."""
    damage = Damage()
    damage.frame([], [])
    damage.take()  # whole: the first frame
    spot = pygame.Rect(0, 0, 4, 4)
    damage.frame([spot], [])
    assert damage.take() == [spot]
    for _ in range(MOST_RECTS):
        damage.frame([spot], [])
    assert len(damage.take() or ()) == MOST_RECTS  # up to the bound: every one kept
    for _ in range(MOST_RECTS + 1):
        damage.frame([spot], [])
    assert damage.take() is None
    assert damage.take() == []


def test_issue18_only_the_damaged_rectangles_reach_the_window() -> None:
    """The presenter copies only what it is told changed (the rest of the window keeps the
    frame before), and the whole frame when told nothing."""
    screen = open_window(False, "Cuckoo Party")
    presenter = screen._presenter
    try:
        if presenter is None:
            pytest.skip("SDL is found through /proc/self/maps, on Linux only")
        screen.canvas.fill((200, 0, 0))
        screen.present()
        screen.canvas.fill((0, 0, 200))
        screen.present([pygame.Rect(100, 200, 30, 40)])
        window = screen.renderer.to_surface()
        assert tuple(window.get_at((110, 210))) == (0, 0, 200, 255)
        assert tuple(window.get_at((99, 210))) == (200, 0, 0, 255)  # outside: the one before
        assert tuple(window.get_at((110, 240))) == (200, 0, 0, 255)
        assert presenter.partial == 1
        screen.present([])  # nothing changed: nothing done
        assert presenter.partial == 1
        screen.present()
        assert shown(screen) == drawn(screen)
        screen.window.size = (1280, 720)  # scaled: the window is drawn whole
        screen.present([pygame.Rect(0, 0, 10, 10)])
        assert presenter.partial == 1
    finally:
        screen.close()


def party(
    name: str, catalog: Catalog, clock: Callable[[], float] = time.monotonic
) -> tuple[TVApp, Rehearsal, FakeAnnouncer]:
    names, rules, lang = TABLES[name]
    table = Rehearsal(HouseRules.parse(rules), seed=11, people=names, clock=clock)
    table.host_next()
    voice = FakeAnnouncer(None)
    app = TVApp(table.session, voice, catalog, lang=lang, join_url="http://127.0.0.1:8000/")
    return app, table, voice


def now_and_then(
    app: TVApp, table: Rehearsal, voice: FakeAnnouncer
) -> dict[int, Callable[[], Any]]:
    """What happens around the table besides the game, by frame: the voice speaks and falls
    silent, the host presses a key, opens the help and closes it, a reaction floats up (put on
    the desk directly: only a guest out of the round may send one)."""
    player = app.stage.players[0].id
    return {
        40: lambda: setattr(voice, "line", "Ana swaps with Chloé"),
        200: lambda: setattr(voice, "line", "Chloé keeps"),
        330: lambda: setattr(voice, "line", None),
        420: lambda: app.notify("Muted"),
        700: lambda: app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_h, unicode="h")),
        760: lambda: (
            app.overlays
            and app.overlays[-1].handle(
                pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, unicode="")
            )
        ),
        900: lambda: table.session.reactions.add(player, REACTIONS[0]),
    }


@pytest.mark.parametrize("name", list(TABLES))
def test_issue18_the_window_shows_the_canvas_after_every_frame_of_whole_games(
    name: str, catalog: Catalog
) -> None:
    app, table, voice = party(name, catalog)
    screen = open_window(False, "Cuckoo Party")
    presenter = screen._presenter
    if presenter is None:
        screen.close()
        pytest.skip("SDL is found through /proc/self/maps, on Linux only")
    events = now_and_then(app, table, voice)
    window = pygame.Surface(CANVAS)
    frames = partial = 0
    area = 0.0
    phases: set[str] = set()
    try:
        for tick in range(1600 if "20" in name else 1200):
            if tick in events:
                events[tick]()
            table.feed(app)
            app.poll_caption()
            for _ in range(4):  # the TV's clock at 4x: every beat, fewer frames
                app.step(FRAME_SECONDS)
            if not app.needs_render:
                continue
            app.render(screen.canvas)
            damage = app.damage.take()
            before = presenter.partial
            screen.present(damage)
            assert shown(screen, window) == drawn(screen), (tick, app.stage.phase, damage)
            frames += 1
            phases.add(app.stage.phase)
            if presenter.partial > before and damage is not None:
                partial += 1
                area += sum(
                    rect.clip(screen.canvas.get_rect()).width
                    * rect.clip(screen.canvas.get_rect()).height
                    for rect in damage
                ) / (CANVAS[0] * CANVAS[1])
    finally:
        screen.close()
    assert {"turns", "reveal"} <= phases
    assert frames > 300
    assert partial > frames // 2, (partial, frames)  # most frames copy only what changed
    assert area / partial < 0.35  # … and that is a fraction of the frame
    assert app.overlays == []  # the help came and went


def test_a_restore_copies_the_layer_only_inside_the_rectangles() -> None:
    """``still.restore``: inside the rectangles the layer again, outside them the frame before
    untouched; past a quarter of the canvas, the whole layer in one copy."""
    layer, target = pygame.Surface(CANVAS), pygame.Surface(CANVAS)
    layer.fill((10, 120, 40))
    target.fill((200, 0, 0))
    inside, also = pygame.Rect(100, 100, 50, 40), pygame.Rect(120, 110, 60, 10)
    copied = restore(layer, target, [inside, also, pygame.Rect(3000, 0, 5, 5)])
    assert tuple(target.get_at((101, 101))) == (10, 120, 40, 255)
    assert tuple(target.get_at((175, 115))) == (10, 120, 40, 255)
    assert tuple(target.get_at((99, 101))) == (200, 0, 0, 255)
    assert tuple(target.get_at((185, 115))) == (200, 0, 0, 255)
    assert copied == 80 * 40  # the two as one rectangle (they overlap), the one off the canvas out
    big = pygame.Rect(0, 0, 1920, int(1080 * WHOLE_SHARE) + 1)
    assert restore(layer, target, [big]) == CANVAS[0] * CANVAS[1]
    assert pygame.image.tobytes(target, "RGB") == pygame.image.tobytes(layer, "RGB")


def twin_parties(
    name: str, catalog: Catalog, clock: Clock
) -> list[tuple[TVApp, Rehearsal, FakeAnnouncer]]:
    """Two TVs of the same party, on a session clock and reactions that keep the frames'
    time, not the wall's: on the wall's, a loaded machine opened H4's turn with 9.9 s left
    on one TV and 10.0 on the other, a pixel of countdown apart."""
    twins = [party(name, catalog, clock) for _ in range(2)]
    for app, table, _ in twins:
        table.session.reactions = ReactionDesk(clock=stage_clock(app))
    return twins


def stage_clock(app: TVApp) -> Callable[[], float]:
    return lambda: app.stage.time


@pytest.mark.parametrize("name", list(TABLES))
def test_issue18_a_frame_restored_where_it_changed_equals_one_copied_whole(
    name: str, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whole games on two TVs of the same party: one restores only where its last frame
    painted over the still layer and where the layer changed, the other (never told its canvas
    was left alone) copies the whole layer under every frame; after every frame the two
    canvases are the same, pixel for pixel, through captions, a notice, the help and a
    reaction. Restoring less (no last frame's rectangles, no layer changes) fails it."""
    clock = Clock(0.0)  # the time of the frames played so far
    (app, table, voice), (whole, whole_table, whole_voice) = twin_parties(name, catalog, clock)
    monkeypatch.setattr(whole.table, "canvas_untouched", lambda: None)
    events = [now_and_then(app, table, voice), now_and_then(whole, whole_table, whole_voice)]
    canvas, reference = pygame.Surface(CANVAS), pygame.Surface(CANVAS)
    frames = restored = 0
    phases: set[str] = set()
    for tick in range(950):  # past the last of now_and_then
        clock.now = 4 * FRAME_SECONDS * tick
        for (tv, rehearsal, _), happenings in zip(
            ((app, table, voice), (whole, whole_table, whole_voice)), events
        ):
            if tick in happenings:
                happenings[tick]()
            rehearsal.feed(tv)
            tv.poll_caption()
            for _ in range(4):
                tv.step(FRAME_SECONDS)
        assert app.needs_render == whole.needs_render, tick
        if not app.needs_render:
            continue
        app.render(canvas)
        whole.render(reference)
        assert whole.table.restored in (0, CANVAS[0] * CANVAS[1])
        assert drawn_bytes(canvas) == drawn_bytes(reference), (tick, app.stage.phase)
        frames += 1
        phases.add(app.stage.phase)
        if app.base_scene() is app.table and 0 < app.table.restored < CANVAS[0] * CANVAS[1]:
            restored += 1
    assert {"turns", "reveal"} <= phases
    assert frames > 200
    assert restored > frames // 2, (restored, frames)  # most frames restored only a part


def drawn_bytes(surface: pygame.Surface) -> bytes:
    return surface.get_buffer().raw
