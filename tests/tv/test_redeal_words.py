"""Round 40's play-test on the TV: a kick's redeal read "Misdeal", a removed player turned into
"?" in the round's story, and a VIP's skip read as a time-out.

The engine plays (``host.rules``), the TV's stage plays its events, and the test reads the
words the TV asks for (banner, plate) and the story's lines, in English, French and Italian.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, cast

import pygame
import pytest

from host.i18n import Catalog
from host.rules import Game
from host.rules import controls as c
from host.rules.controls import TableFacts
from host.tv.app import TVApp
from host.tv.trail import trail_line
from tests.tv.views import StillSession

NAMES = ("Ana", "Ada", "Bruno", "Carla")


def _table() -> Game:
    """Four seated players, Ana the VIP, round 1 dealt by Carla (the last seat)."""
    game = Game(rng=random.Random(3))
    for i, name in enumerate(NAMES):
        game.add_player(f"p{i}", name)
    game.apply("p0", "start")
    game.dealer = "p3"
    game.round = 0
    game._deal_round()
    return game


def _tv(game: Game, catalog: Catalog, lang: str) -> TVApp:
    view = game.view(None)
    app = TVApp(cast(Any, StillSession(view)), None, catalog, lang=lang, join_url="http://x/")
    app.stage.receive(view, [])
    app.stage.fast_forward()
    return app


def _play(app: TVApp, game: Game, events: list[Any]) -> None:
    app.stage.receive(game.view(None), [e.to_dict() for e in events])


@pytest.mark.parametrize(
    ("lang", "banner", "story"),
    [
        ("en", "Ada left — Carla deals again", "Dealt again: Ada left"),
        ("fr", "Ada a quitté la table — Carla redistribue", "Redistribuée : Ada a quitté la table"),
        (
            "it",
            "Ada ha lasciato il tavolo — Carla ridà le carte",
            "Carte ridate: Ada ha lasciato il tavolo",
        ),
    ],
)
def test_r16_a_kick_mid_round_says_the_player_left_not_misdeal(
    catalog: Catalog,
    canvas: pygame.Surface,
    phrases_asked: Callable[[TVApp], list[str]],
    lang: str,
    banner: str,
    story: str,
) -> None:
    game = _table()
    app = _tv(game, catalog, lang)
    asked = phrases_asked(app)
    _play(app, game, c.kick(game, "p1", TableFacts()))
    while app.stage.beat is None or app.stage.beat.kind != "misdeal":
        assert app.stage.animating
        app.stage.update(0.05)
    said: list[str] = []
    phrase = app.props.t

    def recording(key: str, /, count: int | None = None, **params: Any) -> str:
        text = phrase(key, count=count, **params)
        said.append(text)
        return text

    app.props.t = recording  # type: ignore[method-assign]
    app.render(canvas)
    assert "misdeal_left" in asked and "misdeal" not in asked
    assert banner.replace(" :", "\u00a0:") in said
    app.stage.fast_forward()
    lines = [trail_line(app.props, app.stage, e) for e in app.stage.trail]
    assert lines == [story.replace(" :", "\u00a0:")]


def test_r16_a_called_misdeal_keeps_its_words(
    catalog: Catalog, canvas: pygame.Surface, phrases_asked: Callable[[TVApp], list[str]]
) -> None:
    game = _table()
    app = _tv(game, catalog, "en")
    asked = phrases_asked(app)
    _play(app, game, game.misdeal())
    while app.stage.beat is None or app.stage.beat.kind != "misdeal":
        app.stage.update(0.05)
    app.render(canvas)
    assert "misdeal" in asked and "misdeal_left" not in asked
    app.stage.fast_forward()
    assert [trail_line(app.props, app.stage, e) for e in app.stage.trail] == [
        "Dealt again after a misdeal"
    ]


def test_round40_a_player_removed_at_the_reveal_keeps_their_name_in_the_story(
    catalog: Catalog,
) -> None:
    """ "? kept (time out)" on the TV once Eva had been removed during the reveal."""
    game = _table()
    app = _tv(game, catalog, "en")
    for pid in game.order:
        _play(app, game, game.timeout() if pid == "p1" else game.apply(pid, "keep"))
    app.stage.fast_forward()
    assert game.phase == "reveal"
    _play(app, game, c.kick(game, "p1", TableFacts()))
    app.stage.fast_forward()
    lines = [trail_line(app.props, app.stage, e) for e in app.stage.trail]
    assert "Ada kept (time out)" in lines and not any("?" in line for line in lines)
    # A TV that starts now (the host came back after a crash) names her too.
    again = _tv(game, catalog, "en")
    assert [trail_line(again.props, again.stage, e) for e in again.stage.trail] == lines


@pytest.mark.parametrize(
    ("reason", "plate", "story"),
    [
        ("skipped", "Keeps (skipped)", "Ada kept (skipped)"),
        ("away", "Keeps (away)", "Ada kept (away)"),
        ("time", "Keeps (time out)", "Ada kept (time out)"),
    ],
)
def test_issue13_a_keep_the_host_made_says_why_on_the_plate_and_in_the_story(
    catalog: Catalog,
    canvas: pygame.Surface,
    phrases_asked: Callable[[TVApp], list[str]],
    reason: str,
    plate: str,
    story: str,
) -> None:
    from host.rules.contract import KeepReason

    game = _table()
    app = _tv(game, catalog, "en")
    _play(app, game, game.apply("p0", "keep"))
    app.stage.fast_forward()
    asked = phrases_asked(app)
    _play(app, game, game.timeout(KeepReason(reason)))
    while app.stage.beat is None or app.stage.beat.kind != "kept":
        app.stage.update(0.05)
    app.render(canvas)
    key = {"skipped": "skipped_keeps", "away": "away_keeps", "time": "auto_keeps"}[reason]
    assert key in asked and catalog.t("en", f"tv.{key}") == plate
    app.stage.fast_forward()
    assert trail_line(app.props, app.stage, app.stage.trail[-1]) == story


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_round46_every_keep_plate_says_it_in_one_tense(catalog: Catalog, lang: str) -> None:
    """Round 46: the plate said "Keeps" for a keep chosen but "Kept (skipped)" for one the
    host made, side by side at a table; each plate is the word "Keeps" and, after it, why."""
    word = catalog.t(lang, "tv.keeps")
    for key in ("auto_keeps", "away_keeps", "skipped_keeps"):
        plate = catalog.t(lang, f"tv.{key}")
        assert plate.startswith(word + " ("), (lang, key, plate)
