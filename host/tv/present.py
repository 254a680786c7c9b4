"""Making and showing the TV's frame without holding up the phones: the copy of the still layer
and SDL's present, called through ctypes.

Why: a frame is shown by copying the 1920×1080 canvas into a texture and the texture into the
window. pygame's binding of SDL's renderer (``pygame._sdl2.video``) makes those calls with the GIL
held, 2–3 ms a frame with SDL's software renderer. A phone's tap that arrives meanwhile cannot even
be parsed until the copy ends, and neither can the writes of its change to the other phones.
Measured (issue 18.1, ``docs/benchmarks-history.md``, eighth pass): with the TV in the process, tap
→ other phones p50 was 6.6 ms against 3.4 ms headless; with presenting skipped it was 4.4 ms. ctypes
lets go of the GIL for the length of every foreign call, so the same SDL functions, called through
it, copy the frame while the server's threads run.

Only the TV's own thread calls these (SDL's renderer belongs to the thread that made it), and
it waits inside each call, so nothing draws on the canvas while SDL reads it.

The functions must be those of the very SDL pygame loaded (another copy would know none of
its windows), so the library is found among the process's mapped files, which Linux lists
in ``/proc/self/maps``. Elsewhere, or if anything does not fit (no window of that id, no
renderer, a texture refused), :func:`open_presenter` returns None and the caller presents
through pygame as before.

Only what changed is copied (issue 18.3, 18.4): the TV says where its frame differs from the
one shown (``host/tv/damage.py``); those rectangles go into the texture and, where the window
keeps its pixels between frames (SDL's software renderer, unscaled), into the window. A whole
frame was three passes over 8 MB with the software renderer, 2.2 ms of a table frame's 3.7.

Each animated frame of the table also starts with one whole-canvas copy: what holds still (the
felt, the seats that do not move) is painted once into a layer, and the layer is blitted onto
the canvas. ``Surface.blit`` holds the GIL too (0.6 ms a frame at 1080p here, 8 MB of pixels).
Between two surfaces of the same size and pixel format an opaque blit is a plain copy of
bytes, so :func:`copy_whole` makes it with ``ctypes.memmove``, which lets go of the GIL, on
every platform; any other pair is blitted as before.
"""

from __future__ import annotations

import ctypes
import logging
import re
from collections.abc import Sequence
from pathlib import Path

import pygame

log = logging.getLogger(__name__)

#: pygame's Linux wheels ship ``libSDL2-2-<hash>.0.so.…``; a system SDL is ``libSDL2-2.0.so.0``.
#: Not SDL2_image, SDL2_mixer or SDL2_ttf.
SDL_LIBRARY = re.compile(r"^libSDL2-2[.-]")
MAPS = Path("/proc/self/maps")
TEXTURE_ACCESS_STATIC = 0
RENDERER_SOFTWARE = 0x1

_void_p = ctypes.c_void_p
_int_p = ctypes.POINTER(ctypes.c_int)


class SdlRect(ctypes.Structure):
    """SDL_Rect."""

    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int), ("w", ctypes.c_int), ("h", ctypes.c_int)]


class SdlRendererInfo(ctypes.Structure):
    """SDL_RendererInfo (SDL 2): only its flags are read."""

    _fields_ = [
        ("name", ctypes.c_char_p),
        ("flags", ctypes.c_uint32),
        ("num_texture_formats", ctypes.c_uint32),
        ("texture_formats", ctypes.c_uint32 * 16),
        ("max_texture_width", ctypes.c_int),
        ("max_texture_height", ctypes.c_int),
    ]


_SIGNATURES: dict[str, tuple[type | None, list[type]]] = {
    "SDL_GetWindowFromID": (_void_p, [ctypes.c_uint32]),
    "SDL_GetRenderer": (_void_p, [_void_p]),
    "SDL_MasksToPixelFormatEnum": (ctypes.c_uint32, [ctypes.c_int] + [ctypes.c_uint32] * 4),
    "SDL_CreateTexture": (
        _void_p,
        [_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_int, ctypes.c_int],
    ),
    "SDL_UpdateTexture": (
        ctypes.c_int,
        [_void_p, ctypes.POINTER(SdlRect), _void_p, ctypes.c_int],
    ),
    "SDL_RenderClear": (ctypes.c_int, [_void_p]),
    "SDL_RenderCopy": (
        ctypes.c_int,
        [_void_p, _void_p, ctypes.POINTER(SdlRect), ctypes.POINTER(SdlRect)],
    ),
    "SDL_RenderPresent": (None, [_void_p]),
    "SDL_DestroyTexture": (None, [_void_p]),
    "SDL_GetError": (ctypes.c_char_p, []),
    "SDL_GetRendererInfo": (ctypes.c_int, [_void_p, ctypes.POINTER(SdlRendererInfo)]),
    "SDL_GetRendererOutputSize": (ctypes.c_int, [_void_p, _int_p, _int_p]),
}


