"""The animation of the move playing now: cards in flight, flips, and the banners that name
the move ("Ana swaps with Chloé", "CUCKOO!").

One small painter per event kind, looked up in ``MOVES``; each reads a ``Move`` (the beat,
the stage, the seat spots) and paints — nothing here changes state. The banners themselves
(their size, row and lines between the seats) are ``host/tv/banners.py``'s; the label helpers
here are shared with the table's resting messages.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import pairwise

import pygame

from host.rules import EventDict, KeepReason, RedealReason
from host.tv import theme
from host.tv.banners import plate, seated_banner
from host.tv.layout import (
    BANNER_Y,
    PILE_NAME_DROP,
    PILE_WIDTH,
    READABLE_SIZE,
    SUBTITLE_Y,
    TABLE_CENTRE,
    SeatSpot,
    arc,
    aside_spot,
    discard_spot,
    ease,
    lerp,
    pile_name_room,
    stock_spot,
)
from host.tv.scene import Props
from host.tv.stage import (
    DEAL_FLIGHT,
    DEAL_STAGGER,
    SUDDEN_DEATH_VERDICT_AT,
    Beat,
    Stage,
    reveal_marked_at,
)

#: A pile's name too wide for its room shrinks to this, then is cut (``pile_name``).
PILE_NAME_MIN_SIZE = 20
#: A sudden death's cards are this far apart: wide for up to ``DUEL_WIDE_MOST`` players (a
#: name like "Jean-Christophe" fits under its card at ``READABLE_SIZE``), closer for more (the
#: row must stay between the side seats of 5 and 6 seats; round 47: with the row laid round
#: the stock, a fourth wide slot reached the right-hand seat of 6 seats).
DUEL_STEPS = (260, 180)
DUEL_WIDE_MOST = 3
#: A sudden death's card slots keep this clear of a pile (``duel_columns``); the stock's cards
#: are stacked ``STOCK_STACK`` up-left of its spot (``Table._draw_piles``).
DUEL_AIR = 12
#: How far from the table's centre a wide slot may reach before the row closes up.
DUEL_REACH = 520
STOCK_STACK = 9
#: The block call at its biggest (it pops in); it must leave room for its subtitle.
CALL_SIZE = 84
#: How long the block call takes to pop in, and a cut King to fly aside turning over.
CALL_POP_SECONDS = 0.35
CUT_KING_SECONDS = 0.8
#: Swapped cards wait this share of the beat, then travel during ``SWAP_SPAN`` of it.
SWAP_START, SWAP_SPAN = 0.05, 0.8


def swap_travel(progress: float) -> float:
    """How far the swapped cards have travelled (0 → 1) at a share of the exchange's beat."""
    return min(1.0, max(0.0, (progress - SWAP_START) / SWAP_SPAN))


def point(at: tuple[float, float]) -> tuple[int, int]:
    return round(at[0]), round(at[1])


def felt_text(props: Props, text: str, width: int) -> pygame.Surface:
    """Words on the felt read from the sofa, like the trail: ``READABLE_SIZE`` in
    ``TRAIL_INK`` (they were grey 22 px text, 3.8:1 on the felt), shrunk only where wider
    than ``width``."""
    return props.theme.fitted_text(
        text, READABLE_SIZE, width, theme.TRAIL_INK, min_size=PILE_NAME_MIN_SIZE
    )


def label(
    surface: pygame.Surface, props: Props, text: str, at: tuple[float, float], width: int
) -> pygame.Rect:
    """A name under a card on the felt (a sudden death's): ``felt_text`` centred on ``at``."""
    image = felt_text(props, text, width)
    rect = image.get_rect(center=point(at))
    surface.blit(image, rect)
    return rect


