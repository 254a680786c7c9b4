"""Issue 18 item 3: the TV draws only what changes — no frame while idle, no frame repeated
while an animation holds still, and a skipped frame is always one that would look the same."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygame
import pytest

from host.rules import View
from host.tv.app import TVApp, open_window
from host.tv.motion import pose
from host.tv.screen import Screen

from .views import FakeClock, StillSession, events, player, view

FOUR = {"p0": "5H", "p1": "9C", "p2": "2S", "p3": "KD"}
#: (the view after the move, the move) for every beat kind the table animates.
BEATS: list[tuple[View, dict[str, Any]]] = [
    (
        view("turns"),
        {"type": "round_dealt", "round": 1, "dealer": "p3", "order": ["p0", "p1", "p2", "p3"]},
    ),
    (view("turns"), {"type": "game_started", "dealer": "p3"}),
    (view("turns"), {"type": "turn", "player": "p1"}),
    (view("turns"), {"type": "kept", "player": "p0", "auto": False, "timed_out": False}),
    (view("turns"), {"type": "exchanged", "player": "p1", "target": "p2"}),
    (
        view("turns"),
        {"type": "blocked", "player": "p1", "target": "p2", "king": "KS", "call": "cuckoo"},
    ),
    (view("turns"), {"type": "cut", "dealer": "p3", "attempt": 1}),
    (view("turns"), {"type": "cut_taken", "dealer": "p3"}),
    (view("turns"), {"type": "cut_king", "dealer": "p3", "king": "KH", "call": "chase"}),
    (view("reveal"), {"type": "reveal", "cards": FOUR, "lowest": "2", "losers": ["p2"]}),
    (view("reveal"), {"type": "life_lost", "player": "p2", "lives": 2, "timed_out": False}),
    (view("reveal"), {"type": "eliminated", "player": "p2"}),
    (view("reveal"), {"type": "sudden_death", "cards": {"p0": "5H", "p1": "9C"}, "winner": "p1"}),
    (view("game_over", winners=["p1"]), {"type": "game_over", "winners": ["p1"], "joint": False}),
    (view("turns"), {"type": "misdeal", "round": 1, "dealer": "p3"}),
]


def app_at(make_app: Any, first: View) -> TVApp:
    app: TVApp = make_app(session=StillSession(first))[0]
    return app


EIGHT = [player(i, name=f"Player {i}") for i in range(8)]
EIGHT_CARDS = {
    f"p{i}": code for i, code in enumerate(("5H", "9C", "2S", "KD", "3C", "QH", "7S", "2D"))
}
#: Bigger tables, for the beats whose seats move over the still layer.
CROWDED: list[tuple[View, dict[str, Any]]] = [
    (
        view("reveal", EIGHT),
        {"type": "reveal", "cards": EIGHT_CARDS, "lowest": "2", "losers": ["p2", "p7"]},
    ),
    (view("reveal", EIGHT), {"type": "life_lost", "player": "p7", "lives": 2, "timed_out": False}),
    (
        view("turns", EIGHT),
        {"type": "blocked", "player": "p6", "target": "p7", "king": "KS", "call": "cuckoo"},
    ),
    (view("turns", EIGHT), {"type": "exchanged", "player": "p6", "target": "p7"}),
]


@pytest.mark.parametrize(
    "after,event",
    BEATS + CROWDED,
    ids=[e["type"] for _, e in BEATS] + [f"8-{e['type']}" for _, e in CROWDED],
)
def test_issue18_a_frame_skipped_mid_animation_would_have_looked_the_same(
    make_app: Any, canvas: pygame.Surface, after: View, event: dict[str, Any]
) -> None:
    """Whenever the pose is the one of the frame drawn before, the whole frame is identical
    pixel for pixel (so the loop may skip it); a still beat is drawn only once. And every
    frame drawn over the table's still layer equals the table painted piece by piece."""
    app = app_at(
        make_app,
        view(
            after["phase"] if after["phase"] != "game_over" else "turns",
            [dict(seat) for seat in after["players"]],
        ),
    )
    app.stage.receive(after, events(event))
    assert app.stage.beat is not None and app.stage.beat.kind == event["type"]
    last_pose: Any = object()
    last_frame = b""
    poses = frames = 0
    table_only = pygame.Surface(canvas.get_size())  # the app's canvas holds its caption bar
    while app.stage.beat is not None and frames < 400:
        app.render(canvas)
        frame = pygame.image.tobytes(canvas, "RGB")
        app.table.draw(table_only)
        layered = pygame.image.tobytes(table_only, "RGB")
        app.table.paint(table_only, keep_still=False)
        assert layered == pygame.image.tobytes(table_only, "RGB"), f"{event['type']} layered"
        now = pose(app.stage)
        if now == last_pose:
            assert frame == last_frame, f"{event['type']} at {app.stage.beat.elapsed:.3f} s"
        else:
            poses += 1
        last_pose, last_frame = now, frame
        frames += 1
        app.step(1 / 60)
    assert frames > 10
    if event["type"] in ("turn", "game_started", "eliminated"):
        assert poses == 1  # held still: drawn once
    if event["type"] == "sudden_death":
        assert poses == 2  # the rule, then the verdict (round 43): drawn twice
    if event["type"] in ("blocked", "cut_king", "exchanged", "round_dealt", "reveal"):
        assert poses < frames  # moves, then holds


