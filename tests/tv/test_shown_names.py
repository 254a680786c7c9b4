"""Play-test finding: "李小龍" joined and the TV drew empty boxes. The TV's check of a name
(``host/tv/shown_names.py``) names the letters it cannot show: those no font of the TV has,
and those of writing systems the TV would draw wrongly (checked by eye on pygame 2.6.1:
Arabic unjoined and backwards, Hebrew backwards, Lao's tone mark on its vowel mark).

Built with the bundled fonts only (no fallbacks): nothing here depends on this machine's fonts.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from host.i18n import Catalog
from host.names import only_symbols
from host.tv.shown_names import TvLetters, needs_shaping
from host.tv.theme import Theme
from phone_web import create_app


@pytest.fixture(scope="module")
def unshown() -> TvLetters:
    # DejaVu Sans and the emoji font, as on a computer without a CJK font
    return TvLetters(Theme())


def test_playtest_cjk_a_name_no_font_has_is_named_whole(unshown: TvLetters) -> None:
    assert unshown("李小龍") == "李小龍"
    assert unshown("さくら") == "さくら"
    assert unshown("민준") == "민준"


def test_playtest_cjk_only_the_letters_the_tv_cannot_show_are_named(unshown: TvLetters) -> None:
    assert unshown("Ana 李") == "李"
    assert unshown("李 Lee 龍") == "李 龍"  # as they stand in the name, runs apart


@pytest.mark.parametrize(
    "name",
    ["Дмитрий", "Σωκράτης", "Արամ", "ნინო", "Zoë ★♠", "🎉 Zed", "👍🏽 Bo", "🏁 Zoé", "❤️ Ana"],
)
def test_playtest_cjk_scripts_the_tv_draws_well_are_all_shown(
    unshown: TvLetters, name: str
) -> None:
    """Cyrillic, Greek, Armenian and Georgian need no shaping and DejaVu has them; emoji
    are the emoji font's."""
    assert unshown(name) == ""


@pytest.mark.parametrize("name", ["محمد", "דוד"], ids=["arabic", "hebrew"])
def test_playtest_cjk_right_to_left_names_are_not_shown_though_dejavu_has_the_letters(
    unshown: TvLetters, name: str
) -> None:
    """DejaVu has these glyphs, yet the TV drew Arabic unjoined and both backwards."""
    assert all(Theme().draws(char) for char in name)
    assert unshown(name) == name
    assert unshown(f"Ana {name}") == name


@pytest.mark.parametrize(
    "name", ["रवि", "สมชาย", "ສົມ", "தமிழ்"], ids=["devanagari", "thai", "lao", "tamil"]
)
def test_playtest_cjk_scripts_that_need_shaping_are_not_shown(
    unshown: TvLetters, name: str
) -> None:
    """Refused even where a font has the glyphs (DejaVu has Lao's): the TV would set the
    letters side by side, unshaped."""
    assert all(needs_shaping(char) for char in name)
    assert unshown(name) == name


def test_playtest_cjk_latin_and_cjk_need_no_shaping() -> None:
    assert not any(needs_shaping(char) for char in "Zoë Дмитрий 李小龍 さくら 민준")


def test_round45_a_skin_tone_is_left_out_of_the_tvs_drawing_not_drawn_as_a_box() -> None:
    """Round 45's play-test: "👍🏽" came out on the TV as a thumb and a box (the emoji font,
    monochrome, draws a skin tone as a swatch). The TV now draws "👍🏽 Bo" as "👍 Bo", pixel
    for pixel, the name itself unchanged; a skin tone alone is a letter it cannot show."""
    import pygame

    pygame.font.init()
    theme = Theme()
    assert theme.measure("👍🏽 Bo", 40, True) == theme.measure("👍 Bo", 40, True)
    toned, plain = (theme.text(text, 40, (255, 255, 255), True) for text in ("👍🏽 Bo", "👍 Bo"))
    assert pygame.image.tobytes(toned, "RGBA") == pygame.image.tobytes(plain, "RGBA")
    assert TvLetters(theme)("🏽 Bo") == "🏽"


@pytest.mark.parametrize(("name", "flag"), [("Ana 🇫🇷", "🇫🇷"), ("🇮🇹🇬🇧 Leo", "🇮🇹🇬🇧"), ("Bo 🇺", "🇺")])
def test_round46_a_country_flag_is_refused_not_drawn_as_two_boxed_letters(
    unshown: TvLetters, name: str, flag: str
) -> None:
    """Round 46's play-test: "Ana 🇫🇷" drew on the TV as "Ana" and two boxed letters, F and R
    (the emoji font, monochrome, has each regional indicator, not the flag they make). The
    join now names the flag as what the TV cannot show, as it does any emoji it cannot
    (``"emoji": true``); the chequered flag, one emoji of the font's, is still welcome."""
    assert unshown(name) == flag
    assert only_symbols(unshown(name))  # the join says "try another emoji"


def test_round46_the_join_refuses_a_flag_as_an_emoji_and_takes_one_the_tv_draws(
    session: Any, unshown: TvLetters
) -> None:
    """What the join takes is what the TV draws: "Ana 🇫🇷" gets ``400 bad_name`` with
    ``"emoji": true`` and the message to try another emoji, and nobody is seated; "Ana 🏁"
    joins."""
    catalog = Catalog.load()
    session.check_names_with(unshown)
    client = create_app(session).test_client()
    refused = client.post("/api/join", json={"name": "Ana 🇫🇷", "room": "TEST"})
    body = json.loads(refused.data)
    assert refused.status_code == 400 and body["error"] == "bad_name", body
    assert body["emoji"] is True and body["letters"] == "🇫🇷"
    assert body["message"] == catalog.t("en", "cli.error_emoji_not_shown", letters="\u2068🇫🇷\u2069")
    assert session.view(None)["players"] == []
    joined = client.post("/api/join", json={"name": "Ana 🏁", "room": "TEST"})
    assert joined.status_code == 201
    assert [p["name"] for p in session.view(None)["players"]] == ["Ana 🏁"]
