"""Layers drawn above the lobby or the table: captions, help, confirmations, the kick chooser,
and short notices ("toasts").

Overlays that take keys (help, quit, kick) sit on the app's scene stack; the top one gets keys
first. Each reports what the host decided through a callback, so the overlay never talks to the
session itself — the app does, in one place.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from host.tv import theme
from host.tv.layout import CAPTION_HEIGHT, READABLE_SIZE
from host.tv.scene import Props
from host.tv.stage import SeatShow

#: Space is not among them: it is the key the host presses all evening for the next step, and
#: round 41's play-test wiped the night's standings (N, then Space) and quit (Q, then Space)
#: with it. The question shows Enter and Esc; Space leaves it open.
CONFIRM_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_y)
CANCEL_KEYS = (pygame.K_ESCAPE, pygame.K_n, pygame.K_BACKSPACE)


#: The caption's sizes, biggest first, each with the most lines it may take in the bar. Never
#: under ``READABLE_SIZE``: three lines were drawn at 26 px, small print from the sofa (a joint
#: win of six wide names); three lines at 28 px take the bar, a little closer together.
CAPTION_SIZES = ((40, 1), (36, 2), (32, 2), (30, 2), (READABLE_SIZE, 3))
CAPTION_WIDTH = 1800


def caption_bar_rect() -> pygame.Rect:
    """Where the caption bar is: the bottom of the canvas, its whole width. It paints every
    pixel of it (``host/tv/damage.py`` relies on that)."""
    return pygame.Rect(0, 1080 - CAPTION_HEIGHT, 1920, CAPTION_HEIGHT)


def draw_caption_bar(
    surface: pygame.Surface, props: Props, caption: str | None, notice: str | None = None
) -> None:
    """The line the voice is speaking (shown also when muted), at the bottom of every scene.

    A host notice (mute, language, a refused key) takes the bar for a moment instead of
    floating over the scene, where it would hide a seat or the lobby's next step."""
    bar = caption_bar_rect()
    surface.fill((6, 10, 16), bar)
    pygame.draw.line(surface, theme.PANEL_EDGE, bar.topleft, bar.topright, 2)
    if notice:
        text = props.theme.fitted_text(notice, 40, 1800, theme.GOLD, bold=True)
        surface.blit(text, text.get_rect(center=bar.center))
        return
    if not caption:
        return
    for line, size, place in caption_lines(props.theme, caption):
        props.theme.blit_text(surface, line, size, theme.INK, midtop=place)


def caption_lines(th: theme.Theme, caption: str) -> list[tuple[str, int, tuple[int, int]]]:
    """Each line of a caption with its size and where its top centre goes: one line at 40 px,
    two at 36 down to 30, three at 28, the block centred in the bar, a font's height apart
    (three lines a pixel closer, to stay in the bar). Why: two lines at 40 px were set 33 px
    apart and ran into each other. The lines are broken evenly: filled one by one, the lesson
    read "… Elsa, Bruno, Chloé and Dario show" over a lone "you." (round 47)."""
    bar = caption_bar_rect()
    middle = bar.top + 1 + (bar.height - 1) // 2  # of the bar below its 2 px edge line
    centre = (bar.centerx, middle)
    room = bar.height - 2
    return centred_lines(th, caption, CAPTION_WIDTH, CAPTION_SIZES, centre, room=room, even=True)


