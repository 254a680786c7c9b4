"""The game's end on the TV: who won and the final standings, on a board over the table.

Why a board: the final standings were drawn between the seats, where a title and three lines
at the readable size need about 148 px, a 5-seat table left 98 and a 10-seat table none, so
they shrank to 18-24 px (round 37's play-test). Once the game is won the seats have nothing
left to play: the table is dimmed and a board in its middle says who won (the biggest text on
screen), every player's place (R14: winners first, then the others from the last one knocked
out to the first, with the round they went out in) and how to start the next game, all at
``READABLE_SIZE`` or more. Nothing on it is hidden from anyone: every card was shown at the
last reveal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import pygame

from host.tv import theme
from host.tv.bench import benched
from host.tv.layout import CANVAS_H, CANVAS_W, CAPTION_HEIGHT, READABLE_SIZE, TABLE_CENTRE
from host.tv.overlays import dim
from host.tv.scene import Props
from host.tv.stage import Stage
from host.tv.trail import phrase, standings

#: The winner's line (and "Joint winners!"): the biggest text on screen, shrunk down to
#: ``WINNER_MIN`` for a long name, still bigger than anything else on the board.
WINNER_SIZE = 84
WINNER_MIN = 48
#: The joint winners' names under "Joint winners!".
JOINT_NAMES_SIZE = 40
#: "Final standings" and the new-game hint.
TITLE_SIZE = 32
HINT_SIZE = 32
#: The latecomers' line ("Next game: Bo, Pia"): as the hint, else readable in two lines.
BENCH_SIZES = ((HINT_SIZE, 1), (READABLE_SIZE, 1), (READABLE_SIZE, 2))
#: The players' lines: the biggest size at which they fit, never under ``READABLE_SIZE`` on
#: tables of up to 16 players; the smaller sizes are only for H7's biggest tables with names
#: as wide as a name may be.
ENTRY_SIZES = (32, 30, READABLE_SIZE, 26, 24, 22, 20)
#: Up to this many lines in one column; more in two columns where two fit the board's width.
ONE_COLUMN_MOST = 5
COLUMN_GAP = 64
#: The board's inner margin, the space between its parts, and the most it may cover: the
#: canvas above the caption bar, but for a margin.
PADDING = 30
GAP = 18
MARGIN = 24
MOST_WIDTH = CANVAS_W - 2 * MARGIN
MOST_HEIGHT = CANVAS_H - CAPTION_HEIGHT - 2 * MARGIN


@dataclass(frozen=True)
class BoardLine:
    """A line of text on the board: what, how big, in which ink, where its top left goes."""

    text: str
    size: int
    colour: theme.Colour
    bold: bool
    topleft: tuple[int, int]


@dataclass(frozen=True)
class Board:
    """The game's end as drawn: the board's rectangle and its lines, top to bottom."""

    rect: pygame.Rect
    lines: tuple[BoardLine, ...]

    def texts(self, colour: theme.Colour | None = None) -> list[str]:
        """The lines' texts (of one ink only, if ``colour`` is given)."""
        return [line.text for line in self.lines if colour is None or line.colour == colour]


def standings_entries(props: Props, stage: Stage) -> list[str]:
    """Each player's line, first to last: "2. Chloé — out in round 12" or "1. Ana — 2 lives
    left" (``host.tv.trail.standings``' order)."""
    rounds = {s.id: s.out_round for s in stage.players if s.out_round is not None}
    joint = len(stage.winners) > 1
    entries = []
    for rank, pid in shared_ranks(stage):
        seat = stage.seat_of(pid)
        if seat is None:
            continue
        if joint and pid in stage.winners:  # R14: no life left, yet they won
            entries.append(phrase(props, "joint_winner", rank=rank, name=seat.name))
        elif pid in rounds and pid not in stage.winners:
            entries.append(phrase(props, "out_in", rank=rank, name=seat.name, round=rounds[pid]))
        else:
            entries.append(phrase(props, "lives_left", count=seat.lives, rank=rank, name=seat.name))
    return entries


