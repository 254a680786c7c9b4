"""The Pygame TV: lobby with QR, the table with every move animated, captions and host keys.

``run_tv`` is what ``host/app.py`` calls on the main thread. Importing this package opens no
window and initialises nothing; pygame is set up inside ``run_tv`` only.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from host.i18n import Catalog
    from host.join_address import JoinLink
    from host.tv.app import Sounds, Subscription, TableHost, Voice
    from host.tv.theme import Theme


def run_tv(
    session: TableHost,
    announcer: Voice | None,
    catalog: Catalog,
    *,
    lang: str,
    fullscreen: bool,
    join_url: str,
    house_rules: list[str],
    join: Callable[[], JoinLink] | None = None,
    sounds: Sounds | None = None,
    sound_output: bool = True,
    settings: Path | None = None,
    led: Subscription | None = None,
    theme: Theme | None = None,
) -> None:
    """Show the party until the host quits (Esc/Q, confirmed) or closes the window.

    ``settings``: where the TV remembers the language chosen with L (``host.tv.settings``);
    ``led``: the public stream of ``session.lead()`` if the party took the lead already;
    ``join``: the join address as it moves (``host/join_address.py``), else ``join_url``;
    ``sound_output``: False when this computer has no sound output (the voice is silent);
    ``theme``: the TV's fonts, built by the party with the computer's CJK fonts, and shared with
    the join's check of names (``host/tv/shown_names.py``).
    """
    from host.tv.allocator import map_big_blocks
    from host.tv.app import TVApp, open_window
    from host.tv.settings import save_language

    map_big_blocks(os.environ)

    def remember(chosen: str) -> None:
        if settings is not None:
            save_language(settings, chosen)

    screen = open_window(fullscreen, catalog.t(lang, "tv.title"))
    try:
        app = TVApp(
            session,
            announcer,
            catalog,
            lang=lang,
            join_url=join_url,
            join=join,
            house_rules=house_rules,
            fullscreen=fullscreen,
            sounds=sounds,
            sound_output=sound_output,
            on_language=remember,
            led=led,
            theme=theme,
        )
        try:
            app.run(screen=screen)
        finally:
            app.close()
    finally:
        screen.close()


__all__ = ["run_tv"]
