"""Where the TV's next frame may differ from the one on the screen, so that only that is shown.

Why (issue 18.3, 18.4; ``docs/benchmarks-history.md``, twelfth pass): showing a whole 1080p frame is
three passes over its 8 MB with SDL's software renderer (into the texture, the clear, into the
window): about 2.2 ms of a table frame's 3.7 ms of CPU here, more than its drawing. Under a Pi-class
CPU quota (``benchmarks/pi.py``) that alone took half of what the host may use while cards moved. A
card in flight changes a few hundred pixels' square.

How: a table frame is the still layer (``host/tv/still.py``) with a few things painted over
it (cards in flight, the seats that move, the move's words, the countdown). So against the
frame before, it can differ only where the layer changed (``StillLayer.changed``), where this
frame painted over it, and where the frame before did (``TableScene.over``). The caption bar
at the bottom is opaque and painted whole each frame: it changes only with its words. Any
other frame, or a frame with something drawn that does not say where (a menu, the reactions,
confetti, a layer that failed), is whole. Comparing the frames' bytes instead was tried and
not kept: reading both frames cost about 0.9 ms, most of what it saved.

``tests/tv/test_damage.py`` plays whole games and checks after every frame that what the
window shows is the canvas, pixel for pixel.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

Rects = list[pygame.Rect]

#: More rectangles than this waiting to be shown (frames drawn and never shown: screenshots,
#: a loop without a window) count as the whole canvas, so the list never grows without end.
MOST_RECTS = 256


class Damage:
    """What the TV drew since the frame last shown: rectangles, or None for anywhere."""

    def __init__(self) -> None:
        self._unshown: Rects | None = None  # nothing shown yet: the whole canvas
        self._last_over: Rects | None = None

    def frame(self, changed_under: Sequence[pygame.Rect] | None, over: Rects | None) -> None:
        """A frame was drawn over a base the TV keeps (the still layer): ``changed_under``,
        where the base changed since the frame before; ``over``, where this frame painted
        over it. None for either: it may differ anywhere."""
        if changed_under is None or over is None or self._last_over is None:
            self._unshown = None
        elif self._unshown is not None:
            self._unshown += [*changed_under, *over, *self._last_over]
            if len(self._unshown) > MOST_RECTS:
                self._unshown = None
        self._last_over = over

    def whole(self) -> None:
        """The next frame shown must be whole: the window may have lost its pixels."""
        self._unshown = None

    def take(self) -> Rects | None:
        """Where the canvas differs from the screen (None: anywhere); from now on, nowhere."""
        unshown, self._unshown = self._unshown, []
        return unshown


__all__ = ["MOST_RECTS", "Damage", "Rects"]