def shared_ranks(stage: Stage) -> list[tuple[int, str]]:
    """``standings`` with each player's place, shared by players who cannot be told apart:
    joint winners (R14) are all 1st, players knocked out in the same round share a place, and
    the next place skips as many ("1, 1, 3"). Round 41's play-test: joint winners were
    numbered "1. Sara" and "2. Sam", each "0 lives left"."""
    winners = set(stage.winners)

    def tie(pid: str) -> object:
        seat = stage.seat_of(pid)
        if pid in winners:
            return "won"
        if seat is not None and seat.out_round is not None:
            return ("out", seat.out_round)
        return pid  # nobody to tie with

    ranked: list[tuple[int, str]] = []
    for index, pid in enumerate(standings(stage)):
        same = ranked and tie(ranked[-1][1]) == tie(pid)
        ranked.append((ranked[-1][0] if same else index + 1, pid))
    return ranked


def final_board(props: Props, stage: Stage, avoid: Sequence[pygame.Rect] = ()) -> Board:
    """Where the board goes and what it says (pure: the same stage gives the same board).

    Top to bottom: the winner (or "Joint winners!" over their names), "Final standings", the
    players' lines (in two columns for more than ``ONE_COLUMN_MOST`` where two fit), the
    new-game hint. The players' lines take the biggest of ``ENTRY_SIZES`` at which the board
    fits. It is centred on the felt, or moved up or down the least that keeps it off the
    ``avoid`` rectangles (the winners' seats, which stay lit); where no such place exists
    (a winner beside the middle of the felt), it is made as narrow as the room beside them,
    its hint in two lines."""
    return _board(props.theme, board_words(props, stage), tuple(map(tuple, avoid)))


@dataclass(frozen=True)
class BoardWords:
    """What the board says, before it is laid out: the winners' names, "Final standings",
    each player's line and the new-game hint, in the TV's language."""

    winners: tuple[str, ...]
    winner: str
    joint: str
    title: str
    entries: tuple[str, ...]
    hint: str
    bench: tuple[str, ...] = ()
    """Who plays the next game but not this one ("Next game: Bo, Pia"), said with every
    name, then with fewer and "+N more" (``bench_lines``); or nothing."""


def board_words(props: Props, stage: Stage) -> BoardWords:
    """The board's words for this stage (a few phrases: cheap, unlike laying them out)."""
    names = tuple(stage.name_of(w) for w in stage.winners)
    return BoardWords(
        winners=names,
        winner=_winner_line(props, stage, names),
        joint=props.t("joint_winners") if len(names) > 1 else "",
        title=phrase(props, "standings"),
        entries=tuple(standings_entries(props, stage)),
        hint=props.t("new_game_hint" if stage.person_vip() else "new_game_space"),
        bench=bench_lines(props, stage),
    )


def _winner_line(props: Props, stage: Stage, names: tuple[str, ...]) -> str:
    """A sole winner's line: "Ana wins!", or after a walkover "Ana is the last one at the
    table" (round 46: R14's winner once everyone else left, who won nothing to cheer)."""
    if len(names) != 1:
        return ""
    return props.t("last_at_table" if stage.walkover else "winner", name=names[0])


def bench_lines(props: Props, stage: Stage) -> tuple[str, ...]:
    """The board's line for the latecomers (the bench's, ``host/tv/bench.py``: they are in
    no standing of this game, and the next one is theirs too), in the ways it may be said,
    best first: every name, then one name fewer and "+N more" each time, down to one name.
    The layout takes the first that fits whole (``_bench_fitted``). Why: round 46's check of
    a big table's end cut the line with "…" in the middle of a name, the rest never named."""
    names = [seat.name for seat in benched(stage)]
    if not names:
        return ()
    ways = [props.t("bench_board", names=", ".join(names))]
    for shown in range(len(names) - 1, 0, -1):
        more = len(names) - shown
        ways.append(props.t("bench_board_more", count=more, names=", ".join(names[:shown])))
    return tuple(ways)