def pile_name(
    surface: pygame.Surface,
    props: Props,
    text: str,
    pile: tuple[float, float],
    spots: Iterable[SeatSpot],
) -> pygame.Rect:
    """A pile's name under it ("Stock", "Discard") in ``felt_text`` (round 37's play-test).
    A name wider than the room kept for it (French "Défausse") takes the felt beside it that
    the seats leave (``layout.pile_name_room``), moved off its pile's centre if it must; only
    a name wider than all of it shrinks."""
    left, right = pile_name_room(spots, pile)
    image = felt_text(props, text, int(right - left))
    half = image.get_width() / 2
    x = min(max(pile[0], left + half), right - half)
    rect = image.get_rect(center=point((x, pile[1] + PILE_NAME_DROP)))
    surface.blit(image, rect)
    return rect


def bubble(
    surface: pygame.Surface,
    props: Props,
    text: str,
    at: tuple[float, float],
    alpha: int,
    width: int = 112,
) -> pygame.Rect:
    """A short word on a seat's card ("Keeps"), ``alpha`` opaque (0–255), centred on it; at
    most ``width`` wide (the seat's plate). Returns where it is.

    The word on its plate is drawn once and kept (``props.memo``); each frame only sets how
    opaque it is and blits it. Why: a fade is drawn at 60 fps on every seat that kept, and
    drawing a new plate and copying the word each frame made two surfaces a frame for the
    allocator to take and give back all evening (issue 18 items 3 and 5)."""
    image = props.memo(("bubble", text, width), lambda: _bubble_image(props, text, width))
    box = image.get_rect(center=point(at))
    image.set_alpha(max(0, min(255, alpha)))  # the kept image's opacity, set before each blit
    surface.blit(image, box)
    return box


def bubble_text(props: Props, event: EventDict) -> str:
    """What a seat's bubble says of its move: why the host kept for them, if it did (round
    40: a VIP's skip read "time out")."""
    reason = event.get("reason") if event["type"] == "kept" else None
    if reason == KeepReason.AWAY:
        return props.t("away_keeps")
    if reason == KeepReason.SKIPPED:
        return props.t("skipped_keeps")
    auto = event["type"] == "kept" and event.get("auto")
    return props.t("auto_keeps" if auto else "keeps")


def draw_bubbles(
    surface: pygame.Surface, props: Props, stage: Stage, spots: dict[str, SeatSpot]
) -> list[pygame.Rect]:
    """Every seat's move bubble still showing (``Stage.shown_bubbles``), each on its own card
    and as wide as its plate at most, so two neighbours' never meet (their seats do not).
    Painted over the seats, after the cards in flight went under them. Returns where."""
    painted: list[pygame.Rect] = []
    for player, seat_bubble, alpha in stage.shown_bubbles():
        spot = spots.get(player)
        if spot is not None:
            text = bubble_text(props, seat_bubble.event)
            painted.append(bubble(surface, props, text, spot.centre, alpha, spot.plate_size[0]))
    return painted


