"""Issue 18.1: the TV shows its frame without holding the GIL, so a tap arriving meanwhile is
answered and fanned out to the phones instead of waiting for SDL's copy of the frame.

Measured before (``docs/benchmarks.md``): with the TV in the process, tap → other phones p50
was 6.6 ms against 3.4 ms headless, and 4.4 ms with presenting skipped — pygame's binding of
SDL's renderer holds the GIL while it copies the 1920×1080 frame.
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pygame
import pytest

import host.tv.screen as screen_module
from host.tv.app import open_window
from host.tv.present import loaded_sdl
from host.tv.screen import Screen

LINUX = sys.platform.startswith("linux")


def wake_ups_while_presenting(screen: Screen, frames: int = 40) -> int:
    """How often a thread that sleeps 0.2 ms at a time gets to run while ``frames`` frames are
    shown: with the GIL held through each copy, it runs about once a switch interval."""
    woke = 0
    done = threading.Event()

    def sleeper() -> None:
        nonlocal woke
        while not done.is_set():
            time.sleep(0.0002)
            woke += 1

    thread = threading.Thread(target=sleeper)
    thread.start()
    try:
        for _ in range(frames):
            screen.present()
    finally:
        done.set()
        thread.join()
    return woke


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
    assert without_gil >= 2 * max(with_gil, 1), (without_gil, with_gil)


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
