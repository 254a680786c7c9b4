"""One seat at the table: the card, the name plate, lives as tokens, dealer button, marks.

Kept apart from ``table.py`` so the per-seat look (what a player checks from the sofa: "is it
me, how many lives, am I dealing") stays in one short place.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from host.tv import theme
from host.tv.cards import card_size
from host.tv.layout import SeatSpot
from host.tv.scene import Props
from host.tv.stage import SeatShow, Stage

GREY_PLATE = (44, 48, 54)


@dataclass(frozen=True)
class CardLook:
    """How a seat's card shows at this instant."""

    kind: str  # "none", "back", "face" or "flip"
    code: str | None = None
    flip: float = 1.0  # progress of a flip from back to face (0 → 1)
    lowest: bool = False


def plate_rect(spot: SeatSpot) -> pygame.Rect:
    """The name plate under a seat's card."""
    w, h = card_size(spot.card_width)
    width = max(200, spot.card_width * 2)
    return pygame.Rect(0, 0, width, 78).move(round(spot.x - width / 2), round(spot.y + h / 2 + 8))


def card_rect(spot: SeatSpot) -> pygame.Rect:
    w, h = card_size(spot.card_width)
    return pygame.Rect(0, 0, w, h).move(round(spot.x - w / 2), round(spot.y - h / 2))


def draw_seat(surface: pygame.Surface, props: Props, stage: Stage, seat: SeatShow,
              spot: SeatSpot, look: CardLook, lives_shown: int, flying_token: float | None) -> None:
    """Paint one seat. ``lives_shown`` may lag the model while a token is leaving."""
    th = props.theme
    crect = card_rect(spot)
    prect = plate_rect(spot)
    is_turn = stage.current == seat.id and stage.phase == "turns"
    if stage.phase == "game_over" and seat.id in stage.winners:
        pygame.draw.rect(surface, theme.GOLD, crect.union(prect).inflate(30, 30), 12, border_radius=22)
    if is_turn:
        glow = crect.union(prect).inflate(26, 26)
        pygame.draw.rect(surface, theme.GOLD, glow, 8, border_radius=22)
    if look.kind == "back":
        surface.blit(props.cards.back(spot.card_width), crect)
    elif look.kind in ("face", "flip"):
        if look.lowest:
            pygame.draw.rect(surface, theme.HIGHLIGHT, crect.inflate(16, 16), border_radius=14)
        image = (props.cards.face(look.code, spot.card_width) if look.kind == "face" and look.code
                 else props.cards.flipped(look.code, spot.card_width, look.flip))
        surface.blit(image, image.get_rect(center=crect.center))
    elif seat.status != "waiting":
        pygame.draw.rect(surface, (40, 110, 80), crect, 3, border_radius=10)

    greyed = seat.status in ("eliminated", "waiting") or not seat.connected
    key = ("plate", seat.name, seat.seat, greyed, lives_shown, stage.max_lives, prect.size)
    surface.blit(props.memo(key, lambda: _plate(props, seat, prect.size, greyed, lives_shown,
                                                stage.max_lives)), prect)
    if flying_token is not None:
        _draw_leaving_token(surface, props, prect, lives_shown, stage.max_lives, flying_token)
    if stage.dealer == seat.id and stage.phase != "lobby":
        button = props.memo(("dealer", props.lang), lambda: _dealer_button(props))
        surface.blit(button, button.get_rect(center=(crect.right + 4, crect.top + 4)))
    tag = _seat_tag(props, seat)
    if tag:
        colour = theme.INK if seat.status != "eliminated" else theme.ALERT
        label = props.memo(("tag", tag, colour), lambda: _tag(props, tag, colour))
        surface.blit(label, label.get_rect(midbottom=(crect.centerx, crect.top - 3)))
    if seat.status == "eliminated" and look.kind == "none":
        pygame.draw.line(surface, theme.GREYED, crect.topleft, crect.bottomright, 4)
        pygame.draw.line(surface, theme.GREYED, crect.topright, crect.bottomleft, 4)