def count_flips(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every frame the window is shown (``Screen.present``), counted."""
    flips: list[int] = []
    real = Screen.present

    def present(screen: Screen, damage: Sequence[pygame.Rect] | None = None) -> None:
        flips.append(1)
        real(screen, damage)

    monkeypatch.setattr(Screen, "present", present)
    return flips


@pytest.mark.parametrize(
    "resting",
    [
        view("turns"),
        view("reveal", players=[player(i, card=c) for i, c in enumerate(FOUR.values())]),
        view("game_over", winners=["p1"]),
    ],
    ids=["turns", "reveal", "game_over"],
)
def test_issue18_an_idle_table_draws_and_presents_no_frame(
    make_app: Any, monkeypatch: pytest.MonkeyPatch, resting: View
) -> None:
    """Nothing moves and no update comes: after the first frame, the real loop (dummy
    driver window) neither draws nor flips for 100 loops."""
    screen = open_window(False, "Cuckoo Party")
    flips = count_flips(monkeypatch)
    try:
        app = app_at(make_app, resting)
        app.run(screen=screen, max_frames=1, clock=FakeClock(), wait=lambda fps: None)
        drawn, flipped = app.frames_rendered, len(flips)
        assert drawn == 1 and flipped == 1
        app.run(screen=screen, max_frames=100, clock=FakeClock(), wait=lambda fps: None)
        assert (app.frames_rendered, len(flips)) == (drawn, flipped)
    finally:
        screen.close()


def test_issue18_a_still_beat_is_drawn_once_not_every_tick(
    make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An elimination's banner holds for a second: drawn as it begins and once it ends,
    not 60 times (the loop used to redraw every frame while any beat played)."""
    screen = open_window(False, "Cuckoo Party")
    flips = count_flips(monkeypatch)
    try:
        app = app_at(make_app, view("reveal"))
        app.run(screen=screen, max_frames=1, clock=FakeClock(), wait=lambda fps: None)
        app.stage.receive(view("reveal"), events({"type": "eliminated", "player": "p2"}))
        before = app.frames_rendered
        app.run(screen=screen, max_frames=40, clock=FakeClock(), wait=lambda fps: None)  # 2 s
        assert app.stage.beat is None  # the beat played out
        assert app.frames_rendered - before == 2  # its start and the table after it
        assert len(flips) == app.frames_rendered
    finally:
        screen.close()
