"""The lobby scene: a big scannable QR, the address and room code, who joined, the house rules,
and what to do next.

Why so big: people read it from the sofa and type the room code on their phones; the QR is
drawn in whole-pixel modules with its quiet zone on a white card, which phone cameras need.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from host.rule_names import rule_names
from host.rules import RULE_FIELDS
from host.tv import theme
from host.tv.layout import READABLE_SIZE
from host.tv.qr import qr_surface
from host.tv.scene import Props
from host.tv.stage import SeatShow, Stage

QR_BOX = pygame.Rect(80, 190, 560, 560)
MIDDLE_X = 720
PLAYERS_X = 1240
#: The room code's size, and the most it may take of the middle column (it shrinks to fit).
ROOM_SIZE = 150
ROOM_WIDTH = PLAYERS_X - MIDDLE_X - 34
#: A note under the players' title or list ("Nobody has joined yet", "Scan the code to
#: join!"): its size and its line step.
NOTE_SIZE = 32
NOTE_LINE = 44
#: The players' list: its first row, a row's height, and where it must end (above the next
#: step's line, ``LobbyScene._draw_next_step``).
PLAYERS_TOP = 268
ROW = 46
PLAYERS_BOTTOM = 900
#: Up to this many players in one wide column; more (H7) in two narrow ones, halved.
PER_COLUMN = 14
WIDE_COLUMN = 620
NARROW_COLUMN = 310
#: A player's marks ("★ VIP", "computer", "away") are read from the sofa like the names
#: (round 37's play-test: they were 22 px); where they do not fit beside a long name they go
#: in a line of their own under it, this much lower.
MARK_SIZE = READABLE_SIZE
MARKS_LINE = 38
#: The join address, under the QR code: long ones reach into the house rules' column.
URL_TOP = QR_BOX.bottom + 108
#: The house rules' list: its first line, and its line step (closer when all eight are on).
RULES_TOP = 520
RULE_STEP = 44
RULE_SIZE = 32


def rule_step(count: int) -> int:
    """The step between house-rule lines: ``RULE_STEP``, or less so that the last line ends
    above the join address (with all eight rules on, it ran into a long address)."""
    room = URL_TOP - 8 - RULES_TOP - (RULE_SIZE + 6)  # the last line's own height
    return min(RULE_STEP, room // max(1, count - 1))


@dataclass(frozen=True)
class PlayerRow:
    """A player's row in the lobby's list, drawn: the name, the marks, where they go."""

    name: pygame.Surface
    marks: tuple[pygame.Surface, ...]
    under: bool
    """True: the marks in a line under the name (too long to share its line)."""
    height: int


class LobbyScene:
    """Shown in phase ``lobby`` (before the first game and after ``new_game``)."""

    def __init__(self, stage: Stage, props: Props) -> None:
        self.stage = stage
        self.props = props
        self._qr: tuple[str, pygame.Surface] | None = None

    def update(self, dt: float) -> None:
        """Nothing moves in the lobby: the app can idle at a low frame rate."""

    def handle(self, event: pygame.event.Event) -> bool:
        return False

    def qr_image(self) -> pygame.Surface:
        """The QR of the join URL (memoised per URL)."""
        url = self.props.join_url
        if self._qr is None or self._qr[0] != url:
            self._qr = (url, qr_surface(url, QR_BOX.width - 40))
        return self._qr[1]

    def draw(self, surface: pygame.Surface) -> None:
        props, th = self.props, self.props.theme
        surface.fill(theme.BACKGROUND)
        th.blit_text(surface, props.t("title"), 76, theme.GOLD, True, topleft=(80, 30))
        th.blit_text(surface, props.t("subtitle"), 32, theme.MUTED_INK, topleft=(84, 128))
        th.blit_text(
            surface, f"{props.language_name} · L", MARK_SIZE, theme.MUTED_INK, topright=(1860, 40)
        )
        th.blit_text(surface, props.t("help_hint"), MARK_SIZE, theme.MUTED_INK, topright=(1860, 80))
        self._draw_join(surface)
        self._draw_rules(surface)
        self._draw_players(surface)
        self._draw_next_step(surface)

    def _draw_join(self, surface: pygame.Surface) -> None:
        props, th = self.props, self.props.theme
        if props.join_offline:
            self._draw_no_network(surface)
        else:
            self._draw_code(surface)
        room = self.stage.room or _room_from_url(props.join_url)
        th.blit_text(surface, props.t("room_code"), 34, theme.MUTED_INK, topleft=(MIDDLE_X, 210))
        # As wide as the middle column: round 42's play-test drew "NDWM" over "Nobody has
        # joined yet" (a code of wide letters is 560 px at full size).
        code = th.fitted_text(room, ROOM_SIZE, ROOM_WIDTH, theme.GOLD, True, min_size=96)
        middle = 250 + th.text(room, ROOM_SIZE, theme.GOLD, True).get_height() // 2
        surface.blit(code, code.get_rect(midleft=(MIDDLE_X - 6, middle)))

    def _draw_no_network(self, surface: pygame.Surface) -> None:
        """No network: a QR code of this computer's own address would lead every phone
        nowhere. Instead, in its place, what to do; the code comes by itself once this
        computer is on the Wi-Fi (``host/join_address.py``)."""
        props, th = self.props, self.props.theme
        pygame.draw.rect(surface, theme.PANEL, QR_BOX, border_radius=18)
        pygame.draw.rect(surface, theme.ALERT, QR_BOX, 4, border_radius=18)
        th.blit_text(
            surface,
            props.t("no_network_title"),
            56,
            theme.ALERT,
            True,
            midtop=(QR_BOX.centerx, QR_BOX.top + 110),
        )
        for i, line in enumerate(th.wrap(props.t("no_network_text"), 34, QR_BOX.width - 80)):
            th.blit_text(
                surface, line, 34, theme.INK, midtop=(QR_BOX.centerx, QR_BOX.top + 220 + i * 48)
            )

    def _draw_code(self, surface: pygame.Surface) -> None:
        """The QR code, and the address written out under it."""
        props, th = self.props, self.props.theme
        pygame.draw.rect(surface, (255, 255, 255), QR_BOX, border_radius=18)
        image = self.qr_image()
        surface.blit(image, image.get_rect(center=QR_BOX.center))
        th.blit_text(
            surface,
            props.t("scan"),
            40,
            theme.INK,
            True,
            midtop=(QR_BOX.centerx, QR_BOX.bottom + 16),
        )
        th.blit_text(
            surface,
            props.t("or_open"),
            28,
            theme.MUTED_INK,
            midtop=(QR_BOX.centerx, QR_BOX.bottom + 70),
        )
        url = th.fitted_text(props.join_url, 40, 1100, theme.INK, bold=True)
        surface.blit(url, url.get_rect(topleft=(QR_BOX.left, URL_TOP)))

    def _draw_rules(self, surface: pygame.Surface) -> None:
        props, th = self.props, self.props.theme
        # The session's choice, live (the VIP's phone may change it); the flag before any view.
        ids = self.stage.house_rules if self.stage.latest is not None else props.house_rules
        th.blit_text(surface, props.t("house_rules"), 34, theme.MUTED_INK, topleft=(MIDDLE_X, 470))
        # The phones' names of the rules (round 46: H8 had one name here, another there).
        translate = props.catalog.translator(props.lang)
        known = [rule for rule in ids if rule in RULE_FIELDS]
        lines = rule_names(translate, known, self.stage.rapid_seconds) or [
            props.t("standard_rules")
        ]
        step = rule_step(len(lines))
        for i, line in enumerate(lines):
            text = th.fitted_text(f"• {line}", RULE_SIZE, PLAYERS_X - MIDDLE_X - 40, theme.INK)
            surface.blit(text, (MIDDLE_X, RULES_TOP + i * step))

    def _draw_players(self, surface: pygame.Surface) -> None:
        props, th = self.props, self.props.theme
        players = self.stage.players
        th.blit_text(
            surface,
            props.t("players_title", count=len(players)),
            40,
            theme.INK,
            True,
            topleft=(PLAYERS_X, 200),
        )
        if not players:
            if props.join_offline:
                return  # "scan the code!" with no code: the no-network box says what to do
            self._draw_note(surface, props.t("nobody_yet"), 270)
            return
        if len(players) > PER_COLUMN:  # H7's big tables: two narrow columns
            self._draw_two_columns(surface, players)
            return
        y = self._draw_column(surface, players, PLAYERS_X, WIDE_COLUMN)
        if self._bots_only() and not props.join_offline:
            # Round 43: ``--bots`` sit down at once; the guests still join by the code, and
            # the first of them (not a computer player) will be the VIP.
            self._draw_note(surface, props.t("guests_scan"), y + 24, PLAYERS_BOTTOM)

    def _draw_two_columns(self, surface: pygame.Surface, players: list[SeatShow]) -> None:
        """Halves, the first one longer: round 44's check found 14 names then one alone at the
        top of a second column, and the VIP's name shrunk to leave that column room for
        "★ VIP". Each half is laid out as one column is, its marks under a long name."""
        half = -(-len(players) // 2)
        self._draw_column(surface, players[:half], PLAYERS_X, NARROW_COLUMN)
        self._draw_column(surface, players[half:], PLAYERS_X + NARROW_COLUMN, NARROW_COLUMN)

    def _draw_column(
        self, surface: pygame.Surface, players: list[SeatShow], x: int, width: int
    ) -> int:
        """Players one under another from ``PLAYERS_TOP``, names at ``READABLE_SIZE`` or more
        with their marks under them where they do not fit beside. Where the column would then
        run past ``PLAYERS_BOTTOM``, the marks go under as many names as there is room for,
        from the top, and beside the rest (those names shrink). Round 45's play-test: at 20
        seats, 17 of them computer players, one column put every mark beside, its names shrunk
        to 60 %, while the other column's went under. Returns where the list ends."""
        rows = [self._row(seat, width) for seat in players]
        height = sum(row.height for row in rows)
        if PLAYERS_TOP + height > PLAYERS_BOTTOM:
            beside = [self._row(seat, width, beside=True) for seat in players]
            height = sum(row.height for row in beside)
            for index, row in enumerate(rows):
                if row.under and PLAYERS_TOP + height + MARKS_LINE <= PLAYERS_BOTTOM:
                    height += MARKS_LINE
                else:
                    rows[index] = beside[index]
        y = PLAYERS_TOP
        for seat, row in zip(players, rows):
            self._draw_player(surface, seat, x, y, row)
            y += row.height
        return y

    def _bots_only(self) -> bool:
        """Only computer players sit at the table (``--bots`` before any guest)."""
        return all(seat.bot for seat in self.stage.players)

    def _draw_note(
        self, surface: pygame.Surface, text: str, top: int, bottom: int | None = None
    ) -> None:
        """A grey note under the players' title or list, in lines of 600 px; none where it
        would reach past ``bottom``."""
        th = self.props.theme
        lines = th.wrap(text, NOTE_SIZE, 600)
        if bottom is not None and top + len(lines) * NOTE_LINE > bottom:
            return
        for i, line in enumerate(lines):
            th.blit_text(
                surface, line, NOTE_SIZE, theme.MUTED_INK, topleft=(PLAYERS_X, top + i * NOTE_LINE)
            )

    def _row(self, seat: SeatShow, width: int, beside: bool = False) -> PlayerRow:
        """A player's row in a column ``width`` wide: the name, and the marks beside it or,
        where they do not fit beside a name at ``READABLE_SIZE``, under it (``beside``: never
        under; the name then shrinks)."""
        th = self.props.theme
        marks = [th.text(text, MARK_SIZE, colour, True) for text, colour in self._marks(seat)]
        marks_width = sum(mark.get_width() + 12 for mark in marks)
        room = width - 50
        under = (
            not beside
            and bool(marks)
            and th.measure(seat.name, READABLE_SIZE, True) > room - marks_width
        )
        name_room = room if under else max(80, room - marks_width)
        minimum = READABLE_SIZE if not beside else 14
        name = th.fitted_text(seat.name, 34, name_room, theme.INK, True, min_size=minimum)
        return PlayerRow(name, tuple(marks), under, ROW + (MARKS_LINE if under else 0))

    def _marks(self, seat: SeatShow) -> list[tuple[str, theme.Colour]]:
        """The words beside a player's name: VIP, computer, next game, away."""
        props = self.props
        marks: list[tuple[str, theme.Colour]] = []
        if seat.id == self.stage.person_vip():  # a computer player's role starts nothing
            marks.append((f"\u2605 {props.t('vip')}", theme.GOLD))
        if seat.bot:
            marks.append((props.t("bot"), theme.MUTED_INK))
        if seat.status == "waiting":
            marks.append((props.t("waiting"), theme.MUTED_INK))
        if not seat.connected:  # away: no phone stream (PHONE_API.md "Presence")
            marks.append((props.catalog.t(props.lang, "vip.away"), theme.ALERT))
        return marks

    def _draw_player(
        self, surface: pygame.Surface, seat: SeatShow, x: int, y: int, row: PlayerRow
    ) -> None:
        pygame.draw.circle(surface, seat.colour, (x + 14, y + 20), 13)
        surface.blit(row.name, (x + 38, y))
        cursor = x + 38 if row.under else x + 38 + row.name.get_width() + 14
        for image in row.marks:
            if row.under:
                place = image.get_rect(topleft=(cursor, y + MARKS_LINE))
            else:  # on the name's baseline, near enough: lines' bottoms alike
                place = image.get_rect(bottomleft=(cursor, y + row.name.get_height()))
            surface.blit(image, place)
            cursor += image.get_width() + 12

    def _draw_next_step(self, surface: pygame.Surface) -> None:
        props, th = self.props, self.props.theme
        # Only present players count toward the start (away ones are shown, not counted).
        seated = [p for p in self.stage.players if p.status != "waiting" and p.connected]
        if not seated:  # the engine's minimum, from the view: said once, not twice (round 46)
            text = props.t("need_players", count=self.stage.min_players)
        elif len(seated) < self.stage.min_players:
            text = props.t("need_more", count=self.stage.min_players - len(seated))
        elif self.stage.person_vip() is not None:
            text = props.t("next_vip", name=self.stage.name_of(self.stage.vip))
        elif self._bots_only():  # say what Space does: no guest plays
            text = props.t("next_space_bots")
        else:
            text = props.t("next_space")
        image = th.fitted_text(text, 46, 1760, theme.GOLD, bold=True)
        surface.blit(image, image.get_rect(center=(960, 940)))


def _room_from_url(url: str) -> str:
    """The room code from ``…?room=CODE`` when the session has not told us yet."""
    _, _, query = url.partition("?")
    for part in query.split("&"):
        key, _, value = part.partition("=")
        if key == "room":
            return value
    return ""
