"""Issue 18.1: the TV makes and shows its frame without holding the GIL, so a tap arriving
meanwhile is answered and fanned out to the phones instead of waiting for SDL's copy of the
frame, or for the copy of the table's still layer onto the canvas.

Measured before (``docs/benchmarks-history.md``, eighth pass): with the TV in the process, tap →
other phones p50 was 6.6 ms against 3.4 ms headless, and 4.4 ms with presenting skipped — pygame's
binding of SDL's renderer holds the GIL while it copies the 1920×1080 frame.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pytest

import host.tv.screen as screen_module
from host.tv.app import open_window
from host.tv.present import copies_as_bytes, copy_whole, loaded_sdl
from host.tv.screen import Screen

LINUX = sys.platform.startswith("linux")


def wake_ups_while_presenting(screen: Screen, frames: int = 40) -> int:
    """How often a thread that sleeps 0.2 ms at a time gets to run while ``frames`` frames are
    shown: with the GIL held through each copy, it runs about once a switch interval."""
    return wake_ups_while(screen.present, frames)


def wake_ups_while(work: Callable[[], object], times: int) -> int:
    """How often a thread that sleeps 0.2 ms at a time runs *during* ``work``, done ``times``
    times on this one.

    Only wake-ups inside a call count, and meanwhile the switch interval is a minute, so Python
    does not take the GIL from this thread between bytecodes: the other thread counts only when
    ``work`` itself lets go of the GIL. Counting every wake-up with the default 5 ms interval
    followed how busy the machine was — a CI run with four test workers saw 401 wake-ups with
    the GIL let go against 217 with it held."""
    woke = 0
    working = False
    done = threading.Event()

    def sleeper() -> None:
        nonlocal woke
        while not done.is_set():
            time.sleep(0.0002)
            if working:
                woke += 1

    thread = threading.Thread(target=sleeper)
    switch_interval = sys.getswitchinterval()
    sys.setswitchinterval(60.0)
    try:
        thread.start()
        try:
            for _ in range(times):
                working = True
                work()
                working = False
        finally:
            done.set()
            thread.join()
    finally:
        sys.setswitchinterval(switch_interval)
    return woke


def assert_runs_only_without_gil(without_gil: int, with_gil: int) -> None:
    """With the GIL held through the work the other thread cannot run during it (0 here, at
    most 2 with eight busy loops beside the tests); let go, it runs many times (about 170 here,
    never under 60 with the busy loops)."""
    assert without_gil >= 3 * with_gil + 10, (without_gil, with_gil)


def shown_pixel(screen: Screen) -> tuple[int, int, int]:
    pixel = screen.renderer.to_surface().get_at((960, 540))
    return pixel.r, pixel.g, pixel.b


@pytest.mark.skipif(not LINUX, reason="SDL is found through /proc/self/maps, on Linux only")
def test_issue18_on_linux_the_frame_is_shown_without_the_gil_and_reaches_the_window() -> None:
    screen = open_window(False, "Cuckoo Party")
    try:
        assert screen.presents_without_gil
        screen.canvas.fill((20, 160, 90))
        screen.present()
        assert shown_pixel(screen) == (20, 160, 90)
        screen.canvas.fill((240, 200, 10))  # the next frame replaces it
        screen.present()
        assert shown_pixel(screen) == (240, 200, 10)
    finally:
        screen.close()
    assert not pygame.display.get_init()


def test_without_sdl_found_the_frame_is_shown_through_pygame(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(screen_module, "open_presenter", lambda window_id, canvas: None)
    screen = open_window(False, "Cuckoo Party")
    try:
        assert not screen.presents_without_gil
        screen.canvas.fill((200, 30, 30))
        screen.present()
        assert shown_pixel(screen) == (200, 30, 30)
    finally:
        screen.close()


@pytest.mark.skipif(not LINUX, reason="SDL is found through /proc/self/maps, on Linux only")
def test_issue18_other_threads_run_while_the_tv_shows_a_frame(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same frames, shown both ways in one test: another thread runs far more often while
    the TV presents through ctypes (the GIL let go) than through pygame's binding."""
    screen = open_window(False, "Cuckoo Party")
    try:
        assert screen.presents_without_gil
        without_gil = wake_ups_while_presenting(screen)
    finally:
        screen.close()
    monkeypatch.setattr(screen_module, "open_presenter", lambda window_id, canvas: None)
    screen = open_window(False, "Cuckoo Party")
    try:
        with_gil = wake_ups_while_presenting(screen)
    finally:
        screen.close()
    assert_runs_only_without_gil(without_gil, with_gil)


