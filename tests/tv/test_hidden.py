"""The TV never receives or shows a card it may not (RULES.md "Hidden information", R15).

Two angles: the scene's input (what reaches the stage) holds no private card, and the pixels
at a seat before the reveal are exactly the card back.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, cast

import pygame

from host.rules import View
from host.tv.app import TVApp
from host.tv.layout import seat_spots
from host.tv.seats import card_rect
from host.tv.stage import Stage
from host.tv.table import TableScene

from .conftest import seat_players

CARD = re.compile(r'"((?:10|[2-9AJQK])[SHDC])"')
INSET = 30  # stay clear of the rounded corners and the dealer button


def pixels(surface: pygame.Surface, rect: pygame.Rect) -> bytes:
    return pygame.image.tobytes(surface.subsurface(rect), "RGB")


def back_pixels(app: TVApp, width: int, rect: pygame.Rect) -> bytes:
    """The card back's inner pixels, as they must appear at a seat."""
    plain = pygame.Surface(rect.size)
    back = app.props.cards.back(width)
    plain.blit(back, (0, 0))
    return pixels(plain, pygame.Rect(INSET, INSET, rect.width - 2 * INSET, rect.height - 2 * INSET))


def seat_inner(app: TVApp, index: int) -> tuple[pygame.Rect, int]:
    spot = seat_spots(len(app.stage.players))[index]
    rect = card_rect(spot)
    return rect.inflate(-2 * INSET, -2 * INSET), spot.card_width


def allowed_cards(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> set[str]:
    """Cards the public may see in this update: shown Kings, a cut King, the reveal."""
    allowed = {c for c in view.get("shown", {}).values()}
    if view.get("cut_king"):
        allowed.add(view["cut_king"])
    if view.get("phase") in ("reveal", "game_over"):
        allowed |= {p["card"] for p in view["players"] if p.get("card")}
    for event in events:
        if event["type"] in ("blocked", "cut_king"):
            allowed.add(event["king"])
        if event["type"] in ("reveal", "sudden_death"):
            allowed |= set(event["cards"].values())
    for entry in view.get("log", []):
        if entry["type"] in ("reveal", "sudden_death"):
            allowed |= set(entry["cards"].values())
    return allowed


def test_private_view_and_private_events_are_dropped_on_arrival(
    canvas: pygame.Surface, make_app: Any
) -> None:
    """Even if a caller passed a player's view and private events, no private card remains."""
    app, table = make_app()
    ids = seat_players(table)
    table.host_next()
    app.pump_updates()
    app.stage.fast_forward()
    session = table.session
    holder = ids[1]
    private_view = session.view(holder)
    assert private_view["me"] is not None
    secret = private_view["me"]["card"]
    assert secret and secret not in session.view(None)["shown"].values()
    leaks = [
        {"type": "card_dealt", "player": holder, "card": secret},
        {"type": "swap", "player": holder, "target": ids[2], "gave": secret, "got": "2C"},
        {"type": "cut_card", "dealer": ids[0], "card": secret, "discarded": "3D"},
    ]
    app.stage.receive(private_view, leaks)
    app.stage.fast_forward()
    assert secret not in repr(app.stage), "a private card reached the TV's model"
    assert app.stage.latest is not None and app.stage.latest["me"] is None
    app.render(canvas)
    index = [p.id for p in app.stage.players].index(holder)
    inner, width = seat_inner(app, index)
    assert pixels(canvas, inner) == back_pixels(
        app, width, card_rect(seat_spots(len(app.stage.players))[index])
    )


def test_r15_no_card_reaches_the_tv_before_the_reveal_and_seats_show_backs(
    canvas: pygame.Surface, make_app: Any
) -> None:
    """A whole game: every update's cards are public ones; resting seats show the back."""
    app, table = make_app()
    seat_players(table, ("Ana", "Chloé", "Niccolò", "François", "Zoë"))
    received: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    original = app.stage.receive

    def spy(view: dict[str, Any], events: list[dict[str, Any]]) -> None:
        received.append((view, events))
        original(view, events)

    app.stage.receive = spy
    checked_seats = 0
    for _ in range(2000):
        if table.phase == "game_over":
            break
        table.play()
        app.pump_updates()
        app.stage.fast_forward()
        if app.stage.phase != "turns":
            continue
        app.render(canvas)
        for index, seat in enumerate(app.stage.players):
            if seat.dealt and seat.card is None:
                inner, width = seat_inner(app, index)
                outer = card_rect(seat_spots(len(app.stage.players))[index])
                assert pixels(canvas, inner) == back_pixels(app, width, outer), seat.name
                checked_seats += 1
    assert table.phase == "game_over"
    assert checked_seats > 50
    for view, events in received:
        found = set(CARD.findall(json.dumps([view, events])))
        assert found <= allowed_cards(view, events), found - allowed_cards(view, events)


def test_reveal_pixels_differ_from_the_back(canvas: pygame.Surface, make_app: Any) -> None:
    """The pixel check can fail: after the reveal a seat shows its face, not the back."""
    app, table = make_app()
    seat_players(table)
    table.host_next()
    for _ in range(10):
        if table.phase == "reveal":
            break
        table.play(lambda player: "keep")
    app.pump_updates()
    app.stage.fast_forward()
    assert app.stage.phase == "reveal"
    app.render(canvas)
    inner, width = seat_inner(app, 0)
    outer = card_rect(seat_spots(len(app.stage.players))[0])
    assert pixels(canvas, inner) != back_pixels(app, width, outer)


def test_table_scene_reads_only_the_stage() -> None:
    """The renderer's only input is the stage, which is built from public views and events."""
    scene_inputs = set(TableScene.__init__.__code__.co_varnames[1:3])
    assert scene_inputs == {"stage", "props"}
    stage = Stage()
    mine = {"phase": "lobby", "players": [], "me": {"card": "QH"}, "can": ["start"]}
    stage.receive(cast(View, mine), [])
    assert stage.latest == cast(
        View, {"phase": "lobby", "players": [], "me": None, "can": [], "log": []}
    )
