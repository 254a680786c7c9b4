"""Round 46's play-test: H8 had two names, "Chase the Ace call" on the TV and "Chase call" on
the phones ("Annonce « Chasse ! »" and "Appel « Chasse »" in French; in Italian H4, H7 and H8
differed too). Each house rule now has one name per language, the phones' ``vip.hN_name``,
which the TV's lobby reads through ``host.rule_names``."""

from __future__ import annotations

import json
from typing import Any, cast

import pygame
import pytest

from host.i18n import LANGUAGES, Catalog
from host.rules import RULE_FIELDS
from host.tv.app import TVApp
from phone_web.page import translations
from tests.tv.views import StillSession, player, view


def _tv_rule_lines(catalog: Catalog, lang: str, rules: list[str]) -> list[str]:
    """The lines the TV's lobby draws under "House rules" with ``rules`` on (H4 at 25 s)."""
    seated = [player(i) for i in range(4)]
    shown = view("lobby", seated, house_rules=rules, rapid_seconds=25, max_players=20)
    app = TVApp(cast(Any, StillSession(shown)), None, catalog, lang=lang, join_url="http://x/")
    app.stage.fast_forward()
    drawn: list[str] = []
    fitted_text = app.props.theme.fitted_text

    def recording(text: str, *args: Any, **kwargs: Any) -> Any:
        drawn.append(text)
        return fitted_text(text, *args, **kwargs)

    app.props.theme.fitted_text = recording  # type: ignore[method-assign]
    app.render(pygame.Surface((1920, 1080)))
    return [text.removeprefix("• ") for text in drawn if text.startswith("• ")]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_round46_every_house_rule_has_one_name_on_the_tv_and_the_phones(
    catalog: Catalog, lang: str
) -> None:
    """H1–H8: the TV's lobby lists each rule on by the very name the phone's page ships for
    it (the VIP's switches and every guest's list); H4 adds its seconds after that name, as
    the phone's H4 line does."""
    shipped = json.loads(translations(catalog, lang))
    rules = list(RULE_FIELDS)
    lines = _tv_rule_lines(catalog, lang, rules)
    assert len(lines) == len(rules), lines
    for rule, line in zip(rules, lines):
        name = shipped[f"vip.{rule.lower()}_name"]
        if rule == "H4":
            assert line.startswith(name) and "25" in line, (line, name)
            assert shipped["vip.h4_seconds"].startswith(name)
        else:
            assert line == name, (rule, line, name)


def test_round46_h8_is_named_after_its_call_in_every_language(catalog: Catalog) -> None:
    """H8's name quotes the call the voice makes under it ("Chasse !", "Chase!"), and no
    second name of a house rule is left in the catalog for anything to drift to."""
    for lang in LANGUAGES:
        call = catalog.t(lang, "voice.chase")
        assert call.rstrip("!\u00a0 ") in catalog.t(lang, "vip.h8_name"), lang
        assert not [key for key in catalog.messages[lang] if key.startswith("common.house_")]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_round46_the_rules_named_in_a_caption_fit_two_lines_read_from_the_sofa(
    catalog: Catalog, lang: str
) -> None:
    """The caption naming the rules (all eight at a game's start, or switched on at once) is
    at most two lines, so at 30 px or more: three lines would be 28 px (26 px before round
    47), the sofa's floor and the smallest a caption is drawn (``host/tv/overlays.py``)."""
    from host.tv.overlays import caption_lines
    from host.voice.phrases import phrases_for
    from host.voice.vip_phrases import rules_in_force

    pygame.font.init()
    translate = catalog.translator(lang)
    rules = list(RULE_FIELDS)
    shown = view("turns", house_rules=rules, rapid_seconds=60)
    switched = {"type": "rules_set", "rules": rules, "rapid_seconds": 60}
    lines = [
        *rules_in_force(shown, translate),
        *phrases_for(cast(Any, {**switched, "added": rules, "removed": []}), shown, translate),
        *phrases_for(cast(Any, {**switched, "added": [], "removed": rules}), shown, translate),
    ]
    assert len(lines) == 3
    app = TVApp(cast(Any, StillSession(shown)), None, catalog, lang=lang, join_url="http://x/")
    theme_ = app.props.theme
    for line in lines:
        assert len(caption_lines(theme_, line)) <= 2, line
