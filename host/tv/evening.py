"""The evening on the TV: tonight's standings (between games, in the lobby) and guests' reactions.

Why its own module: the standings and the reactions are not part of a game; they sit on top of
the lobby and the table with as few hooks as possible in ``app.py``. Everything drawn here comes
from the public view (``standings``) or from the session's reaction desk (an emoji and who sent
it), so nothing here can show a hidden card. Reactions are placed beside a seat's name plate,
never over a card or the caption bar, and at most ``MAX_ON_SCREEN`` at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import pygame

from host.rules.contract import StandingsRow
from host.tv import theme
from host.tv.layout import CAPTION_HEIGHT, READABLE_SIZE
from host.tv.lobby import RULES_TOP, rule_step
from host.tv.scene import Props
from host.tv.seats import card_rect, plate_rect, seat_plan
from host.tv.stage import Stage
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
TABLE_BOX = pygame.Rect(120, 150, 1680, 760)
LOBBY_BOX = pygame.Rect(720, 630, 480, 216)
"""Where the lobby's "Tonight" box may go (it starts lower when there are many house rules)."""
BUBBLE = 64
#: The standings table's type, in pixels: headings (largest, smallest); names and figures
#: (largest, smallest that keeps the titles' line; smallest at all); the titles' line
#: (smallest); the space between two lines.
HEAD_SIZE = 30
HEAD_MIN = 20
ROW_SIZES = (44, 24)
ROW_MIN = 16
TITLE_MIN = 20
ROW_GAP = 10


class ReactionLike(Protocol):
    """A reaction as ``host.social.Reaction`` has it (who sent which emoji)."""

    @property
    def player(self) -> str: ...

    @property
    def emoji(self) -> str: ...


def standings_of(stage: Stage) -> list[StandingsRow]:
    """The standings of the last public view the TV received (``[]`` if none)."""
    rows = stage.latest.get("standings") or [] if stage.latest is not None else []
    return [row for row in rows if isinstance(row, dict)]


def t(props: Props, key: str, **params: Any) -> str:
    """An evening phrase (``evening.<key>``) in the TV's language."""
    return props.catalog.t(props.lang, f"evening.{key}", **params)


class StandingsScene:
    """Full screen between games: after the winners' celebration, before the next start."""

    def __init__(self, stage: Stage, props: Props) -> None:
        self.stage = stage
        self.props = props

    def update(self, dt: float) -> None:
        """Static."""

    def handle(self, event: pygame.event.Event) -> bool:
        return False

    def draw(self, surface: pygame.Surface) -> None:
        props, th = self.props, self.props.theme
        surface.fill(theme.BACKGROUND)
        th.blit_text(surface, t(props, "standings_title"), 64, theme.GOLD, True, midtop=(960, 40))
        draw_standings_table(surface, props, self.stage, TABLE_BOX)
        th.blit_text(
            surface,
            t(props, "next_game"),
            34,
            theme.MUTED_INK,
            midbottom=(960, 1080 - CAPTION_HEIGHT - 30),
        )


@dataclass(frozen=True)
class RowLayout:
    """How tall each line of the standings is, and how big its type.

    ``title_size`` 0: no room for a line of titles under each name (a table of 20 guests).
    """

    height: int
    size: int
    title_size: int


