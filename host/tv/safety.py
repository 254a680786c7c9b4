"""The TV's warning that the game cannot be saved (issue 15: saving is honest).

Why on the TV: when the disk refuses a save the party goes on in memory, and the host must know
that a crash now would lose the evening — so a red strip says so at the top of every scene until
a save works again. Its words live in the ``safety`` catalog domain.
"""

from __future__ import annotations

import pygame

from host.tv import theme
from host.tv.scene import Props

WARNING_TOP = 8
WARNING_WIDTH = 1800
WARNING_SIZE = 30


def save_warning_text(props: Props, problem: str) -> str:
    """ "Can't save the game: …" in the TV's language."""
    return props.catalog.t(props.lang, "safety.cant_save", detail=problem)


def draw_save_warning(surface: pygame.Surface, props: Props, problem: str | None) -> None:
    """A red strip across the top with the translated warning (nothing when saving works)."""
    if not problem:
        return
    text = props.theme.fitted_text(
        save_warning_text(props, problem),
        WARNING_SIZE,
        WARNING_WIDTH,
        theme.INK,
        bold=True,
        min_size=22,
    )
    box = text.get_rect(midtop=(960, WARNING_TOP)).inflate(48, 20)
    box.top = WARNING_TOP
    pygame.draw.rect(surface, theme.WARNING_STRIP, box, border_radius=12)
    surface.blit(text, text.get_rect(center=box.center))
