"""Fixtures for the TV tests: a catalog, a canvas, and a TV app over an engine rehearsal.

Headless: SDL's dummy drivers are set here (not globally) before pygame opens anything.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from host.i18n import Catalog
from host.tv.app import TVApp
from host.tv.rehearsal import Rehearsal
from host.tv.theme import CANVAS_SIZE

JOIN_URL = "http://192.168.1.20:8000/?room=CAKE"


class FakeAnnouncer:
    """Records what the TV asks of the voice; shows a fixed caption."""

    def __init__(self, caption: str | None = "Ana swaps with Chloé") -> None:
        self.line = caption
        self.muted = False
        self.languages: list[str] = []

    def caption(self) -> str | None:
        return self.line

    def set_language(self, lang: str) -> None:
        self.languages.append(lang)

    def set_muted(self, muted: bool) -> None:
        self.muted = muted


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return Catalog.load()


@pytest.fixture
def canvas() -> Iterator[pygame.Surface]:
    pygame.font.init()
    yield pygame.Surface(CANVAS_SIZE)


@pytest.fixture
def make_app(catalog: Catalog) -> Callable[..., tuple[TVApp, Any]]:
    """``make_app(session=None, announcer=None, lang="en")`` → (app, session)."""

    def factory(
        session: Any = None,
        announcer: Any = None,
        lang: str = "en",
        house_rules: list[str] | None = None,
    ) -> tuple[TVApp, Any]:
        script = session if session is not None else Rehearsal(seed=5)
        table = script.session if isinstance(script, Rehearsal) else script
        app = TVApp(
            table, announcer, catalog, lang=lang, join_url=JOIN_URL, house_rules=house_rules or []
        )
        return app, script

    return factory


def seat_players(
    rehearsal: Rehearsal, names: tuple[str, ...] = ("Ana", "Chloé", "Niccolò", "François")
) -> list[str]:
    return [rehearsal.join(name) for name in names]


@pytest.fixture
def phrases_asked(monkeypatch: pytest.MonkeyPatch) -> Callable[[TVApp], list[str]]:
    """``phrases_asked(app)``: a list that fills with the key of every TV phrase ``app`` asks
    for from then on (what a frame says, without reading its pixels)."""

    def watch(app: TVApp) -> list[str]:
        asked: list[str] = []
        phrase = app.props.t

        def recording(key: str, /, count: int | None = None, **params: Any) -> str:
            asked.append(key)
            return phrase(key, count=count, **params)

        monkeypatch.setattr(app.props, "t", recording)
        return asked

    return watch