@lru_cache(maxsize=32)
def _board(th: theme.Theme, words: BoardWords, avoid: tuple[tuple[int, ...], ...]) -> Board:
    """``final_board`` laid out, remembered: the game's end draws it on every frame of its
    confetti, and measuring its lines again each time took 0.5 ms of a frame's CPU."""
    rects = [pygame.Rect(rect) for rect in avoid]
    board = _laid_out(th, words, MOST_WIDTH)
    place = _placed(board.rect, rects)
    if place is None and words.bench:
        # The latecomers' line takes its room from the standings' size, not from the board's
        # place: a board as high as one without it fits where that one does (18 seats).
        bare = _laid_out(th, replace(words, bench=()), MOST_WIDTH)
        board = _laid_out(th, words, MOST_WIDTH, bare.rect.height)
        place = _placed(board.rect, rects)
    if place is None:
        board = _laid_out(th, words, _width_between(rects))
        place = _placed(board.rect, rects) or _centred_rect(board.rect)
    dx, dy = place.left - board.rect.left, place.top - board.rect.top
    lines = tuple(
        replace(line, topleft=(line.topleft[0] + dx, line.topleft[1] + dy)) for line in board.lines
    )
    return Board(place, lines)


def _laid_out(
    th: theme.Theme, words: BoardWords, most_width: int, most_height: int = MOST_HEIGHT
) -> Board:
    """The board at most ``most_width`` wide and, where its lines' sizes allow,
    ``most_height`` high, its top left at (0, 0)."""
    inner = most_width - 2 * PADDING
    head: list[tuple[str, int, theme.Colour]] = []
    if words.winner:
        head.append(_fitted(th, words.winner, WINNER_SIZE, inner, theme.GOLD))
    elif words.winners:
        head.append(_fitted(th, words.joint, WINNER_SIZE, inner, theme.GOLD))
        head.append(_fitted(th, " · ".join(words.winners), JOINT_NAMES_SIZE, inner, theme.INK))
    head.append(_fitted(th, words.title, TITLE_SIZE, inner, theme.GOLD))
    hint_size, hint = th.wrapped(
        words.hint,
        inner,
        ((HINT_SIZE, 1), (HINT_SIZE, 2), (READABLE_SIZE, 2)),
        True,
    )
    tail = [(line, hint_size, theme.INK) for line in hint]
    if words.bench:
        bench_size, bench = _bench_fitted(th, words.bench, inner)
        tail = [(line, bench_size, theme.INK) for line in bench] + tail
    entries = words.entries
    for size in ENTRY_SIZES:
        columns = _columns(th, entries, size, inner)
        step = th.font(size).get_height()
        rows = max((len(column) for column in columns), default=0)
        widths = [max(th.measure(text, size) for text in column) for column in columns]
        block = max(0, sum(widths) + COLUMN_GAP * (len(columns) - 1))
        bold = [*head, *tail]
        height = sum(th.font(s, True).get_height() for _, s, _ in bold) + rows * step
        height += GAP * (len(head) + (1 if rows else 0)) + 2 * PADDING
        width = max([block, *(th.measure(text, s, True) for text, s, _ in bold)])
        if height <= most_height and block <= inner:
            break
    rect = pygame.Rect(0, 0, min(most_width, width + 2 * PADDING), min(MOST_HEIGHT, height))
    lines: list[BoardLine] = []
    y = PADDING
    for text, s, colour in head:
        lines.append(_centred(th, text, s, colour, rect.centerx, y))
        y += th.font(s, True).get_height() + GAP
    x = rect.centerx - block // 2
    for column, column_width in zip(columns, widths):
        for i, text in enumerate(column):
            lines.append(BoardLine(text, size, theme.INK, False, (x, y + i * step)))
        x += column_width + COLUMN_GAP
    y += rows * step + (GAP if rows else 0)
    for text, s, colour in tail:
        lines.append(_centred(th, text, s, colour, rect.centerx, y))
        y += th.font(s, True).get_height()
    return Board(rect, tuple(lines))


