"""What each seat's plate says: the name at a size the sofa can read, never like another's.

Why a module: round 37's play-test found a name of 16 "W" shrunk to fit its plate, 9 px high,
unreadable from the sofa. Now a name never goes under ``READABLE_SIZE`` (on every table the
layout can seat that way, ``host/tv/layout.py``): it takes one line if it fits, else two (the
table then gets plates for two lines), and a name still too long is shortened with "…"
where it hides the least. A shortened name is checked against every other seat's (by the
look-alike keys of ``host.names``): where two would read the same, the second shows another
part of its name, the part that tells it apart.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from host.names import graphemes, reading_key
from host.tv.layout import READABLE_SIZE, SeatSpot, seat_spots
from host.tv.theme import ELLIPSIS, Theme

#: Names are bold on their plate.
BOLD = True
#: Where a table's names have no readable size (``SeatSpot.readable``), they shrink to this.
SMALLEST_SIZE = 12
#: Plans remembered (a frame asks for its table's 60 times a second), then forgotten at once.
PLAN_LIMIT = 64
#: What ends the first line of a name cut inside a word, as print breaks a word.
HYPHEN = "-"
#: Scripts whose words are broken at a line's end with a hyphen (not Chinese, Japanese or
#: Korean, whose names are cut anywhere, nor emoji): the start of their letters' Unicode names.
HYPHENATED_SCRIPTS = ("LATIN ", "GREEK ", "CYRILLIC ")
#: Vowels, for cutting a word before a syllable's first consonants (accents set aside).
VOWELS = frozenset("aeiouyαεηιοωυаеёиоуыэюя")
#: Two consonants a syllable may begin with, never cut apart ("Chris", "Pa|trick", "So|phie").
ONSETS = frozenset(
    {first + second for first in "bcdfghkptv" for second in "lr"}
    | {first + "h" for first in "cpstg"}
)


@dataclass(frozen=True)
class NameLabel:
    """A name as its plate shows it: one or two lines at one size."""

    lines: tuple[str, ...]
    size: int
    whole: bool = True
    """False: shortened with "…" (too long for its plate even at the smallest size)."""
    hyphenated: bool = False
    """True: cut inside a word, the first line ending with a hyphen of the plate's own
    ("Alexan-" over "drine"), not one of the name's."""

    @property
    def text(self) -> str:
        """What the label says in one line, without a hyphen the plate added."""
        first, *rest = self.lines
        return "".join([first.removesuffix(HYPHEN) if self.hyphenated else first, *rest])


@dataclass(frozen=True)
class SeatPlan:
    """Where each seat sits and what its plate says, in seat order."""

    spots: tuple[SeatSpot, ...]
    labels: tuple[NameLabel, ...]


def stripe_width(spot: SeatSpot) -> int:
    """The player's colour stripe at the plate's left edge."""
    return max(6, round(12 * spot.plate_factor))


def name_width(spot: SeatSpot) -> int:
    """How wide a line of the name may be: the plate but for the stripe on each side (the
    name is centred beside it) and a little air."""
    return spot.plate_size[0] - 2 * stripe_width(spot) - 6


def name_sizes(spot: SeatSpot) -> tuple[int, int]:
    """The name's size on this seat, and the smallest it may shrink to in one line."""
    size = round(30 * spot.plate_factor)
    if not spot.readable:
        return size, SMALLEST_SIZE
    return max(size, READABLE_SIZE), READABLE_SIZE


class NamePlates:
    """Seat plans by the table's names (``plan``), remembered."""

    def __init__(self) -> None:
        self._plans: dict[tuple[str, ...], SeatPlan] = {}

    def plan(self, theme: Theme, names: Sequence[str]) -> SeatPlan:
        """The seats for ``names`` (one a seat, in seat order) and their plates' words.

        Plates for one line unless a name does not fit one at the smallest size: then plates
        for two (``seat_spots(count, 2)``), for every seat alike."""
        key = tuple(names)
        plan = self._plans.get(key)
        if plan is None:
            spots = tuple(seat_spots(len(key)))
            if not all(fits_one_line(theme, name, spot) for name, spot in zip(key, spots)):
                spots = tuple(seat_spots(len(key), 2))
            if len(self._plans) >= PLAN_LIMIT:
                self._plans.clear()
            plan = self._plans[key] = SeatPlan(spots, name_labels(theme, key, spots))
        return plan


def short_name(label: NameLabel, name: str) -> str:
    """``name`` as a line of text elsewhere on the table (the header) where the whole of it
    does not fit: as its plate shortens it, which tells it from every other seat's."""
    return name if label.whole else label.text