def row_layout(count: int, room: int, titled: bool, line_height: Callable[[int], int]) -> RowLayout:
    """The biggest type that lets ``count`` lines, each with its titles' line under the name if
    ``titled``, fit in ``room`` pixels: read from a sofa, a short table gets big type.

    Why a titles' line of its own: drawn under the name inside a row sized for the name alone,
    it ran into the next line's name. ``line_height(size)``: the font's height at ``size``.
    """
    count = max(1, count)
    if titled:
        for size in range(ROW_SIZES[0], ROW_SIZES[1] - 1, -2):
            title_size = max(TITLE_MIN, round(size * 0.65))
            height = line_height(size) + line_height(title_size) + ROW_GAP
            if count * height <= room:
                return RowLayout(height, size, title_size)
    for size in range(ROW_SIZES[0], ROW_MIN - 1, -2):
        height = line_height(size) + ROW_GAP
        if count * height <= room:
            return RowLayout(height, size, 0)
    return RowLayout(max(1, room // count), ROW_MIN, 0)


def headings(th: Theme, texts: Sequence[str], width: int) -> tuple[int, list[list[str]]]:
    """The columns' headings, each in at most two lines, all at one size: the biggest up to
    ``HEAD_SIZE`` at which every heading fits ``width`` (``Theme.wrapped`` for each, then the
    smallest of their sizes). Wrapped rather than shrunk one by one (a heading shrunk alone to
    fit read as small print across the room)."""
    sizes = tuple((size, 2) for size in range(HEAD_SIZE, HEAD_MIN - 1, -2))
    size = min(th.wrapped(text, width, sizes, bold=True)[0] for text in texts)
    return size, [th.wrapped(text, width, ((size, 2),), bold=True)[1] for text in texts]


@dataclass(frozen=True)
class TableGeometry:
    """Where the standings table's parts go in its box (``table_geometry``)."""

    name_w: int
    col_w: int
    head_size: int
    heads: list[list[str]]
    head_bottom: int
    """Headings of one line sit on the lower of the two lines."""
    first: int
    """The top of the first line."""
    rows: RowLayout

    def centre(self, box: pygame.Rect, column: int) -> int:
        """The middle of a figures' column."""
        return box.left + 120 + self.name_w + self.col_w * column + self.col_w // 2


def table_geometry(props: Props, rows: Sequence[StandingsRow], box: pygame.Rect) -> TableGeometry:
    """The table's headings and lines sized for ``rows`` in ``box`` (drawing and tests)."""
    th = props.theme
    name_w = 520
    col_w = (box.width - 80 - name_w - 80) // len(COLUMNS)
    head_size, heads = headings(th, [t(props, key) for key, _ in COLUMNS], col_w - 12)
    head_bottom = box.top + 24 + 2 * th.font(head_size, True).get_height()
    first = head_bottom + 16
    titled = any(row.get("titles") for row in rows)
    layout = row_layout(
        len(rows), box.bottom - 16 - first, titled, lambda size: th.font(size).get_height()
    )
    return TableGeometry(name_w, col_w, head_size, heads, head_bottom, first, layout)


def draw_standings_table(
    surface: pygame.Surface, props: Props, stage: Stage, box: pygame.Rect
) -> None:
    """Every line, best first: rank, colour, name (computer marked), figures, titles."""
    th = props.theme
    rows = standings_of(stage)
    pygame.draw.rect(surface, theme.PANEL, box, border_radius=24)
    pygame.draw.rect(surface, theme.PANEL_EDGE, box, 3, border_radius=24)
    geometry = table_geometry(props, rows, box)
    name_w, layout = geometry.name_w, geometry.rows
    head_line = th.font(geometry.head_size, True).get_height()
    for i, lines in enumerate(geometry.heads):
        for j, line in enumerate(lines):
            top = geometry.head_bottom - (len(lines) - j) * head_line
            th.blit_text(
                surface,
                line,
                geometry.head_size,
                theme.MUTED_INK,
                True,
                midtop=(geometry.centre(box, i), top),
            )
    th.blit_text(
        surface,
        t(props, "col_player"),
        geometry.head_size,
        theme.MUTED_INK,
        True,
        bottomleft=(box.left + 120, geometry.head_bottom),
    )
    size = layout.size
    seats = {seat.id: seat.seat for seat in stage.players}
    for place, row in enumerate(rows):
        y = geometry.first + place * layout.height
        if y + layout.height > box.bottom:
            break
        colour = theme.GOLD if place == 0 and row.get("wins") else theme.INK
        th.blit_text(
            surface,
            str(row.get("rank", place + 1)),
            size,
            theme.MUTED_INK,
            True,
            topright=(box.left + 70, y),
        )
        if row.get("player") in seats:
            pygame.draw.circle(
                surface,
                theme.player_colour(seats[row["player"]]),
                (box.left + 98, y + th.font(size).get_height() // 2),
                size // 3,
            )
        label = str(row.get("name", "?"))
        if row.get("bot"):
            label += f" ({t(props, 'bot')})"
        name = th.fitted_text(label, size, name_w - 10, colour, True)
        surface.blit(name, (box.left + 120, y))
        titles = " · ".join(t(props, f"title_{title}") for title in row.get("titles", []))
        if titles and layout.title_size:
            small = th.fitted_text(titles, layout.title_size, name_w - 10, theme.GOLD)
            surface.blit(small, (box.left + 120, y + th.font(size).get_height()))
        for i, (_, field_name) in enumerate(COLUMNS):
            value = th.text(str(row.get(field_name, 0)), size, colour)
            surface.blit(value, value.get_rect(midtop=(geometry.centre(box, i), y)))


def draw_lobby_standings(surface: pygame.Surface, props: Props, stage: Stage) -> None:
    """A small "Tonight" box in the lobby's middle column: the top lines and their wins."""
    rows = standings_of(stage)
    th = props.theme
    th.blit_text(
        surface, t(props, "tutorial_hint"), READABLE_SIZE, theme.MUTED_INK, topright=(1860, 120)
    )
    if not rows:
        return
    # Below the house rules (one line each), above the join address.
    shown_rules = max(1, len(stage.house_rules))
    top = max(LOBBY_BOX.top, RULES_TOP + 10 + rule_step(shown_rules) * shown_rules)
    shown = min(len(rows), 4, (LOBBY_BOX.bottom - top - 56) // 36)
    if shown <= 0:
        return
    box = pygame.Rect(LOBBY_BOX.left, top, LOBBY_BOX.width, 60 + 36 * shown)
    pygame.draw.rect(surface, theme.PANEL, box, border_radius=16)
    th.blit_text(
        surface,
        t(props, "standings_short"),
        28,
        theme.GOLD,
        True,
        topleft=(box.left + 18, box.top + 10),
    )
    head = th.fitted_text(t(props, "col_wins"), READABLE_SIZE, 150, theme.MUTED_INK)
    surface.blit(head, head.get_rect(topright=(box.right - 18, box.top + 16)))
    for i, row in enumerate(rows[:shown]):
        y = box.top + 50 + i * 36
        label = f"{i + 1}. {row.get('name', '?')}"
        if row.get("bot"):
            label += f" ({t(props, 'bot')})"
        surface.blit(
            th.fitted_text(label, READABLE_SIZE, LOBBY_BOX.width - 110, theme.INK),
            (box.left + 18, y),
        )
        th.blit_text(
            surface,
            str(row.get("wins", 0)),
            READABLE_SIZE,
            theme.INK,
            True,
            topright=(box.right - 18, y),
        )


def reaction_spots(
    props: Props, stage: Stage, reactions: Sequence[ReactionLike]
) -> list[tuple[str, pygame.Rect]]:
    """Where each reaction goes: beside its sender's name plate, on no card and above the
    caption bar. A reaction with no free place (or no seat) is not shown."""
    players = stage.players
    spots = {seat.id: spot for seat, spot in zip(players, seat_plan(props, stage).spots)}
    in_lobby = stage.phase == "lobby"
    cards = [] if in_lobby else [card_rect(spot).inflate(8, 8) for spot in spots.values()]
    floor = 1080 - CAPTION_HEIGHT
    placed: list[tuple[str, pygame.Rect]] = []
    for reaction in reactions:
        spot = spots.get(reaction.player)
        if spot is None:
            continue
        if in_lobby:
            index = [p.id for p in players].index(reaction.player)
            column, row = divmod(index, 14)
            candidates = [pygame.Rect(1180 + column * 310, 262 + row * 46, 50, 50)]
        else:
            plate = plate_rect(spot)
            candidates = [
                pygame.Rect(plate.right + 8, plate.centery - BUBBLE // 2, BUBBLE, BUBBLE),
                pygame.Rect(plate.left - 8 - BUBBLE, plate.centery - BUBBLE // 2, BUBBLE, BUBBLE),
                pygame.Rect(plate.centerx - BUBBLE // 2, plate.bottom + 6, BUBBLE, BUBBLE),
            ]
        for rect in candidates:
            free = (
                rect.left >= 0
                and rect.right <= 1920
                and rect.top >= 0
                and rect.bottom <= floor
                and rect.collidelist(cards) == -1
                and all(not rect.colliderect(other) for _, other in placed)
            )
            if free:
                placed.append((reaction.emoji, rect))
                break
    return placed


def draw_reactions(
    surface: pygame.Surface, props: Props, stage: Stage, reactions: Sequence[ReactionLike]
) -> int:
    """Paint the reactions (see ``reaction_spots``); returns how many were drawn."""
    placed = reaction_spots(props, stage, reactions)
    for emoji, rect in placed:
        pygame.draw.ellipse(surface, theme.CARD_FACE, rect)
        pygame.draw.ellipse(surface, theme.GOLD, rect, 3)
        image = props.theme.text(emoji, int(rect.height * 0.6), theme.HIGHLIGHT)
        surface.blit(image, image.get_rect(center=rect.center))
    return len(placed)
