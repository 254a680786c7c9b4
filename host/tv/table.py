"""The table scene: seats around the oval, the stock and discard, and every move animated.

``draw`` reads the ``Stage`` (and its current ``Beat``) and paints; it never changes them.
Which card a seat shows at an instant is decided by ``card_look`` — the one place that knows
when a card is in flight, flipping, or face up — so the hidden-card tests can check it alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import lru_cache, partial

import pygame

from host.pacing import reveal_order as pacing_reveal_order
from host.rules.contract import RevealEvent
from host.tv import theme
from host.tv.banners import piles_top, seated_banner
from host.tv.bench import Bench, draw_bench, plan_bench
from host.tv.cards import card_size
from host.tv.final import dim_table, draw_final_board
from host.tv.layout import (
    HEADER_LINE,
    PILE_BAND_REACH,
    PILE_WIDTH,
    READABLE_SIZE,
    SUBTITLE_Y,
    TABLE_CENTRE,
    TABLE_RADII,
    SeatSpot,
    aside_spot,
    discard_spot,
    stock_spot,
)
from host.tv.moves import (
    Move,
    confetti,
    draw_bubbles,
    draw_move,
    pile_name,
    point,
    shown_king,
)
from host.tv.nameplates import NameLabel, short_name
from host.tv.present import copy_whole
from host.tv.scene import Props
from host.tv.seats import CardLook, card_rect, draw_seat, plate_rect, ring, seat_plan
from host.tv.stage import (
    DEAL_FLIGHT,
    DEAL_STAGGER,
    FLIP_SECONDS,
    Beat,
    SeatShow,
    Stage,
    reveal_flip_start,
    reveal_marked_at,
)
from host.tv.still import Piece, StillLayer, merged, patch, restore
from host.tv.theme import CANVAS_SIZE
from host.tv.trail import draw_trail, trail_room

#: A blocking King turns face up on its holder's seat in this long.
BLOCK_FLIP_SECONDS = 0.5
#: Beats whose painters fly cards under the seats (``Move.card``): while one plays, the
#: rectangles the cards cross are painted again on every frame (``TableScene._fly_under``).
FLYING_KINDS = frozenset({"round_dealt", "exchanged", "cut", "cut_taken", "cut_king", "misdeal"})
#: The still layer's pieces that lie under cards in flight; the others lie over them.
UNDER_CARDS = frozenset({"header", "piles"})

#: The felt's only colours, first in an 8-bit palette (the rest repeats the background, so no
#: other entry can be picked for them): see ``TableScene._felt_surface``.
FELT_PALETTE = [theme.BACKGROUND, theme.FELT_EDGE, theme.FELT] + [theme.BACKGROUND] * 253

#: Where the header line paints (``TableScene._draw_header``): the top of the canvas.
HEADER_REGION = (0, 0, CANVAS_SIZE[0], HEADER_LINE)
WHOLE_REGION = (0, 0, *CANVAS_SIZE)
#: The header's help hint ("H: host keys") is at ``READABLE_SIZE`` unless whose turn it is
#: would then be smaller than that (a name 16 "W" wide in French): then it is this size.
HELP_HINT_MIN = 24
#: The header's dealer line at most ("Dà le carte" and 16 "W" at ``READABLE_SIZE``: 611 px).
HEADER_DEALS_WIDTH = 640


def _piles_region() -> tuple[int, int, int, int]:
    """Where the stock (four cards stacked up and left), the discard, a cut King and the
    piles' names paint: one band across the three spots, room for a long name on each side."""
    height = card_size(PILE_WIDTH)[1]
    (sx, sy), (dx, _) = stock_spot(), discard_spot()
    left, right = round(sx) - PILE_BAND_REACH, round(dx) + PILE_BAND_REACH
    top = piles_top()
    bottom = round(sy) + height // 2 + 22 + 24  # the names' line under the cards
    return left, top, right - left, bottom - top


PILES_REGION = _piles_region()


@lru_cache(maxsize=64)
def seat_region(spot: SeatSpot) -> tuple[int, int, int, int]:
    """Where a seat paints: its tag, card and plate (``SeatSpot.box``) and the frames drawn
    around them (the turn's glow, a winner's gold)."""
    left, top, right, bottom = spot.box()
    box = pygame.Rect(int(left) - 1, int(top) - 1, int(right - left) + 3, int(bottom - top) + 3)
    frames = card_rect(spot).union(plate_rect(spot)).inflate(30, 30)
    region = box.union(frames)
    return region.left, region.top, region.width, region.height


