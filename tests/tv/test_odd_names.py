"""Issue 15 finding 1: no name — invisible, blank, wide or broken — can stop the TV.

The names here can no longer be chosen through a join (``host.names`` refuses them), but an old
save may still hold one, and the TV must draw anything it is given: it measures before it draws,
and a failure in one element is logged and drawn as a fallback, never ends the process.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, cast

import pygame
import pytest

from host.rules import EventDict, HouseRules
from host.session import Session
from host.tv.app import TVApp
from host.tv.rehearsal import Rehearsal
from host.tv.theme import Theme

from ..odd_names import BLANK, ZERO_WIDTH, save_with_invisible_names
from .views import StillSession, player, view

ODD_NAMES = [
    *ZERO_WIDTH,
    *BLANK,
    "",
    " ",
    "\U000e0100",
    "字" * 16,
    "W" * 16,
    "Ａｎａ",
    "a\u0301" * 8,
    "\ud800",
]


def _ids(name: str) -> str:
    return "+".join(f"U{ord(c):04X}" for c in name[:3]) or "empty"


@pytest.mark.parametrize("odd", ODD_NAMES, ids=_ids)
def test_issue15_invisible_name_draws_in_lobby_and_for_a_waiting_player(
    canvas: pygame.Surface, make_app: Any, odd: str
) -> None:
    lobby = view("lobby", [player(0, name=odd), player(1), player(2, name=odd, bot=True)])
    app: TVApp = make_app(session=StillSession(lobby))[0]
    app.render(canvas)
    app.stage.receive(
        view(
            "turns",
            [
                player(0),
                player(1),
                player(2),
                player(3, name=odd, status="waiting", connected=False),
            ],
        ),
        cast("list[EventDict]", [{"type": "joined", "player": "p3", "name": odd}]),
    )
    for _ in range(30):
        app.step(1 / 10)
        app.render(canvas)
    app.stage.receive(
        view("game_over", [player(0, name=odd), player(1), player(2)], winners=["p0"]),
        [{"type": "game_over", "winners": ["p0"], "joint": False, "walkover": False}],
    )
    for _ in range(30):
        app.step(1 / 10)
        app.render(canvas)


def test_issue15_every_text_is_measured_and_never_empty(caplog: pytest.LogCaptureFixture) -> None:
    pygame.font.init()
    th = Theme()
    for odd in ODD_NAMES:
        image = th.text(odd, 34)
        assert image.get_width() > 0 and image.get_height() > 0
        assert th.fitted_text(odd, 34, 200).get_width() <= 200


def test_issue15_long_names_are_ellipsized_to_the_width_given() -> None:
    pygame.font.init()
    th = Theme()
    for name in ("字" * 16, "W" * 16, "MMMMMMMMMMMMMMMM"):
        image = th.fitted_text(name, 34, 160, min_size=30)
        assert 0 < image.get_width() <= 160
    assert th.fitted_text("Ana", 34, 400).get_width() == th.text("Ana", 34).get_width()
    assert th.ellipsized("字" * 16, 34, 160).endswith("…")


def test_issue15_a_failing_text_is_logged_and_drawn_as_a_fallback(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    pygame.font.init()
    th = Theme()
    font = th.font(34)
    real = type(font).render

    class Broken(type(font)):  # type: ignore[misc]
        def render(self, text: Any, *args: Any) -> pygame.Surface:
            if text == "Boom":
                raise pygame.error("Text has zero width")
            return real(self, text, *args)

    broken = Broken(None, 34)
    monkeypatch.setattr(th, "font", lambda size, bold=False: broken)
    with caplog.at_level(logging.WARNING):
        image = th.text("Boom", 34)
    assert image.get_width() > 0
    assert "Boom" in caplog.text


def test_issue15_a_failing_scene_is_logged_and_the_tv_goes_on(
    canvas: pygame.Surface, make_app: Any, caplog: pytest.LogCaptureFixture
) -> None:
    app: TVApp = make_app(session=StillSession(view("lobby", [player(0)])))[0]

    def explode(surface: pygame.Surface) -> None:
        raise RuntimeError("a broken scene")

    app.lobby.draw = explode  # type: ignore[method-assign]
    with caplog.at_level(logging.ERROR):
        app.render(canvas)
        app.render(canvas)
    assert app.frames_rendered == 2
    failures = [r for r in caplog.records if "a broken scene" in r.getMessage()]
    assert len(failures) == 1  # logged once, not 60 times a second


def test_issue15_rehearsed_game_with_invisible_names_plays_through(
    canvas: pygame.Surface, make_app: Any
) -> None:
    """Names a save from before issue 15 could hold (the session refuses them today): seated
    under plain names, then renamed in the engine, as such a save would resume them."""
    rehearsal = Rehearsal(seed=3)
    odd = ("\u200d", "\ufe0f", "\u2800", "\u3164")
    players = [rehearsal.join(f"P{i}") for i in range(len(odd))]
    game = rehearsal.session._game  # white-box: only an old save can seat these names
    for pid, name in zip(players, odd):
        game.player(pid).name = name
    app: TVApp = make_app(session=rehearsal.session)[0]
    late: str | None = None
    for move in range(400):
        if rehearsal.phase == "game_over":
            break
        rehearsal.play()
        if move == 3:
            late = rehearsal.join("Late")  # waits for the next game
            game.player(late).name = "\u180b"
        app.pump_updates()
        app.step(0.25)
        app.render(canvas)
    assert late is not None and rehearsal.phase in ("turns", "reveal", "game_over")


def test_issue15_saved_game_with_invisible_name_resumes_on_the_tv(
    tmp_path: Path, canvas: pygame.Surface, make_app: Any
) -> None:
    path = tmp_path / "state.json"
    save_with_invisible_names(path, 2, ("\u200d", "\ufe0f", "\u2800", "\u034f"))
    resumed = Session(HouseRules(), state_path=path)
    try:
        assert resumed.resumed
        app: TVApp = make_app(session=resumed)[0]
        for _ in range(20):
            app.pump_updates()
            app.step(0.1)
            app.render(canvas)
        assert app.frames_rendered == 20
    finally:
        resumed.close()


def test_issue15_blank_glyphs_are_drawn_as_the_fallback() -> None:
    pygame.font.init()
    th = Theme()
    question = th.text("?", 34)
    for blank in ("\u2800", "\u200d", "\u2800\u2800", "\u2800 \u2800"):
        assert th.text(blank, 34).get_size() == question.get_size()
        assert th.text(blank, 34).get_bounding_rect().width > 0  # ink on the screen


def test_issue15_the_stage_names_an_invisible_player_with_a_question_mark(make_app: Any) -> None:
    app: TVApp = make_app(
        session=StillSession(view("lobby", [player(0, name="\u200d"), player(1, name="\u2800")]))
    )[0]
    assert [seat.name for seat in app.stage.players] == ["?", "?"]
    assert app.stage.name_of("p0") == "?"
    app.stage.receive(
        view("lobby", [player(0, name="Ana")]),
        cast("list[EventDict]", [{"type": "player_joined", "player": "p5", "name": "\u034f"}]),
    )
    assert app.stage.name_of("p0") == "Ana"