def _bench_fitted(th: theme.Theme, ways: Sequence[str], width: int) -> tuple[int, list[str]]:
    """The latecomers' line in the first of its ``ways`` (the most names) that fits whole
    ``width`` at one of ``BENCH_SIZES``, and that size; only a single name too wide for it
    all is cut with "…"."""
    for text in ways:
        for size, most in BENCH_SIZES:
            lines = th.wrap(text, size, width, True)
            if len(lines) <= most and all(th.measure(line, size, True) <= width for line in lines):
                return size, lines
    return th.wrapped(ways[-1], width, BENCH_SIZES, True)


def _centred_rect(rect: pygame.Rect) -> pygame.Rect:
    """``rect`` centred on the felt, inside the room the board may take."""
    centred = rect.copy()
    centred.center = (CANVAS_W // 2, round(TABLE_CENTRE[1]))
    return centred.clamp(pygame.Rect(MARGIN, MARGIN, MOST_WIDTH, MOST_HEIGHT))


def _placed(rect: pygame.Rect, avoid: Sequence[pygame.Rect]) -> pygame.Rect | None:
    """``rect`` centred on the felt, or the nearest place straight above or below that meets
    none of ``avoid``; None if there is none."""
    room = pygame.Rect(MARGIN, MARGIN, MOST_WIDTH, MOST_HEIGHT)
    centred = _centred_rect(rect)
    for shift in sorted(range(-CANVAS_H, CANVAS_H + 1, 4), key=abs):
        moved = centred.move(0, shift)
        if room.contains(moved) and moved.collidelist(list(avoid)) < 0:
            return moved
    return None


def _width_between(avoid: Sequence[pygame.Rect]) -> int:
    """How wide a board centred on the canvas may be without meeting the ``avoid``
    rectangles beside the middle (one across the middle is left to ``_placed``)."""
    middle = CANVAS_W // 2
    half = MOST_WIDTH // 2
    for rect in avoid:
        if rect.left >= middle:
            half = min(half, rect.left - middle - MARGIN)
        elif rect.right <= middle:
            half = min(half, middle - rect.right - MARGIN)
    return max(2 * PADDING + 200, 2 * half)


def _fitted(
    th: theme.Theme, text: str, size: int, width: int, colour: theme.Colour
) -> tuple[str, int, theme.Colour]:
    """A bold line at ``size``, or smaller where it is wider than ``width`` (a winner's line
    down to ``WINNER_MIN``, others down to ``READABLE_SIZE``), cut with "…" only below that."""
    smallest = WINNER_MIN if size >= WINNER_MIN else READABLE_SIZE
    while size > smallest and th.measure(text, size, True) > width:
        size -= 2
    return th.ellipsized(text, size, width, True), size, colour


def _centred(
    th: theme.Theme, text: str, size: int, colour: theme.Colour, x: int, top: int
) -> BoardLine:
    return BoardLine(text, size, colour, True, (x - th.measure(text, size, True) // 2, top))


def _columns(th: theme.Theme, entries: Sequence[str], size: int, width: int) -> list[list[str]]:
    """``entries`` in one column, or in two (the first half on the left) where there are more
    than ``ONE_COLUMN_MOST`` and two fit ``width``."""
    if len(entries) <= ONE_COLUMN_MOST:
        return [list(entries)] if entries else []
    half = -(-len(entries) // 2)
    pair = [list(entries[:half]), list(entries[half:])]
    wide = sum(max(th.measure(text, size) for text in column) for column in pair)
    return pair if wide + COLUMN_GAP <= width else [list(entries)]


def draw_final_board(
    surface: pygame.Surface, props: Props, stage: Stage, avoid: Sequence[pygame.Rect] = ()
) -> pygame.Rect:
    """The board's panel and its words (``final_board``); returns where the board is. The
    table under it is dimmed first (``dim_table``), before the confetti falls."""
    board = final_board(props, stage, avoid)
    pygame.draw.rect(surface, theme.PANEL, board.rect, border_radius=24)
    pygame.draw.rect(surface, theme.PANEL_EDGE, board.rect, 3, border_radius=24)
    th = props.theme
    for line in board.lines:
        surface.blit(th.text(line.text, line.size, line.colour, line.bold), line.topleft)
    return board.rect


def dim_table(surface: pygame.Surface, props: Props) -> None:
    """The table behind the board, dimmed as under the host's overlays."""
    dim(surface, props)
