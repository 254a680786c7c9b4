"""Tonight's standings as a table on the TV, read from the sofa with up to 20 guests.

Why its own layout: the table was set for every figure at once, with the titles on a line
under each name; with ten guests that left 24 px names and 20 px titles (ten lines of 28 px
with their titles need about 760 px, the box has 634 for its lines). Now no line of it is ever
under ``READABLE_SIZE``, and the room decides what goes, in this order:

1. every figure, then fewer, dropping first what a party cares least about (``WORTH``: the
   wins always stay; every phone still shows all of them);
2. one column of guests, then two (H7's 20 seats, or an evening of guests who came and went);
3. the biggest type first (44 px down to 28);
4. the titles on a line of their own under the name (few guests), else on the name's line
   after it, else as a band of awards under the table ("Survivor: Ana"): the band costs one
   line for two titles, where under the names each line of titles costs a line a guest.

A name wider than its column (``NAME_EMS``) is shortened as a seat's plate shortens it
(``host.tv.nameplates.shortened_line``, never as another's). Where nothing fits (many wide
names with many titles, or more guests than two columns hold), the last resort keeps the wins
only and tells the guests left over in one line ("…and 3 more guests"). Everything here comes from the public standings: nothing
hidden can show.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

import pygame

from host.rules.contract import StandingsRow
from host.tv import theme
from host.tv.layout import READABLE_SIZE
from host.tv.nameplates import shortened_line
from host.tv.scene import Props
from host.tv.theme import Theme

#: Columns of the standings table: (catalog key, line field); the name column comes first.
COLUMNS: tuple[tuple[str, str], ...] = (
    ("col_wins", "wins"),
    ("col_games", "games"),
    ("col_survived", "survived"),
    ("col_lives_lost", "lives_lost"),
    ("col_cuckoos", "cuckoos"),
    ("col_guesses", "good_guesses"),
)
#: The figures by what they tell a party, most first: a table short of room drops them from
#: the end. Wins first (who is winning the evening), then rounds survived, the order's next
#: figure (round 45's play-test: 20 guests ranked with only wins and "Cuckoo!" calls shown
#: read as out of order), then the game's own fun ("Cuckoo!" calls, lives lost), then what
#: every guest has about alike (games) or is a side game (guesses).
WORTH: tuple[str, ...] = ("wins", "survived", "cuckoos", "lives_lost", "games", "good_guesses")
#: Names and figures: the biggest that fits, down to the floor. Headings are never bigger
#: than the names they stand over (up to ``HEAD_SIZE``); titles are a share of the names'.
ROW_SIZES: tuple[int, ...] = tuple(range(44, READABLE_SIZE - 1, -2))
HEAD_SIZE = 30
TITLE_SHARE = 0.8
#: Spaces: between two lines; the rank and the colour dot before a name; after the last
#: column; between a name, its titles and each figures' column; between two columns of
#: guests (or of awards); above the band of awards.
ROW_GAP = 10
LEFT = 120
RIGHT = 40
GAP = 24
GUEST_GAP = 40
BAND_GAP = 16
#: A column of names as wide as this many times the type's size (about 16 ordinary letters)
#: is enough: a name wider still is shortened (as a seat's plate shortens it) rather than
#: setting every line smaller, or one name as wide as a name may be (16 "W", 496 px at the
#: floor) would put a table of three guests at 28 px.
NAME_EMS = 10
#: Guests go in one column, or two; the awards' band has two.
MOST_GUEST_COLUMNS = 2
BAND_COLUMNS = 2


class Titles(Enum):
    """Where the titles go (``table_layout``)."""

    UNDER = "under"
    """On a line of their own under the name."""
    BESIDE = "beside"
    """On the name's line, after it."""
    BAND = "band"
    """In a band of awards under the table ("Survivor: Ana")."""
    NONE = "none"
    """Not on the TV: the last resort, where even the band has no room (the phones show them)."""


