"""The TV's window: the 1920×1080 canvas, shown whole on whatever screen the host has.

Why not ``pygame.SCALED``: it gives the window a *minimum* size of the canvas, so on a screen
smaller than 1080p — a 1366×768 laptop, a 720p TV, a 1080p laptop at 150 % scaling (1280×720
for SDL), a MacBook's 1440×900 points — the window ran off the screen, and the lobby's QR code
and room code were cut off before anyone pressed F. Here an SDL renderer whose *logical size*
is the canvas draws it: the window may be any size, it opens at the largest 16:9 size that
fits :data:`WINDOW_SHARE` of the screen, and the canvas is scaled into it, letterboxed (in full
screen too). The scenes still draw on a plain 1920×1080 ``pygame.Surface``.

``pygame._sdl2.video`` is pygame's own binding of SDL's renderer (pygame is pinned to 2.6.1).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence

import pygame
from pygame._sdl2.sdl2 import error as SDLError
from pygame._sdl2.video import Renderer, Texture, Window

from host.tv.present import GilFreePresenter, open_presenter
from host.tv.theme import CANVAS_SIZE

log = logging.getLogger(__name__)

#: How much of the screen the window takes at start: SDL centres it, and the rest leaves room
#: for a title bar and a task bar or dock (at 90 % a 1366×768 window's bottom row fell one
#: pixel off the screen under a window manager's title bar).
WINDOW_SHARE = 0.85
#: Scaling a 1920-pixel canvas down to a laptop: "linear" keeps text smooth where "nearest"
#: (SDL's default) drops pixel rows. Read by SDL when the texture is made; the environment
#: wins, so a host can still choose (``SDL_RENDER_SCALE_QUALITY=nearest``).
SCALE_QUALITY = "linear"


def window_size(
    screen: tuple[int, int], canvas: tuple[int, int] = CANVAS_SIZE, share: float = WINDOW_SHARE
) -> tuple[int, int]:
    """The largest window of the canvas's shape within ``share`` of a ``screen`` (w, h).

    >>> window_size((1366, 768))
    (1161, 653)
    >>> window_size((3840, 2160))
    (3264, 1836)
    """
    scale = min(screen[0] * share / canvas[0], screen[1] * share / canvas[1])
    return max(1, round(canvas[0] * scale)), max(1, round(canvas[1] * scale))


class Screen:
    """A window showing ``canvas`` (1920×1080) scaled to fit, with full screen on and off.

    ``size``: the window's size; by default it fits the screen (:func:`window_size`). On SDL's
    dummy driver (tests, benchmarks, no screen at all) there is no screen to fit, so the window
    is the canvas's size, as on a 1080p TV: the TV's frame costs are then measured unscaled.
    """

    def __init__(self, title: str, *, fullscreen: bool, size: tuple[int, int] | None = None):
        pygame.display.init()
        pygame.font.init()
        os.environ.setdefault("SDL_RENDER_SCALE_QUALITY", SCALE_QUALITY)
        if size is None:
            size = self._start_size()
        self.window, self.fullscreen = self._open_window(title, size, fullscreen)
        try:
            self.renderer = Renderer(self.window)
            self.renderer.logical_size = CANVAS_SIZE  # scaled to the window, letterboxed
        except SDLError as error:  # one kind of error for the caller, as pygame's own
            self.window.destroy()
            pygame.display.quit()
            raise pygame.error(f"cannot open the TV's window: {error}") from error
        self.canvas = pygame.Surface(CANVAS_SIZE)
        # The frame is copied through SDL's own functions, without the GIL
        # (``host.tv.present``): where that can be made, the phones' threads run meanwhile.
        self._presenter: GilFreePresenter | None = open_presenter(self.window.id, self.canvas)
        # Elsewhere through pygame, into a texture in the canvas's own pixel format (updating
        # it is a copy, not a conversion). Made only then: it holds a frame's worth of memory.
        self._texture: Texture | None = None
        if self._presenter is None:
            self._texture = Texture.from_surface(self.renderer, self.canvas)

    @staticmethod
    def _open_window(title: str, size: tuple[int, int], fullscreen: bool) -> tuple[Window, bool]:
        """The window, opened in full screen when asked (``--fullscreen``) and SDL can, else a
        window; and whether it is in full screen.

        Why opened so, not made full screen once open: with ``--fullscreen`` the window was
        made full screen before it was first shown, and the lobby stayed cut to the window's
        first size in a corner of the screen, the rest black and the room code half off it
        (Xvfb with openbox, round 40). Drawing the whole frame again on each of SDL's window
        events did not mend it; opening the window in full screen did."""
        if fullscreen:
            try:
                return Window(title, size=size, resizable=True, fullscreen_desktop=True), True
            except SDLError as error:  # --fullscreen where it cannot be: a window it is
                log.info("full screen not available: %s", error)
        try:
            return Window(title, size=size, resizable=True), False  # SDL centres it
        except SDLError as error:  # one kind of error for the caller, as pygame's own
            pygame.display.quit()
            raise pygame.error(f"cannot open the TV's window: {error}") from error

    @staticmethod
    def _start_size() -> tuple[int, int]:
        screens = pygame.display.get_desktop_sizes()
        if pygame.display.get_driver() == "dummy" or not screens:
            return CANVAS_SIZE
        return window_size(screens[0])

    @property
    def window_size(self) -> tuple[int, int]:
        """The window's size on the screen now (the canvas stays 1920×1080)."""
        width, height = self.window.size
        return width, height

    @property
    def presents_without_gil(self) -> bool:
        """Whether frames are shown through ``host.tv.present`` (the GIL let go)."""
        return self._presenter is not None

    def present(self, damage: Sequence[pygame.Rect] | None = None) -> None:
        """Show the canvas as drawn: copy it to the texture and scale it into the window.
        ``damage``: where it differs from the frame shown before (``host/tv/damage.py``;
        None: anywhere); through ``host.tv.present`` only that is copied."""
        if damage is not None and not damage:
            return  # the frame shown is the canvas already
        if self._presenter is not None:
            self._presenter.present(damage)
            return
        assert self._texture is not None  # made when there is no presenter
        self._texture.update(self.canvas)
        self.renderer.clear()  # the letterbox bars, after a resize
        self._texture.draw()
        self.renderer.present()

    def set_fullscreen(self, on: bool) -> None:
        """Full screen at the screen's own resolution (the canvas letterboxed), or back to the
        window. Raises ``pygame.error`` where the video driver cannot (the caller says so);
        the window then stays as it was."""
        try:
            if on:
                self.window.set_fullscreen(desktop=True)
            else:
                self.window.set_windowed()
        except SDLError as error:  # pygame's SDL binding raises its own RuntimeError
            raise pygame.error(f"full screen not available: {error}") from error
        self.fullscreen = on

    def close(self) -> None:
        """Close the window and SDL's video (pygame's fonts and events go with it).

        In order: the texture and the renderer are freed while their window still exists
        (each is freed when its last reference goes), then the window, then SDL's video.
        """
        if self._presenter is not None:
            self._presenter.close()
        del self._texture
        del self.renderer
        self.window.destroy()
        pygame.display.quit()
