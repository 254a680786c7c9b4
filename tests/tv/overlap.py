"""Collect the rectangle of everything the TV draws in a frame, to find things drawn on top of
each other (issue 12 item 5).

``Canvas`` is the 1920×1080 canvas that records every ``blit`` and ``fill`` (the ink box of
text: its non-transparent pixels) and, through ``recording_frames``, every outlined
``pygame.draw.rect`` or seat frame (a frame is four strips, so what sits *inside* a frame is not
on it).
Each box is owned by the drawing function that made it (the first caller outside the theme's
text helpers) and by that call: a text on its own plate is one element, two banners are two.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from types import FrameType
from typing import Any

import pygame

from host.tv import seats
from host.tv.scene import Props
from host.tv.theme import CANVAS_SIZE

_HELPERS = {str(Path(__file__).resolve()), str(Path("host/tv/theme.py").resolve())}


@dataclass(frozen=True)
class Box:
    kind: str  # the drawing function that owns it
    rect: pygame.Rect
    call: int  # which call of that function (boxes of one call are one element)
    group: int = -1  # the strips of one outlined frame share a group


def _owner() -> tuple[str, FrameType]:
    frame = inspect.currentframe()
    while frame is not None and str(Path(frame.f_code.co_filename).resolve()) in _HELPERS:
        frame = frame.f_back
    assert frame is not None
    return frame.f_code.co_name, frame


class Canvas(pygame.Surface):
    """The TV's canvas, remembering what was drawn where since the last ``reset``."""

    def __init__(self) -> None:
        super().__init__(CANVAS_SIZE)
        self.boxes: list[Box] = []
        self._frames: list[FrameType] = []

    def reset(self) -> None:
        self.boxes, self._frames = [], []

    def note(self, rect: pygame.Rect, group: int = -1) -> None:
        rect = rect.clip(self.get_rect())
        if rect.width <= 0 or rect.height <= 0:
            return
        if rect.width >= CANVAS_SIZE[0] and rect.height >= CANVAS_SIZE[1]:
            self.reset()  # the background or an overlay's shade: what was under it is covered
            return
        kind, frame = _owner()
        call = next((i for i, f in enumerate(self._frames) if f is frame), None)
        if call is None:
            self._frames.append(frame)
            call = len(self._frames) - 1
        self.boxes.append(Box(kind, rect, call, group))

    def blit(
        self, source: pygame.Surface, dest: Any, area: Any = None, special_flags: int = 0
    ) -> pygame.Rect:
        done = super().blit(source, dest, area, special_flags)
        if area is None:
            ink = source.get_bounding_rect()
            self.note(
                ink.move(pygame.Rect(dest).topleft)
                if isinstance(dest, pygame.Rect)
                else ink.move(dest)
            )
        else:
            self.note(done)
        return done

    def fill(self, color: Any, rect: Any = None, special_flags: int = 0) -> pygame.Rect:
        done = super().fill(color, rect, special_flags)
        if rect is None:
            self.reset()  # a scene's background
        else:
            self.note(done)
        return done


@contextlib.contextmanager
def recording_frames() -> Iterator[None]:
    """Make ``pygame.draw.rect`` on a ``Canvas`` note what it draws (a frame as four strips)."""
    original = pygame.draw.rect

    def recording_rect(
        surface: Any, color: Any, box: Any, width: int = 0, *args: Any, **kwargs: Any
    ) -> pygame.Rect:
        done = original(surface, color, box, width, *args, **kwargs)
        if isinstance(surface, Canvas):
            r = pygame.Rect(box)
            if width <= 0:
                surface.note(r)
            else:
                group = len(surface.boxes)
                for strip in (
                    pygame.Rect(r.left, r.top, r.width, width),
                    pygame.Rect(r.left, r.bottom - width, r.width, width),
                    pygame.Rect(r.left, r.top, width, r.height),
                    pygame.Rect(r.right - width, r.top, width, r.height),
                ):
                    surface.note(strip, group)
        return done

    stamped = seats.stamp

    def stamp(
        surface: pygame.Surface,
        props: Props,
        rect: pygame.Rect,
        colour: tuple[int, int, int],
        width: int,
        radius: int,
    ) -> None:
        """A seat's frame, drawn once and blitted at a party, is drawn here as pygame draws it
        (the same pixels, ``tests/tv/test_still.py``) so that it is recorded as a frame."""
        if isinstance(surface, Canvas):
            recording_rect(surface, colour, rect, width, border_radius=radius)
        else:
            stamped(surface, props, rect, colour, width, radius)

    pygame.draw.rect = recording_rect  # type: ignore[assignment]
    seats.stamp = stamp
    try:
        yield
    finally:
        pygame.draw.rect = original
        seats.stamp = stamped


def overlaps(
    boxes: list[Box],
    under: frozenset[tuple[str, str]],
    ignored: frozenset[str],
    scale: float = 1.0,
    involving: str | None = None,
) -> list[str]:
    """Every pair of elements drawn over each other, except layers declared on purpose.

    ``under``: (lower, upper) kinds that may overlap when the lower one is drawn first.
    Two boxes of one call where one holds the other are one element (a text on its plate);
    a seat's marks drawn after its own frame lie on it on purpose (its tag, on its card's top
    edge, crosses the frame's top strip);
    ``scale`` < 1 checks the same picture on a smaller screen (rects rounded to pixels);
    ``involving``: only pairs where one element is of this kind (one layer's own check).
    """

    def scaled(r: pygame.Rect) -> pygame.Rect:
        if scale == 1.0:
            return r
        left, top = int(r.left * scale), int(r.top * scale)
        return pygame.Rect(
            left, top, max(1, round(r.right * scale) - left), max(1, round(r.bottom * scale) - top)
        )

    found = []
    kept = [b for b in boxes if b.kind not in ignored]
    for a, b in combinations(kept, 2):
        ra, rb = scaled(a.rect), scaled(b.rect)
        clash = ra.clip(rb)
        if clash.width <= 1 or clash.height <= 1 or (a.group == b.group >= 0):
            continue
        if (
            a.call == b.call
            and a.kind == b.kind
            and (ra.inflate(2, 2).contains(rb) or rb.inflate(2, 2).contains(ra))
        ):
            continue
        if (a.kind, b.kind) in under:  # ``a`` was drawn first: ``b`` lies on top of it
            continue
        if a.call == b.call and a.kind == b.kind == "draw_seat" and a.group >= 0 > b.group:
            continue  # a seat's tag lies on its own turn's or winner's frame (round 42)
        if involving is not None and involving not in (a.kind, b.kind):
            continue
        found.append(f"{a.kind}{tuple(a.rect)} × {b.kind}{tuple(b.rect)}")
    return found
