"""Play-test finding: "李小龍" was drawn as empty boxes on the TV (no CJK glyph in the bundled
fonts). The TV falls back on the computer's own CJK font, found once at start
(``host/tv/fallback_fonts.py``).

The discovery is tested with made-up font lists and the bundled font files, never with the
fonts this machine happens to have. Only the last test draws with a real CJK font: CI
installs a small one (fonts-wqy-microhei, 1.6 MB) so that it runs there; elsewhere it is
skipped on a computer without one.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import pygame
import pytest

from host.tv import fallback_fonts
from host.tv.fallback_fonts import (
    CJK_SAMPLES,
    find_fallback_fonts,
    font_has_glyph,
    system_candidates,
)
from host.tv.glyphs import emoji_font_path
from host.tv.shown_names import TvLetters
from host.tv.theme import Theme, font_path, tv_fonts

LATIN, CJK, KOREAN = Path("/fonts/latin.ttf"), Path("/fonts/cjk.ttc"), Path("/fonts/hangul.ttf")
#: A made-up computer: which characters each of its font files has.
FAKE_FONTS = {LATIN: set("Ana"), CJK: set("李小龍さ"), KOREAN: set("민준")}


def _fake_has_glyph(path: Path, char: str) -> bool:
    return char in FAKE_FONTS.get(path, set())


def test_playtest_cjk_the_discovery_picks_the_font_that_has_each_sample() -> None:
    found = find_fallback_fonts(CJK_SAMPLES, [LATIN, CJK, KOREAN], _fake_has_glyph)
    assert found == [CJK, KOREAN]  # 李 and さ from one font, 민 from the other, each once


def test_playtest_cjk_no_font_with_the_glyph_means_no_fallback() -> None:
    assert find_fallback_fonts(CJK_SAMPLES, [LATIN], _fake_has_glyph) == []


def test_playtest_cjk_font_files_are_asked_themselves(tmp_path: Path) -> None:
    """With the real check: a missing file and a file that is no font are passed over, and
    the font that has the glyph is chosen, not the first font (the bundled files stand in
    for a computer's: DejaVu has no emoji, Symbola has)."""
    not_a_font = tmp_path / "notes.ttf"
    not_a_font.write_text("not a font", encoding="utf-8")
    candidates = [tmp_path / "gone.ttc", not_a_font, font_path(), emoji_font_path()]
    assert find_fallback_fonts(["\U0001f389"], candidates) == [emoji_font_path()]
    assert not font_has_glyph(font_path(), "\u674e")  # the finding: DejaVu has no 李


def test_playtest_cjk_candidates_are_fontconfigs_answers_then_the_usual_places(
    tmp_path: Path,
) -> None:
    asked: list[Sequence[str]] = []

    def fc_match(command: Sequence[str]) -> str:
        asked.append(command)
        return "/fonts/cjk.ttc" if "charset=674e" in command[-1] else ""

    windows_font = tmp_path / "Fonts" / "msyh.ttc"
    windows_font.parent.mkdir()
    windows_font.write_bytes(b"")
    found = system_candidates(fc_match, environ={"WINDIR": str(tmp_path)})
    assert found[0] == CJK and windows_font in found
    assert len(asked) == len(CJK_SAMPLES)  # bounded: one question a sample
    assert all(command[0] == "fc-match" for command in asked)


def test_playtest_cjk_without_fontconfig_the_usual_places_that_exist_are_tried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    there, gone = tmp_path / "NotoSansCJK-Regular.ttc", tmp_path / "PingFang.ttc"
    there.write_bytes(b"")
    monkeypatch.setattr(fallback_fonts, "KNOWN_PATHS", (str(gone), str(there)))
    assert system_candidates(lambda command: "", environ={}) == [there]


def test_playtest_cjk_the_fallbacks_come_after_the_bundled_fonts() -> None:
    """DejaVu keeps every letter it has (accents, suits), emoji stay Symbola's."""
    assert tv_fonts(False, [CJK]) == [font_path(), emoji_font_path(), CJK]
    assert Theme(fallbacks=[CJK]).fallbacks == [CJK]


def test_playtest_cjk_the_tv_draws_a_cjk_name_with_the_computers_font() -> None:
    """Boxes are all alike: "李小龍" and "王小明" draw the same without a CJK font."""
    fallbacks = find_fallback_fonts()
    if not fallbacks:  # CI installs one (.ci/run): there, this test must run, not skip
        if os.environ.get("CI"):
            pytest.fail("CI has no CJK font: .ci/run installs fonts-wqy-microhei")
        pytest.skip("no CJK font on this computer (apt install fonts-wqy-microhei)")
    theme = Theme(fallbacks=fallbacks)
    assert all(theme.draws(char) for char in "李小龍さ민")
    drawn = [pygame.image.tobytes(theme.text(name, 40), "RGBA") for name in ("李小龍", "王小明")]
    assert drawn[0] != drawn[1]
    assert TvLetters(theme)("李小龍") == ""  # and the party lets the name in
