"""The big banners between the seats read from the sofa (round 39's closing note).

At the reveal, "{name} can press Deal — or press Space" (longer in French and Italian) with a
long name shrank to 20-24 px where the seats leave a narrow band, under the readable floor
(``READABLE_SIZE``, ``tests/tv/test_readable.py``); a block's subtitle, a cut King's, the
first dealer's, a swap's and a misdeal's banners did too. Such a banner now takes two lines (three at 8 seats).
Every banner is measured on the drawn pixels against its own lines drawn at the floor; and
none covers a seat's card or plate, the other banner or the piles. Measured at 1080p only:
at 720p two lines' accents and descenders blur into each other, and the canvas is scaled
whole (the floor is a share of the screen's height, ``readable_height``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from itertools import pairwise
from typing import Any, cast

import pygame
import pytest

from host.i18n import Catalog
from host.tv import banners, moves, table
from host.tv import theme as tv_theme
from host.tv.app import TVApp
from host.tv.seats import card_rect, plate_rect
from host.tv.stage import SUDDEN_DEATH_VERDICT_AT, reveal_marked_at
from tests.tv.views import StillSession, player, view

from .test_readable import SWAPPING_NAMES, _near, _readable_span

#: A name as wide as a name may be (16 columns, ``host.names.MAX_NAME_WIDTH``): the one every
#: banner names; the other side of a swap or a block is "Jean-Christophe", and
#: "Marie-Éléonore" sits beside them.
WIDEST = "W" * 16
NAMES = (WIDEST, *SWAPPING_NAMES)
#: Where ``Theme.wrap`` may break a line (a no-break space holds).
BREAKING = re.compile(r"[^\S\u00a0\u2007\u202f]+")
#: A banner's ink: its colour, and its letters' rims that are mostly ink.
INK_REACH = 60

Drawn = tuple[str, tv_theme.Colour, pygame.Rect, tuple[str, ...]]


def _table_app(catalog: Catalog, count: int, lang: str, phase: str = "turns") -> TVApp:
    """``count`` seats of ``NAMES``, seat 0 to deal next (``phase`` "reveal": the resting
    lowest card and who deals next)."""
    players = [player(i, name=name) for i, name in enumerate(NAMES[:count])]
    shown = view(phase, players, dealer=f"p{count - 1}", next_dealer="p0", lowest="2")
    app = TVApp(
        cast(Any, StillSession(shown)), None, catalog, lang=lang, join_url="http://x/?room=CAKE"
    )
    app.stage.fast_forward()
    return app


def _moves(count: int) -> Iterator[tuple[dict[str, Any], float]]:
    """Every move with a banner, seat 0 (``WIDEST``) named in it, and the instant it is seen
    at (the call popped in; the reveal before and after the lowest card is marked)."""
    cards = {f"p{i}": f"{2 + i % 9}H" for i in range(count)}
    reveal = {"type": "reveal", "cards": cards, "lowest": "2", "losers": ["p0"]}
    yield {"type": "game_started", "dealer": "p0"}, 0.5
    yield {"type": "exchanged", "player": "p0", "target": "p1"}, 0.5
    yield {"type": "blocked", "player": "p1", "target": "p0", "king": "KH", "call": "cuckoo"}, 0.5
    yield {"type": "cut", "dealer": "p0", "attempt": 1}, 0.5
    yield {"type": "cut_taken", "dealer": "p0"}, 0.5
    yield {"type": "cut_king", "dealer": "p0", "king": "KS", "call": "cuckoo"}, 0.5
    yield reveal, 0.2
    yield reveal, reveal_marked_at(count) + 0.1
    yield {"type": "eliminated", "player": "p0"}, 0.5
    yield {"type": "sudden_death", "cards": {"p0": "5H", "p1": "9S"}, "winner": "p1"}, 0.5
    verdict = SUDDEN_DEATH_VERDICT_AT + 0.1  # round 43: who won it, or a tie
    yield {"type": "sudden_death", "cards": {"p0": "9H", "p1": "5S"}, "winner": "p0"}, verdict
    yield {"type": "sudden_death", "cards": {"p0": "9H", "p1": "9S"}, "winner": None}, verdict
    yield {"type": "misdeal", "dealer": "p0"}, 0.5


def _drawn_banners(
    monkeypatch: pytest.MonkeyPatch, app: TVApp
) -> tuple[pygame.Surface, list[Drawn]]:
    """The frame and every banner it drew between the seats: its text, its colour, its plate
    and its lines as drawn (the text alone in one line)."""
    drawn: list[Drawn] = []
    # Read from the painters' namespace, where both the old and the new code have it.
    real: Callable[..., pygame.Rect] = vars(moves)["seated_banner"]
    real_lines: Callable[..., pygame.Rect] | None = vars(banners).get("banner_lines")
    in_lines: list[tuple[str, ...]] = []

    def recording(*args: Any) -> pygame.Rect:  # (surface, props, text, size, colour, …)
        in_lines.clear()
        box = real(*args)
        drawn.append((args[2], args[4], box, in_lines[0] if in_lines else (args[2],)))
        return box

    def recording_lines(*args: Any) -> pygame.Rect:  # (surface, props, lines, …)
        assert real_lines is not None
        in_lines.append(tuple(args[2]))
        return real_lines(*args)

    with monkeypatch.context() as patch:
        patch.setattr(moves, "seated_banner", recording)
        patch.setattr(table, "seated_banner", recording)
        if real_lines is not None:
            patch.setattr(banners, "banner_lines", recording_lines)
        frame = pygame.Surface(tv_theme.CANVAS_SIZE)
        app.render(frame)
    return frame, drawn


def _line_rows(
    frame: pygame.Surface, area: pygame.Rect, is_ink: Callable[[pygame.Color], bool]
) -> tuple[list[list[int]], tv_theme.Colour]:
    """Each row of ``area`` as the columns holding ink, and the colour the ink lies on."""
    rows: list[list[int]] = []
    ground: dict[tv_theme.Colour, int] = {}
    for y in range(area.top, area.bottom):
        columns = []
        for x in range(area.left, area.right):
            pixel = frame.get_at((x, y))
            if is_ink(pixel):
                columns.append(x)
            else:
                ground[pixel.r, pixel.g, pixel.b] = ground.get((pixel.r, pixel.g, pixel.b), 0) + 1
        rows.append(columns)
    return rows, max(ground, key=lambda colour: ground[colour])


def _lines(rows: list[list[int]], count: int) -> list[tuple[int, int, int]]:
    """The ``count`` lines of text in a banner's rows: (first row, height, ink width) each.

    Lines part at the emptiest row near each share of the plate's height (the middle for two
    lines, the thirds for three), which must hold no ink but a speck: lines drawn into each
    other fail here."""
    most = max(len(columns) for columns in rows)
    height = len(rows)
    bounds = [0]
    for k in range(1, count):
        centre = height * k // count
        near = range(centre - height // (5 * count), centre + height // (5 * count) + 1)
        cut = min(near, key=lambda i: (len(rows[i]), abs(i - centre)))
        assert len(rows[cut]) <= most / 50, (k, count, len(rows[cut]), most)
        bounds.append(cut)
    bounds.append(height)
    lines = []
    for start, end in pairwise(bounds):
        inked = [i for i in range(start, end) if rows[i]]
        columns = [x for i in inked for x in rows[i]]
        lines.append((inked[0], inked[-1] + 1 - inked[0], max(columns) + 1 - min(columns)))
    return lines


def _assert_readable_and_clear(app: TVApp, frame: pygame.Surface, drawn: list[Drawn]) -> None:
    """Each banner's lines are at least as high as at ``READABLE_SIZE`` (their ink from the
    highest accent to the lowest descender); its plate covers no seat's card or plate, no
    other banner and not the piles."""
    spots = list(app.table.seating()[0].values())
    seats = [card_rect(spot) for spot in spots] + [plate_rect(spot) for spot in spots]
    piles = pygame.Rect(table.PILES_REGION)  # the stock, the discard, a cut King
    for index, (text, colour, box, texts) in enumerate(drawn):
        assert box.collidelist(seats) == -1, (text, box, seats[box.collidelist(seats)])
        assert not box.colliderect(piles), (text, box, piles)
        assert all(not box.colliderect(other) for _, _, other, _ in drawn[index + 1 :]), text
        assert " ".join(texts) == text  # every word drawn, once, in order
        is_ink = _near(colour, INK_REACH)
        rows, ground = _line_rows(frame, box, is_ink)
        lines = _lines(rows, len(texts))
        for (_, span, _), line in zip(lines, texts):
            floor = _readable_span(line, colour, ground, is_ink, 1.0)
            assert span >= floor - 1, (text, line, span, floor)


@pytest.mark.parametrize("count", [3, 5, 7, 8, 9, 10])
@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_round39_every_banner_with_the_widest_name_is_readable_and_clear_of_the_seats(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch, lang: str, count: int
) -> None:
    """Every move's banner naming a name 16 "W" wide (the first dealer, a swap, a block and
    its subtitle, a cut, a cut card, a cut King and its subtitle, the reveal, the lowest card,
    a player out, a sudden death, a misdeal) and the reveal's resting lowest card and "{name}
    can press Deal" hint: drawn at least as high as at ``READABLE_SIZE``, in one line, two or three,
    clear of every seat. In one line they shrank to 20-26 px (French's block subtitle at 5
    seats, the first dealer at 3, the Italian hint at 5...)."""
    for event, at in _moves(count):
        app = _table_app(catalog, count, lang)
        assert app.stage.latest is not None
        app.stage.receive(app.stage.latest, cast(Any, [event]))
        app.stage.update(at)
        assert app.stage.beat is not None and app.stage.beat.event["type"] == event["type"]
        frame, drawn = _drawn_banners(monkeypatch, app)
        assert drawn, event
        _assert_readable_and_clear(app, frame, drawn)
    resting = _table_app(catalog, count, lang, "reveal")
    frame, drawn = _drawn_banners(monkeypatch, resting)
    assert len(drawn) == 2  # the lowest card and who deals next
    _assert_readable_and_clear(resting, frame, drawn)


def test_round39_a_banner_breaks_in_two_at_a_breaking_space_and_no_line_starts_with_a_dash() -> (
    None
):
    """A banner in two lines is broken where its wider line is narrowest (``split_evenly``):
    at a breaking space only, since French keeps "subite\u00a0!" together (``host.i18n.typeset``),
    and never before a dash, which ends the first line."""
    th = tv_theme.Theme()
    assert th.split_evenly("Mort subite\u00a0!", 56, 2, True) == ("Mort", "subite\u00a0!")
    assert th.split_evenly("CUCKOO\u00a0!", 80, 2, True) is None
    # Narrowest would be "Ana can press Deal" / "— or press Space".
    assert th.split_evenly("Ana can press Deal — or press Space", 28, 2, True) == (
        "Ana can press Deal —",
        "or press Space",
    )
    text = f"Maldonne — {WIDEST} redistribue"
    lines = th.split_evenly(text, 28, 2, True)
    assert lines is not None and " ".join(lines) == text
    splits = [
        (text[: space.start()], text[space.end() :])
        for space in BREAKING.finditer(text)
        if not text[space.end() :].startswith("—")
    ]
    assert max(th.measure(line, 28, True) for line in lines) == min(
        max(th.measure(line, 28, True) for line in split) for split in splits
    )


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_round43_h5_a_sudden_deaths_banner_gives_the_rule_then_who_won(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """H5. Round 42's play-test: the sudden death's cards were dealt on the felt under "Sudden
    death!", and nothing on the table said whose card won (the voice was still on the
    reveal). The banner now gives the rule, then the verdict: the winner, or a tie."""
    t = catalog.translator(lang)
    cards = {"p0": "9H", "p1": "5S", "p2": "2C"}
    for winner, verdict in (
        ("p1", t("tv.sudden_death_won", name=NAMES[1])),
        (None, t("tv.sudden_death_tie")),
    ):
        app = _table_app(catalog, 3, lang)
        assert app.stage.latest is not None
        event = {"type": "sudden_death", "cards": cards, "winner": winner, "deal": 1}
        app.stage.receive(app.stage.latest, cast(Any, [event]))
        app.stage.update(0.5)
        _, drawn = _drawn_banners(monkeypatch, app)
        assert [text for text, *_ in drawn] == [t("tv.sudden_death")]
        app.stage.update(SUDDEN_DEATH_VERDICT_AT)
        assert app.stage.beat is not None and app.stage.beat.event["type"] == "sudden_death"
        _, drawn = _drawn_banners(monkeypatch, app)
        assert [text for text, *_ in drawn] == [verdict]
