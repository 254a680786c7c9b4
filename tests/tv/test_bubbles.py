"""Round 46: a seat's move bubble ("Keeps") stays readable from the sofa.

It lived one 0.7 s beat, fading from its middle, and the next seat's move took the eye before
anyone read it. Now it stays on the seat's card 2 s, whole for 1.6 (``BUBBLE_SECONDS``) while the
game's beats go on at their pace, until that seat's next move, the reveal or a new deal; and
neighbours' bubbles never cover each other nor the cards crossing the table.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, cast

import pygame
import pytest

from host.i18n import Catalog
from host.tv import moves, stage, theme
from host.tv.app import FRAME_SECONDS, TVApp
from host.tv.seats import card_rect
from host.tv.table import seat_region

from .views import StillSession, events, player, view


def _app(catalog: Catalog, count: int) -> TVApp:
    """A TV at a round's first turn with ``count`` seats (p0 first, the last one dealing)."""
    players = [player(i, name=f"Guest {i}") for i in range(count)]
    order = [f"p{i}" for i in range(count)]
    shown = view("turns", players, current="p0", dealer=order[-1], order=order, max_players=20)
    app = TVApp(
        cast(Any, StillSession(shown)), None, catalog, lang="en", join_url="http://x/?room=CAKE"
    )
    app.stage.fast_forward()
    return app


def _kept(seat: int) -> dict[str, Any]:
    return {"type": "kept", "player": f"p{seat}", "auto": False, "timed_out": False}


def _gold_on_card(app: TVApp, seat: str, canvas: pygame.Surface) -> int:
    """How many pixels of the bubble's gold are on ``seat``'s card in the frame drawn now."""
    app.render(canvas)
    card = card_rect(app.table.seating()[0][seat])
    return sum(
        1
        for x in range(card.left, card.right, 2)
        for y in range(card.top, card.bottom, 2)
        if tuple(canvas.get_at((x, y)))[:3] == theme.GOLD
    )


def _play(app: TVApp, seconds: float) -> None:
    for _ in range(round(seconds / FRAME_SECONDS)):
        app.play_frame()


def test_round46_a_keeps_bubble_stays_readable_while_the_next_moves_play(
    catalog: Catalog, canvas: pygame.Surface
) -> None:
    """R7: p0 keeps; p1's turn and swap with p2 play at their own pace meanwhile. At 1.5 s
    (two beats on) "Keeps" is still on p0's card; by ``BUBBLE_SECONDS`` it is gone."""
    app = _app(catalog, 5)
    assert _gold_on_card(app, "p0", canvas) == 0  # no gold on that card before the move
    swap = {"type": "exchanged", "player": "p1", "target": "p2"}
    app.stage.receive(
        view("turns", current="p2"),
        events(_kept(0), {"type": "turn", "player": "p1"}, swap, {"type": "turn", "player": "p2"}),
    )
    _play(app, 0.3)
    assert _gold_on_card(app, "p0", canvas) > 50
    _play(app, 1.2)  # 1.5 s from the keep: its 0.7 s beat and the 0.35 s turn are over
    assert app.stage.beat is not None and app.stage.beat.kind == "exchanged"  # pace unchanged
    assert stage.BEAT_SECONDS["kept"] == 0.7
    assert _gold_on_card(app, "p0", canvas) > 50
    _play(app, stage.BUBBLE_SECONDS - 1.5 + 0.05)
    assert _gold_on_card(app, "p0", canvas) == 0


def test_round46_the_reveal_takes_the_bubbles_down(
    catalog: Catalog, canvas: pygame.Surface
) -> None:
    """The reveal turns every card face up (R10): no bubble of a move is left on them."""
    app = _app(catalog, 4)
    cards = {"p0": "5H", "p1": "9C", "p2": "2S", "p3": "KD"}
    app.stage.receive(
        view("reveal", current=None),
        events(_kept(2), {"type": "reveal", "cards": cards, "lowest": "2", "losers": ["p2"]}),
    )
    _play(app, 0.72)  # the keep's beat is over, the reveal's has begun
    assert app.stage.beat is not None and app.stage.beat.kind == "reveal"
    assert _gold_on_card(app, "p2", canvas) == 0