@lru_cache(maxsize=8)
def trail_region(spots: tuple[SeatSpot, ...]) -> tuple[int, int, int, int]:
    """Where the trail paints: the corner the seats leave free (``trail_room``)."""
    room = trail_room(list(spots))
    return room.left, room.top, room.width, room.height


@dataclass(frozen=True)
class SeatRow:
    """One seat as this frame paints it: where, its card's look, the lives shown, the token
    leaving (``None`` when no life is being lost), what its plate says."""

    seat: SeatShow
    spot: SeatSpot
    look: CardLook
    lives: int
    token: float | None
    label: NameLabel

    @property
    def moving(self) -> bool:
        """Its card turning over or a life leaving: painted on every frame, never kept."""
        return self.look.kind == "flip" or self.token is not None


def card_look(stage: Stage, seat: SeatShow) -> CardLook:
    """How ``seat``'s card shows now: nothing, its back, its face, or mid-flip."""
    lowest = (
        stage.phase in ("reveal", "game_over")
        and seat.card is not None
        and stage.lowest is not None
        and seat.card[:-1] == stage.lowest
    )
    look = (
        CardLook("face", seat.card, 1.0, lowest)
        if seat.card
        else CardLook("back")
        if seat.dealt
        else CardLook("none")
    )
    beat = stage.beat
    if beat is None:
        return look
    event, kind = beat.event, beat.kind
    if event["type"] == "round_dealt" and seat.id in event.get("order", []):
        landed = beat.elapsed >= event["order"].index(seat.id) * DEAL_STAGGER + DEAL_FLIGHT
        return CardLook("back") if landed else CardLook("none")
    if kind == "exchanged" and seat.id in (event.get("player"), event.get("target")):
        return CardLook("none")
    if kind == "blocked" and seat.id == event.get("target") and seat.card is None:
        flip = beat.elapsed / BLOCK_FLIP_SECONDS
        return (
            CardLook("flip", shown_king(event), flip)
            if flip < 1
            else CardLook("face", shown_king(event))
        )
    if kind == "cut_taken" and seat.id == event.get("dealer"):
        return CardLook("none")
    if kind == "misdeal" and seat.dealt:
        return CardLook("none")
    if event["type"] == "reveal" and seat.id in event.get("cards", {}) and seat.card is None:
        code = event["cards"][seat.id]
        count = len(event["cards"])
        index = reveal_order(stage, event).index(seat.id)
        flip = (beat.elapsed - reveal_flip_start(index, count)) / FLIP_SECONDS
        all_shown = beat.elapsed >= reveal_marked_at(count)
        if flip <= 0:
            return CardLook("back")
        if flip < 1:
            return CardLook("flip", code, flip)
        return CardLook("face", code, 1.0, all_shown and code[:-1] == event.get("lowest"))
    return look


def reveal_order(stage: Stage, event: RevealEvent) -> list[str]:
    """Cards flip one by one in turn order (dealer last), like players turning them over —
    the same order the pacer lets phones see them in (``host.pacing.reveal_order``)."""
    return pacing_reveal_order(stage.order, event.get("cards", {}))


@dataclass(frozen=True)
class HeaderPlan:
    """The header line's pieces and where they go (``TableScene._header_plan``)."""

    round_text: str | None
    deals: tuple[pygame.Surface, pygame.Rect] | None
    """"X deals", fitted, and where it goes."""
    hint: str
    """ "H: host keys", or "S: skip" while S would skip the current player (in white, not grey:
    round 42's play-test saw a guest dither for 30 s with nothing on the TV telling of S)."""
    skip: bool
    hint_size: int
    turn_left: int
    """The room for whose turn it is (or a countdown pill): from here…"""
    turn_right: int
    """…to here, left of the help key."""


