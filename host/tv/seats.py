"""One seat at the table: the card, the name plate, lives as tokens, dealer button, marks.

Kept apart from ``table.py`` so the per-seat look (what a player checks from the sofa: "is it
me, how many lives, am I dealing") stays in one short place.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from host.tv import theme
from host.tv.cards import card_size
from host.tv.layout import READABLE_SIZE, TAG_HEIGHT, SeatSpot
from host.tv.nameplates import BOLD, NameLabel, SeatPlan, stripe_width
from host.tv.scene import Props
from host.tv.stage import SeatShow, Stage

GREY_PLATE = (44, 48, 54)
EMPTY_CARD = (40, 110, 80)
#: Room around a crossed-out card for the ends of its thick lines.
CROSS_MARGIN = 4
#: A tag's box is this much wider and taller than its text (``layout.TAG_HEIGHT``).
TAG_PADDING = (14, 6)
#: A readable tag wider than its seat shrinks down to this, then is cut.
TAG_MIN_SIZE = 20


@dataclass(frozen=True)
class CardLook:
    """How a seat's card shows at this instant."""

    kind: str  # "none", "back", "face" or "flip"
    code: str | None = None
    flip: float = 1.0  # progress of a flip from back to face (0 → 1)
    lowest: bool = False


def ring(stage: Stage) -> list[SeatShow]:
    """The seats round the table, in seat order: every seat in the lobby; while a game runs,
    the game's players only (active and out). Why not a latecomer's (seated *waiting* for the
    next game): laid out with them, every playing seat moved round the table mid-round (round
    43's play-test); they sit on the bench (``host/tv/bench.py``) until the lobby opens."""
    if stage.phase == "lobby":
        return list(stage.players)
    return [seat for seat in stage.players if seat.status != "waiting"]


def seat_plan(props: Props, stage: Stage) -> SeatPlan:
    """Where the ring's seats sit and what their plates say (``host/tv/nameplates.py``), in
    the order of ``ring``: the table, its moves, the trail, the game's end and the reactions
    beside the plates all place seats by it."""
    return props.plates.plan(props.theme, [seat.name for seat in ring(stage)])


def plate_rect(spot: SeatSpot) -> pygame.Rect:
    """The name plate under a seat's card."""
    width, height = spot.plate_size
    return pygame.Rect(
        round(spot.x - width / 2), round(spot.y + spot.card_height / 2 + 8), width, height
    )


def card_rect(spot: SeatSpot) -> pygame.Rect:
    w, h = card_size(spot.card_width)
    return pygame.Rect(0, 0, w, h).move(round(spot.x - w / 2), round(spot.y - h / 2))