def shortened_line(theme: Theme, name: str, others: Sequence[str], size: int, width: int) -> str:
    """``name`` in one bold line of ``width`` at ``size`` away from the seats (tonight's
    standings): whole where it fits, else shortened as a plate of one line shortens it
    (``_shortened``), with the first choice that no name of ``others`` could be read into
    (``could_be``), and cut at its end only if every choice could be another's."""
    if theme.measure(name, size, BOLD) <= width:
        return name
    for label in _shortened(theme, graphemes(name), size, width, 1):
        if not any(could_be(label, other) for other in others):
            return label.lines[0]
    return theme.ellipsized(name, size, width, BOLD)


def fits_one_line(theme: Theme, name: str, spot: SeatSpot) -> bool:
    """Whether ``name`` fits one line of ``spot``'s plate at the smallest size it may have."""
    return theme.measure(name, name_sizes(spot)[1], BOLD) <= name_width(spot)


def name_labels(
    theme: Theme, names: Sequence[str], spots: Sequence[SeatSpot]
) -> tuple[NameLabel, ...]:
    """Each seat's label: ``label_choices``' first, but a shortened label that another seat's
    name could also be read into takes its next choice, the first that only its own name fits
    (``could_be``). If none does (names alike but for a letter hidden in every choice), the
    whole name, shrunk under the readable size: a name must never pass for another's."""
    labels = []
    for index, (name, spot) in enumerate(zip(names, spots)):
        others = [other for i, other in enumerate(names) if i != index]
        choices = label_choices(theme, name, spot)
        label = next(choices)
        if not label.whole:
            label = next(
                (
                    choice
                    for choice in (label, *choices)
                    if not any(could_be(choice, other) for other in others)
                ),
                None,
            ) or _shrunk(theme, name, spot)
        labels.append(label)
    return tuple(labels)


def could_be(label: NameLabel, name: str) -> bool:
    """Whether a reader of a shortened ``label`` could take it for ``name``: ``name`` begins
    like its first part and holds its second where the label shows it, as read
    (``host.names.reading_key``: "Il" as "ll", "ANA" as "ana")."""
    if label.whole:
        return reading_key(label.text) == reading_key(name)
    key = reading_key(name)
    head, _, rest = label.text.partition(ELLIPSIS)
    middle, _, _ = rest.partition(ELLIPSIS)
    head, middle = reading_key(head), reading_key(middle)
    if not key.startswith(head) or len(key) <= len(head) + len(middle):
        return False
    after = key[len(head) + 1 :]  # "…" hides at least one character
    return middle in after if rest.endswith(ELLIPSIS) else after.endswith(middle)


def label_choices(theme: Theme, name: str, spot: SeatSpot) -> Iterator[NameLabel]:
    """How ``name`` may show on ``spot``'s plate, best first: whole in one line (shrunk down
    to the smallest size), whole in two lines at the smallest size, then shortened
    (``_shortened``), then cut at its end as a last resort."""
    width = name_width(spot)
    size, smallest = name_sizes(spot)
    if fits_one_line(theme, name, spot):
        while theme.measure(name, size, BOLD) > width:
            size -= 2
        yield NameLabel((name,), size)
        return
    pieces = graphemes(name)
    if spot.name_lines == 2:
        whole = _laid_out(theme, pieces, smallest, width)
        if whole is not None:
            yield whole
            return
    yield from _shortened(theme, pieces, smallest, width, spot.name_lines)
    yield NameLabel((theme.ellipsized(name, smallest, width, BOLD),), smallest, whole=False)


def _shortened(
    theme: Theme, pieces: list[str], size: int, width: int, lines: int
) -> Iterator[NameLabel]:
    """``pieces`` with a part hidden behind "…": its beginning, "…", then its end — in two
    lines the first line full and "…" opening the second, in one line two thirds of it
    first. Then the same with other parts shown after "…" (``name_labels`` takes one when
    the end does not tell the seat apart), nearest the end first."""
    ellipsis = theme.measure(ELLIPSIS, size, BOLD)
    head = _fitting(theme, pieces, size, width if lines == 2 else round(width * 2 / 3) - ellipsis)
    head = max(1, head)
    room = width if lines == 2 else width - theme.measure("".join(pieces[:head]), size, BOLD)
    ranked: list[tuple[bool, int, int, tuple[str, ...]]] = []
    for start in range(head + 1, len(pieces)):
        run = pieces[start:]
        while run and not _fits_after(theme, run, len(pieces) - start, size, room):
            run = run[:-1]
        if run:
            cut = len(run) < len(pieces) - start
            text = ELLIPSIS + "".join(run) + (ELLIPSIS if cut else "")
            first = "".join(pieces[:head])
            ranked.append((cut, -len(run), start, (first, text) if lines == 2 else (first + text,)))
    for *_, label in sorted(ranked):
        yield NameLabel(label, size, whole=False)