class TableScene:
    """The game in progress (phases ``turns``, ``reveal``, ``game_over``)."""

    def __init__(
        self,
        stage: Stage,
        props: Props,
        give_way: Callable[[], None] = lambda: None,
        *,
        trail: bool = True,
    ) -> None:
        self.stage = stage
        self.props = props
        self.give_way = give_way
        """Called between the pieces of a frame: waits while a phone's request is being
        served (``host/phones_first.py``); by default it returns at once."""
        self.trail = trail
        """False: no round's trail in the top-left corner ("How to play" puts its badge there,
        and its captions tell each move as it happens)."""
        self._felt: pygame.Surface | None = None  # the felt under everything (``_draw_under``)
        self.still = StillLayer(self._felt_surface)
        """What holds still: the felt, header, piles and every seat that does not move."""
        self.keep_still = True
        """False: paint every piece straight on the target (the overlap tests record them)."""
        self.over: list[pygame.Rect] | None = None
        """Where the last frame painted over the still layer (None: anywhere, or not from the
        layer): with ``still.changed``, where it may differ from the frame before
        (``host/tv/damage.py``)."""
        self._painted: pygame.Surface | None = None  # the last frame's, if it said where
        self._holds: pygame.Surface | None = None
        """The surface that still shows this scene's last frame, as its owner confirmed
        (``canvas_untouched``; None: none is known to). There that frame is the still layer but
        for ``self.over`` and the caption bar (opaque, painted whole over every frame), so the
        next frame restores only those rectangles and what the layer changed
        (``still.restore``) instead of copying it all."""
        self.restored = 0
        """Pixels copied from the still layer by the last frame (the whole canvas if whole)."""
        self.countdown_up = False
        """A countdown pill names the current player (``vip_hooks``, set by the app before each
        frame): the header then leaves its "X's turn" out, and the pill takes its place."""

    def canvas_untouched(self) -> None:
        """Called by the owner after a frame when nothing but the caption bar was painted over
        it: the surface keeps the frame, and the next one may restore only what changed. An
        owner that paints over the table (the tutorial's title) never calls it."""
        self._holds = self._painted

    def update(self, dt: float) -> None:
        """The stage is advanced by the app; the scene itself holds no time."""

    def handle(self, event: pygame.event.Event) -> bool:
        return False

    # -- drawing ---------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        """The frame, with what holds still taken from the still layer (``self.still``)."""
        self.paint(surface, self.keep_still)

    def paint(self, surface: pygame.Surface, keep_still: bool) -> None:
        """Paint the table in its layers. ``keep_still``: the felt, the header, the piles, the
        pile labels, every seat that holds still and the trail come from one cached surface,
        patched where one of them changes (``host/tv/still.py``); cards in flight are slid
        under it (``_fly_under``); the seats that move (a card turning, a life leaving) are
        painted over it. Without it every piece is painted in order (what the layered frame
        equals, pixel for pixel: no two of these pieces overlap, ``tests/tv/test_overlap.py``)."""
        stage = self.stage
        spots, rows = self.seating()
        bench = self.bench(spots)
        beat = stage.beat
        before = self.over if self._holds is surface else None
        self.over = self._holds = self._painted = None  # until this frame is painted through
        over: list[pygame.Rect] | None = None
        game_end = stage.phase == "game_over"
        winners = [row for row in rows if row.seat.id in stage.winners] if game_end else []
        # The game's end holds still under its confetti: the dimmed table and the winners'
        # seats are then pieces of the still layer, made once, not dimmed again each frame
        # (``still_pieces``). A seat still moving (its card turning) keeps the frame-by-frame
        # dimming, which dims it too.
        end_in_layer = keep_still and game_end and not any(row.moving for row in rows)
        if keep_still:
            frame, pieces = self.still_pieces(
                spots,
                [row for row in rows if not row.moving],
                winners if end_in_layer else None,
                bench,
            )
            layer = self.still.surface(frame, pieces)
            if before is None:
                copy_whole(layer, surface)
                self.restored = surface.get_width() * surface.get_height()
            else:
                self.restored = restore(layer, surface, [*self.still.changed, *before])
            self.give_way()  # a whole copy let go of the GIL: a phone's tap may be running
            over = []
            if beat is not None and beat.kind in FLYING_KINDS:
                over += self._fly_under(surface, beat, spots, pieces)
            for row in rows:
                if row.moving:
                    self._draw_row(surface, row)
                    over.append(pygame.Rect(seat_region(row.spot)))
        else:
            self._draw_under(surface)
            if beat is not None:  # cards in flight go under the seats: a plate stays readable
                draw_move(Move(surface, self.props, stage, beat, spots, "cards"))
            self._draw_pile_labels(surface)
            for row in rows:
                self._draw_row(surface, row)
            if self.trail:
                draw_trail(surface, self.props, stage, list(spots.values()))
            if bench is not None:
                draw_bench(surface, self.props, bench)
        bubbles = draw_bubbles(surface, self.props, stage, spots)  # on cards, over the seats
        if over is not None:
            over += bubbles
        left = stage.rapid_left()
        if left is not None and stage.current in spots:
            bar = self._draw_countdown(surface, spots[stage.current], left)
            if over is not None:
                over.append(bar)
        self.give_way()
        if game_end and not end_in_layer:  # the table recedes (``host/tv/final.py``) …
            dim_table(surface, self.props)
            for row in winners:  # … but for the winners' seats, in their gold frames
                self._draw_row(surface, row)
        if stage.celebrating:  # over the table and under the words: the winner stays readable
            confetti(surface, stage.time - (stage.celebrating_since or 0.0))
        if game_end:
            lit = [pygame.Rect(seat_region(row.spot)) for row in winners]
            board = draw_final_board(surface, self.props, stage, lit)
            over = over + [board] if end_in_layer and over is not None else None
        elif beat is not None:
            marks: list[pygame.Rect] = []
            draw_move(Move(surface, self.props, stage, beat, spots, "top", marks=marks))
            if over is not None:
                over += marks
        else:
            banners = self._draw_resting_banner(surface, list(spots.values()))
            over = None if over is None else over + banners
        if stage.celebrating:
            over = None  # confetti fell all over the table
        self.over = over
        self._painted = surface if over is not None else None

    def seating(self) -> tuple[dict[str, SeatSpot], list[SeatRow]]:
        """Each seat's place by player id, and each seat as this instant paints it."""
        stage = self.stage
        plan, seated = seat_plan(self.props, stage), ring(stage)
        spots = {seat.id: spot for seat, spot in zip(seated, plan.spots)}
        return spots, [
            self._row(seat, spots[seat.id], label) for seat, label in zip(seated, plan.labels)
        ]

    def bench(self, spots: dict[str, SeatSpot]) -> Bench | None:
        """The latecomers' bench (``host/tv/bench.py``) beside the ring's ``spots``: clear of
        the seats, the piles' band and the trail's corner. ``None`` with nobody waiting, at the
        game's end (its board names them) or with no room."""
        avoid = [pygame.Rect(PILES_REGION), pygame.Rect(trail_region(tuple(spots.values())))]
        return plan_bench(self.props, self.stage, list(spots.values()), avoid)

    def _row(self, seat: SeatShow, spot: SeatSpot, label: NameLabel) -> SeatRow:
        beat = self.stage.beat
        lives, token = seat.lives, None
        if beat is not None:
            event = beat.event
            if event["type"] == "life_lost" and event["player"] == seat.id:
                lives, token = event["lives"], beat.progress
        return SeatRow(seat, spot, card_look(self.stage, seat), lives, token, label)

    def _draw_row(self, surface: pygame.Surface, row: SeatRow) -> None:
        self.give_way()
        draw_seat(
            surface,
            self.props,
            self.stage,
            row.seat,
            row.spot,
            row.look,
            row.lives,
            row.token,
            row.label,
        )

    def _draw_under(self, surface: pygame.Surface) -> None:
        """The felt and its wooden rim, the header, the piles: under everything else."""
        copy_whole(self._felt_surface(), surface)
        self._draw_header(surface)
        self._draw_piles(surface)

    def _felt_surface(self) -> pygame.Surface:
        """The felt never changes, so it is painted once and copied under the whole still layer
        and under each patch of it. Why: the still layer changes whenever the turn passes,
        which is the very frame in which the next phone may tap; painting the two big ellipses
        took about 1 ms of it with the GIL held (issue 18.1).

        Kept at 8 bits, with a palette of its three colours: 2 MB instead of the 8 MB of a
        canvas-like surface (the host's peak RSS was over its 120 MB), and copied out as the
        same pixels (``tests/tv/test_still.py``); a patch's copy is even a little
        quicker, having a quarter of the bytes to read."""
        if self._felt is None:
            self._felt = pygame.Surface(CANVAS_SIZE, depth=8)
            self._felt.set_palette(FELT_PALETTE)
            self._paint_felt(self._felt)
        return self._felt

    @staticmethod
    def _paint_felt(surface: pygame.Surface) -> None:
        surface.fill(theme.BACKGROUND)
        cx, cy = TABLE_CENTRE
        rx, ry = TABLE_RADII
        pygame.draw.ellipse(
            surface,
            theme.FELT_EDGE,
            pygame.Rect(cx - rx - 22, cy - ry - 22, 2 * rx + 44, 2 * ry + 44),
        )
        pygame.draw.ellipse(surface, theme.FELT, pygame.Rect(cx - rx, cy - ry, 2 * rx, 2 * ry))

    def _fly_under(
        self,
        surface: pygame.Surface,
        beat: Beat,
        spots: dict[str, SeatSpot],
        pieces: list[Piece],
    ) -> list[pygame.Rect]:
        """The cards in flight, slid under the still layer already on ``surface``: in the
        rectangles they cover, and only there, the felt, the header and piles, the cards, then
        the pile names, seats and trail they meet are painted again, clipped (``patch``). Why:
        painting all twenty seats over the cards on every frame of a swap or a deal cost
        about 0.4 ms with the GIL held (issue 18.1), and a swap's cards meet two or three.
        Returns those rectangles."""
        flights: list[tuple[pygame.Surface, pygame.Rect]] = []
        draw_move(Move(surface, self.props, self.stage, beat, spots, "cards", flights))
        if not flights:
            return []
        rects = [rect for _, rect in flights]

        def cards(target: pygame.Surface) -> None:
            for image, rect in flights:
                target.blit(image, rect)

        region = rects[0].unionall(rects[1:])
        flying = Piece("cards", (region.x, region.y, region.w, region.h), None, cards)
        layered = [
            *(piece for piece in pieces if piece.name in UNDER_CARDS),
            flying,
            *(piece for piece in pieces if piece.name not in UNDER_CARDS),
        ]
        covered = merged(rects)
        patch(surface, self._felt_surface(), covered, layered)
        return covered

    def still_pieces(
        self,
        spots: dict[str, SeatSpot],
        still: list[SeatRow],
        lit: list[SeatRow] | None = None,
        bench: Bench | None = None,
    ) -> tuple[Hashable, list[Piece]]:
        """The still layer's pieces in painting order, and what they all share (the ``frame``
        key of ``StillLayer.surface``: when it changes the whole layer is repainted). Between
        them the keys hold everything these painters read.

        ``lit``: the game's end, with these winners' seats lit over the dimmed table. The dim
        and the winners' seats are then the last pieces, so the confetti's frames copy the
        table as the board sees it instead of dimming all 1920×1080 pixels again on each
        (a frame cost 4.5 ms of CPU, 2.5 before the game-over board; issue 18 item 3).

        ``bench``: the latecomers' bench, a piece of its own (none at the game's end)."""
        stage, props = self.stage, self.props
        frame: Hashable = (
            props.lang,
            stage.phase,
            stage.round,
            stage.max_lives,
            tuple(stage.winners),
            tuple((seat.id, seat.name) for seat in stage.players),
        )
        pieces = [
            Piece(
                "header",
                HEADER_REGION,
                (stage.dealer, stage.current, self.countdown_up, stage.skip_ready),
                self._draw_header,
            ),
            Piece("piles", PILES_REGION, (stage.discard_count, stage.cut_king), self._draw_piles),
        ]
        pieces.append(Piece("labels", PILES_REGION, stage.discard_count, self._draw_pile_labels))
        pieces += [self._seat_piece("seat", row) for row in still]
        if self.trail:
            pieces.append(
                Piece(
                    "trail",
                    trail_region(tuple(spots.values())),
                    repr(stage.trail),
                    partial(draw_trail, props=props, stage=stage, spots=list(spots.values())),
                )
            )
        if bench is not None:
            pieces.append(self._bench_piece(bench))
        if lit is not None:
            pieces.append(Piece("dimmed", WHOLE_REGION, None, partial(dim_table, props=props)))
            pieces += [self._seat_piece("lit", row) for row in lit]
        return frame, pieces

    def _bench_piece(self, bench: Bench) -> Piece:
        """The bench as a piece of the still layer: the bench is its own key (frozen, its
        rectangles as tuples)."""
        return Piece("bench", bench.rect, bench, partial(draw_bench, props=self.props, bench=bench))

    def _seat_piece(self, kind: str, row: SeatRow) -> Piece:
        """A seat as a piece of the still layer (``kind``: "seat", or "lit" for a winner's
        seat painted again over the dimmed table). Its key is what the seat's picture depends
        on but the layer's ``frame`` key."""
        stage, seat = self.stage, row.seat
        looks = (
            repr(seat),
            row.label,
            row.look,
            row.lives,
            stage.current == seat.id,
            stage.dealer == seat.id,
        )
        return Piece(
            f"{kind} {seat.id}", seat_region(row.spot), looks, partial(self._draw_row, row=row)
        )

    def turn_slot(self) -> pygame.Rect | None:
        """Where the header says whose turn it is (or would, under a countdown; at the reveal,
        where an away next dealer's countdown goes): between the dealer's line and the help
        key, clear of seats. None when the header has no such line. Worked out from the stage
        as the header's drawing does, so the app places its pill without reading anything a
        draw left behind."""
        stage = self.stage
        if not (stage.phase == "turns" and stage.current) and stage.phase != "reveal":
            return None
        plan = self._header_plan()
        return pygame.Rect(plan.turn_left, 12, max(1, plan.turn_right - plan.turn_left), 44)

    def _header_plan(self) -> HeaderPlan:
        """Where the header's pieces go, from the stage alone (texts are cached by the theme).

        The names in it keep ``READABLE_SIZE`` (round 37's play-test): a line that does not
        fit with the whole name names the player as the plate does (``short_name``), and
        only a line that does not fit even so shrinks."""
        stage, props, th = self.stage, self.props, self.props.theme
        x = 40
        round_text = props.t("round", round=stage.round) if stage.round else None
        if round_text is not None:
            x += th.text(round_text, 36, theme.INK, True).get_width() + 28
        seats = self._header_seats()
        turn_left, deals = x, None
        if stage.dealer and stage.phase != "game_over":  # nobody deals once the game is won
            end = min([x + HEADER_DEALS_WIDTH] + [left - 16 for left, _ in seats if left >= x])
            image = self._named(
                lambda name: props.t("deals", name=name),
                stage.dealer,
                (30, end - x),
                theme.MUTED_INK,
                False,
            )
            deals = (image, image.get_rect(midleft=(x, 34)))
            turn_left = deals[1].right + 40
        skip = stage.skip_ready and stage.phase == "turns"
        hint = props.t("skip_hint" if skip else "help_hint")
        for hint_size in (READABLE_SIZE, HELP_HINT_MIN):  # whose turn comes first
            right = 1880 - th.measure(hint, hint_size) - 32
            start = max([turn_left] + [edge + 16 for _, edge in seats if edge <= right])
            if stage.phase != "turns" or not stage.current:
                break
            text = self._named_text(self._turn_of, stage.current, right - start, True)
            if th.measure(text, READABLE_SIZE, True) <= right - start:
                break
        return HeaderPlan(round_text, deals, hint, skip, hint_size, start, right)

    def _draw_header(self, surface: pygame.Surface) -> None:
        """One line above the seats: round and dealer on the left, whose turn and the help
        key on the right (the seats start below ``HEADER_HEIGHT``, but for a big table's top
        seats' tags: the lines keep clear of those seats)."""
        stage, th = self.stage, self.props.theme
        plan = self._header_plan()
        if plan.round_text is not None:
            th.blit_text(surface, plan.round_text, 36, theme.INK, True, topleft=(40, 12))
        if plan.deals is not None:
            surface.blit(*plan.deals)
        colour = theme.INK if plan.skip else theme.MUTED_INK
        th.blit_text(surface, plan.hint, plan.hint_size, colour, midright=(1880, 34))
        current = stage.current if stage.phase == "turns" else None
        if current and not self.countdown_up:  # else the pill says whose turn (round 37)
            width = plan.turn_right - plan.turn_left
            turn = self._named(self._turn_of, current, (40, width), theme.GOLD, True)
            surface.blit(turn, turn.get_rect(midright=(plan.turn_right, 34)))

    def _turn_of(self, name: str) -> str:
        """ "Ana's turn": the header's line, planned and drawn with the same words."""
        return self.props.t("turn_of", name=name)

    def _header_seats(self) -> list[tuple[int, int]]:
        """The left and right of each seat that reaches up into the header's line."""
        spots, _ = self.seating()
        boxes = (spot.box() for spot in spots.values())
        return [
            (int(left), math.ceil(right))
            for left, top, right, _ in boxes
            if top < HEADER_REGION[3] - 16
        ]

    def _named(
        self,
        phrase: Callable[[str], str],
        player: str,
        fit: tuple[int, int],
        colour: theme.Colour,
        bold: bool,
    ) -> pygame.Surface:
        """The ``phrase`` naming ``player``, fitted from a size down to a width (``fit``)."""
        size, width = fit
        text = self._named_text(phrase, player, width, bold)
        return self.props.theme.fitted_text(text, size, max(1, width), colour, bold)

    def _named_text(self, phrase: Callable[[str], str], player: str, width: int, bold: bool) -> str:
        """The ``phrase`` with ``player``'s whole name, or with the name as the plate shortens
        it where the whole one does not fit ``width`` at ``READABLE_SIZE``."""
        stage, props, th = self.stage, self.props, self.props.theme
        name = stage.name_of(player)
        text = phrase(name)
        seats = [seat.id for seat in ring(stage)]
        if th.measure(text, READABLE_SIZE, bold) > width and player in seats:
            label = seat_plan(props, stage).labels[seats.index(player)]
            text = phrase(short_name(label, name))
        return text

    def _draw_piles(self, surface: pygame.Surface) -> None:
        """The stock, the discard and a cut King — during a round (not at game over: the
        final standings need the room)."""
        stage, cards = self.stage, self.props.cards
        if stage.phase not in ("turns", "reveal"):
            return
        back = cards.back(PILE_WIDTH)
        sx, sy = stock_spot()
        for layer in range(4):
            surface.blit(back, back.get_rect(center=(round(sx) - layer * 3, round(sy) - layer * 3)))
        if stage.discard_count:
            dx, dy = discard_spot()
            surface.blit(back, back.get_rect(center=(round(dx), round(dy))))
        if stage.cut_king:
            face = cards.face(stage.cut_king, PILE_WIDTH)
            surface.blit(face, face.get_rect(center=point(aside_spot())))

    def _draw_pile_labels(self, surface: pygame.Surface) -> None:
        """The piles' names, above cards in flight (a card leaving the stock passes them)."""
        stage = self.stage
        if stage.phase not in ("turns", "reveal"):
            return
        spots = list(self.seating()[0].values())
        pile_name(surface, self.props, self.props.t("stock"), stock_spot(), spots)
        if stage.discard_count:
            pile_name(surface, self.props, self.props.t("discard"), discard_spot(), spots)

    def _draw_countdown(self, surface: pygame.Surface, spot: SeatSpot, left: float) -> pygame.Rect:
        """H4: a bar under the current player's plate that empties as their time runs out.
        Returns where it is."""
        plate = plate_rect(spot)
        bar = pygame.Rect(plate.left + 14, plate.bottom - 7, plate.width - 20, 6)
        pygame.draw.rect(surface, theme.BACKGROUND, bar, border_radius=3)
        share = left / max(1, self.stage.rapid_seconds)
        filled = bar.copy()
        filled.width = round(bar.width * share)
        colour = theme.GOLD if share > 0.3 else theme.ALERT
        if filled.width > 0:
            pygame.draw.rect(surface, colour, filled, border_radius=3)
        return bar

    def _draw_resting_banner(
        self, surface: pygame.Surface, spots: list[SeatSpot]
    ) -> list[pygame.Rect]:
        """What stays on screen between the moves of a reveal: its result and who deals next.
        Returns where it painted. (The game's end has its own board: ``host/tv/final.py``.)"""
        stage, props = self.stage, self.props
        painted: list[pygame.Rect] = []
        if stage.phase == "reveal":
            if stage.lowest:
                painted.append(
                    seated_banner(
                        surface,
                        props,
                        props.t("lowest", rank=props.rank_name(stage.lowest)),
                        56,
                        theme.ALERT,
                        spots,
                    )
                )
            if stage.next_dealer:
                # Away, they cannot press Deal; the header counts down the deal made for them
                # (round 40's check: "Bruno can press Deal" under "Dealing for Bruno in 14 s").
                dealer = stage.seat_of(stage.next_dealer)
                away = dealer is not None and not dealer.connected and not dealer.bot
                painted.append(
                    seated_banner(
                        surface,
                        props,
                        props.t(
                            "next_deal_hint_away" if away else "next_deal_hint",
                            name=stage.name_of(stage.next_dealer),
                        ),
                        32,
                        theme.INK,
                        spots,
                        SUBTITLE_Y,
                    )
                )
        return painted


__all__ = ["TableScene", "card_look", "card_rect", "reveal_order"]
