"""The evening on the TV: tonight's standings (between games, in the lobby) and guests' reactions.

Why its own module: the standings and the reactions are not part of a game; they sit on top of
the lobby and the table with as few hooks as possible in ``app.py``. Everything drawn here comes
from the public view (``standings``) or from the session's reaction desk (an emoji and who sent
it), so nothing here can show a hidden card. Reactions are placed beside a seat's name plate
(a latecomer's above their name on the bench, ``host/tv/bench.py``), never over a card or the
caption bar, and at most ``MAX_ON_SCREEN`` at once. The full table's
layout, which keeps every line readable with up to 20 guests, is ``host/tv/standings_table.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import pygame

from host.rules.contract import StandingsRow
from host.tv import theme
from host.tv.bench import Bench, banner_band
from host.tv.layout import CAPTION_HEIGHT, READABLE_SIZE
from host.tv.lobby import RULES_TOP, rule_step
from host.tv.nameplates import shortened_line
from host.tv.scene import Props
from host.tv.seats import card_rect, plate_rect, ring, seat_plan
from host.tv.stage import Stage
from host.tv.standings_table import draw_standings_table, guests_of, phrase

TABLE_BOX = pygame.Rect(120, 150, 1680, 760)
LOBBY_BOX = pygame.Rect(720, 630, 480, 216)
"""Where the lobby's "Tonight" box may go (it starts lower when there are many house rules)."""
BUBBLE = 64


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
    return phrase(props, key, **params)


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
        colours = {seat.id: seat.colour for seat in self.stage.players}
        draw_standings_table(surface, props, standings_of(self.stage), TABLE_BOX, colours)
        th.blit_text(
            surface,
            t(props, "next_game"),
            34,
            theme.MUTED_INK,
            midbottom=(960, 1080 - CAPTION_HEIGHT - 30),
        )