def loaded_sdl(maps: Path = MAPS) -> ctypes.CDLL | None:
    """The SDL library this process has loaded (pygame's), with its signatures; None where the
    process's mapped files cannot be read (not Linux) or no SDL is among them."""
    try:
        mapped = maps.read_text(errors="replace").splitlines()
    except OSError:
        return None
    for line in mapped:  # address, permissions, offset, device, inode, then the file if any
        fields = line.split(maxsplit=5)
        path = fields[5] if len(fields) == 6 else ""
        if path.startswith("/") and SDL_LIBRARY.match(Path(path).name):
            try:
                library = ctypes.CDLL(path)  # the same file: the handle already loaded
            except OSError:
                return None
            for name, (result, arguments) in _SIGNATURES.items():
                function = getattr(library, name)
                function.restype, function.argtypes = result, arguments
            return library
    return None


def sdl_error(sdl: ctypes.CDLL) -> str:
    """SDL's message for its last failure, as text."""
    message: bytes | None = sdl.SDL_GetError()
    return (message or b"SDL error").decode("utf-8", "replace")


class GilFreePresenter:
    """Copies ``canvas`` to the window of ``renderer`` through SDL's C functions.

    The window's renderer is the one pygame made (its logical size, set through pygame, still
    scales and letterboxes the frame); the texture is this object's, in the canvas's pixel
    format, so each update is a plain copy.
    """

    def __init__(self, sdl: ctypes.CDLL, renderer: int, texture: int, canvas: pygame.Surface):
        self._sdl = sdl
        self._renderer = renderer
        self._texture: int | None = texture
        self._canvas = canvas
        self._software = renders_in_software(sdl, renderer)
        self._texture_filled = False  # the texture holds a whole frame of the canvas
        self._output: tuple[int, int] | None = None  # the window's size at the last frame
        self.cleared = 0
        """Frames that began by clearing the window (for tests)."""
        self.partial = 0
        """Frames of which only the changed rectangles were copied (for tests, benchmarks)."""

    def present(self, damage: Sequence[pygame.Rect] | None = None) -> None:
        """Show the canvas as drawn; ``pygame.error`` if SDL refuses. ``damage``: where it
        differs from the frame shown last (None: anywhere). Only that is copied into the
        texture; into the window too, where the window keeps its pixels from one frame to the
        next (SDL's software renderer, unscaled); elsewhere the texture is drawn whole."""
        sdl, renderer, canvas = self._sdl, self._renderer, self._canvas
        if self._texture is None:
            raise pygame.error("the TV's window is closed")
        bounds = canvas.get_rect()
        rects = None if damage is None else [rect.clip(bounds) for rect in damage]
        if rects is None or not self._texture_filled:  # nothing in the texture yet: all of it
            rects = [bounds]
        areas = [SdlRect(r.x, r.y, r.width, r.height) for r in rects if r.width and r.height]
        self._texture_filled = False  # until every rectangle is in
        for area in areas:
            self._update(area)
        self._texture_filled = True
        output = self._output_size()
        in_place = (
            self._software
            and damage is not None
            and output == canvas.get_size()
            and output == self._output
        )
        self._output = output
        if in_place:
            self.partial += 1
            for area in areas:
                if sdl.SDL_RenderCopy(renderer, self._texture, area, area) != 0:
                    raise pygame.error(sdl_error(sdl))
        else:
            if self._letterboxed(output):
                sdl.SDL_RenderClear(renderer)  # the bars around a canvas scaled to the window
                self.cleared += 1
            if sdl.SDL_RenderCopy(renderer, self._texture, None, None) != 0:
                raise pygame.error(sdl_error(sdl))
        sdl.SDL_RenderPresent(renderer)

    def _update(self, area: SdlRect) -> None:
        """Copy ``area`` of the canvas into the same place in the texture."""
        canvas, pitch = self._canvas, self._canvas.get_pitch()
        start = canvas._pixels_address + area.y * pitch + area.x * canvas.get_bytesize()
        if self._sdl.SDL_UpdateTexture(self._texture, area, start, pitch) != 0:
            raise pygame.error(sdl_error(self._sdl))

    def _output_size(self) -> tuple[int, int] | None:
        """The window's size in pixels as the renderer draws it; None if SDL cannot say."""
        width, height = ctypes.c_int(), ctypes.c_int()
        if self._sdl.SDL_GetRendererOutputSize(
            self._renderer, ctypes.byref(width), ctypes.byref(height)
        ):
            return None
        return width.value, height.value

    def _letterboxed(self, output: tuple[int, int] | None) -> bool:
        """Whether the window needs clearing before the canvas is drawn into it: unless SDL's
        software renderer shows the canvas unscaled, where the copy covers every pixel and
        the clear would be one more pass over 8 MB (0.4 ms a frame here: issue 18.4). A GPU
        renderer is always cleared, as SDL asks (its back buffer is undefined after each
        present), and a window of another size has bars to paint."""
        return not self._software or output != self._canvas.get_size()

    def close(self) -> None:
        """Free the texture; before its renderer goes (idempotent)."""
        if self._texture is not None:
            self._sdl.SDL_DestroyTexture(self._texture)
            self._texture = None


