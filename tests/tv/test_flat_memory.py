"""Issue 18 item 5 (flat memory): what the TV keeps stays bounded however long the evening.

Measured by ``benchmarks/growth.py``: +27.7 MB over 5 000 taps with the TV, from the text cache
and the memo of drawn pieces (capped by count, not bytes) and the animation queue (unbounded
when taps outpace the animations). Each test here failed before its fix.
"""

from __future__ import annotations

from itertools import pairwise

import pygame
import pytest

from host.i18n import Catalog
from host.pacing import Shown
from host.rules import EventDict, View
from host.tv import moves
from host.tv import theme as tv_theme
from host.tv.banners import PLATE_STEP, banner, plate
from host.tv.cards import CardPainter
from host.tv.moves import bubble
from host.tv.scene import Props
from host.tv.stage import MAX_WAITING, Stage
from host.tv.surfaces import CARD_BUDGET, PIECE_BUDGET, TEXT_BUDGET, SurfaceCache, pixel_bytes
from host.tv.theme import Theme

from .conftest import JOIN_URL
from .views import events, player, view


def make_props(catalog: Catalog) -> Props:
    theme = Theme()
    return Props(theme, CardPainter(theme), catalog, "en", JOIN_URL)


def test_issue18_text_cache_stays_within_its_byte_budget(catalog: Catalog) -> None:
    """An evening of new names and phrases: the rendered texts kept stay under the budget
    (the old cache kept 600 surfaces whatever their size: ≈ 45 MB of big text)."""
    theme = make_props(catalog).theme
    for i in range(700):
        theme.text(f"Chloé swaps with Niccolò, round {i}", 84, bold=True)
    assert 0 < theme.texts.bytes <= TEXT_BUDGET
    assert len(theme.texts) < 700
    # What was just drawn is still there (least recently used leaves first).
    assert ("Chloé swaps with Niccolò, round 699", 84, (245, 245, 240), True) in theme.texts


def test_issue18_memo_of_drawn_pieces_stays_within_its_byte_budget(catalog: Catalog) -> None:
    props = make_props(catalog)
    for i in range(500):
        props.memo(("plate", i), lambda: pygame.Surface((400, 300), pygame.SRCALPHA))
    assert 0 < props.pieces.bytes <= PIECE_BUDGET


def test_issue18_card_cache_stays_within_its_byte_budget(catalog: Catalog) -> None:
    props = make_props(catalog)
    for width in range(60, 260, 4):
        for code in ("AS", "KH", "10D", "QC"):
            props.cards.face(code, width)
    assert 0 < props.cards.cache.bytes <= CARD_BUDGET


def test_issue18_banners_of_many_widths_share_a_few_plates(catalog: Catalog) -> None:
    """Banner plates are cached by a width rounded up to ``PLATE_STEP``: a hundred banner
    texts of different lengths make at most one plate per step, not one per width."""
    props = make_props(catalog)
    canvas = pygame.Surface((1920, 1080))
    for length in range(1, 101):
        banner(canvas, props, "W" * (length % 40 + 1) + str(length), 48, (255, 255, 255))
    plates = [key for key in props.pieces.held() if isinstance(key, tuple) and key[0] == "plate"]
    assert len(plates) <= 1400 // PLATE_STEP + 1


def test_issue18_a_banner_on_a_shared_plate_still_shows_its_words(catalog: Catalog) -> None:
    """The banner's text is drawn over its plate (a shadowed name once blitted the plate twice
    and "Lowest card: 3" vanished from the reveal): the text's colour is on screen inside the
    plate, and nowhere else."""
    props = make_props(catalog)
    canvas = pygame.Surface((1920, 1080))
    canvas.fill((0, 90, 0))
    words = (250, 110, 90)
    banner(canvas, props, "Lowest card: 3", 84, words)
    reds = [
        (x, y)
        for x in range(0, 1920, 3)
        for y in range(300, 500, 3)
        if tuple(canvas.get_at((x, y)))[:3] == words
    ]
    assert len(reds) > 50
    assert all(abs(x - 960) < 500 for x, _ in reds)


