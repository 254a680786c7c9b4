"""Colours, fonts and cached text for the TV.

Why a class and not module globals: fonts need ``pygame.font.init()`` first, and the style
guide forbids import-time side effects; the app builds one ``Theme`` after ``pygame.init()``
and passes it to every scene. Rendered text is cached because the same names and labels are
drawn 60 times a second during animations.
"""

from __future__ import annotations

import logging
import re
import threading
import unicodedata
from collections.abc import Iterator, Sequence
from importlib import resources
from itertools import combinations
from pathlib import Path

import pygame

# Shared with the phone page; re-exported here for the TV's modules.
from host.palette import PLAYER_COLOURS, SUIT_COLOURS, Colour, player_colour
from host.tv.glyphs import Glyphs, emoji_font_path
from host.tv.surfaces import TEXT_BUDGET, SurfaceCache

log = logging.getLogger(__name__)

CANVAS_SIZE: tuple[int, int] = (1920, 1080)

BACKGROUND: Colour = (14, 24, 38)
FELT: Colour = (22, 92, 64)
FELT_EDGE: Colour = (88, 58, 30)
INK: Colour = (245, 245, 240)
MUTED_INK: Colour = (170, 180, 190)
#: Secondary text on the felt that must still read from the sofa (the round's trail): WCAG
#: contrast 5.8:1 against the felt, more against its rim and the background (MUTED_INK has
#: 3.8:1 against the felt, under the 4.5:1 of WCAG's AA).
TRAIL_INK: Colour = (215, 222, 228)
DARK_INK: Colour = (20, 20, 24)
GOLD: Colour = (250, 200, 60)
ALERT: Colour = (255, 110, 80)
PANEL: Colour = (30, 42, 60)
PANEL_EDGE: Colour = (70, 90, 120)
GREYED: Colour = (90, 96, 104)
CARD_FACE: Colour = (252, 250, 244)
CARD_BACK: Colour = (36, 60, 150)
CARD_BACK_LINE: Colour = (120, 150, 230)
HIGHLIGHT: Colour = (255, 80, 80)
WARNING_STRIP: Colour = (170, 30, 30)

SUIT_SYMBOLS: dict[str, str] = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}

#: Drawn instead of a text the font cannot draw or that draws as nothing (an invisible name).
FALLBACK_TEXT = "?"
ELLIPSIS = "\u2026"
#: Fitted texts remembered (text and size only, no pixels), then forgotten all at once.
FITTED_LIMIT = 2000
#: What a font may raise for an odd text (zero width, unencodable surrogates, too long…).
_FONT_ERRORS = (pygame.error, UnicodeError, ValueError, OverflowError, MemoryError)
#: Where ``Theme.wrap`` may break a line: any run of white space but the no-break ones.
_BREAKING_SPACES = re.compile(r"[^\S\u00a0\u2007\u202f]+")
#: Dashes that start no line of a text split in lines (``Theme.split_evenly``).
_DASHES = ("\u2014", "\u2013")
#: A text that ends a sentence or a clause: ". ", "! ", "? " or ": " before a break, closing
#: quotes and brackets after the mark. French's no-break space before its "!", "?" and ":"
#: (``host.i18n.typeset``) is no break, so "Coucou\u00a0!" ends as "!" does.
_SENTENCE_END = re.compile(r"[.!?:][\"'\u2019\u201d\u00bb)\]]*$")
#: How narrow the narrower line may be, of the wider, when a text broken evenly breaks after
#: a sentence instead (``Theme.evenly``). Measured on round 47's captions: the lesson's "…
#: or cuts a card from the stock." over "Dario cuts: …" (0.57, French and Italian 0.46–0.48)
#: read better than "… or cuts a card" over "from the stock. …"; "Chloé è assente:" over the
#: rest of its caption (0.18) or "How to play Cuckoo:" (0.25) left the short line stranded.
FAIR_SENTENCE_BREAK = 0.45
#: A line that ends with a word of one letter ("a", "à", "e", "o", "y"): that word belongs to
#: the next line (``Theme.evenly``).
_LONE_LETTER_END = re.compile(r"(?:^|\s)\w$")


