"""The round's trail and the final standings: the story so far, for someone back from the kitchen.

Why a small panel: the banners say each move once, for a second. The trail lists this round's
moves as the TV played them — who kept, who swapped with whom, who showed a King, what the
dealer's cut did — in the top-left corner of the table, where no seat sits on small and middle
tables (it shows as many lines as fit, the newest ones, and nothing when seats take the corner).
At game over the standings list every player: winners first, then the others from the last
one knocked out to the first, with the round they went out in.
"""

from __future__ import annotations

from typing import Any

import pygame

from host.rules import EventDict
from host.tv import theme
from host.tv.layout import BANNER_Y, HEADER_HEIGHT, READABLE_SIZE, SeatSpot, free_width
from host.tv.scene import Props
from host.tv.stage import Stage

TRAIL_BOX = pygame.Rect(30, HEADER_HEIGHT + 56, 420, BANNER_Y - 70 - HEADER_HEIGHT - 56)
#: The trail is read from the sofa (round 37's play-test: grey 14 px text was not): its
#: lines are never smaller than ``READABLE_SIZE``, in ``TRAIL_INK``.
TEXT_SIZE = READABLE_SIZE
LINE = 34  # the font's line is 33 px
#: A move's line too long for the corner goes on in the next lines, set in by this much so it
#: reads as the same move; a fourth would be cut short with "…".
MOVE_SIZES = ((TEXT_SIZE, 3),)
HANGING_INDENT = 20
#: The final standings: their own sizes, biggest first (smaller type before a player left
#: out), and their own line.
STANDINGS_SIZES = (24, 22, 20, 18)
STANDINGS_LINE = 32


def phrase(props: Props, key: str, **params: Any) -> str:
    """A phrase of the ``trail`` domain in the TV's language."""
    return props.catalog.t(props.lang, f"trail.{key}", **params)


def trail_line(props: Props, stage: Stage, event: EventDict) -> str:
    """One move as a short line ("Ana swaps with Chloé")."""
    if event["type"] == "kept":
        key = "kept_auto" if event.get("auto") else "kept"
        return phrase(props, key, name=stage.name_of(event.get("player")))
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
        return phrase(props, "cut_king", name=stage.name_of(event.get("dealer")))
    if event["type"] == "cut_taken":
        return phrase(props, "cut_taken", name=stage.name_of(event.get("dealer")))
    return ""  # not a move of the trail (``TRAIL_KINDS``)


def trail_room(spots: list[SeatSpot]) -> pygame.Rect:
    """The corner left free by the seats (possibly empty)."""
    box = TRAIL_BOX.copy()
    for spot in spots:
        left, top, right, bottom = spot.box()
        if left < box.right + 8 and right > box.left and top < box.bottom + 8 and bottom > box.top:
            box.height = max(0, min(box.height, round(top) - 8 - box.top))
    return box


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
    beside 24 px lines; now a move goes on in a second line at the same size."""
    moves: list[tuple[int, list[str]]] = []
    for event in reversed(stage.trail):
        size, lines = props.theme.wrapped(
            trail_line(props, stage, event), width, MOVE_SIZES, indent=HANGING_INDENT
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


def draw_standings(
    surface: pygame.Surface, props: Props, stage: Stage, spots: list[SeatSpot], top: int
) -> None:
    """R14's result in full: rank, name, lives left or the round they went out in."""
    for _, image, rect in standings_lines(props, stage, spots, top):
        surface.blit(image, rect)


def standings_lines(
    props: Props, stage: Stage, spots: list[SeatSpot], top: int
) -> list[tuple[str, pygame.Surface, pygame.Rect]]:
    """The final standings' lines (text, image) and where they go: between the seats, from
    ``top`` down.

    The biggest of ``STANDINGS_SIZES`` at which every player's entry fits; only if none does,
    as many lines as fit at the smallest. Why: longer phrases (French: "hors jeu à la manche
    12") took a third line that met a seat, and the last player was silently left out.
    """
    rounds = {s.id: s.out_round for s in stage.players if s.out_round is not None}
    entries = []
    for rank, pid in enumerate(standings(stage), start=1):
        seat = stage.seat_of(pid)
        if seat is None:
            continue
        if pid in rounds and pid not in stage.winners:
            entries.append(phrase(props, "out_in", rank=rank, name=seat.name, round=rounds[pid]))
        else:
            entries.append(phrase(props, "lives_left", count=seat.lives, rank=rank, name=seat.name))
    th = props.theme
    blocked = [
        pygame.Rect(round(l), round(t), round(r - l), round(b - t))
        for l, t, r, b in (spot.box() for spot in spots)
    ]
    placed: list[tuple[str, pygame.Surface, pygame.Rect]] = []
    for size in STANDINGS_SIZES:
        step = round(STANDINGS_LINE * size / STANDINGS_SIZES[0])
        width = free_width(spots, top, top + step * 4) - 40
        lines = [phrase(props, "standings")]
        for entry in entries:  # whole entries per line, as many as fit
            candidate = f"{lines[-1]}   {entry}" if len(lines) > 1 else ""
            if candidate and th.measure(candidate, size) <= width:
                lines[-1] = candidate
            else:
                lines.append(entry)
        placed = []
        for i, text in enumerate(lines):
            image = th.fitted_text(text, size, width, theme.GOLD if i == 0 else theme.INK, i == 0)
            rect = image.get_rect(midtop=(960, top + i * step))
            if rect.collidelist(blocked) >= 0 or rect.bottom > 1080 - 110:
                break  # no room left between the seats
            placed.append((text, image, rect))
        if len(placed) == len(lines):
            break
    return placed
