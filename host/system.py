"""What this machine offers the party: a display, a sound output — asked quietly.

Why quietly: SDL and ALSA print raw lines on the process's own standard error ("ALSA lib
confmisc.c:855 …", "XDG_RUNTIME_DIR is invalid") that mean nothing to a party host. The probes
here silence the native stderr while they ask, and the host prints one clear line of its own
instead (no display → headless; no sound → captions). ``cuckoo-party doctor`` uses them too.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass

#: SDL's stand-ins when no real screen exists: a window there is seen by nobody.
INVISIBLE_DRIVERS = frozenset({"offscreen", "dummy"})


@contextlib.contextmanager
def quiet_native_stderr() -> Iterator[None]:
    """Send file descriptor 2 to the null device for a moment (C libraries write there)."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):  # no real stderr (e.g. a GUI launcher): nothing to hide
        yield
        return
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _pygame() -> object:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    return pygame


@dataclass(frozen=True)
class Probe:
    """The answer of one probe: is it there, and what SDL said (driver name or error)."""

    available: bool
    detail: str


def probe_display() -> Probe:
    """Can a window be seen? SDL falls back to an invisible driver when there is no screen.

    A driver chosen on purpose with ``SDL_VIDEODRIVER`` (tests, screenshots) counts as chosen.
    """
    try:
        pygame = _pygame()
    except ImportError as error:
        return Probe(False, str(error))
    display = pygame.display  # type: ignore[attr-defined]
    try:
        with quiet_native_stderr():
            display.init()
        driver = str(display.get_driver())
    except Exception as error:  # noqa: BLE001 - pygame.error and friends: no display
        return Probe(False, str(error) or type(error).__name__)
    finally:
        with contextlib.suppress(Exception):
            display.quit()
    chosen = os.environ.get("SDL_VIDEODRIVER", "").strip().lower() == driver.lower()
    return Probe(driver not in INVISIBLE_DRIVERS or chosen, driver)


def probe_audio(keep_open: bool = False) -> Probe:
    """Can sound be played? ``keep_open``: leave the mixer running for the voice."""
    try:
        pygame = _pygame()
    except ImportError as error:
        return Probe(False, str(error))
    mixer = pygame.mixer  # type: ignore[attr-defined]
    try:
        with quiet_native_stderr():
            if not mixer.get_init():
                mixer.init()
        frequency, _size, channels = mixer.get_init()
        detail = f"{frequency} Hz, {channels} channels"
    except Exception as error:  # noqa: BLE001 - pygame.error: no sound device
        return Probe(False, str(error) or type(error).__name__)
    if not keep_open:
        with contextlib.suppress(Exception):
            mixer.quit()
    return Probe(True, detail)
