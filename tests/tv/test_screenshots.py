"""``cuckoo-party screenshots DIR``: every scene as a PNG, the lobby's QR decodes to the exact
join URL, per language (issue 8), with accented names and suit symbols that really render."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pygame
import pytest

from host.cli import main
from host.tv.screenshots import JOIN_URL, SCENES
from host.tv.theme import font_path


def decode_qr(path: Path) -> str:
    result = subprocess.run(
        ["zbarimg", "--quiet", "--raw", str(path)],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@pytest.fixture(scope="module")
def english(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("shots-en")
    assert main(["screenshots", str(directory)]) == 0
    return directory


def test_every_scene_is_written_as_a_full_hd_png(english: Path) -> None:
    for scene in SCENES:
        image = pygame.image.load(str(english / f"tv-{scene}.png"))
        assert image.get_size() == (1920, 1080), scene


def test_lobby_qr_decodes_to_the_exact_join_url(english: Path) -> None:
    assert decode_qr(english / "tv-lobby.png") == JOIN_URL


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_screenshots_per_language(english: Path, tmp_path: Path, lang: str) -> None:
    assert main(["screenshots", "--lang", lang, str(tmp_path)]) == 0
    assert decode_qr(tmp_path / "tv-lobby.png") == JOIN_URL
    for scene in ("lobby", "turn", "reveal"):
        ours = pygame.image.tobytes(pygame.image.load(str(tmp_path / f"tv-{scene}.png")), "RGB")
        theirs = pygame.image.tobytes(pygame.image.load(str(english / f"tv-{scene}.png")), "RGB")
        assert ours != theirs, f"{scene} looks the same in {lang} and English"


def test_the_global_lang_flag_applies_when_no_screenshot_lang(
    tmp_path: Path, english: Path
) -> None:
    assert main(["--lang", "it", "screenshots", str(tmp_path)]) == 0
    ours = pygame.image.tobytes(pygame.image.load(str(tmp_path / "tv-lobby.png")), "RGB")
    theirs = pygame.image.tobytes(pygame.image.load(str(english / "tv-lobby.png")), "RGB")
    assert ours != theirs


def glyph(font: pygame.font.Font, char: str) -> bytes:
    return pygame.image.tobytes(font.render(char, True, (0, 0, 0), (255, 255, 255)), "RGB")


@pytest.mark.parametrize("bold", [False, True])
def test_bundled_font_has_accents_and_suit_symbols(bold: bool) -> None:
    """A missing glyph renders as the font's "no glyph" box; none of ours may."""
    pygame.font.init()
    font = pygame.font.Font(str(font_path(bold)), 40)
    no_glyph = glyph(font, "\u4e00")  # a CJK ideograph: not in DejaVu Sans
    assert glyph(font, "\u4e01") == no_glyph  # the check itself can fail
    text = "éèêëàâçîïôùûüÿœæÉÈÀÇÔòìíóúñöäßøå«»—’★♠♥♦♣"
    missing = [ch for ch in text if glyph(font, ch) == no_glyph]
    assert missing == []
