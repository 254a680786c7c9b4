"""Issue 18.1 — the TV's frame gives way to a phone being served (``host/phones_first.py``)."""

from __future__ import annotations

import time
from typing import Any

import pygame

from host.tv.app import FRAME_SECONDS
from host.tv.rehearsal import Rehearsal

from ..session.test_phones_first import Held


def test_a_tv_frame_gives_way_to_a_phone_and_is_drawn_the_same(make_app: Any) -> None:
    """The TV's frame waits while a phone is served (within its budget), between its pieces,
    then draws exactly what it would have drawn; nothing served, it never waits."""
    table = Rehearsal(seed=5, people=("Ana", "Chloé", "Niccolò", "François", "Zoë"))
    table.host_next()
    app, _ = make_app(session=table)
    assert app.phones_first is table.session.phones_first
    canvas, again = pygame.Surface((1920, 1080)), pygame.Surface((1920, 1080))
    for _ in range(400):  # into a game: the table's frames, seats and all
        table.feed(app)
        app.step(FRAME_SECONDS)
    assert app.base_scene() is app.table
    app.render(canvas)
    assert app.phones_first.waited == 0.0
    app.phones_first.budget = 0.2
    held = Held(app.phones_first)
    try:
        began = time.monotonic()
        app.render(again)
        assert time.monotonic() - began >= 0.2
        assert 0.2 <= app.phones_first.waited < 5
    finally:
        held.end()
    assert pygame.image.tobytes(canvas, "RGB") == pygame.image.tobytes(again, "RGB")
    waited = app.phones_first.waited
    app.render(again)
    assert app.phones_first.waited == waited


def test_the_table_gives_way_between_its_seats(make_app: Any) -> None:
    """Not only between the frame's layers: the table scene asks before every seat it paints,
    so a tap arriving mid-frame waits for one seat, not for the rest of the frame."""
    app, table = make_app(session=Rehearsal(seed=5, people=("Ana", "Chloé", "Niccolò", "Zoë")))
    asked: list[int] = []
    app.table.give_way = lambda: asked.append(1)
    app.table.keep_still = False  # every seat painted in this frame
    canvas = pygame.Surface((1920, 1080))
    table.host_next()
    for _ in range(400):
        table.feed(app)
        app.step(FRAME_SECONDS)
    asked.clear()
    app.table.draw(canvas)
    assert len(asked) >= len(app.stage.players)
