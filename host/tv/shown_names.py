"""Which letters of a name the TV cannot show, asked when a guest joins a party with a TV.

Why at the door: a name is drawn big on the TV all evening. A letter no font of the TV has
comes out as an empty box ("李小龍" with no CJK font on the computer, last round's play-test),
and the guest's phone, with its own fonts, never shows the problem. Refusing the name at the
join, saying which letters and what to do, beats a row of boxes on the TV.

Two reasons a letter cannot be shown:

- no font has its glyph: not DejaVu Sans, not the emoji font, not the computer's CJK font
  (``host/tv/fallback_fonts.py``);
- its writing system needs a shaping engine, which the TV's text layout (pygame 2.6's
  ``pygame.font``, glyphs set one after the other, left to right) does not apply: checked on
  the TV, Arabic came out unjoined and backwards and Hebrew backwards (right-to-left scripts,
  Unicode bidi classes R and AL), Lao's tone mark sat on its vowel mark (Thai and Lao stack
  marks), and Indic scripts reorder and join letters ("रवि" draws its "ि" before the "व").
  Those are refused even when a font has the glyphs. Latin, Greek, Cyrillic, Armenian and
  Georgian need no shaping and DejaVu has them; Chinese, Japanese and Korean need none either.
  A country's flag is the same case among emoji: two regional indicator letters ("🇫🇷" is
  F and R) that only a colour emoji font joins into a flag; the TV's emoji font, monochrome
  and unjoined, draws each as a letter in a dotted box (round 46's play-test: "Ana 🇫🇷"). So
  a flag is refused like any emoji the TV cannot show, rather than drawn as two boxed letters:
  the TV's fonts are what the party ships, and a colour emoji font could not be counted on.

The session never imports this (nor pygame): the party hands it an ``UnshownLetters`` check,
built here on the TV's own ``Theme``, when it builds the TV (``host/app.py``).
"""

from __future__ import annotations

import unicodedata

from host.names import graphemes, is_default_ignorable
from host.tv.theme import SKIN_TONES, Theme

#: Blocks of the writing systems that need shaping (reordering, conjuncts, joining or stacked
#: marks), by Unicode block: (first, last, what).
SHAPED_BLOCKS: tuple[tuple[int, int, str], ...] = (
    (0x0900, 0x0DFF, "Indic scripts and Sinhala"),
    (0x0E00, 0x0EFF, "Thai and Lao"),
    (0x0F00, 0x0FFF, "Tibetan"),
    (0x1000, 0x109F, "Myanmar"),
    (0x1780, 0x18AF, "Khmer and Mongolian"),
    (0x1900, 0x1C4F, "Limbu to Lepcha (South-East Asian scripts)"),
    (0x1CD0, 0x1CFF, "Vedic extensions"),
    (0xA800, 0xAAFF, "Syloti Nagri to Tai Viet (Indic and South-East Asian scripts)"),
    (0xABC0, 0xABFF, "Meetei Mayek"),
    (0x11000, 0x11FFF, "historic Brahmic scripts"),
)
#: Unicode bidi classes of right-to-left letters (Hebrew; Arabic, Syriac, Thaana…).
RIGHT_TO_LEFT = frozenset({"R", "AL"})
#: The regional indicator letters 🇦 to 🇿, of which a pair is a country's flag (see the module).
REGIONAL_INDICATORS = (0x1F1E6, 0x1F1FF)


def needs_shaping(char: str) -> bool:
    """True for a letter the TV would draw wrongly even with its glyph (see the module)."""
    if unicodedata.bidirectional(char) in RIGHT_TO_LEFT:
        return True
    point = ord(char)
    return any(first <= point <= last for first, last, _ in SHAPED_BLOCKS)


def is_flag_letter(char: str) -> bool:
    """True for a regional indicator: half of a flag, drawn by the TV as a boxed letter."""
    first, last = REGIONAL_INDICATORS
    return first <= ord(char) <= last


class TvLetters:
    """The TV's answer to "can you show this name?" (a ``host.session.UnshownLetters``).

    ``theme``: the TV's own fonts (its ``Theme``, with the computer's CJK fonts), so that the
    check and the drawing never disagree; asked on the join's server thread.
    """

    def __init__(self, theme: Theme) -> None:
        self._theme = theme

    def __call__(self, name: str) -> str:
        """The letters of ``name`` the TV cannot show, as they stand in the name (runs of
        them parted by a space), or "" when it shows them all."""
        runs: list[str] = []
        shown_before = True
        for grapheme in graphemes(name):
            if self._shows(grapheme):
                shown_before = True
                continue
            if shown_before:
                runs.append("")
            runs[-1] += grapheme
            shown_before = False
        return " ".join(runs)

    def _shows(self, grapheme: str) -> bool:
        if not grapheme.translate(SKIN_TONES):  # a lone skin tone: the TV leaves it out
            return False
        return all(
            is_default_ignorable(char)
            or (not needs_shaping(char) and not is_flag_letter(char) and self._theme.draws(char))
            for char in grapheme
        )