def _shrunk(theme: Theme, name: str, spot: SeatSpot) -> NameLabel:
    """``name`` whole in the plate's lines at the biggest size under the readable one that
    holds it, down to ``SMALLEST_SIZE`` (cut at its end only below that)."""
    width = name_width(spot)
    pieces = graphemes(name)
    for size in range(name_sizes(spot)[1] - 2, SMALLEST_SIZE - 1, -2):
        if theme.measure(name, size, BOLD) <= width:
            return NameLabel((name,), size)
        lines = _laid_out(theme, pieces, size, width) if spot.name_lines == 2 else None
        if lines is not None:
            return lines
    return NameLabel((theme.ellipsized(name, SMALLEST_SIZE, width, BOLD),), SMALLEST_SIZE, False)


def _fits_after(theme: Theme, run: list[str], rest: int, size: int, room: int) -> bool:
    """Whether "…" + ``run`` (+ "…" when it stops short of the ``rest`` pieces) fits ``room``."""
    cut = ELLIPSIS if len(run) < rest else ""
    return theme.measure(ELLIPSIS + "".join(run) + cut, size, BOLD) <= room


def _laid_out(theme: Theme, pieces: list[str], size: int, width: int) -> NameLabel | None:
    """``pieces`` whole in two lines of ``width``, as even as they go; None if no cut fits.

    Where, the first that fits: at a space or beside a hyphen; inside a word of a script that
    breaks words with a hyphen (``HYPHENATED_SCRIPTS``), before a syllable's first consonant
    and with a hyphen at the first line's end, as in print ("Bartho-" over "lomew"); else
    between any two graphemes, unmarked, as before. Why the hyphen: "Alexa" over "ndrine"
    read as two names at a 10-seat table (round 40). Why unmarked at other cuts: a name that
    has its own hyphen read oddly with another ("Jean-Ch-" over "ristophe").

    Why even: a first line filled as far as it goes left "Jean-Christoph" over a lone "e"
    (round 37); "Jean-" over "Christophe" reads as one name."""

    def halves(count: int, hyphen: bool) -> tuple[str, str]:
        first = "".join(pieces[:count]).strip() + (HYPHEN if hyphen else "")
        return first, "".join(pieces[count:]).strip()

    def wider(count: int, hyphen: bool) -> int | None:
        first, second = halves(count, hyphen)
        if not first.removesuffix(HYPHEN) or not second:
            return None
        return max(theme.measure(first, size, BOLD), theme.measure(second, size, BOLD))

    breaks = [i + 1 for i in range(len(pieces) - 1) if pieces[i] in (" ", "-")]
    breaks += [i for i in range(1, len(pieces)) if pieces[i] == "-"]  # "Guillaume" / "-Henri"
    syllables = [i for i in range(1, len(pieces)) if _starts_a_syllable(pieces, i)]
    for cuts, hyphen in ((breaks, False), (syllables, True), (range(1, len(pieces)), False)):
        fitting = [
            (wide, count)
            for count in cuts
            if (wide := wider(count, hyphen)) is not None and wide <= width
        ]
        if fitting:
            count = min(fitting)[1]
            return NameLabel(halves(count, hyphen), size, hyphenated=hyphen)
    return None


def _in_a_word(pieces: list[str], count: int) -> bool:
    """Whether a cut before ``pieces[count]`` falls inside a word of a script that marks such a
    cut with a hyphen: a letter of one on each side."""
    return _hyphenates(pieces[count - 1]) and _hyphenates(pieces[count])


def _hyphenates(grapheme: str) -> bool:
    base = grapheme[0]
    return base.isalpha() and unicodedata.name(base, "").startswith(HYPHENATED_SCRIPTS)


def _starts_a_syllable(pieces: list[str], count: int) -> bool:
    """Whether ``pieces[count]`` begins a syllable inside a word: a consonant, or two or three
    that begin syllables together (``ONSETS``), then a vowel ("Maxi|milien", "Alexan|drine",
    "Jean-|Chris|tophe"), and not one of such a cluster ("Jean-Ch|ristophe"). A word cut
    there reads as print cuts it."""
    if not 0 < count < len(pieces) - 1 or not _in_a_word(pieces, count):
        return False
    letters = [unicodedata.normalize("NFD", piece)[0].casefold() for piece in pieces]
    if letters[count - 1] + letters[count] in ONSETS:
        return False
    end = count
    while end + 1 < len(pieces) and letters[end] + letters[end + 1] in ONSETS:
        end += 1
    return (
        end + 1 < len(pieces)
        and all(not _vowel(letter) for letter in letters[count : end + 1])
        and _vowel(letters[end + 1])
        and _in_a_word(pieces, end + 1)
    )


def _vowel(grapheme: str) -> bool:
    return unicodedata.normalize("NFD", grapheme)[0].casefold() in VOWELS


def _fitting(theme: Theme, pieces: list[str], size: int, width: int) -> int:
    """How many of ``pieces``, from the first, fit in one line of ``width``."""
    count = 0
    while count < len(pieces) and theme.measure("".join(pieces[: count + 1]), size, BOLD) <= width:
        count += 1
    return count