def centred_lines(
    th: theme.Theme,
    text: str,
    width: int,
    sizes: tuple[tuple[int, int], ...],
    centre: tuple[int, int],
    bold: bool = False,
    room: int | None = None,
    even: bool = False,
) -> list[tuple[str, int, tuple[int, int]]]:
    """``text`` wrapped by ``Theme.wrapped`` into a block centred on ``centre``, its lines a
    font's height apart: each line with its size and where its top centre goes. A block
    taller than ``room`` sets its lines closer, down to the font's ascent plus descent (its
    line less the pixel of leading), so no letter runs into the next line's. ``even``: the
    lines are broken as evenly as they can be, at the size and count ``wrap`` found."""
    size, lines = th.wrapped(text, width, sizes, bold, even=even)
    font = th.font(size, bold)
    step = font.get_height()
    if room is not None and step * len(lines) > room:
        step = max(font.get_ascent() - font.get_descent(), room // len(lines))
    top = centre[1] - step * len(lines) // 2
    return [(line, size, (centre[0], top + i * step)) for i, line in enumerate(lines)]


def dim(surface: pygame.Surface, props: Props) -> None:
    """Dim the whole scene: what is drawn next stands out from it (an overlay, the game's
    end, ``host/tv/final.py``)."""
    surface.blit(props.shade, (0, 0))


def draw_panel(surface: pygame.Surface, props: Props, rect: pygame.Rect) -> None:
    """Dim the scene and draw the overlay's panel on top."""
    dim(surface, props)
    pygame.draw.rect(surface, theme.PANEL, rect, border_radius=24)
    pygame.draw.rect(surface, theme.PANEL_EDGE, rect, 3, border_radius=24)


#: The host keys' panel: wide enough that every line is at full size in English, French and
#: Italian (1400 px shrank French's first line, the one a host reads first).
HELP_PANEL = pygame.Rect(160, 110, 1600, 780)
HELP_SIZE = 36
HELP_TEXT_WIDTH = HELP_PANEL.width - 520


#: The digits of the number row and of the keypad (the kick list's numbers).
DIGIT_KEYS = {
    **{pygame.K_0 + n: str(n) for n in range(10)},
    pygame.K_KP0: "0",
    **{pygame.K_KP1 + n: str(n + 1) for n in range(9)},
}
#: The TV's keys for its own settings (``TVApp._host_key``): the music's volume down and up,
#: full screen (F11 as everywhere else), and M (voice and sound) and L (language).
MUSIC_DOWN_KEYS = (pygame.K_MINUS, pygame.K_KP_MINUS)
MUSIC_UP_KEYS = (pygame.K_EQUALS, pygame.K_PLUS, pygame.K_KP_PLUS)
FULLSCREEN_KEYS = (pygame.K_f, pygame.K_F11)
#: Keys that only change how the TV looks or sounds: with the help open they close it and
#: still do their work. Round 42's play-test read "L: Language" in the help, pressed L, and the
#: help closed in English, twice. The others (Space, B, K, R, S, T, N, Q, Esc) act on the party
#: or ask something: with the help open they only close it.
SETTING_KEYS = frozenset(
    {pygame.K_m, pygame.K_l, *MUSIC_DOWN_KEYS, *MUSIC_UP_KEYS, *FULLSCREEN_KEYS}
)


class HelpOverlay:
    """The host keys (H or ?). Any key closes it; a setting's key also does its work."""

    def __init__(self, props: Props, close: Callable[[], None]) -> None:
        self.props = props
        self._close = close

    def update(self, dt: float) -> None:
        """Static."""

    def handle(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN:
            self._close()
            return event.key not in SETTING_KEYS  # False: the TV's keys take it too
        return False

    def rows(self) -> list[tuple[str, str]]:
        t = self.props.t
        return [
            (t("key_next"), t("help_next")),
            ("B", t("help_bot")),
            ("K", t("help_kick")),
            ("R", t("help_misdeal")),
            ("S", t("help_skip")),
            ("M", self.props.catalog.t(self.props.lang, "sound.help_mode")),
            ("- / =", self.props.catalog.t(self.props.lang, "sound.help_music_volume")),
            (t("key_fullscreen"), t("help_fullscreen")),
            ("L", t("help_language", language=self.props.language_name)),
            ("T", self.props.catalog.t(self.props.lang, "evening.help_tutorial")),
            ("N", self.props.catalog.t(self.props.lang, "evening.help_new_evening")),
            (t("key_help"), t("help_help")),
            (t("key_quit"), t("help_quit")),
        ]

    def draw(self, surface: pygame.Surface) -> None:
        th = self.props.theme
        rect = HELP_PANEL
        draw_panel(surface, self.props, rect)
        th.blit_text(
            surface,
            self.props.t("help_title"),
            56,
            theme.GOLD,
            True,
            midtop=(rect.centerx, rect.top + 30),
        )
        rows = self.rows()
        gap = min(62, (rect.height - 150) // len(rows))
        for i, (key, what) in enumerate(rows):
            y = rect.top + 130 + i * gap
            th.blit_text(surface, key, HELP_SIZE, theme.GOLD, True, topright=(rect.left + 440, y))
            text = th.fitted_text(what, HELP_SIZE, HELP_TEXT_WIDTH, theme.INK)
            surface.blit(text, (rect.left + 480, y))


class ConfirmOverlay:
    """A yes/no question (quit, kick): Enter/Y confirms, Esc/N cancels; other keys (Space
    among them) leave it open."""

    def __init__(
        self, props: Props, question: str, on_yes: Callable[[], None], close: Callable[[], None]
    ) -> None:
        self.props = props
        self.question = question
        self._on_yes = on_yes
        self._close = close

    def update(self, dt: float) -> None:
        """Static."""

    def handle(self, event: pygame.event.Event) -> bool:
        if event.type != pygame.KEYDOWN:
            return False
        if event.key in CONFIRM_KEYS:
            self._close()
            self._on_yes()
        elif event.key in CANCEL_KEYS or event.key == pygame.K_q:
            self._close()
        return True

    def draw(self, surface: pygame.Surface) -> None:
        th = self.props.theme
        rect = CONFIRM_PANEL
        draw_panel(surface, self.props, rect)
        for line, size, place in question_lines(th, self.question):
            th.blit_text(surface, line, size, theme.INK, True, midtop=place)
        th.blit_text(
            surface,
            self.props.t("confirm_keys"),
            36,
            theme.GOLD,
            center=(rect.centerx, rect.top + 220),
        )


#: A yes/no question's panel, and its question's sizes (size, most lines), biggest first.
CONFIRM_PANEL = pygame.Rect(460, 340, 1000, 320)
QUESTION_SIZES = ((54, 1), (44, 2), (34, 3))


def question_lines(th: theme.Theme, question: str) -> list[tuple[str, int, tuple[int, int]]]:
    """Each line of a yes/no question with its size and where its top centre goes: wrapped
    rather than shrunk (French's "new evening?" question was shrunk to small print), centred
    above the keys' line."""
    rect = CONFIRM_PANEL
    centre = (rect.centerx, rect.top + 110)
    return centred_lines(th, question, rect.width - 80, QUESTION_SIZES, centre, bold=True)


class KickOverlay:
    """Choose a player with the arrows (or their number), Enter asks to confirm the kick.

    It starts on the first away player, the likely one to remove (issue 12.3). With nobody
    away it starts on nobody, and Enter does nothing until a player is chosen: round 41's
    play-test saw it start on the first seat (the VIP), where K then two Enters removed
    whoever sat there.

    A number is typed as on a phone's keypad: 1 then 0 within ``TYPING_PAUSE`` chooses the
    tenth player (round 42: past nine players only the arrows reached them)."""

    #: Seconds after a digit within which the next digit continues the same number.
    TYPING_PAUSE = 1.2

    def __init__(
        self,
        props: Props,
        players: list[SeatShow],
        choose: Callable[[SeatShow], None],
        close: Callable[[], None],
    ) -> None:
        self.props = props
        self.players = list(players)
        self.selected: int | None = next(
            (i for i, p in enumerate(self.players) if not p.connected), None
        )
        self._choose = choose
        self._close = close
        self._typed = ""
        self._since_digit = 0.0

    def update(self, dt: float) -> None:
        """Times the pause that ends a typed number (the list itself is static)."""
        self._since_digit += dt
        if self._since_digit > self.TYPING_PAUSE:
            self._typed = ""

    def _type_digit(self, digit: str) -> None:
        """Extends the number being typed if that is still a player's, else starts anew."""
        count = len(self.players)
        for typed in (self._typed + digit, digit):
            if 1 <= int(typed) <= count:
                self._typed, self.selected = typed, int(typed) - 1
                break
        else:
            self._typed = ""
        self._since_digit = 0.0

    def handle(self, event: pygame.event.Event) -> bool:
        if event.type != pygame.KEYDOWN:
            return False
        count = len(self.players)
        if event.key in CANCEL_KEYS or event.key == pygame.K_k or not count:
            self._close()
        elif event.key in (pygame.K_DOWN, pygame.K_RIGHT, pygame.K_TAB):
            self.selected = 0 if self.selected is None else (self.selected + 1) % count
        elif event.key in (pygame.K_UP, pygame.K_LEFT):
            self.selected = count - 1 if self.selected is None else (self.selected - 1) % count
        elif event.key in DIGIT_KEYS:
            self._type_digit(DIGIT_KEYS[event.key])
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.selected is not None:
            chosen = self.players[self.selected]
            self._close()
            self._choose(chosen)
        return True

    def _tag(self, seat: SeatShow, colour: theme.Colour | None) -> pygame.Surface | None:
        """A line's mark: "away" (in red), a latecomer's "next game" as their bench and the
        lobby call them, or "computer" (round 45's play-test: a full table's host could not
        tell which to remove to free a seat), in ``colour`` on the chosen line."""
        if not seat.connected:
            words, ink = self.props.catalog.t(self.props.lang, "vip.away"), theme.ALERT
        elif seat.status == "waiting":
            words, ink = self.props.t("waiting_tag"), theme.MUTED_INK
        elif seat.bot:
            words, ink = self.props.t("bot"), theme.MUTED_INK
        else:
            return None
        return self.props.theme.text(words, 26, colour or ink, True)

    def draw(self, surface: pygame.Surface) -> None:
        th = self.props.theme
        rows = max(1, len(self.players))
        columns = 1 if rows <= 10 else 2
        per_column = -(-rows // columns)
        rect = pygame.Rect(0, 0, 900 * columns, min(900, 220 + per_column * 56))
        rect.center = (960, 480)
        draw_panel(surface, self.props, rect)
        th.blit_text(
            surface,
            self.props.t("kick_title"),
            48,
            theme.GOLD,
            True,
            midtop=(rect.centerx, rect.top + 24),
        )
        if not self.players:
            th.blit_text(surface, self.props.t("nobody_to_kick"), 36, theme.INK, center=rect.center)
        for i, seat in enumerate(self.players):
            column, row = divmod(i, per_column)
            line = pygame.Rect(rect.left + 40 + column * 900, rect.top + 100 + row * 56, 820, 50)
            if i == self.selected:
                pygame.draw.rect(surface, theme.GOLD, line, border_radius=10)
            colour = theme.DARK_INK if i == self.selected else theme.INK
            th.blit_text(
                surface, f"{i + 1}", 30, colour, True, midleft=(line.left + 16, line.centery)
            )
            tag = self._tag(seat, colour if i == self.selected else None)
            room = 700 - (tag.get_width() + 20 if tag is not None else 0)
            name = th.fitted_text(seat.name, 34, room, colour, bold=i == self.selected)
            surface.blit(name, name.get_rect(midleft=(line.left + 70, line.centery)))
            if tag is not None:
                surface.blit(tag, tag.get_rect(midright=(line.right - 16, line.centery)))
        keys = th.fitted_text(self.props.t("kick_keys"), 26, rect.width - 40, theme.MUTED_INK)
        surface.blit(keys, keys.get_rect(midbottom=(rect.centerx, rect.bottom - 18)))
