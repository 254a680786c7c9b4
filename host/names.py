"""Players' display names: what a guest may call themselves, and which names look the same.

Why a module of its own: a name is typed on a phone and then drawn, big, on the TV for the whole
evening and written into the save. A name that renders as nothing (only joiners, variation
selectors, Hangul fillers, a blank Braille cell …) once stopped the TV for good, and look-alike
names ("Ana", Cyrillic "Аna", fullwidth "Ａｎａ", "Ana" + a zero-width joiner) let one guest pass
for another. So every name is NFKC-normalised, must hold a visible character, is bounded in
display width, and is compared with seated names by its Unicode TR39 confusable *skeleton*
(TR39 section 4: each character mapped through Unicode's ``confusables.txt``, shipped in
``assets/unicode/``, between two NFD normalisations — pure Python, so it installs everywhere).
"""

from __future__ import annotations

import functools
import unicodedata
from importlib import resources
from typing import Any

MAX_NAME_LENGTH = 16
"""Code points after normalisation (the contract's 1–16 characters)."""
MAX_NAME_WIDTH = 16
"""Terminal-style columns: wide (East Asian W/F) characters count 2, marks and joiners 0, so
16 wide characters (32 columns) are refused instead of overflowing the TV's lobby badges."""

#: Invisible characters that may stand *inside* a name next to visible ones: the joiners of
#: emoji sequences and Indic scripts, and the variation selectors of emoji ("❤️" is U+2764 U+FE0F).
_ALLOWED_INVISIBLE = frozenset(
    {"\u200c", "\u200d", *map(chr, range(0xFE00, 0xFE10)), *map(chr, range(0xE0100, 0xE01F0))}
)
#: Joiners join nothing at either end of a name: they are dropped there ("Ana" + ZWJ is "Ana").
_EDGE_JOINERS = "\u200c\u200d \t"
#: Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt, Unicode 15): they
#: render as nothing, so they never count as visible and, but for the above, are refused.
_DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
#: Printable characters that nevertheless draw blank (or nothing) in the TV's font.
_BLANK_GLYPHS = frozenset({"\u2800", "\ufffc", "\u3000", "\U00016fe4", "\U0001d159"})
#: Categories refused anywhere in a name: controls, surrogates, private use, unassigned, line
#: and paragraph separators.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Co", "Cn", "Zl", "Zp"})


class NameRefused(ValueError):
    """A name we refuse; ``code`` is the API's error code (``bad_name``)."""

    def __init__(self, message: str, code: str = "bad_name") -> None:
        super().__init__(message)
        self.code = code


def is_default_ignorable(char: str) -> bool:
    """True for a character Unicode says to render as nothing when unsupported."""
    point = ord(char)
    return any(low <= point <= high for low, high in _DEFAULT_IGNORABLE)


def is_visible(char: str) -> bool:
    """True when ``char`` leaves ink on its own: a letter, digit, punctuation or symbol that
    is neither ignorable nor a known blank glyph. Marks, spaces and format characters are not."""
    if char in _BLANK_GLYPHS or is_default_ignorable(char):
        return False
    return unicodedata.category(char)[0] in "LNPS"


def only_symbols(text: str) -> bool:
    """True when ``text`` shows symbols only (emoji, ★), no letter, digit or punctuation: a
    refusal of it suggests another emoji, not "Latin letters" (round 45's play-test)."""
    shown = [char for char in text if is_visible(char)]
    return bool(shown) and all(unicodedata.category(char)[0] == "S" for char in shown)


def shown_name(name: Any) -> str:
    """``name`` as the TV shows it: "?" for one that draws as nothing (an old save's name)."""
    if isinstance(name, str) and any(is_visible(char) for char in name):
        return name
    return "?"


