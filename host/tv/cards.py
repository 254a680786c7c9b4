"""Cards drawn in code at the exact size needed, so they stay crisp on any screen.

Faces show the rank and the suit symbol in the corners and a big suit in the middle, in a
four-colour pack (see ``theme.SUIT_COLOURS``); the back is a lattice that no face resembles,
which is what the hidden-card test compares seat pixels against.
"""

from __future__ import annotations

import pygame

from host.rules import RANKS, SUITS
from host.tv import theme
from host.tv.surfaces import CARD_BUDGET, SurfaceCache
from host.tv.theme import Theme


def split_card(code: str) -> tuple[str, str]:
    """``"10D"`` → ``("10", "D")``; raises ``ValueError`` on anything that is not a card."""
    rank, suit = code[:-1], code[-1:]
    if rank not in RANKS or suit not in SUITS:
        raise ValueError(f"not a card: {code!r}")
    return rank, suit


def card_size(width: int) -> tuple[int, int]:
    """Poker proportions (63 × 88 mm)."""
    return width, round(width * 88 / 63)


class CardPainter:
    """Makes and caches card surfaces by (code, width); ``None`` as code means the back."""

    def __init__(self, theme_: Theme) -> None:
        self._theme = theme_
        self.cache = SurfaceCache(CARD_BUDGET)  # by (code, width); None is the back

    def back(self, width: int) -> pygame.Surface:
        return self._get(None, width)

    def face(self, code: str, width: int) -> pygame.Surface:
        return self._get(code, width)

    def _get(self, code: str | None, width: int) -> pygame.Surface:
        key = (code, width)
        surface = self.cache.get(key)
        if surface is None:
            made = self._draw_back(width) if code is None else self._draw_face(code, width)
            surface = self.cache.put(key, made)
        return surface

    def flipped(self, code: str | None, width: int, progress: float) -> pygame.Surface:
        """A card mid-flip: the back narrows to an edge, then the face widens (0 → 1)."""
        progress = min(max(progress, 0.0), 1.0)
        showing = self.back(width) if progress < 0.5 or code is None else self.face(code, width)
        squeeze = abs(1.0 - 2.0 * progress)
        w, h = showing.get_size()
        narrow = max(2, round(w * squeeze))
        return pygame.transform.smoothscale(showing, (narrow, h))

    def _outline(self, width: int) -> tuple[pygame.Surface, pygame.Rect, int]:
        w, h = card_size(width)
        surface = pygame.Surface((w, h), pygame.SRCALPHA)
        radius = max(4, width // 10)
        return surface, pygame.Rect(0, 0, w, h), radius

    def _draw_back(self, width: int) -> pygame.Surface:
        surface, rect, radius = self._outline(width)
        pygame.draw.rect(surface, theme.CARD_FACE, rect, border_radius=radius)
        inner = rect.inflate(-max(6, width // 12), -max(6, width // 12))
        pygame.draw.rect(surface, theme.CARD_BACK, inner, border_radius=max(2, radius - 3))
        step = max(8, width // 7)
        clip = surface.get_clip()
        surface.set_clip(inner.inflate(-4, -4))
        for offset in range(-inner.height, inner.width + inner.height, step):
            start = (inner.left + offset, inner.top)
            pygame.draw.line(
                surface, theme.CARD_BACK_LINE, start, (start[0] + inner.height, inner.bottom), 2
            )
            pygame.draw.line(
                surface,
                theme.CARD_BACK_LINE,
                (start[0] + inner.height, inner.top),
                (start[0], inner.bottom),
                2,
            )
        surface.set_clip(clip)
        pygame.draw.rect(surface, theme.CARD_BACK_LINE, inner, 2, border_radius=max(2, radius - 3))
        return surface

    def _draw_face(self, code: str, width: int) -> pygame.Surface:
        rank, suit = split_card(code)
        surface, rect, radius = self._outline(width)
        pygame.draw.rect(surface, theme.CARD_FACE, rect, border_radius=radius)
        pygame.draw.rect(surface, (120, 120, 120), rect, max(1, width // 60), border_radius=radius)
        colour = theme.SUIT_COLOURS[suit]
        symbol = theme.SUIT_SYMBOLS[suit]
        corner = max(10, width // 5)
        pad = max(3, width // 16)
        rank_img = self._theme.text(rank, corner, colour, bold=True)
        suit_img = self._theme.text(symbol, corner, colour)
        surface.blit(rank_img, rank_img.get_rect(midtop=(pad + corner // 2 + 2, pad)))
        surface.blit(
            suit_img,
            suit_img.get_rect(midtop=(pad + corner // 2 + 2, pad + rank_img.get_height() - 2)),
        )
        turned_rank = pygame.transform.rotate(rank_img, 180)
        turned_suit = pygame.transform.rotate(suit_img, 180)
        right, bottom = rect.right - pad - corner // 2 - 2, rect.bottom - pad
        surface.blit(turned_rank, turned_rank.get_rect(midbottom=(right, bottom)))
        surface.blit(
            turned_suit,
            turned_suit.get_rect(midbottom=(right, bottom - turned_rank.get_height() + 2)),
        )
        if rank in ("J", "Q", "K"):
            # Court cards: a framed big letter over the suit, readable across the room.
            frame = rect.inflate(-width // 2, -width // 2)
            pygame.draw.rect(surface, colour, frame, max(1, width // 45), border_radius=radius)
            letter = self._theme.text(rank, max(12, int(width * 0.4)), colour, bold=True)
            small = self._theme.text(symbol, max(10, int(width * 0.3)), colour)
            surface.blit(letter, letter.get_rect(midbottom=(frame.centerx, frame.centery + 6)))
            surface.blit(small, small.get_rect(midtop=(frame.centerx, frame.centery + 2)))
        else:
            big = self._theme.text(symbol, max(16, int(width * 0.62)), colour)
            surface.blit(big, big.get_rect(center=rect.center))
        return surface