def draw_seat(
    surface: pygame.Surface,
    props: Props,
    stage: Stage,
    seat: SeatShow,
    spot: SeatSpot,
    look: CardLook,
    lives_shown: int,
    flying_token: float | None,
    label: NameLabel,
) -> None:
    """Paint one seat. ``lives_shown`` may lag the model while a token is leaving; ``label``
    is what its plate says (``host/tv/nameplates.py``)."""
    crect = card_rect(spot)
    prect = plate_rect(spot)
    is_turn = stage.current == seat.id and stage.phase == "turns"
    if stage.phase == "game_over" and seat.id in stage.winners:
        stamp(surface, props, crect.union(prect).inflate(30, 30), theme.GOLD, 12, 22)
    if is_turn:
        stamp(surface, props, crect.union(prect).inflate(26, 26), theme.GOLD, 8, 22)
    if look.kind == "back":
        surface.blit(props.cards.back(spot.card_width), crect)
    elif look.kind in ("face", "flip"):
        if look.lowest:
            _glow(surface, crect)
        image = (
            props.cards.face(look.code, spot.card_width)
            if look.kind == "face" and look.code
            else props.cards.flipped(look.code, spot.card_width, look.flip)
        )
        surface.blit(image, image.get_rect(center=crect.center))
    else:
        stamp(surface, props, crect, EMPTY_CARD, 3, 10)

    greyed = seat.status == "eliminated" or not seat.connected
    scale = spot.plate_factor
    key = (
        "plate",
        label,
        seat.colour,
        greyed,
        lives_shown,
        stage.max_lives,
        spot.plate_size,
        spot.name_lines,
        scale,
    )
    surface.blit(
        props.memo(
            key, lambda: _plate(props, seat, spot, label, greyed, lives_shown, stage.max_lives)
        ),
        prect,
    )
    if stage.dealer == seat.id and stage.phase != "lobby":
        # Beside the card over the wider plate: clear of the red frame that marks a lowest
        # card and inside the turn's frame around card and plate.
        room = (crect.right + 8, prect.right + 4)
        radius = dealer_radius(spot, room[1] - room[0])
        button = props.memo(
            ("dealer", props.lang, scale, radius), lambda: _dealer_button(props, scale, radius)
        )
        half = button.get_width() // 2
        surface.blit(
            button, button.get_rect(center=((room[0] + room[1]) // 2, crect.bottom - half))
        )
    tag = _seat_tag(props, seat, stage.phase)
    if tag:
        colour = theme.INK if seat.status != "eliminated" else theme.ALERT
        mark = props.memo(
            ("tag", tag, colour, spot, seat.colour),
            lambda: _tag(props, tag, colour, spot, seat.colour),
        )
        # On its own card's top edge, over the turn's frame: round 42, see ``_tag``.
        surface.blit(mark, mark.get_rect(midbottom=(crect.centerx, crect.top)))
    if seat.status == "eliminated" and look.kind == "none":
        cross = props.memo(("cross", crect.size), lambda: _cross(crect.size))
        surface.blit(cross, crect.move(-CROSS_MARGIN, -CROSS_MARGIN))
    if flying_token is not None:  # last: it rises over this seat's own marks
        _draw_leaving_token(
            surface, props, prect, lives_shown, stage.max_lives, flying_token, scale
        )


def _glow(surface: pygame.Surface, crect: pygame.Rect) -> None:
    """The lowest card's red glow, 8 px round it: under the card and its tag, which sits on
    the card's top edge."""
    pygame.draw.rect(surface, theme.HIGHLIGHT, crect.inflate(16, 16), border_radius=14)


def stamp(
    surface: pygame.Surface,
    props: Props,
    rect: pygame.Rect,
    colour: theme.Colour,
    width: int,
    radius: int,
) -> None:
    """A rounded frame of ``width`` around ``rect``, drawn once per size and then blitted.

    Why not ``pygame.draw.rect``: with a clip set (the still layer's patches,
    ``host/tv/still.py``) pygame draws the straight sides of a rounded frame a few pixels
    differently from the same frame unclipped, and a blit copies the same pixels either way."""
    key = ("frame", rect.size, colour, width, radius)
    surface.blit(props.memo(key, lambda: _frame(rect.size, colour, width, radius)), rect)


def _frame(size: tuple[int, int], colour: theme.Colour, width: int, radius: int) -> pygame.Surface:
    image = pygame.Surface(size, pygame.SRCALPHA)
    pygame.draw.rect(image, colour, image.get_rect(), width, border_radius=radius)
    return image


def _cross(size: tuple[int, int]) -> pygame.Surface:
    """A card's place crossed out: two thick lines corner to corner (drawn once, like
    ``stamp``, since pygame draws thick lines differently under a clip)."""
    width, height = size
    m = CROSS_MARGIN
    image = pygame.Surface((width + 2 * m, height + 2 * m), pygame.SRCALPHA)
    pygame.draw.line(image, theme.GREYED, (m, m), (m + width, m + height), 4)
    pygame.draw.line(image, theme.GREYED, (m + width, m), (m, m + height), 4)
    return image


def _plate(
    props: Props,
    seat: SeatShow,
    spot: SeatSpot,
    label: NameLabel,
    greyed: bool,
    lives: int,
    max_lives: int,
) -> pygame.Surface:
    """The name plate: colour stripe, name, lives as tokens (drawn once, then reused)."""
    plate = pygame.Surface(spot.plate_size, pygame.SRCALPHA)
    rect = plate.get_rect()
    pygame.draw.rect(plate, theme.PANEL if not greyed else GREY_PLATE, rect, border_radius=12)
    stripe = stripe_width(spot)
    pygame.draw.rect(plate, seat.colour, (0, 0, stripe, rect.height), border_radius=6)
    name_colour = theme.INK if not greyed else theme.MUTED_INK
    for line, top in zip(label.lines, name_tops(spot, len(label.lines))):
        image = props.theme.text(line, label.size, name_colour, BOLD)
        plate.blit(image, image.get_rect(midtop=(rect.centerx + stripe // 2, top)))
    _draw_lives(plate, max_lives, rect, lives, spot.plate_factor)
    return plate


def name_tops(spot: SeatSpot, lines: int) -> list[int]:
    """Where each of a name's ``lines`` starts, from the plate's top: the plate's lines share
    the room above the lives' tokens (``SeatSpot.plate_size``); a name in fewer lines than
    the plate has sits in the middle of that room."""
    scale = spot.plate_factor
    room = spot.plate_size[1] - round(5 * scale) - round(38 * scale)
    line = room // spot.name_lines
    top = round(5 * scale) + (spot.name_lines - lines) * line // 2
    return [top + i * line for i in range(lines)]


def _tag(
    props: Props, text: str, colour: theme.Colour, spot: SeatSpot, seat_colour: theme.Colour
) -> pygame.Surface:
    """A seat's tag on its dark box: at ``READABLE_SIZE`` where the table has the room
    (``SeatSpot.readable_tag``; round 37's play-test read 18 px tags badly), else at its old
    size; shrunk only where it is wider than the seat ("prochaine partie" on a 9-seat table).

    A readable tag's box is ``TAG_HEIGHT`` high, the room the seat had for its tag before:
    the line's 33 px hold 4 px of air over the tallest letters and 1 under the descenders,
    so the line is set in it raised by one (its letters 2 px from the box's top, 1 from its
    bottom). A taller box took that room from the banners between the seats.

    It is a tab on its card's top edge, with the player's colour at its left edge, as their
    plate has: round 41's play-test, with ten seats, read a computer player's tag, then 17 px
    above her card and just under the plate of the seat above, as that seat's ("Hal —
    computer"); the colour alone did not settle it for dark colours (round 41's check).
    Touching its card, with ``TAG_AIR`` and the frames' room between it and the seat above,
    it reads as the card's."""
    stripe = stripe_width(spot)  # as wide as the plate's: half of it was lost from the sofa
    if spot.readable_tag:
        size, smallest = READABLE_SIZE, TAG_MIN_SIZE
    else:
        size = smallest = max(14, round(20 * spot.scale))
    image = props.theme.fitted_text(
        text, size, spot.tag_width - TAG_PADDING[0] - stripe, colour, True, min_size=smallest
    )
    width, height = image.get_rect().inflate(*TAG_PADDING).size
    width += stripe
    if spot.readable_tag:
        height = TAG_HEIGHT
    box = pygame.Surface((width, height), pygame.SRCALPHA)
    pygame.draw.rect(
        box,
        (20, 24, 30),
        box.get_rect(),
        0,
        8,
        border_bottom_left_radius=0,
        border_bottom_right_radius=0,
    )
    pygame.draw.rect(box, seat_colour, (0, 0, stripe, height), 0, 4, border_bottom_left_radius=0)
    line = image.get_rect(center=(stripe + (width - stripe) // 2, height // 2))
    if spot.readable_tag:
        line.top = (height - image.get_height()) // 2 - 1
    box.blit(image, line)
    return box


def _seat_tag(props: Props, seat: SeatShow, phase: str) -> str | None:
    """The one short mark above a seat: out, away (no phone open), or a bot. (No seat is a
    latecomer's: they wait on the bench, ``host/tv/bench.py``.)

    Not "away" once the game is won: nothing waits for anyone then, and round 41's check saw
    the winners' board tag a winner whose phone slept "away"."""
    if seat.status == "eliminated":
        return props.t("out")
    if not seat.connected and phase != "game_over":
        return props.catalog.t(props.lang, "vip.away")  # the lobby's word too
    if seat.bot:
        return props.t("bot")
    return None


def token_centres(prect: pygame.Rect, count: int, scale: float) -> list[tuple[int, int]]:
    """Where a plate's ``count`` life tokens sit, left to right along its bottom."""
    gap = (30 if count <= 5 else 22) * scale
    left = prect.centerx - gap * (count - 1) / 2 + 6 * scale
    return [(round(left + i * gap), prect.bottom - round(20 * scale)) for i in range(count)]


def _draw_lives(
    surface: pygame.Surface, max_lives: int, prect: pygame.Rect, lives: int, scale: float
) -> None:
    """Gold tokens for lives left, empty grey rings for lives lost — on every plate, a greyed
    one too. Why not grey tokens on a greyed plate: round 40's play-test read an away
    player's grey tokens as lives lost ("Bruno has no lives left"); the grey plate and the
    seat's tag ("away", "next game") say the rest, and only a lost life is grey."""
    slots = max(max_lives, lives)
    radius = max(5, round(11 * scale))
    for i, centre in enumerate(token_centres(prect, slots, scale)):
        if i < lives:
            pygame.draw.circle(surface, theme.GOLD, centre, radius)
            pygame.draw.circle(surface, (120, 80, 10), centre, radius, 2)
        else:
            pygame.draw.circle(surface, theme.GREYED, centre, radius, 2)


def _draw_leaving_token(
    surface: pygame.Surface,
    props: Props,
    prect: pygame.Rect,
    index: int,
    slots: int,
    progress: float,
    scale: float,
) -> None:
    """A life token rising off the plate and fading, with a "−1"."""
    centres = token_centres(prect, max(slots, index + 1), scale)
    x, y = centres[min(index, len(centres) - 1)]
    rise = round(progress * 70 * scale)
    alpha = max(0, 255 - round(progress * 255))
    token = pygame.Surface((26, 26), pygame.SRCALPHA)
    pygame.draw.circle(token, (*theme.GOLD, alpha), (13, 13), 11)
    surface.blit(token, (x - 13, y - 13 - rise))
    label = props.theme.text(
        props.t("loses_life"), max(20, round(40 * scale)), theme.ALERT, bold=True
    )
    label.set_alpha(alpha)
    surface.blit(label, label.get_rect(midbottom=(x, y - 20 - rise)))


def dealer_radius(spot: SeatSpot, room: int) -> int:
    """The dealer's badge's radius: as big as the plate's scale makes it (20 px on the
    biggest plates, ``SeatSpot.plate_factor``: H7's big tables too, round 43), but no wider
    than the ``room`` beside the card over the plate (a big table's plate is narrower than
    a small table's of that scale)."""
    return max(8, min(round(20 * spot.plate_factor), room // 2))


def _dealer_button(props: Props, scale: float, radius: int) -> pygame.Surface:
    """The dealer's badge: a white disc of ``radius`` with "D"; the letter is sized by
    ``scale``, or by the radius where the room beside the card made the disc smaller."""
    size = round(26 * scale) if radius >= round(20 * scale) else round(radius * 1.3)
    button = pygame.Surface((2 * radius + 2, 2 * radius + 2), pygame.SRCALPHA)
    centre = (radius + 1, radius + 1)
    pygame.draw.circle(button, (250, 250, 250), centre, radius)
    pygame.draw.circle(button, theme.DARK_INK, centre, radius, 3)
    props.theme.blit_text(
        button,
        props.t("dealer_mark"),
        max(13, size),
        theme.DARK_INK,
        bold=True,
        center=centre,
    )
    return button