def _plate(props: Props, seat: SeatShow, size: tuple[int, int], greyed: bool, lives: int,
           max_lives: int) -> pygame.Surface:
    """The name plate: colour stripe, name, lives as tokens (drawn once, then reused)."""
    plate = pygame.Surface(size, pygame.SRCALPHA)
    rect = plate.get_rect()
    pygame.draw.rect(plate, theme.PANEL if not greyed else GREY_PLATE, rect, border_radius=12)
    pygame.draw.rect(plate, theme.player_colour(seat.seat), (0, 0, 12, rect.height),
                     border_radius=6)
    name_colour = theme.INK if not greyed else theme.MUTED_INK
    name = props.theme.fitted_text(seat.name, 30, rect.width - 30, name_colour, bold=True)
    plate.blit(name, name.get_rect(midtop=(rect.centerx + 6, 6)))
    _draw_lives(plate, max_lives, rect, lives, greyed)
    return plate


def _tag(props: Props, text: str, colour: theme.Colour) -> pygame.Surface:
    image = props.theme.text(text, 20, colour, True)
    box = pygame.Surface(image.get_rect().inflate(14, 6).size, pygame.SRCALPHA)
    pygame.draw.rect(box, (20, 24, 30), box.get_rect(), border_radius=8)
    box.blit(image, image.get_rect(center=box.get_rect().center))
    return box


def _seat_tag(props: Props, seat: SeatShow) -> str | None:
    """The one short mark above a seat: out, next game, disconnected, or a bot."""
    if seat.status == "eliminated":
        return props.t("out")
    if seat.status == "waiting":
        return props.t("waiting")
    if not seat.connected:
        return props.t("disconnected")
    if seat.bot:
        return props.t("bot")
    return None


def _token_centres(prect: pygame.Rect, count: int) -> list[tuple[int, int]]:
    gap = 30 if count <= 5 else 22
    left = prect.centerx - gap * (count - 1) / 2 + 6
    return [(round(left + i * gap), prect.bottom - 20) for i in range(count)]


def _draw_lives(surface: pygame.Surface, max_lives: int, prect: pygame.Rect, lives: int,
                greyed: bool) -> None:
    """Filled tokens for lives left, empty rings for lives lost."""
    slots = max(max_lives, lives)
    for i, centre in enumerate(_token_centres(prect, slots)):
        if i < lives:
            pygame.draw.circle(surface, theme.GOLD if not greyed else theme.GREYED, centre, 11)
            pygame.draw.circle(surface, (120, 80, 10), centre, 11, 2)
        else:
            pygame.draw.circle(surface, theme.GREYED, centre, 11, 2)


def _draw_leaving_token(surface: pygame.Surface, props: Props, prect: pygame.Rect, index: int,
                        slots: int, progress: float) -> None:
    """A life token rising off the plate and fading, with a "−1"."""
    centres = _token_centres(prect, max(slots, index + 1))
    x, y = centres[min(index, len(centres) - 1)]
    rise = round(progress * 110)
    alpha = max(0, 255 - round(progress * 255))
    token = pygame.Surface((26, 26), pygame.SRCALPHA)
    pygame.draw.circle(token, (*theme.GOLD, alpha), (13, 13), 11)
    surface.blit(token, (x - 13, y - 13 - rise))
    label = props.theme.text(props.t("loses_life"), 40, theme.ALERT, bold=True)
    label.set_alpha(alpha)
    surface.blit(label, label.get_rect(midbottom=(x, y - 20 - rise)))


def _dealer_button(props: Props) -> pygame.Surface:
    button = pygame.Surface((50, 50), pygame.SRCALPHA)
    pygame.draw.circle(button, (250, 250, 250), (25, 25), 24)
    pygame.draw.circle(button, theme.DARK_INK, (25, 25), 24, 3)
    props.theme.blit_text(button, props.t("dealer_mark"), 26, theme.DARK_INK, bold=True,
                          center=(25, 25))
    return button
