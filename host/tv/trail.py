"""The round's trail and the final standings' order: the story so far, for someone back from the
kitchen.

Why a small panel: the banners say each move once, for a second. The trail lists this round's
moves as the TV played them — who kept, who swapped with whom, who showed a King, what the
dealer's cut did — in the top-left or the bottom-left corner, whichever the seats leave more
lines in, or on H7's big tables, whose seats take both, on the felt left of the piles
(``trail_room``; it shows as many lines as fit, the newest ones, and nothing where there is
no room).
At game over the standings (``standings``) list every player: winners first, then the others
from the last one knocked out to the first, with the round they went out in; the game's end
shows them on its board (``host/tv/final.py``).
"""

from __future__ import annotations

from typing import Any

import pygame

from host.rules import EventDict, KeepReason, RedealReason
from host.tv import theme
from host.tv.layout import (
    BANNER_Y,
    CANVAS_H,
    CAPTION_HEIGHT,
    HEADER_HEIGHT,
    PILE_BAND_REACH,
    READABLE_SIZE,
    SMALL_TABLE_MOST,
    SeatSpot,
    stock_spot,
)
from host.tv.scene import Props
from host.tv.stage import Stage

#: The trail's two corners: the top-left one, under the header and above the banners' row, and
#: the bottom-left one, under a sudden death's cards and their names and above the caption bar.
TRAIL_BOX = pygame.Rect(30, HEADER_HEIGHT + 56, 420, BANNER_Y - 70 - HEADER_HEIGHT - 56)
LOW_TRAIL_BOX = pygame.Rect(30, 640, 420, CANVAS_H - CAPTION_HEIGHT - 12 - 640)
#: How wide a corner may be: ``TRAIL_BOX``'s width, or a little less where a seat's edge would
#: take its lines (the bottom-left corner of 9 seats).
TRAIL_WIDTHS = (420, 390, 360)
#: The narrowest the felt left of the piles is taken for the trail (``_on_the_felt``): 300 px
#: hold "Round 12 so far" and a short move a line at ``TEXT_SIZE``.
FELT_TRAIL_MIN_WIDTH = 300
#: The top-left corner is kept where it holds this many lines (the title and four).
ENOUGH_LINES = 5
#: The trail is read from the sofa (round 37's play-test: grey 14 px text was not): its
#: lines are never smaller than ``READABLE_SIZE``, in ``TRAIL_INK``.
TEXT_SIZE = READABLE_SIZE
LINE = 34  # the font's line is 33 px
#: A move's line too long for the corner goes on in the next lines, set in by this much so it
#: reads as the same move; a fourth would be cut short with "…".
MOVE_SIZES = ((TEXT_SIZE, 3),)
HANGING_INDENT = 20


#: A keep's line by its reason (round 40: a VIP's skip and an away player's keep read as
#: time-outs); an event without one (a hand-made one) reads by ``auto``.
KEPT_KEYS: dict[str, str] = {
    KeepReason.CHOSEN: "kept",
    KeepReason.TIME: "kept_auto",
    KeepReason.AWAY: "kept_away",
    KeepReason.SKIPPED: "kept_skipped",
}


def phrase(props: Props, key: str, **params: Any) -> str:
    """A phrase of the ``trail`` domain in the TV's language."""
    return props.catalog.t(props.lang, f"trail.{key}", **params)


def trail_line(props: Props, stage: Stage, event: EventDict) -> str:
    """One move as a short line ("Ana swaps with Chloé")."""
    if event["type"] == "kept":
        key = KEPT_KEYS.get(str(event.get("reason")), "kept_auto" if event.get("auto") else "kept")
        return phrase(props, key, name=stage.name_of(event.get("player")))
    if event["type"] == "misdeal":
        if event.get("reason") == RedealReason.PLAYER_LEFT:
            return phrase(props, "redealt_left", name=stage.name_of(event.get("player")))
        return phrase(props, "redealt")
    if event["type"] == "exchanged":
        return phrase(
            props,
            "swapped",
            player=stage.name_of(event.get("player")),
            target=stage.name_of(event.get("target")),
        )
    if event["type"] == "blocked":
        return phrase(
            props,
            "blocked",
            target=stage.name_of(event.get("target")),
            player=stage.name_of(event.get("player")),
        )
    if event["type"] == "cut_king":
        key = "cut_king_again" if cut_again(stage, event) else "cut_king"
        return phrase(props, key, name=stage.name_of(event.get("dealer")))
    if event["type"] == "cut_taken":
        key = "cut_taken_again" if cut_again(stage, event) else "cut_taken"
        return phrase(props, key, name=stage.name_of(event.get("dealer")))
    if event["type"] == "life_lost":
        # Lives left, not lives lost: under H4 a time-out and the lowest card cost two.
        name, lives = stage.name_of(event.get("player")), event["lives"]
        return (
            phrase(props, "down_to", count=lives, name=name)
            if lives
            else phrase(props, "out", name=name)
        )
    return ""  # not a move of the trail (``TRAIL_KINDS``)


def cut_again(stage: Stage, event: EventDict) -> bool:
    """Whether this cut's result is H3's second cut: the trail holds this deal's moves only
    (it starts again with each deal and redeal), so an earlier cut result in it is the first
    cut (the ``cut`` event's ``attempt``, which the voice reads, is not a move of the trail)."""
    cut_before = False
    for earlier in stage.trail:
        if earlier is event:
            return cut_before
        cut_before = cut_before or earlier["type"] in ("cut_taken", "cut_king")
    return False  # not a move of this trail: told as a first cut


