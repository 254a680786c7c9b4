"""Fixtures for the voice tests: the real catalog and a hanging engine released at teardown.

SDL's dummy drivers are set here (not globally) so ``pygame.mixer`` plays silently and no
test opens a window or a sound device.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from host.i18n import Catalog
from tests.voice.fakes import HangingEngine


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return Catalog.load()


@pytest.fixture
def hanging_engine() -> Iterator[HangingEngine]:
    engine = HangingEngine()
    yield engine
    engine.release.set()
