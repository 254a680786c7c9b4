"""Browser fixtures for the phone page: Debian's Chromium, phone-sized contexts, a live host.

Playwright cannot download browsers here, so every launch uses ``/usr/bin/chromium`` with the
flags that keep it from reaching out. Each phone is its own browser context (own storage, own
cookies), like separate handsets at a party.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from benchmarks.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.phone.helpers import Phone

#: Waits inside one browser test never exceed this (milliseconds).
TIMEOUT_MS = 10_000

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


#: Fixtures that start Chromium (pytest-playwright's and ours).
BROWSER_FIXTURES = frozenset({"phone_factory", "browser", "context", "page"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that drives Chromium carries the ``browser`` marker, and is skipped with a
    clear reason where Debian's Chromium is missing (CI installs it and runs them)."""
    missing = not os.access(CHROMIUM, os.X_OK)
    for item in items:
        if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
            if missing:
                item.add_marker(
                    pytest.mark.skip(
                        reason=f"needs Chromium at {CHROMIUM} (apt install chromium; .ci/run does)"
                    )
                )


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict[str, Any]:
    return {"executable_path": CHROMIUM, "args": CHROMIUM_ARGS, "headless": True, "timeout": 30_000}


@pytest.fixture
def phone_factory(browser: Any, playwright: Any) -> Iterator[Callable[..., Phone]]:
    """``phone_factory(device="Pixel 7", locale="en-GB", **context_options)`` → a new phone."""
    made: list[Phone] = []

    def make(device: str = "Pixel 7", locale: str = "en-GB", **options: Any) -> Phone:
        descriptor = dict(playwright.devices[device])
        descriptor.pop("default_browser_type", None)
        context = browser.new_context(**{**descriptor, "locale": locale, **options})
        context.set_default_timeout(TIMEOUT_MS)
        phone = Phone(context, context.new_page())
        made.append(phone)
        return phone

    yield make
    for phone in made:
        phone.close()