def phrase(props: Props, key: str, **params: Any) -> str:
    """An evening phrase (``evening.<key>``) in the TV's language."""
    return props.catalog.t(props.lang, f"evening.{key}", **params)


@dataclass(frozen=True)
class Guest:
    """A line of the standings in words, before it is laid out."""

    player: str
    rank: str
    name: str
    mark: str
    """ " (computer)" after a computer player's name, else ""."""
    titles: tuple[str, ...]
    figures: tuple[tuple[str, str], ...]
    """(field, figure) for every field of ``COLUMNS``."""
    leads: bool
    """First (tied first too), with wins: drawn in gold."""

    def figure(self, field_name: str) -> str:
        return dict(self.figures)[field_name]


def figure(props: Props, row: StandingsRow, field_name: str) -> str:
    """A line's figure as the table writes it: wins say how many were joint wins (R14),
    "2 (1 shared)", as the phones do (round 44's play-test)."""
    value = row.get(field_name, 0)
    shared = row.get("shared_wins", 0) if field_name == "wins" else 0
    if shared:
        return phrase(props, "wins_shared", wins=value, count=shared)
    return str(value)


def guests_of(props: Props, rows: Sequence[StandingsRow]) -> list[Guest]:
    """The standings' lines in the TV's language (titles translated, a computer marked)."""
    return [
        Guest(
            player=str(row.get("player", "")),
            rank=str(row.get("rank", place + 1)),
            name=str(row.get("name", "?")),
            mark=f" ({phrase(props, 'bot')})" if row.get("bot") else "",
            titles=tuple(phrase(props, f"title_{title}") for title in row.get("titles", [])),
            figures=tuple((field, figure(props, row, field)) for _, field in COLUMNS),
            leads=row.get("rank", place + 1) == 1 and bool(row.get("wins")),
        )
        for place, row in enumerate(rows)
    ]


def awards_of(guests: Sequence[Guest]) -> list[tuple[str, str]]:
    """Each title held and its holder's name, in the standings' order."""
    return [(title, guest.name) for guest in guests for title in guest.titles]


@dataclass(frozen=True)
class TableLayout:
    """How the table is set (``table_layout``)."""

    size: int
    """Names and figures."""
    titles: Titles
    fields: tuple[str, ...]
    """The figures shown, in ``COLUMNS`` order."""
    guest_columns: int
    shown: int
    """Guests shown; any others are told in one line ("…and 3 more guests")."""

    @property
    def head_size(self) -> int:
        return min(HEAD_SIZE, self.size)

    @property
    def title_size(self) -> int:
        """Smaller than the names, never under the floor."""
        return max(READABLE_SIZE, 2 * round(self.size * TITLE_SHARE / 2))


def heading_lines(th: Theme, text: str, size: int) -> list[str]:
    """A heading in one line or two (cut at a space), whichever is narrower: a figures'
    column is as wide as its heading at a readable size, never shrunk to small print."""
    two = th.split_evenly(text, size, 2, bold=True)
    choices = [[text]] if two is None else [[text], list(two)]
    return min(choices, key=lambda lines: max(th.measure(line, size, True) for line in lines))


