"""Any name renders: text is split into runs by the font that has each character.

Why: guests type names like "🎉 Zed"; DejaVu Sans (our text font) has accents and card suits
but no emoji, and ``pygame.font.Font`` has no fallback, so an emoji came out as a box. The
bundled Symbola subset (``assets/fonts/Symbola-emoji.ttf``, see assets/LICENSES.md) has the
emoji and symbols. ``Glyphs`` asks each font file, once per character, whether it has a glyph
(``pygame.freetype`` sees characters beyond the BMP, ``pygame.font`` does not), and ``runs``
cuts a text into pieces each drawn with one font; joiners and variation selectors stay with
the character before them. After those two come the computer's own fonts for Chinese, Japanese
and Korean (``host/tv/fallback_fonts.py``), too big to bundle; ``draws`` tells a character no
font has (it would be a box), which the party refuses in a name (``host/tv/shown_names.py``).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pygame
import pygame.freetype

#: Characters with no width of their own: they belong to the run of the character before.
JOINERS = frozenset({"\u200d", "\u200c", "\ufe0e", "\ufe0f"})


def emoji_font_path() -> Path:
    """The bundled fallback font for emoji and symbols (monochrome outlines)."""
    return Path(str(resources.files("assets") / "fonts" / "Symbola-emoji.ttf"))


class Glyphs:
    """Which of a list of font files (first = preferred) has a glyph for a character."""

    def __init__(self, paths: list[Path]) -> None:
        if not pygame.freetype.get_init():
            pygame.freetype.init()
        self.paths = list(paths)
        self._faces = []
        for path in paths:
            face = pygame.freetype.Font(str(path), 24)
            face.ucs4 = True
            self._faces.append(face)
        self._known: dict[str, int | None] = {}

    def font_for(self, char: str) -> int:
        """The index of the first font that has ``char`` (0 if none has it)."""
        return self._find(char) or 0

    def draws(self, char: str) -> bool:
        """True when one of the fonts has a glyph for ``char`` (else it would be a box)."""
        return self._find(char) is not None

    def _find(self, char: str) -> int | None:
        if char in self._known:
            return self._known[char]
        index = next(
            (i for i, face in enumerate(self._faces) if face.get_metrics(char)[0] is not None),
            None,
        )
        self._known[char] = index
        return index

    def runs(self, text: str) -> list[tuple[int, str]]:
        """``text`` cut into (font index, piece) runs, in order."""
        runs: list[tuple[int, str]] = []
        for char in text:
            index = runs[-1][0] if runs and char in JOINERS else self.font_for(char)
            if runs and runs[-1][0] == index:
                runs[-1] = (index, runs[-1][1] + char)
            else:
                runs.append((index, char))
        return runs
