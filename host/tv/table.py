"""The table scene: seats around the oval, the stock and discard, and every move animated.

``draw`` reads the ``Stage`` (and its current ``Beat``) and paints; it never changes them.
Which card a seat shows at an instant is decided by ``card_look`` — the one place that knows
when a card is in flight, flipping, or face up — so the hidden-card tests can check it alone.
"""

from __future__ import annotations

import math

import pygame

from host.tv import theme
from host.tv.cards import card_size
from host.tv.layout import (
    TABLE_CENTRE,
    TABLE_RADII,
    SeatSpot,
    arc,
    aside_spot,
    discard_spot,
    ease,
    lerp,
    seat_spots,
    stock_spot,
)
from host.tv.scene import Props
from host.tv.seats import CardLook, card_rect, draw_seat
from host.tv.stage import (
    DEAL_FLIGHT,
    DEAL_STAGGER,
    FLIP_SECONDS,
    REVEAL_STAGGER,
    Beat,
    SeatShow,
    Stage,
)

PILE_WIDTH = 80
BANNER_Y = 430


def card_look(stage: Stage, seat: SeatShow) -> CardLook:
    """How ``seat``'s card shows now: nothing, its back, its face, or mid-flip."""
    lowest = (stage.phase in ("reveal", "game_over") and seat.card is not None
              and stage.lowest is not None and seat.card[:-1] == stage.lowest)
    look = (CardLook("face", seat.card, 1.0, lowest) if seat.card
            else CardLook("back") if seat.dealt else CardLook("none"))
    beat = stage.beat
    if beat is None:
        return look
    event, kind = beat.event, beat.kind
    if kind == "round_dealt" and seat.id in event.get("order", []):
        landed = beat.elapsed >= event["order"].index(seat.id) * DEAL_STAGGER + DEAL_FLIGHT
        return CardLook("back") if landed else CardLook("none")
    if kind == "exchanged" and seat.id in (event.get("player"), event.get("target")):
        return CardLook("none")
    if kind == "blocked" and seat.id == event.get("target"):
        flip = beat.elapsed / 0.5
        return CardLook("flip", event.get("king"), flip) if flip < 1 else CardLook(
            "face", event.get("king"))
    if kind == "cut_taken" and seat.id == event.get("dealer"):
        return CardLook("none")
    if kind == "misdeal" and seat.dealt:
        return CardLook("none")
    if kind == "reveal" and seat.id in event.get("cards", {}) and seat.card is None:
        code = event["cards"][seat.id]
        index = reveal_order(stage, event).index(seat.id)
        flip = (beat.elapsed - index * REVEAL_STAGGER) / FLIP_SECONDS
        all_shown = beat.elapsed >= len(event["cards"]) * REVEAL_STAGGER + FLIP_SECONDS
        if flip <= 0:
            return CardLook("back")
        if flip < 1:
            return CardLook("flip", code, flip)
        return CardLook("face", code, 1.0, all_shown and code[:-1] == event.get("lowest"))
    return look


def reveal_order(stage: Stage, event: dict[str, object]) -> list[str]:
    """Cards flip one by one in turn order (dealer last), like players turning them over."""
    cards = event.get("cards", {})
    assert isinstance(cards, dict)
    ordered = [p for p in stage.order if p in cards]
    return ordered + [p for p in cards if p not in ordered]