def draw_lobby_standings(surface: pygame.Surface, props: Props, stage: Stage) -> None:
    """A small "Tonight" box in the lobby's middle column: the top lines (four at most, fewer
    under many house rules) and their wins, at ``READABLE_SIZE``. With more guests than lines
    the last line says how many more ("+3 more"): it is a reminder between the code and the
    join address, the whole table shows between games and on every phone, but round 46's
    play-test found Bea and Eve looking for their names in a box of four with no word that
    it went on. A name too long for the box is shortened
    as its plate would be, never shrunk (a name 16 "W" wide was 20 px here)."""
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
    lines = min(4, (LOBBY_BOX.bottom - top - 56) // 36)
    if lines <= 0:
        return
    shown = len(rows) if len(rows) <= lines else lines - 1
    box = pygame.Rect(LOBBY_BOX.left, top, LOBBY_BOX.width, 60 + 36 * min(len(rows), lines))
    pygame.draw.rect(surface, theme.PANEL, box, border_radius=16)
    th.blit_text(
        surface,
        t(props, "standings_short"),
        28,
        theme.GOLD,
        True,
        topleft=(box.left + 18, box.top + 10),
    )
    head = th.fitted_text(
        t(props, "col_wins"), READABLE_SIZE, 150, theme.MUTED_INK, min_size=READABLE_SIZE
    )
    surface.blit(head, head.get_rect(topright=(box.right - 18, box.top + 16)))
    names = [str(row.get("name", "?")) for row in rows]
    for i, guest in enumerate(guests_of(props, rows[:shown])):
        others = names[:i] + names[i + 1 :]
        y = box.top + 50 + i * 36
        prefix = f"{i + 1}. "
        room = LOBBY_BOX.width - 110 - th.measure(prefix + guest.mark, READABLE_SIZE, True)
        name = shortened_line(th, guest.name, others, READABLE_SIZE, room)
        th.blit_text(
            surface,
            prefix + name + guest.mark,
            READABLE_SIZE,
            theme.INK,
            topleft=(box.left + 18, y),
        )
        th.blit_text(
            surface,
            guest.figure("wins"),
            READABLE_SIZE,
            theme.INK,
            True,
            topright=(box.right - 18, y),
        )
    if shown < len(rows):  # never a silent cut: the last line says how many more
        more = t(props, "lobby_more", count=len(rows) - shown)
        th.blit_text(
            surface,
            more,
            READABLE_SIZE,
            theme.MUTED_INK,
            topleft=(box.left + 18, box.top + 50 + shown * 36),
        )


def reaction_spots(
    props: Props,
    stage: Stage,
    reactions: Sequence[ReactionLike],
    bench: Bench | None = None,
) -> list[tuple[str, pygame.Rect]]:
    """Where each reaction goes: beside its sender's name plate, on no card and above the
    caption bar; a latecomer's (on the ``bench`` while a game runs) above their name there,
    else left of the bench, on no seat and off the felt's banner rows. A reaction with no
    free place (or no seat) is not shown."""
    players = ring(stage)
    spots = {seat.id: spot for seat, spot in zip(players, seat_plan(props, stage).spots)}
    in_lobby = stage.phase == "lobby"
    cards = [] if in_lobby else [card_rect(spot).inflate(8, 8) for spot in spots.values()]
    floor = 1080 - CAPTION_HEIGHT
    placed: list[tuple[str, pygame.Rect]] = []
    for reaction in reactions:
        spot = spots.get(reaction.player)
        chip = bench.chip_of(reaction.player) if bench is not None else None
        blocked = cards
        if spot is not None and in_lobby:
            index = [p.id for p in players].index(reaction.player)
            column, row = divmod(index, 14)
            candidates = [pygame.Rect(1180 + column * 310, 262 + row * 46, 50, 50)]
        elif spot is not None:
            plate = plate_rect(spot)
            candidates = [
                pygame.Rect(plate.right + 8, plate.centery - BUBBLE // 2, BUBBLE, BUBBLE),
                pygame.Rect(plate.left - 8 - BUBBLE, plate.centery - BUBBLE // 2, BUBBLE, BUBBLE),
                pygame.Rect(plate.centerx - BUBBLE // 2, plate.bottom + 6, BUBBLE, BUBBLE),
            ]
        elif bench is not None and chip is not None:
            candidates = _beside_bench(pygame.Rect(bench.rect), chip)
            blocked = [*cards, *(plate_rect(seat) for seat in spots.values()), banner_band()]
        else:
            continue
        for rect in candidates:
            free = (
                rect.left >= 0
                and rect.right <= 1920
                and rect.top >= 0
                and rect.bottom <= floor
                and rect.collidelist(blocked) == -1
                and all(not rect.colliderect(other) for _, other in placed)
            )
            if free:
                placed.append((reaction.emoji, rect))
                break
    return placed


def _beside_bench(panel: pygame.Rect, chip: pygame.Rect) -> list[pygame.Rect]:
    """Where a latecomer's reaction may go: just above their chip on the bench's edge, else
    left of the bench at their chip's height."""
    return [
        pygame.Rect(chip.centerx - BUBBLE // 2, panel.top - 6 - BUBBLE, BUBBLE, BUBBLE),
        pygame.Rect(panel.left - 8 - BUBBLE, chip.centery - BUBBLE // 2, BUBBLE, BUBBLE),
    ]


def draw_reactions(
    surface: pygame.Surface,
    props: Props,
    stage: Stage,
    reactions: Sequence[ReactionLike],
    bench: Bench | None = None,
) -> int:
    """Paint the reactions (see ``reaction_spots``); returns how many were drawn."""
    placed = reaction_spots(props, stage, reactions, bench)
    for emoji, rect in placed:
        pygame.draw.ellipse(surface, theme.CARD_FACE, rect)
        pygame.draw.ellipse(surface, theme.GOLD, rect, 3)
        image = props.theme.text(emoji, int(rect.height * 0.6), theme.HIGHLIGHT)
        surface.blit(image, image.get_rect(center=rect.center))
    return len(placed)