@pytest.mark.parametrize("count", [4, 10, 20])
def test_round46_neighbours_bubbles_never_cover_each_other_nor_cards_crossing(
    catalog: Catalog, count: int
) -> None:
    """Every seat moves in turn, keeping or swapping with the next (R7): at every frame each
    bubble lies in its own seat's place, no two bubbles meet, and no card in flight passes
    under one (the swapped cards would be hidden)."""
    app = _app(catalog, count)
    played: list[dict[str, Any]] = []
    for index in range(count - 1):  # the dealer, last, neither keeps nor swaps here
        played.append({"type": "turn", "player": f"p{index}"})
        if index % 3 == 1:
            played.append({"type": "exchanged", "player": f"p{index}", "target": f"p{index + 1}"})
        else:
            played.append(_kept(index))
    app.stage.receive(view("turns", current=f"p{count - 1}"), events(*played[1:]))
    scratch = pygame.Surface(theme.CANVAS_SIZE)
    most = 0
    for _ in range(2000):
        now = app.stage
        if now.beat is None and not now.bubbles:
            break
        spots = app.table.seating()[0]
        seats = [seat for seat, _, _ in now.shown_bubbles()]
        bubbles = list(zip(seats, moves.draw_bubbles(scratch, app.props, now, spots)))
        most = max(most, len(bubbles))
        for seat, box in bubbles:
            assert pygame.Rect(seat_region(spots[seat])).contains(box), (seat, box)
        for (a, one), (b, other) in combinations(bubbles, 2):
            assert not one.colliderect(other), (a, b)
        flights: list[tuple[pygame.Surface, pygame.Rect]] = []
        if now.beat is not None:
            moves.draw_move(moves.Move(scratch, app.props, now, now.beat, spots, "cards", flights))
        for _, card in flights:
            for seat, box in bubbles:
                assert not card.colliderect(box), (now.beat and now.beat.kind, seat)
        app.play_frame()
    assert most >= (2 if count > 4 else 1)  # a keep's bubble outlived its beat into the next


def test_round46_a_bubble_fading_after_its_beat_is_drawn_and_then_wiped(
    catalog: Catalog, canvas: pygame.Surface
) -> None:
    """After its beat the bubble fades at full frame rate (the TV is busy); a frame is
    skipped only when it would look the same (``pose``), and once gone the seat is as before
    the move, pixel for pixel (the still layer restores where it was)."""
    from host.tv.motion import pose

    app = _app(catalog, 5)
    seat = pygame.Rect(seat_region(app.table.seating()[0]["p0"]))
    app.render(canvas)
    before = pygame.image.tobytes(canvas.subsurface(seat), "RGB")
    assert app.stage.latest is not None
    app.stage.receive(app.stage.latest, events(_kept(0)))  # the table as it was
    last_pose: Any = object()
    last = b""
    drawn = idle_whole = 0
    for _ in range(300):
        if not app.stage.bubbles:
            break
        # full frame rate while it fades; whole and still, the TV may idle
        assert app.busy == (app.stage.beat is not None or app.stage.bubbles_fading)
        idle_whole += not app.busy
        app.render(canvas)
        frame = pygame.image.tobytes(canvas, "RGB")
        if pose(app.stage) == last_pose:
            assert frame == last
        else:
            drawn += 1
        last_pose, last = pose(app.stage), frame
        app.play_frame()
    assert app.stage.beat is None and not app.stage.bubbles and not app.busy
    assert drawn > 10  # the fade's frames
    assert idle_whole > 0  # whole after its beat, the bubble held neither the loop nor the game
    app.render(canvas)  # the trail tells the keep now; the seat is as before it
    assert pygame.image.tobytes(canvas.subsurface(seat), "RGB") == before