class TableScene:
    """The game in progress (phases ``turns``, ``reveal``, ``game_over``)."""

    def __init__(self, stage: Stage, props: Props) -> None:
        self.stage = stage
        self.props = props
        self._felt: pygame.Surface | None = None

    def update(self, dt: float) -> None:
        """The stage is advanced by the app; the scene itself holds no time."""

    def handle(self, event: pygame.event.Event) -> bool:
        return False

    # -- drawing ---------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(self._background(), (0, 0))
        stage = self.stage
        spots = {seat.id: spot for seat, spot in zip(stage.players, seat_spots(len(stage.players)))}
        self._draw_header(surface)
        self._draw_piles(surface)
        for seat in stage.players:
            lives, token = seat.lives, None
            beat = stage.beat
            if beat and beat.kind == "life_lost" and beat.event.get("player") == seat.id:
                lives, token = int(beat.event.get("lives", seat.lives)), beat.progress
            draw_seat(surface, self.props, stage, seat, spots[seat.id], card_look(stage, seat),
                      lives, token)
        if stage.beat is not None:
            self._draw_beat(surface, stage.beat, spots)
        else:
            self._draw_resting_banner(surface)
        if stage.celebrating:
            self._draw_confetti(surface, stage.time - (stage.celebrating_since or 0.0))

    def _background(self) -> pygame.Surface:
        """The felt and its wooden rim, painted once (pure memoisation)."""
        if self._felt is None:
            felt = pygame.Surface((1920, 1080))
            felt.fill(theme.BACKGROUND)
            cx, cy = TABLE_CENTRE
            rx, ry = TABLE_RADII
            pygame.draw.ellipse(felt, theme.FELT_EDGE,
                                pygame.Rect(cx - rx - 22, cy - ry - 22, 2 * rx + 44, 2 * ry + 44))
            pygame.draw.ellipse(felt, theme.FELT, pygame.Rect(cx - rx, cy - ry, 2 * rx, 2 * ry))
            self._felt = felt
        return self._felt

    def _draw_header(self, surface: pygame.Surface) -> None:
        stage, props, th = self.stage, self.props, self.props.theme
        if stage.round:
            th.blit_text(surface, props.t("round", round=stage.round), 40, theme.INK, True,
                         topleft=(40, 24))
        if stage.dealer:
            th.blit_text(surface, props.t("deals", name=stage.name_of(stage.dealer)), 30,
                         theme.MUTED_INK, topleft=(40, 78))
        if stage.phase == "turns" and stage.current:
            th.blit_text(surface, props.t("turn_of", name=stage.name_of(stage.current)), 44,
                         theme.GOLD, True, topright=(1880, 24))
        th.blit_text(surface, props.t("help_hint"), 24, theme.MUTED_INK, topright=(1880, 84))

    def _draw_piles(self, surface: pygame.Surface) -> None:
        stage, cards = self.stage, self.props.cards
        if stage.phase not in ("turns", "reveal", "game_over"):
            return
        back = cards.back(PILE_WIDTH)
        sx, sy = stock_spot()
        for layer in range(4):
            surface.blit(back, back.get_rect(center=(round(sx) - layer * 3, round(sy) - layer * 3)))
        self._label(surface, self.props.t("stock"), (sx, sy + card_size(PILE_WIDTH)[1] / 2 + 22))
        if stage.discard_count:
            dx, dy = discard_spot()
            surface.blit(back, back.get_rect(center=(round(dx), round(dy))))
            self._label(surface, self.props.t("discard"),
                        (dx, dy + card_size(PILE_WIDTH)[1] / 2 + 22))
        if stage.cut_king:
            face = cards.face(stage.cut_king, PILE_WIDTH)
            surface.blit(face, face.get_rect(center=_int(aside_spot())))

    def _label(self, surface: pygame.Surface, text: str, centre: tuple[float, float]) -> None:
        self.props.theme.blit_text(surface, text, 22, theme.MUTED_INK, center=_int(centre))

    def _banner(self, surface: pygame.Surface, text: str, size: int, colour: theme.Colour,
                y: int = BANNER_Y, alpha: int = 255) -> None:
        image = self.props.theme.fitted_text(text, size, 1300, colour, bold=True)
        box = image.get_rect(center=(960, y)).inflate(50, 24)
        shade = min(alpha, 210)
        surface.blit(self.props.memo(("banner", box.size, shade),
                                     lambda: _plate(box.size, (8, 12, 20, shade), 24)), box)
        if alpha < 255:
            image = image.copy()
            image.set_alpha(alpha)
        surface.blit(image, image.get_rect(center=box.center))

    def _draw_beat(self, surface: pygame.Surface, beat: Beat, spots: dict[str, SeatSpot]) -> None:
        stage, props, cards = self.stage, self.props, self.props.cards
        event, kind, p = beat.event, beat.kind, beat.progress
        name = stage.name_of

        def centre(player: object) -> tuple[float, float]:
            spot = spots.get(str(player))
            return spot.centre if spot else stage_centre()

        width = next(iter(spots.values())).card_width if spots else 100
        back = cards.back(width)
        if kind == "round_dealt":
            for i, player in enumerate(event.get("order", [])):
                t = (beat.elapsed - i * DEAL_STAGGER) / DEAL_FLIGHT
                if 0 < t < 1:
                    surface.blit(back, back.get_rect(center=_int(lerp(stock_spot(), centre(player),
                                                                      ease(t)))))
        elif kind == "game_started":
            self._banner(surface, props.t("first_dealer", name=name(event.get("dealer"))), 56,
                         theme.INK)
        elif kind == "kept":
            text = props.t("auto_keeps" if event.get("auto") else "keeps")
            self._bubble(surface, text, centre(event.get("player")), 1.0 - p)
        elif kind == "exchanged":
            a, b = centre(event.get("player")), centre(event.get("target"))
            t = ease((p - 0.05) / 0.8)
            surface.blit(back, back.get_rect(center=_int(arc(a, b, t))))
            surface.blit(back, back.get_rect(center=_int(arc(b, a, t))))
            self._banner(surface, props.t("swaps_with", player=name(event.get("player")),
                                          target=name(event.get("target"))), 48, theme.INK)
        elif kind in ("blocked", "cut_king"):
            if kind == "cut_king":
                t = min(1.0, beat.elapsed / 0.8)
                image = cards.flipped(event.get("king"), PILE_WIDTH, t)
                surface.blit(image, image.get_rect(center=_int(
                    lerp(stock_spot(), aside_spot(), ease(t)))))
            call = props.t("call_chase" if event.get("call") == "chase" else "call_cuckoo")
            pop = min(1.0, beat.elapsed / 0.35)
            size = max(40, round(150 * (0.5 + 0.5 * pop)) // 10 * 10)
            self._banner(surface, call, size, theme.GOLD, y=BANNER_Y - 20)
            detail = (props.t("blocked_by", target=name(event.get("target")),
                              player=name(event.get("player"))) if kind == "blocked"
                      else props.t("cut_king", name=name(event.get("dealer"))))
            self._banner(surface, detail, 36, theme.INK, y=BANNER_Y + 95)
        elif kind == "cut":
            lift = lerp(stock_spot(), centre(event.get("dealer")), 0.25 * ease(p))
            surface.blit(cards.back(PILE_WIDTH), cards.back(PILE_WIDTH).get_rect(center=_int(lift)))
            self._banner(surface, props.t("cuts", name=name(event.get("dealer"))), 44, theme.INK)
        elif kind == "cut_taken":
            dealer = centre(event.get("dealer"))
            t = ease(p)
            surface.blit(back, back.get_rect(center=_int(lerp(dealer, discard_spot(), t))))
            surface.blit(back, back.get_rect(center=_int(lerp(stock_spot(), dealer, t))))
            self._banner(surface, props.t("cut_taken", name=name(event.get("dealer"))), 44,
                         theme.INK)
        elif kind == "reveal":
            done = beat.elapsed >= len(event.get("cards", {})) * REVEAL_STAGGER + FLIP_SECONDS
            text = (props.t("lowest", rank=props.rank_name(str(event.get("lowest"))))
                    if done else props.t("reveal"))
            self._banner(surface, text, 60, theme.ALERT if done else theme.INK)
        elif kind == "eliminated":
            self._banner(surface, props.t("is_out", name=name(event.get("player"))), 56,
                         theme.ALERT)
        elif kind == "sudden_death":
            self._draw_sudden_death(surface, event)
        elif kind == "game_over":
            self._draw_winners(surface)
        elif kind == "misdeal":
            for seat in stage.players:
                if seat.dealt:
                    spot = spots[seat.id]
                    surface.blit(back, back.get_rect(center=_int(
                        lerp(spot.centre, stock_spot(), ease(p)))))
            self._banner(surface, props.t("misdeal", name=name(event.get("dealer"))), 52,
                         theme.ALERT)

    def _bubble(self, surface: pygame.Surface, text: str, at: tuple[float, float],
                fade: float) -> None:
        alpha = max(0, min(255, round(255 * min(1.0, fade * 2))))
        image = self.props.theme.text(text, 30, theme.DARK_INK, bold=True)
        box = image.get_rect(center=(round(at[0]), round(at[1]))).inflate(28, 14)
        plate = _plate(box.size, (*theme.GOLD, alpha), 14)
        surface.blit(plate, box)
        image = image.copy()
        image.set_alpha(alpha)
        surface.blit(image, image.get_rect(center=box.center))

    def _draw_resting_banner(self, surface: pygame.Surface) -> None:
        """What stays on screen between moves: the reveal's result or the winners."""
        stage, props = self.stage, self.props
        if stage.phase == "reveal":
            if stage.lowest:
                self._banner(surface, props.t("lowest", rank=props.rank_name(stage.lowest)), 56,
                             theme.ALERT)
            if stage.next_dealer:
                self._banner(surface, props.t("next_deal_hint", name=stage.name_of(
                    stage.next_dealer)), 32, theme.INK, y=BANNER_Y + 90)
        elif stage.phase == "game_over":
            self._draw_winners(surface)
            self._banner(surface, props.t("new_game_hint"), 32, theme.INK, y=BANNER_Y + 180)

    def _draw_winners(self, surface: pygame.Surface) -> None:
        stage, props = self.stage, self.props
        winners = [stage.name_of(w) for w in stage.winners]
        if len(winners) == 1:
            self._banner(surface, props.t("winner", name=winners[0]), 96, theme.GOLD)
        elif winners:
            self._banner(surface, props.t("joint_winners"), 90, theme.GOLD)
            self._banner(surface, " · ".join(winners), 48, theme.INK, y=BANNER_Y + 100)

    def _draw_sudden_death(self, surface: pygame.Surface, event: dict[str, object]) -> None:
        self._banner(surface, self.props.t("sudden_death"), 64, theme.ALERT, y=BANNER_Y - 60)
        dealt = event.get("cards", {})
        assert isinstance(dealt, dict)
        x0 = 960 - (len(dealt) - 1) * 90
        for i, (player, code) in enumerate(dealt.items()):
            face = self.props.cards.face(str(code), 100)
            rect = face.get_rect(center=(x0 + i * 180, BANNER_Y + 60))
            surface.blit(face, rect)
            self._label(surface, self.stage.name_of(str(player)), (rect.centerx, rect.bottom + 18))

    def _draw_confetti(self, surface: pygame.Surface, t: float) -> None:
        """Falling confetti computed from time alone, so any instant draws the same."""
        for k in range(90):
            x = (k * 211.7 + 40 * math.sin(t * 2 + k)) % 1920
            y = (k * 97.3 + t * (160 + (k % 7) * 25)) % 980
            colour = theme.PLAYER_COLOURS[k % 8]
            size = 8 + k % 6
            surface.fill(colour, (round(x), round(y), size, size // 2 + 3))


def _plate(size: tuple[int, int], colour: tuple[int, int, int, int],
           radius: int) -> pygame.Surface:
    """A translucent rounded plate behind a banner or a bubble."""
    plate = pygame.Surface(size, pygame.SRCALPHA)
    pygame.draw.rect(plate, colour, plate.get_rect(), border_radius=radius)
    return plate


def stage_centre() -> tuple[float, float]:
    return TABLE_CENTRE


def _int(point: tuple[float, float]) -> tuple[int, int]:
    return round(point[0]), round(point[1])


__all__ = ["TableScene", "card_look", "card_rect", "reveal_order"]