def test_a_closed_presenter_refuses_instead_of_touching_freed_memory() -> None:
    screen = open_window(False, "Cuckoo Party")
    presenter = screen._presenter  # the object under test; None off Linux
    try:
        if presenter is None:
            assert not LINUX
            return
        presenter.close()
        presenter.close()  # idempotent
        with pytest.raises(pygame.error, match="closed"):
            presenter.present()
    finally:
        screen._presenter = None
        screen.close()


def test_sdl_is_only_taken_from_the_process_own_mapped_files(tmp_path: Path) -> None:
    """No SDL mapped (or only its companions), or no such file: None, and pygame presents."""
    maps = tmp_path / "maps"
    maps.write_text(
        "7f00-7f01 r-xp 00000000 08:01 1 /usr/lib/libSDL2_ttf-2.0.so.0.2000.1\n"
        "7f01-7f02 r-xp 00000000 08:01 2 /usr/lib/libSDL2_mixer-2-673d03d7.0.so.0.600.3\n"
        "7f02-7f03 rw-p 00000000 00:00 0 \n"
    )
    assert loaded_sdl(maps) is None
    assert loaded_sdl(tmp_path / "missing") is None
    maps.write_text("7f00-7f01 r-xp 00000000 08:01 1 /nowhere/libSDL2-2.0.so.0\n")
    assert loaded_sdl(maps) is None  # listed but not loadable: not guessed at


# -- the still layer's copy onto the canvas ---------------------------------------------------
CANVAS = (1920, 1080)


def pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGBA")


def striped(size: tuple[int, int] = CANVAS) -> pygame.Surface:
    """An opaque layer with something in every row and column (a copy off by a byte shows)."""
    layer = pygame.Surface(size)
    layer.fill((30, 110, 60))
    for x in range(0, size[0], 7):
        pygame.draw.line(layer, (x % 256, 200, 255 - x % 256), (x, 0), (x, size[1] - 1))
    for y in range(0, size[1], 5):
        pygame.draw.line(layer, (250, y % 256, 10), (0, y), (size[0] - 1, y))
    return layer


def test_issue18_the_still_layer_is_copied_as_bytes_and_the_frame_is_what_a_blit_makes() -> None:
    layer, blitted, copied = striped(), pygame.Surface(CANVAS), pygame.Surface(CANVAS)
    for canvas in (blitted, copied):
        canvas.fill((255, 0, 255))  # the last frame: every byte of it must be replaced
    assert copies_as_bytes(layer, copied)
    blitted.blit(layer, (0, 0))
    copy_whole(layer, copied)
    assert pixels(copied) == pixels(blitted)


def test_a_view_spanning_whole_rows_of_a_canvas_is_copied_as_bytes_too() -> None:
    """A view as wide as its surface has the same rows as a whole canvas: copied, and nothing
    outside it touched."""
    parent = pygame.Surface((CANVAS[0], CANVAS[1] + 100))
    parent.fill((1, 2, 3))
    view = parent.subsurface(pygame.Rect(0, 50, *CANVAS))
    layer = striped()
    assert copies_as_bytes(layer, view)
    copy_whole(layer, view)
    assert pixels(view) == pixels(layer)
    assert tuple(parent.get_at((5, 49))) == (1, 2, 3, 255)
    assert tuple(parent.get_at((5, CANVAS[1] + 50))) == (1, 2, 3, 255)


