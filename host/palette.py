"""The party's colours, shared by every screen: the TV draws them, the phones show them.

Why one module outside ``host/tv``: a player's colour and the four-colour pack must look the
same on the TV and on the phone, so both read them from here (the phone through the view's
``players[].color`` and the page's stylesheet), never from two copies.
"""

from __future__ import annotations

from collections.abc import Iterable

Colour = tuple[int, int, int]

#: Four-colour pack: black spades, red hearts, blue diamonds, green clubs. The suit *shape*
#: is always drawn too, so nobody depends on colour alone (colour-blind players).
SUIT_COLOURS: dict[str, Colour] = {
    "S": (20, 20, 24),
    "H": (200, 20, 40),
    "D": (20, 80, 200),
    "C": (10, 120, 40),
}

#: Player colours chosen to stay apart for common colour-vision deficiencies (Okabe–Ito first,
#: then lighter/darker variants); a seat is also always named, so colour is only a helper.
PLAYER_COLOURS: tuple[Colour, ...] = (
    (230, 159, 0),
    (86, 180, 233),
    (0, 158, 115),
    (240, 228, 66),
    (0, 114, 178),
    (213, 94, 0),
    (204, 121, 167),
    (255, 255, 255),
    (160, 110, 60),
    (120, 200, 200),
    (255, 200, 120),
    (150, 220, 255),
    (100, 220, 170),
    (255, 245, 160),
    (90, 160, 230),
    (255, 150, 90),
    (235, 170, 210),
    (190, 190, 190),
    (200, 150, 100),
    (170, 240, 240),
)


def player_colour(seat: int) -> Colour:
    """The colour at ``seat`` in the palette (views without a ``color``: the tutorial, tests)."""
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def free_colour(taken: Iterable[int]) -> int:
    """The first colour of the palette that no one seated has (``taken``), for a new player.

    Why each player keeps a colour of their own, not their seat's: seats close up when a
    player leaves, and every later guest's colour changed mid-game, on the TV and on their
    phone (round 40's play-test). Guests find themselves by colour."""
    used = set(taken)
    return next((i for i in range(len(PLAYER_COLOURS)) if i not in used), len(used))


def colour_hex(colour: str) -> Colour | None:
    """``#rrggbb`` (a view's ``color``) as a colour; None if it is not one."""
    if len(colour) != 7 or colour[0] != "#":
        return None
    try:
        return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)
    except ValueError:
        return None


def css_hex(colour: Colour) -> str:
    """``#rrggbb`` for the phone page."""
    return "#{:02x}{:02x}{:02x}".format(*colour)