def trail_room(spots: list[SeatSpot]) -> pygame.Rect:
    """The corner the trail goes in (possibly empty): the top-left one where the seats leave
    it ``ENOUGH_LINES``, else the one of the two they leave more lines in; each of them
    ``TRAIL_WIDTHS`` wide, the widest of those that hold as many lines.

    Why two corners: the top-left one held the title alone (so no trail at all) on 3, 6 and
    9 seats, and a single move on 10 seats; the bottom-left one holds more there (four lines
    under the title on 10 seats: two to four moves)."""
    top = max((_under_header(spots, w) for w in TRAIL_WIDTHS), key=lambda r: r.height // LINE)
    if top.height // LINE >= ENOUGH_LINES:
        return top
    low = max((_over_captions(spots, w) for w in TRAIL_WIDTHS), key=lambda r: r.height // LINE)
    best = low if low.height // LINE > top.height // LINE else top
    if len(spots) > SMALL_TABLE_MOST:
        felt = _on_the_felt(spots)
        if felt.height // LINE > best.height // LINE:
            return felt
    return best


def _under_header(spots: list[SeatSpot], width: int) -> pygame.Rect:
    """The top-left corner ``width`` wide, down to the first seat that meets it."""
    box = pygame.Rect(TRAIL_BOX.left, TRAIL_BOX.top, width, TRAIL_BOX.height)
    for spot in spots:
        left, top, right, bottom = spot.box()
        if left < box.right + 8 and right > box.left and top < box.bottom + 8 and bottom > box.top:
            box.height = max(0, min(box.height, round(top) - 8 - box.top))
    return box


def _on_the_felt(spots: list[SeatSpot]) -> pygame.Rect:
    """H7's big tables (round 43): their seats run round the screen's edges and take both
    corners, so the trail goes on the felt left of the piles' band (``host/tv/table.py``),
    under the subtitle's row (whose two lines end at the piles' top), right of the seats up
    the left side and over the bottom row's; empty where that is narrower than
    ``FELT_TRAIL_MIN_WIDTH`` or meets a seat."""
    from host.tv.banners import piles_top  # banners places its lines by this module's corners

    top = piles_top()
    right = round(stock_spot()[0]) - PILE_BAND_REACH
    boxes = [spot.box() for spot in spots]
    left = max([LOW_TRAIL_BOX.left, *(round(r) + 16 for l, _, r, _ in boxes if l <= 16.5)])
    below = [round(t) - 8 for l, t, r, _ in boxes if t >= top and l < right and r > left]
    bottom = min([LOW_TRAIL_BOX.bottom, *below])
    room = pygame.Rect(left, top, right - left, max(0, bottom - top))
    if room.width < FELT_TRAIL_MIN_WIDTH or any(
        room.colliderect(pygame.Rect(l, t, r - l, b - t)) for l, t, r, b in boxes
    ):
        return pygame.Rect(left, top, 0, 0)
    return room


def _over_captions(spots: list[SeatSpot], width: int) -> pygame.Rect:
    """The bottom-left corner ``width`` wide, up to the last seat that meets it."""
    low = LOW_TRAIL_BOX
    top = low.top
    for spot in spots:
        left, s_top, right, bottom = spot.box()
        meets = left < low.left + width + 8 and right > low.left and s_top < low.bottom
        if meets and bottom + 8 > top:
            top = round(bottom) + 8
    return pygame.Rect(low.left, top, width, max(0, low.bottom - top))


def draw_trail(surface: pygame.Surface, props: Props, stage: Stage, spots: list[SeatSpot]) -> None:
    """This round's moves, newest last, as many as fit in the free corner."""
    if stage.phase not in ("turns", "reveal") or not stage.trail:
        return
    room = trail_room(spots)
    fits = room.height // LINE - 1  # the title takes a line
    if fits <= 0:
        return
    th = props.theme
    title = th.fitted_text(
        phrase(props, "title", round=stage.round),
        TEXT_SIZE,
        room.width,
        theme.GOLD,
        bold=True,
        min_size=TEXT_SIZE,
    )
    surface.blit(title, room.topleft)
    row = 1
    for size, lines in trail_moves(props, stage, room.width, fits):
        for i, text in enumerate(lines):
            image = th.text(text, size, theme.TRAIL_INK)
            surface.blit(image, (room.left + (HANGING_INDENT if i else 0), room.top + LINE * row))
            row += 1


def trail_moves(props: Props, stage: Stage, width: int, rows: int) -> list[tuple[int, list[str]]]:
    """The newest moves that fill ``rows`` lines of the corner, oldest first, each as (size,
    its lines). Why wrapped and not shrunk: each line used to shrink on its own to fit, so
    long names ("Bartholomew-Jone ha scambiato con Maximilianus-Ott") came out at 14 px
    beside 24 px lines; now a move goes on in a second line at the same size, broken evenly
    (round 46: "Amélie a échangé avec" over a lone "Benoît")."""
    moves: list[tuple[int, list[str]]] = []
    for event in reversed(stage.trail):
        size, lines = props.theme.wrapped(
            trail_line(props, stage, event), width, MOVE_SIZES, indent=HANGING_INDENT, even=True
        )
        rows -= len(lines)
        if rows < 0:
            break
        moves.append((size, lines))
    return moves[::-1]


def standings(stage: Stage) -> list[str]:
    """Player ids from first to last: winners, then the last knocked out … the first (R12's
    round each went out in, which the view keeps, so a restarted host ranks them the same)."""
    knocked = [s for s in stage.players if s.out_round is not None and s.id not in stage.winners]
    out = [s.id for s in sorted(knocked, key=lambda s: s.out_round or 0)]
    known = set(stage.winners) | set(out)
    rest = sorted(
        (s for s in stage.players if s.id not in known and s.status != "waiting"),
        key=lambda s: -s.lives,
    )
    return [*stage.winners, *[s.id for s in rest], *reversed(out)]
