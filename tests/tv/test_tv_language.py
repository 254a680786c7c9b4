"""Issue 12 item 8 — the TV's language: the caption follows L at once, and L's choice survives
a restart (saved beside the game)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import pygame

from host.i18n import Catalog
from host.rules import EventDict, View
from host.tv.app import TVApp
from host.tv.settings import load_language, save_language, settings_path, starting_language
from tests.tv.views import StillSession, view


class SpeakingVoice:
    """An announcer that captions each announced event in the language it had then."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog, self.lang, self.muted = catalog, "en", True
        self.line: str | None = None

    def announce(self, events: Sequence[EventDict], table: View, moment: str = "whole") -> None:
        from host.voice.phrases import phrases_for

        self.line = phrases_for(events[-1], table, self.catalog.translator(self.lang))[0]

    def caption(self) -> str | None:
        return self.line

    def set_language(self, lang: str) -> None:
        self.lang = lang

    def set_muted(self, muted: bool) -> None:
        self.muted = muted


def test_issue12_caption_follows_a_language_switch_at_once(
    catalog: Catalog, tmp_path: Path
) -> None:
    voice = SpeakingVoice(catalog)
    saved: list[str] = []
    app = TVApp(
        cast(Any, StillSession(view("turns"))),
        voice,
        catalog,
        lang="en",
        join_url="http://x/?room=CAKE",
        on_language=saved.append,
    )
    app.stage.receive(view("turns"), [{"type": "exchanged", "player": "p0", "target": "p1"}])
    app.poll_caption()
    assert app.caption == "Ana swaps with Chloé."
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_l, unicode="l"))
    assert app.caption == catalog.t("fr", "voice.exchanged", name="Ana", target="Chloé")
    assert saved == ["fr"]


def test_issue12_the_tv_language_survives_a_restart(tmp_path: Path) -> None:
    path = settings_path(tmp_path / "state.json")
    assert path == tmp_path / "state.tv.json"
    assert load_language(path) is None
    save_language(path, "it")
    assert load_language(path) == "it"
    assert starting_language("en", False, load_language(path)) == "it"
    assert starting_language("fr", True, "it") == "fr"  # a typed --lang wins
    path.write_text("{not json", encoding="utf-8")
    assert load_language(path) is None


def test_french_marks_stay_on_their_words_line(catalog: Catalog, canvas: pygame.Surface) -> None:
    """French's space before "!" or ":" is a no-break space (``host.i18n.typeset``): at every
    width the TV wraps a French line, no line starts with the mark its word left behind."""
    from host.tv.theme import Theme

    th = Theme()
    texts = [
        catalog.t("fr", "phone.your_turn"),
        catalog.t("fr", "tv.turn_of", name="Alan") + " " + catalog.t("fr", "voice.cuckoo"),
        catalog.t("fr", "doctor.library_hint"),
    ]
    breaks = 0
    for text in texts:
        full = th.measure(text, 40)
        for width in range(full, 40, -8):
            lines = th.wrap(text, 40, width)
            breaks += len(lines) - 1
            assert " ".join(lines) == " ".join(text.split(" ")), (text, width)
            assert not any(line.startswith(("!", ":", "?", ";", "»")) for line in lines), lines
    assert breaks > 0  # the widths did force breaks
    # The same words with plain spaces do leave a "!" alone: the test would see it.
    plain = th.wrap("À toi de jouer !", 40, th.measure("À toi de jouer", 40) + 2)
    assert plain[-1] == "!"
