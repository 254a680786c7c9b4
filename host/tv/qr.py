"""The lobby's QR code, drawn module by module from ``qrcode``'s matrix.

Why not a PIL image: it keeps Pillow out of the TV and lets us draw whole-pixel modules at any
size, so phone cameras read it from the sofa. The matrix includes the 4-module quiet zone.
"""

from __future__ import annotations

import pygame
import qrcode
from qrcode.constants import ERROR_CORRECT_M

QUIET_ZONE = 4


def qr_matrix(url: str) -> list[list[bool]]:
    """Dark/light modules for ``url``, quiet zone included."""
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=QUIET_ZONE)
    code.add_data(url)
    code.make(fit=True)
    return [list(row) for row in code.get_matrix()]


def qr_surface(url: str, max_size: int) -> pygame.Surface:
    """A square surface at most ``max_size`` wide, each module a whole number of pixels."""
    matrix = qr_matrix(url)
    modules = len(matrix)
    scale = max(1, max_size // modules)
    surface = pygame.Surface((modules * scale, modules * scale))
    surface.fill((255, 255, 255))
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                surface.fill((0, 0, 0), (x * scale, y * scale, scale, scale))
    return surface
