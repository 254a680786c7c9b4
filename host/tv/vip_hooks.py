"""The TV's side of the VIP's controls and of presence (issues 13 and 12.3).

Why a separate piece: the TV app and its scenes are reworked by other work; this keeps the
feature in one place with two small hooks in ``app.py``. It (1) follows the TV settings the VIP
chose on their phone (``tv_language``/``voice_muted`` in the public view), and (2) draws the
current turn's countdown: the whole wait of an away player, the last 10 s of an idle one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Protocol

import pygame

from host.i18n import LANGUAGES
from host.rules import EventDict, View
from host.tv import theme
from host.tv.layout import READABLE_SIZE
from host.tv.scene import Props

#: The countdown pill's room around its words (width, height).
PILL_PADDING = (48, 20)
#: In the header's slot: the pill's words, the canvas row its top starts from, and the air
#: between its bottom and the slot's (the seats below): a 34 px line (40 px) in 48 px.
SLOT_PILL_SIZE = 34
SLOT_PILL_TOP = 4
SLOT_PILL_AIR = 4


class Clocked(Protocol):
    player: str
    seconds_left: float
    away: bool
    timed_out: bool
    deal: bool


class ViewSource(Protocol):
    """The session as the hooks read it (``turn_clock`` is looked up, stand-ins lack it)."""

    def view(self, player_id: str | None) -> View: ...


class Mutable(Protocol):
    """The announcer's mute switch."""

    @property
    def muted(self) -> bool: ...
    def set_muted(self, muted: bool) -> None: ...


class TvApp(Protocol):
    """What the hooks need from ``TVApp``."""

    props: Props

    @property
    def session(self) -> ViewSource: ...
    @property
    def announcer(self) -> Mutable | None: ...

    def set_language(self, lang: str) -> None: ...
    def notify(self, text: str) -> None: ...


class VipHooks:
    """Per-frame: apply the VIP's TV settings once when they change; keep the countdown."""

    def __init__(self) -> None:
        self._settings: tuple[str, bool, int] | None = None
        self.countdown: tuple[str, int, bool, bool, bool] | None = None
        """(player id, whole seconds left, away, timed out under H4, dealt for) while a turn,
        or an away next dealer's wait, is being counted down."""

    def step(self, app: TvApp, latest: View | None, *, quiet: bool = False) -> bool:
        """Returns True when something the TV draws changed (a redraw is needed). ``quiet``:
        no countdown now (a restarted host's first seconds, while phones reconnect)."""
        changed = False
        if latest is not None and "tv_language" in latest:
            settings = (
                str(latest["tv_language"]),
                bool(latest.get("voice_muted")),
                int(latest.get("music_volume", -1)),
            )
            if settings != self._settings:
                first = self._settings is None
                self._settings = settings
                # The TV starts in its own language and voice; later VIP changes apply. The
                # music volume is restored at once (it was saved with the game).
                self._apply(app, settings, quiet=False, volume_only=first)
                changed = not first
        read: Callable[[], Clocked | None] | None = getattr(app.session, "turn_clock", None)
        clock = read() if callable(read) and not quiet else None
        countdown = (
            None
            if clock is None
            else (
                clock.player,
                math.ceil(clock.seconds_left),
                clock.away,
                clock.timed_out,
                clock.deal,
            )
        )
        if countdown != self.countdown:
            self.countdown, changed = countdown, True
        return changed

    def events(self, app: TvApp, events: Sequence[EventDict]) -> None:
        """A notice for "X is now the VIP" (the voice says it too, when it speaks)."""
        for event in events:
            if event["type"] == "vip_changed" and event.get("player"):
                name = next(
                    (
                        p["name"]
                        for p in (app.session.view(None).get("players") or [])
                        if p["id"] == event["player"]
                    ),
                    "?",
                )
                app.notify(app.props.catalog.t(app.props.lang, "vip.now_vip", name=name))

    @staticmethod
    def _apply(
        app: TvApp, settings: tuple[str, bool, int], *, quiet: bool, volume_only: bool = False
    ) -> None:
        lang, muted, volume = settings
        sounds = getattr(app, "sounds", None)
        if sounds is not None and 0 <= volume <= 100 and round(sounds.music_volume * 100) != volume:
            sounds.set_music_volume(volume / 100)  # the VIP's slider (issue 20)
        if volume_only:
            return
        if lang in LANGUAGES and lang != app.props.lang:
            app.set_language(lang)
        announcer = app.announcer
        if announcer is not None and bool(announcer.muted) != muted:
            announcer.set_muted(muted)
            if not quiet:
                app.notify(app.props.t("muted" if muted else "unmuted"))

    def draw(
        self,
        surface: pygame.Surface,
        props: Props,
        name_of: Callable[[str], str],
        slot: pygame.Rect | None = None,
    ) -> pygame.Rect | None:
        """The countdown pill at the top of the screen, over whatever scene is below; returns
        where it is. ``slot``: the header's place for whose turn it is (the table leaves its
        words out while the pill is up): the pill sits there, at its right, so it covers
        neither the dealer's line nor the help key however long the names (round 37's
        play-test: centred, it covered "Jean-Christophe's turn"), no taller than the header:
        from near the canvas' top to the slot's bottom, above every seat the slot does not
        keep clear of (round 40's play-test: 67 px high, it half covered a top seat's "away"
        tag)."""
        if self.countdown is None:
            return None
        player, seconds, away, timed_out, deal = self.countdown
        if deal:
            key = "vip.countdown_away_deal"
        elif away:  # H4: "kept" would hide the penalty that comes with the time-out
            key = "vip.countdown_away_timed_out" if timed_out else "vip.countdown_away"
        else:  # H4: the time's end costs a life, and the room watching the TV should know it
            # (round 42's check: "Ana: 2 s left" said nothing of it; only her phone did)
            key = "vip.countdown_idle_life" if timed_out else "vip.countdown_idle"
        text = props.catalog.t(props.lang, key, name=name_of(player), seconds=seconds)
        if slot is None:
            image = props.theme.fitted_text(text, 40, 1200, theme.DARK_INK, bold=True)
            box = image.get_rect(midtop=(960, 14)).inflate(*PILL_PADDING)
        else:
            width = max(1, slot.width - PILL_PADDING[0])
            if props.theme.measure(text, READABLE_SIZE, True) > width:
                # Round 40's check: in French on a 10-seat table the slot's room shrank
                # "Wilhelmina est absent — carte gardée dans 11 s" to about 11 px. Without
                # the name it stays readable; the seat is framed as the one playing, and
                # tagged "away".
                text = props.catalog.t(props.lang, key + "_short", seconds=seconds)
            image = props.theme.fitted_text(text, SLOT_PILL_SIZE, width, theme.DARK_INK, True)
            box = image.get_rect().inflate(PILL_PADDING[0], 0)
            box.height = slot.bottom - SLOT_PILL_AIR - SLOT_PILL_TOP
            box.topright = (slot.right, SLOT_PILL_TOP)
        pygame.draw.rect(
            surface, theme.ALERT if away or seconds <= 5 else theme.GOLD, box, border_radius=22
        )
        surface.blit(image, image.get_rect(center=box.center))
        return box