def _bubble_image(props: Props, text: str, width: int) -> pygame.Surface:
    """The bubble's words on their gold plate, fully opaque: one line, shrunk no smaller than
    ``READABLE_SIZE``; else two lines at that size; only a text longer still shrinks below it.
    Why: round 44's check read "Garde (tour…" 10 px high on a 14-seat table's card."""
    th, room = props.theme, width - 12
    lines = [text]
    if th.measure(text, READABLE_SIZE, True) > room:
        wrapped = th.wrap(text, READABLE_SIZE, room, bold=True)
        if len(wrapped) == 2 and all(
            th.measure(line, READABLE_SIZE, True) <= room for line in wrapped
        ):
            lines = wrapped
    low = READABLE_SIZE if len(lines) == 2 else 10
    words = [
        th.fitted_text(line, 30, room, theme.DARK_INK, bold=True, min_size=low) for line in lines
    ]
    size = (max(word.get_width() for word in words), sum(word.get_height() for word in words))
    image = plate(pygame.Rect((0, 0), size).inflate(10, 10).size, (*theme.GOLD, 255), 14)
    top = 5
    for word in words:
        image.blit(word, word.get_rect(midtop=(image.get_width() // 2, top)))
        top += word.get_height()
    return image


def confetti(surface: pygame.Surface, t: float) -> None:
    """Falling confetti computed from time alone, so any instant draws the same."""
    for k in range(90):
        x = (k * 211.7 + 40 * math.sin(t * 2 + k)) % 1920
        y = (k * 97.3 + t * (160 + (k % 7) * 25)) % 980
        size = 8 + k % 6
        surface.fill(theme.PLAYER_COLOURS[k % 8], (round(x), round(y), size, size // 2 + 3))


@dataclass(frozen=True)
class Move:
    """Everything a move painter reads."""

    surface: pygame.Surface
    props: Props
    stage: Stage
    beat: Beat
    spots: dict[str, SeatSpot]
    layer: str = "top"
    """Painted twice: ``"cards"`` (cards in flight, under the seats) then ``"top"`` (words)."""
    flights: list[tuple[pygame.Surface, pygame.Rect]] | None = None
    """A list: cards in flight are not blitted but listed here (image, where), so that the
    table paints them, under the seats, in only the rectangles they cross."""
    marks: list[pygame.Rect] | None = None
    """A list: every rectangle the words (``"top"``) painted in, so that only those need
    showing again (``host/tv/damage.py``)."""

    def mark(self, *rects: pygame.Rect) -> None:
        """The words just painted covered ``rects``."""
        if self.marks is not None:
            self.marks.extend(rects)

    @property
    def event(self) -> EventDict:
        return self.beat.event

    def who(self, key: str) -> str | None:
        """The player id in the event's ``key`` field (``player``, ``target`` or ``dealer``)."""
        value = self.event.get(key)
        return value if isinstance(value, str) else None

    def name(self, key: str) -> str:
        return self.stage.name_of(self.who(key))

    def at(self, key: str) -> tuple[float, float]:
        """The card centre of the seat named by ``event[key]``."""
        spot = self.spots.get(str(self.who(key)))
        return spot.centre if spot else TABLE_CENTRE

    def back(self) -> pygame.Surface:
        width = next(iter(self.spots.values())).card_width if self.spots else 100
        return self.props.cards.back(width)

    def held(self, key: str) -> pygame.Surface:
        """The card a seat holds as everyone sees it: a shown King face up, else the back."""
        seat = self.stage.seat_of(self.who(key))
        if seat is not None and seat.card:
            width = next(iter(self.spots.values())).card_width
            return self.props.cards.face(seat.card, width)
        return self.back()

    def card(self, image: pygame.Surface, at: tuple[float, float]) -> None:
        """A card in flight: drawn under the seats, so it never hides a name plate."""
        if self.layer == "cards":
            rect = image.get_rect(center=point(at))
            if self.flights is None:
                self.surface.blit(image, rect)
            else:
                self.flights.append((image, rect))

    def banner(
        self, text: str, size: int, colour: theme.Colour = theme.INK, y: int = BANNER_Y
    ) -> None:
        if self.layer == "top":
            self.mark(
                seated_banner(self.surface, self.props, text, size, colour, self.spots.values(), y)
            )


def shown_king(event: EventDict) -> str | None:
    """The King a block or a cut shows face up (R7, R9); None for any other event."""
    if event["type"] == "blocked" or event["type"] == "cut_king":
        return event["king"]
    return None


def _deal(m: Move) -> None:
    """R5: one card after another from the stock to each seat in turn order."""
    event = m.event
    if event["type"] != "round_dealt":
        return
    for i, player in enumerate(event.get("order", [])):
        t = (m.beat.elapsed - i * DEAL_STAGGER) / DEAL_FLIGHT
        spot = m.spots.get(player)
        if 0 < t < 1 and spot:
            m.card(m.back(), lerp(stock_spot(), spot.centre, ease(t)))


def _game_started(m: Move) -> None:
    m.banner(m.props.t("first_dealer", name=m.name("dealer")), 56)


def _exchanged(m: Move) -> None:
    """R7: two face-down cards cross between the neighbours (nobody sees them)."""
    a, b = m.at("player"), m.at("target")
    t = ease(swap_travel(m.beat.progress))
    m.card(m.held("player"), arc(a, b, t))
    m.card(m.held("target"), arc(b, a, t))
    m.banner(m.props.t("swaps_with", player=m.name("player"), target=m.name("target")), 48)


def _call(m: Move) -> None:
    """The host's call when a King blocks (R7, R9): "CUCKOO!", or "CHASE!" under H8."""
    call = m.props.t("call_chase" if m.event.get("call") == "chase" else "call_cuckoo")
    pop = min(1.0, m.beat.elapsed / CALL_POP_SECONDS)
    m.banner(call, max(40, round(CALL_SIZE * (0.5 + 0.5 * pop)) // 10 * 10), theme.GOLD)


def _blocked(m: Move) -> None:
    _call(m)
    m.banner(
        m.props.t("blocked_by", target=m.name("target"), player=m.name("player")), 36, y=SUBTITLE_Y
    )


def _cut(m: Move) -> None:
    back = m.props.cards.back(PILE_WIDTH)
    m.card(back, lerp(stock_spot(), m.at("dealer"), 0.25 * ease(m.beat.progress)))
    m.banner(m.props.t("cuts", name=m.name("dealer")), 44)


def _cut_taken(m: Move) -> None:
    """R9: the cut card goes to the dealer, the old one face down to the discard."""
    t = ease(m.beat.progress)
    m.card(m.back(), lerp(m.at("dealer"), discard_spot(), t))
    m.card(m.back(), lerp(stock_spot(), m.at("dealer"), t))
    m.banner(m.props.t("cut_taken", name=m.name("dealer")), 44)


def _cut_king(m: Move) -> None:
    """R9: a cut King turns face up and is set aside; the dealer keeps their card."""
    t = min(1.0, m.beat.elapsed / CUT_KING_SECONDS)
    m.card(
        m.props.cards.flipped(shown_king(m.event), PILE_WIDTH, t),
        lerp(stock_spot(), aside_spot(), ease(t)),
    )
    _call(m)
    m.banner(m.props.t("cut_king", name=m.name("dealer")), 36, y=SUBTITLE_Y)


def _reveal(m: Move) -> None:
    event = m.event
    if event["type"] != "reveal":
        return
    done = m.beat.elapsed >= reveal_marked_at(len(event.get("cards", {})))
    if done:
        m.banner(
            m.props.t("lowest", rank=m.props.rank_name(str(event.get("lowest")))), 60, theme.ALERT
        )
    else:
        m.banner(m.props.t("reveal"), 60)


def _eliminated(m: Move) -> None:
    m.banner(m.props.t("is_out", name=m.name("player")), 56, theme.ALERT)


def pile_columns(discard: bool, king: bool) -> list[tuple[float, float]]:
    """The left and right of each pile on the felt (the stock's four cards stacked up-left; the
    discard and a cut King when there are), ``DUEL_AIR`` wider either side."""
    half = PILE_WIDTH / 2 + DUEL_AIR
    stock = stock_spot()[0]
    columns = [(stock - half - STOCK_STACK, stock + half)]
    for shown, x in ((discard, discard_spot()[0]), (king, aside_spot()[0])):
        if shown:
            columns.append((x - half, x + half))
    return sorted(columns)


def duel_columns(count: int, step: int, piles: list[tuple[float, float]]) -> list[int]:
    """Where the ``count`` cards of a sudden death go, left to right: slots ``step`` wide
    nearest the table's centre that meet no pile. Why: the row is level with the piles (the
    banner is above it, the bottom seat under it), and round 47's play-test saw the stock on
    the first card and over its player's name ("Bo" read "B")."""
    centre = TABLE_CENTRE[0]
    edges = [(-math.inf, -math.inf), *piles, (math.inf, math.inf)]
    slots: list[float] = []
    for (_, left), (right, _) in pairwise(edges):
        if math.isinf(left) and math.isinf(right):  # no pile: one row around the centre
            slots += [centre + (i - (count - 1) / 2) * step for i in range(count)]
        elif math.isinf(left):  # left of the first pile: laid outwards from it
            slots += [right - step * (i + 0.5) for i in range(count)]
        elif math.isinf(right):
            slots += [left + step * (i + 0.5) for i in range(count)]
        else:  # between two piles: as many as fit, centred there
            fit = int((right - left) // step)
            middle = (left + right) / 2
            slots += [middle + (i - (fit - 1) / 2) * step for i in range(fit)]
    nearest = sorted(slots, key=lambda x: (abs(x - centre), x))[:count]
    return sorted(round(x) for x in nearest)


def duel_row(count: int, piles: list[tuple[float, float]]) -> tuple[int, list[int]]:
    """The step and the columns of a sudden death's ``count`` cards: wide slots while they
    stay within ``DUEL_REACH`` of the centre, else the close ones (the piles between them
    push the row out towards the side seats)."""
    steps = DUEL_STEPS if count <= DUEL_WIDE_MOST else DUEL_STEPS[1:]
    for step in steps:
        columns = duel_columns(count, step, piles)
        if max((abs(x - TABLE_CENTRE[0]) for x in columns), default=0) + step / 2 <= DUEL_REACH:
            break
    return step, columns


def _sudden_death(m: Move) -> None:
    """H5: the one-card deal among the players who would all go out together."""
    event = m.event
    if m.layer != "top" or event["type"] != "sudden_death":
        return
    winner = event.get("winner")
    if m.beat.elapsed < SUDDEN_DEATH_VERDICT_AT:
        m.banner(m.props.t("sudden_death"), 56, theme.ALERT)
    elif winner is None:
        m.banner(m.props.t("sudden_death_tie"), 56, theme.ALERT)
    else:
        m.banner(m.props.t("sudden_death_won", name=m.stage.name_of(winner)), 56, theme.GOLD)
    dealt = event.get("cards", {})
    piles = pile_columns(m.stage.discard_count > 0, m.stage.cut_king is not None)
    step, columns = duel_row(len(dealt), piles)
    for x, (player, code) in zip(columns, dealt.items()):
        face = m.props.cards.face(code, 100)
        rect = face.get_rect(center=(x, SUBTITLE_Y + 40))
        m.surface.blit(face, rect)
        at = (rect.centerx, rect.bottom + 20)
        name = label(m.surface, m.props, m.stage.name_of(player), at, step - 16)
        m.mark(rect, name)


def _misdeal(m: Move) -> None:
    """R16: every dealt card goes back to the stock."""
    for seat in m.stage.players:
        spot = m.spots.get(seat.id)
        if seat.dealt and spot:
            m.card(m.back(), lerp(spot.centre, stock_spot(), ease(m.beat.progress)))
    event = m.event
    if event["type"] == "misdeal" and event.get("reason") == RedealReason.PLAYER_LEFT:
        # Round 40: a kick's redeal read "Misdeal", which a guest takes for a faulty deal.
        left = m.stage.name_of(event.get("player"))
        m.banner(m.props.t("misdeal_left", left=left, name=m.name("dealer")), 52, theme.ALERT)
    else:
        m.banner(m.props.t("misdeal", name=m.name("dealer")), 52, theme.ALERT)


MOVES: dict[str, Callable[[Move], None]] = {
    "round_dealt": _deal,
    "game_started": _game_started,
    "exchanged": _exchanged,
    "blocked": _blocked,
    "cut": _cut,
    "cut_taken": _cut_taken,
    "cut_king": _cut_king,
    "reveal": _reveal,
    "eliminated": _eliminated,
    "sudden_death": _sudden_death,
    "misdeal": _misdeal,
}


def draw_move(move: Move) -> None:
    """Paint the beat playing now (kinds without a picture, e.g. ``turn``, draw nothing)."""
    painter = MOVES.get(move.beat.kind)
    if painter is not None:
        painter(move)
