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
from types import ModuleType

#: SDL's stand-ins when no real screen exists: a window there is seen by nobody.
INVISIBLE_DRIVERS = frozenset({"offscreen", "dummy"})
#: Optional libraries ``import pygame`` imports for itself when they are installed, which the
#: party never uses (``import_pygame``).
PYGAME_EXTRAS = ("numpy", "pkg_resources")


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


def import_pygame() -> ModuleType:
    """pygame, imported without the optional libraries it would import for itself (the
    ``PYGAME_EXTRAS``); if pygame is imported already, it is returned as it is.

    Why: ``import pygame`` imports ``pygame.surfarray`` and ``pygame.sndarray``, which import
    numpy wherever numpy is installed, and ``pygame.pkgdata``, which imports setuptools'
    ``pkg_resources`` (it reads the metadata of every installed distribution). The party uses
    neither: it draws and plays with pygame's own calls and finds its files by path. Measured
    with ``benchmarks/memory.py`` (docs/benchmarks-history.md, round 37), they were 10.0 MB
    (numpy) and 4.6 MB (pkg_resources) of the TV host's peak RSS, 15.3 MB together.

    A ``None`` in ``sys.modules`` makes importing that name raise ``ImportError``, which pygame
    expects of optional libraries: surfarray and sndarray become its placeholders for a missing
    module, and pkgdata opens files by path. The names are given back at once, so later code
    can still import them. The party calls this (through the probes below) before it starts
    its server, bots and voice, so no other thread imports meanwhile.
    """
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if "pygame" in sys.modules:
        return sys.modules["pygame"]
    hidden = [name for name in PYGAME_EXTRAS if name not in sys.modules]
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]  # refuses that import
    try:
        import pygame
    finally:
        for name in hidden:
            del sys.modules[name]
    return pygame


@dataclass(frozen=True)
class Probe:
    """The answer of one probe: is it there, and what SDL said (driver name or error)."""

    available: bool
    detail: str
    frequency: int = 0
    """Sound only: the output's rate in Hz (0: unknown), for a report in the host's language."""
    channels: int = 0
    """Sound only: how many channels the output has (0: unknown)."""


def probe_display() -> Probe:
    """Can a window be seen? SDL falls back to an invisible driver when there is no screen.

    A driver chosen on purpose with ``SDL_VIDEODRIVER`` (tests, screenshots) counts as chosen.
    """
    try:
        pygame = import_pygame()
    except ImportError as error:
        return Probe(False, str(error))
    display = pygame.display
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
        pygame = import_pygame()
    except ImportError as error:
        return Probe(False, str(error))
    mixer = pygame.mixer
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
    return Probe(True, detail, frequency, channels)