def display_width(text: str) -> int:
    """Columns ``text`` takes: wide and fullwidth characters 2, marks and invisible ones 0."""
    width = 0
    for char in text:
        if is_default_ignorable(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


#: Characters that never start a grapheme of their own: they hold on to the one before (a
#: joiner also holds on to the one after it). Emoji skin tones are modifiers (category Sk).
_SKIN_TONES = frozenset(map(chr, range(0x1F3FB, 0x1F400)))


def graphemes(text: str) -> list[str]:
    """``text`` cut into what a reader sees as characters: a letter with its accents, an emoji
    with its joiners, variation selectors and skin tone, a pair of regional indicators (a flag).

    Why: the TV cuts a long name in two or shortens it, and a cut between a letter and its
    accent or inside "👩‍👩‍👧" would draw a broken character. A close reading of Unicode's
    extended grapheme clusters (UAX #29) for what a name may hold; the standard library has none.
    """
    pieces: list[str] = []
    for char in text:
        previous = pieces[-1][-1] if pieces else ""
        holds_on = (
            unicodedata.category(char) in ("Mn", "Mc", "Me")
            or char in _ALLOWED_INVISIBLE
            or char in _SKIN_TONES
            or 0xE0020 <= ord(char) <= 0xE007F  # the tags of a subdivision flag
            or previous == "\u200d"
            or (_is_regional(char) and _is_regional(previous) and len(pieces[-1]) % 2 == 1)
        )
        if pieces and holds_on:
            pieces[-1] += char
        else:
            pieces.append(char)
    return pieces


def _is_regional(char: str) -> bool:
    return len(char) == 1 and 0x1F1E6 <= ord(char) <= 0x1F1FF


def clean_name(raw: Any) -> str:
    """The display name for ``raw``, or ``NameRefused``.

    NFKC (fullwidth and styled letters become plain ones), runs of spaces become one space,
    trimmed (joiners too); 1–16 characters and at most ``MAX_NAME_WIDTH`` columns; no control, private,
    unassigned or ignorable character but joiners and variation selectors; at least one
    visible character.
    """
    if not isinstance(raw, str):
        raise NameRefused("the name must be text")
    for char in raw:
        if unicodedata.category(char) in _REFUSED_CATEGORIES:
            raise NameRefused("the name holds a control character")
    name = " ".join(unicodedata.normalize("NFKC", raw).split()).strip(_EDGE_JOINERS)
    if not 1 <= len(name) <= MAX_NAME_LENGTH:
        raise NameRefused("the name must have 1 to 16 characters")
    for char in name:
        category = unicodedata.category(char)
        if category in _REFUSED_CATEGORIES or (
            (category == "Cf" or is_default_ignorable(char)) and char not in _ALLOWED_INVISIBLE
        ):
            raise NameRefused("the name holds a control or invisible character")
    if not any(is_visible(char) for char in name):
        raise NameRefused("the name must show at least one letter, digit or symbol")
    if display_width(name) > MAX_NAME_WIDTH:
        raise NameRefused("the name is too wide for the TV")
    return name


def look_alike_keys(name: str) -> frozenset[str]:
    """Keys under which ``name`` looks like another name: two names that share a key look the
    same on the TV. The TR39 skeleton of the name without its invisible characters, as typed
    (so "Il" meets "ll") and case-folded (so "ANA" meets "ana")."""
    bare = "".join(c for c in unicodedata.normalize("NFKC", name) if not is_default_ignorable(c))
    bare = " ".join(bare.split())
    return frozenset({_skeleton(bare), _skeleton(bare.casefold()).casefold()})


def reading_key(text: str) -> str:
    """What ``text`` reads as, however it is written: its case-folded TR39 skeleton without
    invisible characters (the broadest of ``look_alike_keys``). Two names are told apart on
    the TV only where their reading keys differ."""
    bare = "".join(c for c in unicodedata.normalize("NFKC", text) if not is_default_ignorable(c))
    return _skeleton(" ".join(bare.split()).casefold()).casefold()


def looks_like(name: str, others: list[str]) -> bool:
    """True when ``name`` looks like one of ``others`` (seated names)."""
    keys = look_alike_keys(name)
    return any(keys & look_alike_keys(other) for other in others)


def _skeleton(text: str) -> str:
    """TR39's ``skeleton(X)``: NFD, every character replaced by its prototype, NFD again."""
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(char, char) for char in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


@functools.lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """``confusables.txt`` as {character: prototype}, read on first use (about 6 300 lines)."""
    data = resources.files("assets") / "unicode" / "confusables.txt"
    table: dict[str, str] = {}
    for line in data.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        source, _, target = line.partition(";")
        table[chr(int(source, 16))] = "".join(chr(int(code, 16)) for code in target.split())
    return table