def _line_breaks(text: str, count: int) -> Iterator[list[str]]:
    """Every way of breaking ``text`` in ``count`` lines at its breaking spaces, no line
    starting with a dash (it closes what comes before it); none when it has fewer spaces."""
    breaks = [
        (space.start(), space.end())
        for space in _BREAKING_SPACES.finditer(text)
        if not text[space.end() :].startswith(_DASHES)
    ]
    for chosen in combinations(breaks, count - 1):
        starts = [0, *(end for _, end in chosen)]
        ends = [*(start for start, _ in chosen), len(text)]
        yield [text[a:b] for a, b in zip(starts, ends)]


def line_width(max_width: int, indent: int, index: int) -> int:
    """How wide line ``index`` of a wrapped text may be: the first ``max_width``, the others
    ``indent`` less (``Theme.wrap``, ``Theme.wrapped``)."""
    return max_width - indent if index else max_width


def font_path(bold: bool = False) -> Path:
    """The bundled DejaVu Sans: it has French/Italian accents and the four suit symbols."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return Path(str(resources.files("assets") / "fonts" / name))


def tv_fonts(bold: bool = False, fallbacks: Sequence[Path] = ()) -> list[Path]:
    """The font files the TV draws text with, first preferred: DejaVu Sans, the bundled emoji
    font, then ``fallbacks`` (the computer's own CJK fonts, ``host/tv/fallback_fonts.py``)."""
    return [font_path(bold), emoji_font_path(), *fallbacks]


#: Emoji skin-tone modifiers, left out of what the TV draws: its emoji font (monochrome) draws
#: each as a swatch, so "👍🏽" read as a thumb and a box (round 45's play-test). The name keeps
#: them; the phones, with colour emoji, show them.
SKIN_TONES = dict.fromkeys(range(0x1F3FB, 0x1F400))


class Theme:
    """Fonts by size and a cache of rendered text surfaces bounded by their pixel bytes.

    ``fallbacks``: font files of the computer's for what the bundled fonts lack (Chinese,
    Japanese and Korean names), found once at start; drawn after DejaVu and the emoji font.
    ``draws`` may be asked from another thread (a join, ``host/tv/shown_names.py``).
    """

    def __init__(self, text_budget: int = TEXT_BUDGET, fallbacks: Sequence[Path] = ()) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.fallbacks = list(fallbacks)
        # Every question to pygame.freetype goes through this lock: its one FreeType cache
        # is not thread-safe (it opens faces with the GIL released), and a join asks ``draws``
        # on a server thread while the TV measures its texts.
        self._glyphs_lock = threading.Lock()
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self._other_fonts: dict[tuple[Path, int, bool], pygame.font.Font] = {}
        self.texts = SurfaceCache(text_budget)  # keyed by (text, size, colour, bold)
        self._fitted: dict[tuple[str, int, int, bool, int], tuple[str, int]] = {}
        self._wrapped: dict[
            tuple[str, int, tuple[tuple[int, int], ...], bool, int, bool], tuple[int, list[str]]
        ] = {}
        self._glyphs: dict[bool, Glyphs] = {}

    def font(self, size: int, bold: bool = False) -> pygame.font.Font:
        key = (size, bold)
        if key not in self._fonts:
            self._fonts[key] = pygame.font.Font(str(font_path(bold)), size)
        return self._fonts[key]

    def _runs(self, text: str, size: int, bold: bool) -> list[tuple[pygame.font.Font, str]]:
        """The text cut into pieces, each with the font that has its characters."""
        if text.isascii():
            return [(self.font(size, bold), text)]
        text = text.translate(SKIN_TONES)
        with self._glyphs_lock:
            glyphs = self._glyphs_of(bold)
            runs = glyphs.runs(text)
        return [(self._run_font(glyphs.paths, index, size, bold), piece) for index, piece in runs]

    def draws(self, char: str) -> bool:
        """True when the TV's fonts, regular and bold, have a glyph for ``char`` (else it
        would be drawn as a box). Safe from any thread."""
        with self._glyphs_lock:
            return self._glyphs_of(False).draws(char) and self._glyphs_of(True).draws(char)

    def _glyphs_of(self, bold: bool) -> Glyphs:
        """The regular or bold ``Glyphs`` (lock held)."""
        glyphs = self._glyphs.get(bold)
        if glyphs is None:
            glyphs = self._glyphs[bold] = Glyphs(tv_fonts(bold, self.fallbacks))
        return glyphs

    def _run_font(self, paths: list[Path], index: int, size: int, bold: bool) -> pygame.font.Font:
        """Font ``index`` of ``paths`` at ``size``: DejaVu, the emoji font (as it is) or a
        fallback, emboldened where the text is bold (CJK fonts seldom come in bold)."""
        if index == 0:
            return self.font(size, bold)
        embolden = bold and paths[index] in self.fallbacks
        key = (paths[index], size, embolden)
        if key not in self._other_fonts:
            font = self._other_fonts[key] = pygame.font.Font(str(paths[index]), size)
            font.set_bold(embolden)
        return self._other_fonts[key]

    def _render_runs(self, text: str, size: int, colour: Colour, bold: bool) -> pygame.Surface:
        """``text`` drawn run by run: DejaVu where it has the glyphs, the emoji font or a
        fallback elsewhere."""
        runs = self._runs(text, size, bold)
        if len(runs) == 1:
            return runs[0][0].render(runs[0][1], True, colour)
        images = [(font, font.render(piece, True, colour)) for font, piece in runs]
        ascent = max(font.get_ascent() for font, _ in images)
        height = max(ascent - font.get_ascent() + image.get_height() for font, image in images)
        line = pygame.Surface(
            (sum(image.get_width() for _, image in images), height), pygame.SRCALPHA
        )
        x = 0
        for font, image in images:  # pieces share one baseline
            line.blit(image, (x, ascent - font.get_ascent()))
            x += image.get_width()
        return line

    def text(
        self, text: str, size: int, colour: Colour = INK, bold: bool = False
    ) -> pygame.Surface:
        """Rendered, anti-aliased text (emoji from the fallback font); cached (pure
        memoisation, no visible state).

        Measured before it is drawn: a text that draws as nothing (a name made of joiners) or
        that the font refuses is logged once and drawn as ``FALLBACK_TEXT`` — one odd name
        must never stop the TV (issue 15).
        """
        key = (text, size, colour, bold)
        surface = self.texts.get(key)
        if surface is None:
            surface = self.texts.put(key, self._render(text, size, colour, bold))
        return surface

    def _render(self, text: str, size: int, colour: Colour, bold: bool) -> pygame.Surface:
        font = self.font(size, bold)
        if text == "":
            return pygame.Surface((1, font.get_height()), pygame.SRCALPHA)
        try:
            if sum(f.size(piece)[0] for f, piece in self._runs(text, size, bold)) > 0:
                image = self._render_runs(text, size, colour, bold)
                if image.get_bounding_rect().width > 0 or not text.strip():
                    return image
                reason = "it leaves no ink"  # a blank glyph (U+2800, a Hangul filler…)
            else:
                reason = "it draws as nothing"
        except _FONT_ERRORS as error:  # the TV must go on
            reason = f"{type(error).__name__}: {error}"
        log.warning("cannot draw the text %r (%s): drawing %r instead", text, reason, FALLBACK_TEXT)
        if text == FALLBACK_TEXT:
            return pygame.Surface((1, font.get_height()), pygame.SRCALPHA)
        return self.text(FALLBACK_TEXT, size, colour, bold)

    def measure(self, text: str, size: int, bold: bool = False) -> int:
        """The width ``text`` takes when drawn, emoji included (0 when no font can draw it)."""
        try:
            return sum(int(font.size(piece)[0]) for font, piece in self._runs(text, size, bold))
        except _FONT_ERRORS:  # drawn as the fallback later, which logs it
            return 0

    def fitted_text(
        self,
        text: str,
        size: int,
        max_width: int,
        colour: Colour = INK,
        bold: bool = False,
        min_size: int = 14,
    ) -> pygame.Surface:
        """Text shrunk until it fits ``max_width`` (long names, long French phrases), and
        ellipsized (by measured width) if it still does not fit at ``min_size``. The fitting
        is remembered: a frame's header and banners are fitted 60 times a second."""
        key = (text, size, max_width, bold, min_size)
        fitted = self._fitted.get(key)
        if fitted is None:
            fitted = self._fit(text, size, max_width, bold, min_size)
            if len(self._fitted) >= FITTED_LIMIT:
                self._fitted.clear()  # small strings: refilled by the next few frames
            self._fitted[key] = fitted
        return self.text(fitted[0], fitted[1], colour, bold)

    def _fit(
        self, text: str, size: int, max_width: int, bold: bool, min_size: int
    ) -> tuple[str, int]:
        while size > min_size and self.measure(text, size, bold) > max_width:
            size -= 2
        if self.measure(text, size, bold) > max_width:
            text = self.ellipsized(text, size, max_width, bold)
        return text, size

    def ellipsized(self, text: str, size: int, max_width: int, bold: bool = False) -> str:
        """``text`` cut to fit ``max_width`` at ``size`` with "…" at the end (never mid-mark)."""
        if self.measure(text, size, bold) <= max_width:
            return text
        low, high = 0, len(text)
        while low < high:  # the longest prefix that fits with the ellipsis
            middle = (low + high + 1) // 2
            if self.measure(text[:middle] + ELLIPSIS, size, bold) <= max_width:
                low = middle
            else:
                high = middle - 1
        cut = text[:low]
        while cut and unicodedata.category(cut[-1]) in ("Mn", "Me", "Cf", "Zs", "Cs"):
            cut = cut[:-1]
        return cut + ELLIPSIS

    def blit_text(
        self,
        surface: pygame.Surface,
        text: str,
        size: int,
        colour: Colour = INK,
        bold: bool = False,
        **anchor: tuple[int, int] | int,
    ) -> pygame.Rect:
        """Draw text positioned by a ``pygame.Rect`` anchor, e.g. ``center=(x, y)``."""
        image = self.text(text, size, colour, bold)
        rect = image.get_rect(**anchor)
        surface.blit(image, rect)
        return rect

    def wrapped(
        self,
        text: str,
        max_width: int,
        sizes: tuple[tuple[int, int], ...],
        bold: bool = False,
        indent: int = 0,
        even: bool = False,
    ) -> tuple[int, list[str]]:
        """``text`` wrapped at the biggest of ``sizes`` — (size, most lines), biggest first —
        whose lines it fits in; at the last size, its last line ellipsized to hold the rest.
        ``indent``: lines after the first are that much narrower (drawn set in). ``even``:
        lines that fit are broken again as evenly as they can be (``evenly``).
        Remembered like ``fitted_text``: the caption bar is drawn on every frame."""
        key = (text, max_width, sizes, bold, indent, even)
        found = self._wrapped.get(key)
        if found is None:
            for size, most in sizes:
                lines = self.wrap(text, size, max_width, bold, indent)
                if len(lines) <= most and all(
                    self.measure(line, size, bold) <= line_width(max_width, indent, i)
                    for i, line in enumerate(lines)
                ):
                    if even:
                        lines = self.evenly(text, lines, size, max_width, bold, indent)
                    break
            else:  # a word wider than the bar is cut too
                lines = [*lines[: most - 1], " ".join(lines[most - 1 :])]
                lines = [
                    self.ellipsized(line, size, line_width(max_width, indent, i), bold)
                    for i, line in enumerate(lines)
                ]
            if len(self._wrapped) >= FITTED_LIMIT:
                self._wrapped.clear()
            found = self._wrapped[key] = (size, lines)
        return found

    def wrap(
        self, text: str, size: int, max_width: int, bold: bool = False, indent: int = 0
    ) -> list[str]:
        """Split a phrase into lines that fit ``max_width`` (word by word); lines after the
        first fit ``max_width - indent``.

        Only breaking spaces part words: a no-break space (French "Coucou\u00a0!",
        ``host.i18n.typeset``) holds its two sides together, which ``str.split()`` would not."""
        lines: list[str] = []
        line = ""
        for word in _BREAKING_SPACES.split(text.strip()):
            candidate = f"{line} {word}".strip()
            limit = line_width(max_width, indent, len(lines))
            if line and self.measure(candidate, size, bold) > limit:
                lines.append(line)
                line = word
            else:
                line = candidate
        if line:
            lines.append(line)
        return lines

    def evenly(
        self, text: str, lines: list[str], size: int, max_width: int, bold: bool, indent: int
    ) -> list[str]:
        """``wrap``'s ``lines`` of ``text`` broken again, as many, each still fitting its width:
        after sentences where that keeps the lines fair (``FAIR_SENTENCE_BREAK``), else where
        their widest reach (a set-in line's ``indent`` counted) is shortest.

        Why: ``wrap`` fills a line before it breaks, and round 46's play-test read the TV's
        story of the round as "Amélie a échangé avec" over a lone "Benoît"; broken evenly it
        reads "Amélie a échangé" over "avec Benoît". Broken only evenly, round 47's captions
        split a sentence after its first word ("… together. The" over "lowest card loses…")
        where a break after the sentence before read better. A dash starts no line
        (``split_evenly``), and a word of one letter ends none where another break fits: the
        story read "Ada showed a" over "King to François" (round 47)."""
        text = text.strip()
        best = lines
        ranked: tuple[bool, int] | None = None  # a lone letter ending a line, the widest reach
        told: tuple[int, int, list[str]] | None = None  # sentence ends, -widest, lines
        for candidate, reaches in self._fitting_breaks(
            text, len(lines), size, max_width, bold, indent
        ):
            widest = max(reaches)
            lone = any(_LONE_LETTER_END.search(line) for line in candidate[:-1])
            if ranked is None or (lone, widest) < ranked:
                best, ranked = candidate, (lone, widest)
            ends = sum(bool(_SENTENCE_END.search(line)) for line in candidate[:-1])
            fair = min(reaches) >= FAIR_SENTENCE_BREAK * widest
            if ends and fair and (told is None or (ends, -widest) > told[:2]):
                told = (ends, -widest, candidate)
        return best if told is None else told[2]

    def _fitting_breaks(
        self, text: str, count: int, size: int, max_width: int, bold: bool, indent: int
    ) -> Iterator[tuple[list[str], list[int]]]:
        """The ways of breaking ``text`` in ``count`` lines (``_line_breaks``) whose lines fit
        their widths (``line_width``): each as its lines and their reach (a set-in line's
        ``indent`` counted, as it is drawn set in)."""
        limits = [line_width(max_width, indent, i) for i in range(count)]
        for candidate in _line_breaks(text, count):
            widths = [self.measure(line, size, bold) for line in candidate]
            if all(width <= limit for width, limit in zip(widths, limits)):
                yield candidate, [w + max_width - limit for w, limit in zip(widths, limits)]

    def split_evenly(
        self, text: str, size: int, count: int, bold: bool = False
    ) -> tuple[str, ...] | None:
        """``text`` as ``count`` lines broken at its breaking spaces (``wrap``'s), where the
        widest line is narrowest; None when it has fewer such spaces than breaks needed.

        Why the narrowest and not ``wrap``'s first fit: a banner in several lines is as big as
        its widest line lets it be, and lines of a like width read as one phrase. A dash ("—")
        starts no line: it ends the line before, as it closes what comes before it. Every way
        of breaking is tried: a banner has a few dozen spaces at most, and its fitting is
        remembered (``host/tv/banners.py``)."""
        text = text.strip()
        best: tuple[int, tuple[str, ...]] | None = None
        for candidate in _line_breaks(text, count):
            lines = tuple(candidate)
            widest = max(self.measure(line, size, bold) for line in lines)
            if best is None or widest < best[0]:
                best = (widest, lines)
        return None if best is None else best[1]


__all__ = [
    "ALERT",
    "BACKGROUND",
    "CANVAS_SIZE",
    "CARD_BACK",
    "CARD_BACK_LINE",
    "CARD_FACE",
    "DARK_INK",
    "FELT",
    "FELT_EDGE",
    "GOLD",
    "GREYED",
    "HIGHLIGHT",
    "INK",
    "MUTED_INK",
    "PANEL",
    "PANEL_EDGE",
    "PLAYER_COLOURS",
    "SUIT_COLOURS",
    "SUIT_SYMBOLS",
    "TRAIL_INK",
    "Colour",
    "Theme",
    "font_path",
    "player_colour",
    "tv_fonts",
]