def test_surface_cache_drops_the_least_recently_used_first() -> None:
    cache = SurfaceCache(3 * pixel_bytes(pygame.Surface((10, 10))))
    for key in "abc":
        cache.put(key, pygame.Surface((10, 10)))
    assert cache.get("a") is not None  # "a" is now the most recently used
    cache.put("d", pygame.Surface((10, 10)))
    assert "b" not in cache and {"a", "c", "d"} == {k for k in "abcd" if k in cache}
    big = cache.put("big", pygame.Surface((100, 100)))  # alone over budget: still kept
    assert cache.get("big") is big and len(cache) == 1
    with pytest.raises(ValueError):
        SurfaceCache(0)


def _kept_update(step: int) -> tuple[View, list[EventDict]]:
    kept = events(
        {"type": "kept", "player": f"p{step % 4}", "auto": False, "timed_out": False},
        {"type": "turn", "player": f"p{(step + 1) % 4}"},
    )
    turns = view("turns", [player(i) for i in range(4)], step=step, current=f"p{(step + 1) % 4}")
    return turns, kept


def test_issue18_animation_queue_stays_bounded_under_a_burst() -> None:
    """Taps far faster than the animations (bots with a tiny delay): the beats waiting stay
    bounded, the pacer still hears of every event in order, and the table ends as the view."""
    stage = Stage()
    shown: list[Shown] = []
    cued: list[str] = []
    stage.on_shown = shown.append
    stage.on_cue = lambda event, moment: cued.append(str(event["type"]))
    stage.receive(view("turns", [player(i) for i in range(4)]), [])
    for step in range(1, 1001):
        stage.receive(*_kept_update(step))
        assert len(stage.queue) <= MAX_WAITING
        stage.update(1 / 60)
    assert [s.begun for s in shown] == sorted(s.begun for s in shown)  # never backwards
    stage.fast_forward()
    assert shown[-1].begun == stage.received == 2000
    assert cued.count("kept") == 1000  # every move was still told (voice, captions)
    assert stage.beat is None and not stage.queue
    assert stage.current == "p1"  # the table is the last update's view


def test_issue18_a_fading_bubble_makes_no_surface_after_its_first_frame(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R6's "Keeps" bubble fades out over a beat at 60 fps. Its word and plate are drawn once
    and kept; each later frame only changes how opaque it is (it made a new plate and a copy
    of the word every frame, two surfaces a frame for the allocator all evening)."""
    props = make_props(catalog)
    made: list[tuple[int, int]] = []
    real_plate = plate

    def counting_plate(
        size: tuple[int, int], colour: tuple[int, int, int, int], radius: int
    ) -> pygame.Surface:
        made.append(size)
        return real_plate(size, colour, radius)

    monkeypatch.setattr(moves, "plate", counting_plate)
    canvas = pygame.Surface((1920, 1080))
    centres: list[tuple[int, int, int]] = []
    for frame in range(60):
        canvas.fill((0, 90, 0))
        box = bubble(canvas, props, "Keeps", (400, 300), round(255 * (1.0 - frame / 59)), 112)
        red, green, blue, _ = canvas.get_at((box.left + 3, box.centery))
        centres.append((red, green, blue))
    assert len(made) == 1
    # It still fades: fully gold while fade ≥ ½, the felt at the end, and in between it only
    # moves from gold towards the felt.
    assert centres[0] == tv_theme.GOLD
    assert centres[-1] == (0, 90, 0)
    greens = [colour[1] for colour in centres]
    assert all(a >= b for a, b in pairwise(greens)) or all(a <= b for a, b in pairwise(greens))
    assert len(set(centres)) > 10


def test_issue18_a_bubble_at_full_opacity_is_its_word_on_a_gold_plate(catalog: Catalog) -> None:
    """The kept bubble, drawn opaque, is pixel for pixel the plate with the word on it."""
    props = make_props(catalog)
    canvas = pygame.Surface((1920, 1080))
    canvas.fill((0, 90, 0))
    box = bubble(canvas, props, "Keeps", (400, 300), 255, 112)
    word = props.theme.fitted_text("Keeps", 30, 100, tv_theme.DARK_INK, bold=True, min_size=10)
    expected = pygame.Surface((1920, 1080))
    expected.fill((0, 90, 0))
    assert word.get_rect().inflate(10, 10).size == box.size
    expected.blit(plate(box.size, (*tv_theme.GOLD, 255), 14), box)
    expected.blit(word, word.get_rect(center=box.center))
    assert pygame.image.tobytes(canvas, "RGB") == pygame.image.tobytes(expected, "RGB")