class TableMeasures:
    """The widths and heights ``table_layout`` weighs for one table, each measured once."""

    def __init__(self, props: Props, guests: Sequence[Guest], box: pygame.Rect) -> None:
        self.th = props.theme
        self.guests = guests
        self.awards = awards_of(guests)
        self.box = box
        self.heads = {field: phrase(props, key) for key, field in COLUMNS}
        self.player_head = phrase(props, "col_player")
        self._widths: dict[tuple[str, int], int] = {}

    def line(self, size: int, bold: bool = False) -> int:
        return self.th.font(size, bold).get_height()

    def rows_top(self, layout: TableLayout) -> int:
        """Where the first line goes: under two lines of headings."""
        return self.box.top + 24 + 2 * self.line(layout.head_size, True) + 16

    def room(self, layout: TableLayout) -> int:
        """The height the lines (and the awards' band) share."""
        return self.box.bottom - 16 - self.rows_top(layout)

    def row_height(self, layout: TableLayout) -> int:
        under = self.line(layout.title_size) if layout.titles == Titles.UNDER else 0
        return self.line(layout.size) + under + ROW_GAP

    def band_height(self, layout: TableLayout) -> int:
        """The awards' band, if the titles go there (two awards a line)."""
        if layout.titles != Titles.BAND or not self.awards:
            return 0
        lines = -(-len(self.awards) // BAND_COLUMNS)
        return BAND_GAP + lines * (self.line(layout.title_size) + ROW_GAP)

    def per_column(self, layout: TableLayout) -> int:
        """How many lines a column of guests holds, with the band under them."""
        return max(1, (self.room(layout) - self.band_height(layout)) // self.row_height(layout))

    def guest_width(self, layout: TableLayout) -> int:
        columns = layout.guest_columns
        return (self.box.width - (columns - 1) * GUEST_GAP) // columns

    def column_width(self, field_name: str, layout: TableLayout) -> int:
        """A figures' column: its heading's lines or its widest figure, and a gap."""
        key = (field_name, layout.size)
        if key not in self._widths:
            head = heading_lines(self.th, self.heads[field_name], layout.head_size)
            self._widths[key] = GAP + max(
                *(self.th.measure(line, layout.head_size, True) for line in head),
                *(self.th.measure(g.figure(field_name), layout.size) for g in self.guests),
            )
        return self._widths[key]

    def name_room(self, layout: TableLayout) -> int:
        """What a column of guests leaves for the names (and titles beside them)."""
        figures = sum(self.column_width(field, layout) for field in layout.fields)
        return self.guest_width(layout) - LEFT - RIGHT - figures

    def name_width(self, layout: TableLayout) -> int:
        """The names' column: as wide as the widest name, or what the room leaves beside the
        titles and figures (a wider name is shortened)."""
        titles = self.widest_titles(layout.title_size)
        beside = GAP + titles if layout.titles == Titles.BESIDE and titles else 0
        return min(self.widest_name(layout.size), self.name_room(layout) - beside)

    def widest_name(self, size: int) -> int:
        return self._widest("\0names", size, [(g.name + g.mark, True) for g in self.guests])

    def least_name(self, size: int) -> int:
        """The narrowest the names' column may be: each name whole up to ``NAME_EMS`` (a
        longer one shortened to that), a computer's mark whole after it ("Chloé" must not
        shrink to "C…é" to make room for "(computer)")."""
        key = ("\0least", size)
        if key not in self._widths:
            self._widths[key] = max(
                (
                    min(self.th.measure(g.name, size, True), NAME_EMS * size)
                    + self.th.measure(g.mark, size, True)
                    for g in self.guests
                ),
                default=0,
            )
        return self._widths[key]

    def widest_titles(self, size: int) -> int:
        return self._widest("\0titles", size, [(" · ".join(g.titles), False) for g in self.guests])

    def _widest(self, what: str, size: int, texts: list[tuple[str, bool]]) -> int:
        key = (what, size)
        if key not in self._widths:
            widths = (self.th.measure(text, size, bold) for text, bold in texts if text)
            self._widths[key] = max(widths, default=0)
        return self._widths[key]

    def fits(self, layout: TableLayout) -> bool:
        """Every guest in the columns' lines; every name, up to ``NAME_EMS`` (wider ones are
        shortened), and any titles beside it in the room the figures leave."""
        if -(-layout.shown // layout.guest_columns) > self.per_column(layout):
            return False
        names = self.least_name(layout.size)
        titles = self.widest_titles(layout.title_size)
        if layout.titles == Titles.BESIDE and titles:
            return names + GAP + titles <= self.name_room(layout)
        if layout.titles == Titles.UNDER:
            return max(names, titles) <= self.name_room(layout)
        return names <= self.name_room(layout)


def table_layout(measures: TableMeasures) -> TableLayout:
    """The first layout that fits, in the order the module's docstring gives; else the last
    resort: the wins only, names shortened, the awards' band if there is room for it, and
    the guests two columns cannot hold told in one line."""
    count = len(measures.guests)
    places = (Titles.UNDER, Titles.BESIDE, Titles.BAND) if measures.awards else (Titles.BESIDE,)
    for kept in range(len(WORTH), 0, -1):
        fields = tuple(field for _, field in COLUMNS if field in WORTH[:kept])
        for columns in range(1, MOST_GUEST_COLUMNS + 1):
            for size in ROW_SIZES:
                for titles in places:
                    layout = TableLayout(size, titles, fields, columns, count)
                    if measures.fits(layout):
                        return layout
    last = TableLayout(READABLE_SIZE, Titles.BAND, ("wins",), MOST_GUEST_COLUMNS, count)
    if -(-count // MOST_GUEST_COLUMNS) > measures.per_column(last):
        last = replace(last, titles=Titles.NONE)  # every line goes to a guest
    held = measures.per_column(last) * MOST_GUEST_COLUMNS
    return replace(last, shown=count if count <= held else held - 1)


@dataclass(frozen=True)
class TableLine:
    """A text of the table: what, how big, in which ink, bold or not, where."""

    text: str
    size: int
    colour: theme.Colour
    bold: bool
    rect: pygame.Rect


@dataclass(frozen=True)
class TableBoard:
    """The standings table as drawn: its texts, and each guest's colour dot."""

    lines: tuple[TableLine, ...]
    dots: tuple[tuple[str, tuple[int, int], int], ...]
    """(player, centre, radius)."""
    layout: TableLayout


class _Lines:
    """The board's texts as they are placed (``standings_board``)."""

    def __init__(self, th: Theme) -> None:
        self.th = th
        self.lines: list[TableLine] = []

    def add(self, text: str, size: int, colour: theme.Colour, bold: bool, **anchor: Any) -> None:
        th = self.th
        rect = pygame.Rect(0, 0, th.measure(text, size, bold), th.font(size, bold).get_height())
        for name, value in anchor.items():
            setattr(rect, name, value)
        self.lines.append(TableLine(text, size, colour, bold, rect))


def standings_board(props: Props, rows: Sequence[StandingsRow], box: pygame.Rect) -> TableBoard:
    """The table for ``rows`` in ``box`` (pure: the same rows give the same board). Lines are
    spread over the box's height, up to half a line apart more than they need."""
    th = props.theme
    guests = guests_of(props, rows)
    measures = TableMeasures(props, guests, box)
    layout = table_layout(measures)
    out = _Lines(th)
    dots: list[tuple[str, tuple[int, int], int]] = []
    width, size = measures.guest_width(layout), layout.size
    name_w = measures.name_width(layout)
    per_column = -(-layout.shown // layout.guest_columns)
    lines = per_column  # the line of guests left over takes the last column's last place
    spare = measures.room(layout) - measures.band_height(layout)
    step = measures.row_height(layout)
    step = min(max(step, spare // max(1, lines)), step + measures.line(size) // 2)
    top = measures.rows_top(layout)
    names = [g.name for g in guests]
    for column in range(layout.guest_columns):
        left = box.left + column * (width + GUEST_GAP)
        centres = _headings(out, measures, layout, left, width)
        chunk = guests[column * per_column : min((column + 1) * per_column, layout.shown)]
        for place, guest in enumerate(chunk):
            index = column * per_column + place
            others = names[:index] + names[index + 1 :]
            y = top + place * step
            colour = theme.GOLD if guest.leads else theme.INK
            line = measures.line(size)
            out.add(guest.rank, size, theme.MUTED_INK, True, topright=(left + 70, y))
            dots.append((guest.player, (left + 98, y + line // 2), size // 3))
            room = name_w - th.measure(guest.mark, size, True)
            name = shortened_line(th, guest.name, others, size, room)
            out.add(name + guest.mark, size, colour, True, topleft=(left + LEFT, y))
            titles = " · ".join(guest.titles)
            if titles and layout.titles == Titles.BESIDE:
                tsize = layout.title_size
                baseline = y + th.font(size).get_ascent() - th.font(tsize).get_ascent()
                at = (left + LEFT + name_w + GAP, baseline)
                out.add(titles, tsize, theme.GOLD, False, topleft=at)
            elif titles and layout.titles == Titles.UNDER:
                out.add(
                    titles, layout.title_size, theme.GOLD, False, topleft=(left + LEFT, y + line)
                )
            for field in layout.fields:
                out.add(guest.figure(field), size, colour, False, midtop=(centres[field], y))
    hidden = len(guests) - layout.shown
    if hidden:
        left = box.left + (layout.guest_columns - 1) * (width + GUEST_GAP)
        y = top + (layout.shown - (layout.guest_columns - 1) * per_column) * step
        more = phrase(props, "more_guests", count=hidden)
        out.add(more, size, theme.MUTED_INK, False, topleft=(left + LEFT, y))
    if layout.titles == Titles.BAND:
        _band(out, props, measures, layout, top + lines * step - ROW_GAP + BAND_GAP)
    return TableBoard(tuple(out.lines), tuple(dots), layout)


def _headings(
    out: _Lines, measures: TableMeasures, layout: TableLayout, left: int, width: int
) -> dict[str, int]:
    """A column of guests' headings, bottoms on one line; returns each figure's centre."""
    head_size, head_line = layout.head_size, measures.line(layout.head_size, True)
    bottom = measures.rows_top(layout) - 16
    out.add(
        measures.player_head, head_size, theme.MUTED_INK, True, bottomleft=(left + LEFT, bottom)
    )
    right = left + width - RIGHT
    centres: dict[str, int] = {}
    for field in reversed(layout.fields):
        column_w = measures.column_width(field, layout)
        centres[field] = right - (column_w - GAP) // 2
        right -= column_w
    for field in layout.fields:
        heads = heading_lines(out.th, measures.heads[field], head_size)
        for j, text in enumerate(heads):
            at = (centres[field], bottom - (len(heads) - j) * head_line)
            out.add(text, head_size, theme.MUTED_INK, True, midtop=at)
    return centres


def _band(
    out: _Lines, props: Props, measures: TableMeasures, layout: TableLayout, top: int
) -> None:
    """The awards under the table, two a line: "Survivor: Ana" (a name shortened as a plate
    shortens it where the award is too wide)."""
    th, box, size = out.th, measures.box, layout.title_size
    width = (box.width - LEFT - RIGHT - (BAND_COLUMNS - 1) * GUEST_GAP) // BAND_COLUMNS
    names = [g.name for g in measures.guests]
    step = measures.line(size) + ROW_GAP
    for index, (title, name) in enumerate(measures.awards):
        row, column = divmod(index, BAND_COLUMNS)
        others = [other for other in names if other != name]
        room = width - th.measure(phrase(props, "title_holder", title=title, name=""), size)
        shown = shortened_line(th, name, others, size, room)
        text = phrase(props, "title_holder", title=title, name=shown)
        left = box.left + LEFT + column * (width + GUEST_GAP)
        out.add(text, size, theme.GOLD, False, topleft=(left, top + row * step))


def draw_standings_table(
    surface: pygame.Surface,
    props: Props,
    rows: Sequence[StandingsRow],
    box: pygame.Rect,
    colours: dict[str, theme.Colour],
) -> None:
    """The box and ``standings_board``'s lines; a guest's dot in their own colour
    (``colours``: by player; a guest who left has no dot)."""
    th = props.theme
    pygame.draw.rect(surface, theme.PANEL, box, border_radius=24)
    pygame.draw.rect(surface, theme.PANEL_EDGE, box, 3, border_radius=24)
    board = standings_board(props, rows, box)
    for player_id, centre, radius in board.dots:
        if player_id in colours:
            pygame.draw.circle(surface, colours[player_id], centre, radius)
    for line in board.lines:
        surface.blit(th.text(line.text, line.size, line.colour, line.bold), line.rect)