def renders_in_software(sdl: ctypes.CDLL, renderer: int) -> bool:
    """Whether ``renderer`` is SDL's software renderer (the CPU draws every pixel)."""
    info = SdlRendererInfo()
    if sdl.SDL_GetRendererInfo(renderer, ctypes.byref(info)) != 0:
        return False  # unknown: treated as a GPU renderer, cleared every frame
    return bool(info.flags & RENDERER_SOFTWARE)


def copies_as_bytes(source: pygame.Surface, target: pygame.Surface) -> bool:
    """Whether blitting ``source`` at (0, 0) onto ``target`` is a copy of their bytes: one size,
    pitch and pixel format (so their rows are laid out alike, even in a view into a wider
    surface), the source opaque (no per-pixel or surface alpha, no colour key) and the target
    not clipped. A target with a ``blit`` of its own (the tests' recording canvas) is asked to
    blit: it wants to see the copy."""
    return (
        source is not target
        and type(target).blit is pygame.Surface.blit
        and source.get_size() == target.get_size()
        and source.get_pitch() == target.get_pitch()
        and source.get_bitsize() == target.get_bitsize()
        and source.get_masks() == target.get_masks()
        and not source.get_flags() & pygame.SRCALPHA
        and source.get_alpha() is None
        and source.get_colorkey() is None
        and target.get_clip() == target.get_rect()
    )


def copy_whole(source: pygame.Surface, target: pygame.Surface) -> None:
    """``target.blit(source, (0, 0))`` for a whole-frame layer, without holding the GIL where
    the two surfaces allow a plain copy (:func:`copies_as_bytes`). The caller's thread is the
    only one drawing on either surface, and it waits in the copy."""
    if not copies_as_bytes(source, target):
        target.blit(source, (0, 0))
        return
    size = source.get_pitch() * source.get_height()
    ctypes.memmove(target._pixels_address, source._pixels_address, size)


def open_presenter(window_id: int, canvas: pygame.Surface) -> GilFreePresenter | None:
    """A presenter for the window pygame opened, or None where it cannot be made here."""
    sdl = loaded_sdl()
    if sdl is None:
        return None
    window = sdl.SDL_GetWindowFromID(window_id)
    renderer = sdl.SDL_GetRenderer(window) if window else None
    if not renderer:
        log.info("TV: presenting through pygame (SDL has no renderer for window %s)", window_id)
        return None
    masks = [ctypes.c_uint32(mask & 0xFFFFFFFF) for mask in canvas.get_masks()]
    pixel_format = sdl.SDL_MasksToPixelFormatEnum(canvas.get_bitsize(), *masks)
    width, height = canvas.get_size()
    texture = sdl.SDL_CreateTexture(renderer, pixel_format, TEXTURE_ACCESS_STATIC, width, height)
    if not texture:
        log.info("TV: presenting through pygame (no texture: %s)", sdl_error(sdl))
        return None
    return GilFreePresenter(sdl, renderer, texture, canvas)