@pytest.mark.parametrize(
    "case", ["per-pixel alpha", "surface alpha", "colour key", "taller", "clipped", "subsurface"]
)
def test_a_layer_that_is_not_a_plain_copy_is_blitted_as_before(case: str) -> None:
    """Anything a byte copy would get wrong — blending (even onto a surface of the same
    format), a colour key, a taller layer (a copy of its bytes would run past the canvas), a
    clip, a view into a wider surface (its rows lie further apart) — takes pygame's blit."""
    layer = striped()
    target = pygame.Surface(CANVAS)
    if case == "per-pixel alpha":
        layer = pygame.Surface(CANVAS, pygame.SRCALPHA)
        layer.fill((200, 10, 10, 90))
        target = pygame.Surface(CANVAS, pygame.SRCALPHA)
    elif case == "surface alpha":
        layer.set_alpha(120)
    elif case == "colour key":
        layer.set_colorkey((30, 110, 60))
    elif case == "taller":
        layer = striped((CANVAS[0], CANVAS[1] + 120))
        parent = pygame.Surface((CANVAS[0], CANVAS[1] + 200))
        parent.fill((1, 2, 3))
        target = parent.subsurface(pygame.Rect(0, 0, *CANVAS))
    elif case == "clipped":
        target.set_clip(pygame.Rect(100, 100, 300, 200))
    elif case == "subsurface":
        parent = pygame.Surface((2000, 1200))
        parent.fill((1, 2, 3))
        target = parent.subsurface(pygame.Rect(40, 60, *CANVAS))
    expected = target.copy()
    expected.fill((255, 0, 255, 255))
    target.fill((255, 0, 255, 255))
    if case == "clipped":
        expected.set_clip(target.get_clip())
    assert not copies_as_bytes(layer, target)
    expected.blit(layer, (0, 0))
    copy_whole(layer, target)
    assert pixels(target) == pixels(expected)
    parent = target.get_parent()
    if parent is not None:  # nothing written outside the view
        assert tuple(parent.get_at((parent.get_width() - 1, parent.get_height() - 1))) == (
            1,
            2,
            3,
            255,
        )
        assert tuple(parent.get_at((5, CANVAS[1] + 60))) == (1, 2, 3, 255)


def test_issue18_other_threads_run_while_the_still_layer_is_copied() -> None:
    """The same 40 copies both ways: another thread runs far more often during the byte copy
    (the GIL let go) than during pygame's blit, which holds it for the whole 8 MB."""
    layer, canvas = striped(), pygame.Surface(CANVAS)
    assert copies_as_bytes(layer, canvas)
    without_gil = wake_ups_while(lambda: copy_whole(layer, canvas), 40)
    with_gil = wake_ups_while(lambda: canvas.blit(layer, (0, 0)), 40)
    assert_runs_only_without_gil(without_gil, with_gil)


def test_a_canvas_with_its_own_blit_sees_the_copy() -> None:
    """The overlap tests' canvas records every blit (a whole-canvas one clears its record)."""

    class Recording(pygame.Surface):
        def __init__(self) -> None:
            super().__init__(CANVAS)
            self.seen = 0

        def blit(self, *args: Any, **kwargs: Any) -> pygame.Rect:
            self.seen += 1
            return super().blit(*args, **kwargs)

    layer, canvas = striped(), Recording()
    assert not copies_as_bytes(layer, canvas)
    copy_whole(layer, canvas)
    assert canvas.seen == 1
    assert pixels(canvas) == pixels(layer)


@pytest.mark.skipif(not LINUX, reason="SDL is found through /proc/self/maps, on Linux only")
def test_issue18_an_unscaled_software_frame_is_not_cleared_first_and_still_shown_whole() -> None:
    """SDL's software renderer showing the canvas unscaled: the copy covers every pixel, so the
    window is not cleared first (one pass over 8 MB less a frame); every pixel still arrives,
    the whole frame replacing the last. Scaled into a smaller window, the bars are cleared."""
    screen = open_window(False, "Cuckoo Party")
    presenter = screen._presenter
    try:
        assert presenter is not None and screen.window_size == CANVAS
        screen.canvas.fill((255, 0, 255))
        screen.present()
        layer = striped()
        screen.canvas.blit(layer, (0, 0))
        screen.present()
        assert presenter.cleared == 0
        assert pixels(screen.renderer.to_surface()) == pixels(layer)
        screen.window.size = (1280, 720)  # letterboxed: scaled, with bars to clear
        screen.present()
        assert presenter.cleared == 1
        assert shown_pixel(screen) != (0, 0, 0)
    finally:
        screen.close()
