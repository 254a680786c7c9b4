"""Each scene renders for scripted states, and what it shows is what the rules say."""

from __future__ import annotations

import itertools
from typing import Any, cast

import pygame
import pytest

from host.rules import Call, View
from host.rules.contract import KeepReason, RedealReason
from host.tv import theme
from host.tv.app import TVApp
from host.tv.layout import BANNER_Y, SUBTITLE_Y, seat_spots
from host.tv.lobby import PLAYERS_X
from host.tv.seats import card_rect, plate_rect
from host.tv.stage import DEAL_FLIGHT, DEAL_STAGGER, Stage

from .overlap import Canvas, recording_frames
from .test_hidden import back_pixels, pixels, seat_inner
from .views import StillSession, events, player, view


def app_for(make_app: Any, first: View, **kwargs: Any) -> TVApp:
    app: TVApp = make_app(session=StillSession(first), **kwargs)[0]
    return app


def glow_pixel(app: TVApp, index: int) -> tuple[int, int]:
    spot = seat_spots(len(app.stage.players))[index]
    box = card_rect(spot).union(plate_rect(spot)).inflate(26, 26)
    return box.left + 3, box.centery


def colour_at(surface: pygame.Surface, at: tuple[int, int]) -> tuple[int, int, int]:
    r, g, b, *_ = surface.get_at(at)
    return r, g, b


def test_lobby_lists_players_with_colours_marks_and_twenty_seats(
    canvas: pygame.Surface, make_app: Any
) -> None:
    seated = [player(i, name=f"Joueur {i + 1}", bot=i == 2) for i in range(20)]
    app = app_for(make_app, view("lobby", seated, house_rules=["H7", "H4"]))
    app.render(canvas)
    assert colour_at(canvas, (PLAYERS_X + 14, 268 + 20)) == theme.player_colour(0)
    # The eleventh player opens the second column: twenty are halved (H7 allows 20).
    assert colour_at(canvas, (PLAYERS_X + 310 + 14, 268 + 20)) == theme.player_colour(10)


@pytest.mark.parametrize("room", ["WWWW", "NDWM", "MOMW"])
def test_round42_a_room_code_of_wide_letters_stays_in_its_column(
    canvas: pygame.Surface, make_app: Any, room: str
) -> None:
    """Round 42's play-test: the room code "NDWM", at its full 150 px, ran into "Nobody has
    joined yet" and later a player's colour dot. A wide code now shrinks to fit the middle
    column: no gold ink of it in the players' column, and it is still drawn big."""
    app = app_for(make_app, view("lobby", [], room=room))
    app.render(canvas)
    gold = [
        x
        for x in range(900, 1920)
        for y in range(250, 430, 3)
        if tuple(canvas.get_at((x, y)))[:3] == theme.GOLD
    ]
    assert gold, room  # the code is drawn
    assert max(gold) < PLAYERS_X - 20, (room, max(gold))
    assert max(gold) > PLAYERS_X - 150, (room, max(gold))  # shrunk no more than it needs


def test_lobby_next_step_depends_on_players(make_app: Any, catalog: Any) -> None:
    app = app_for(make_app, view("lobby", [player(0), player(1)]))
    lines: list[str] = []
    real = app.props.t

    def spy(key: str, /, count: int | None = None, **params: Any) -> str:
        lines.append(key)
        return real(key, count=count, **params)

    app.props.t = spy  # type: ignore[method-assign]
    app.render(pygame.Surface((1920, 1080)))
    assert "need_more" in lines and "next_vip" not in lines
    lines.clear()
    app.stage.receive(view("lobby", [player(0), player(1), player(2)]), [])
    app.render(pygame.Surface((1920, 1080)))
    assert "next_vip" in lines


@pytest.mark.parametrize(
    ("lang", "lines"),
    [
        (
            "en",
            (
                "3 players needed to start",
                "2 more players needed to start",
                "One more player needed to start",
            ),
        ),
        (
            "fr",
            (
                "Il faut 3 joueurs pour commencer",
                "Encore 2 joueurs pour commencer",
                "Encore un joueur pour commencer",
            ),
        ),
        (
            "it",
            (
                "Servono 3 giocatori per iniziare",
                "Servono ancora 2 giocatori per iniziare",
                "Serve ancora un giocatore per iniziare",
            ),
        ),
    ],
)
def test_round46_the_lobby_says_once_how_many_players_are_missing(
    make_app: Any, lang: str, lines: tuple[str, ...]
) -> None:
    """R3's minimum of three, from the view: round 46's lobby read "3 more players needed to
    start (3 at least)" with nobody there. Nobody: how many are needed; one or two seated: how
    many more; the minimum is not said a second time."""
    app = app_for(make_app, view("lobby", []), lang=lang)
    said: list[str] = []
    real = app.props.t

    def spy(key: str, /, count: int | None = None, **params: Any) -> str:
        said.append(real(key, count=count, **params))
        return said[-1]

    app.props.t = spy  # type: ignore[method-assign]
    for seated, line in enumerate(lines):
        said.clear()
        app.stage.receive(view("lobby", [player(i) for i in range(seated)]), [])
        app.render(pygame.Surface((1920, 1080)))
        assert line in said, (seated, said)
        assert not any("3" in text and "(" in text for text in said), said


def test_r6_turn_glow_is_on_the_current_player(canvas: pygame.Surface, make_app: Any) -> None:
    app = app_for(make_app, view("turns", current="p1"))
    app.render(canvas)
    assert colour_at(canvas, glow_pixel(app, 1)) == theme.GOLD
    assert colour_at(canvas, glow_pixel(app, 0)) != theme.GOLD


def test_r5_deal_lands_cards_one_by_one_in_turn_order(
    canvas: pygame.Surface, make_app: Any
) -> None:
    app = app_for(make_app, view("lobby", [player(i) for i in range(4)]))
    order = ["p0", "p1", "p2", "p3"]
    app.stage.receive(
        view("turns", order=order),
        [
            {"type": "game_started", "dealer": "p3"},
            {"type": "round_dealt", "round": 1, "dealer": "p3", "order": order},
        ],
    )
    while app.stage.beat is not None and app.stage.beat.kind != "round_dealt":
        app.step(1 / 60)
    app.step(DEAL_STAGGER + DEAL_FLIGHT + 0.01)  # the first card has landed, the last has not
    app.render(canvas)
    inner0, width = seat_inner(app, 0)
    outer0 = card_rect(seat_spots(4)[0])
    assert pixels(canvas, inner0) == back_pixels(app, width, outer0)
    inner3, _ = seat_inner(app, 3)
    assert pixels(canvas, inner3) != back_pixels(app, width, card_rect(seat_spots(4)[3]))


def test_r7_block_shows_the_king_face_up_and_keeps_it_shown(
    canvas: pygame.Surface, make_app: Any
) -> None:
    app = app_for(make_app, view("turns", current="p0"))
    after = view(
        "turns",
        current="p1",
        shown={"p1": "KS"},
        players=[player(0), player(1, card="KS"), player(2), player(3)],
    )
    app.stage.receive(
        after,
        [
            {"type": "blocked", "player": "p0", "target": "p1", "king": "KS", "call": Call.CUCKOO},
            {"type": "turn", "player": "p1"},
        ],
    )
    app.step(1.0)
    app.render(canvas)
    inner, width = seat_inner(app, 1)
    assert pixels(canvas, inner) != back_pixels(app, width, card_rect(seat_spots(4)[1]))
    app.stage.fast_forward()
    assert app.stage.seat_of("p1").card == "KS"  # type: ignore[union-attr]


def test_r9_cut_king_is_set_aside_face_up(canvas: pygame.Surface, make_app: Any) -> None:
    app = app_for(make_app, view("turns", current="p3"))
    app.stage.receive(
        view("turns", current="p3", cut_king="KD"),
        [
            {"type": "cut", "dealer": "p3", "attempt": 1},
            {"type": "cut_king", "dealer": "p3", "king": "KD", "call": Call.CHASE},
        ],
    )
    assert app.stage.cut_king is None  # not before the animation shows it
    app.stage.fast_forward()
    assert app.stage.cut_king == "KD"
    app.render(canvas)


def test_r11_reveal_flips_cards_one_by_one_and_marks_the_lowest(
    canvas: pygame.Surface, make_app: Any
) -> None:
    app = app_for(make_app, view("turns", current="p3"))
    cards = {"p0": "9H", "p1": "2C", "p2": "KS", "p3": "2D"}
    final = view(
        "reveal",
        players=[player(i, card=cards[f"p{i}"], lives=2 if i % 2 else 3) for i in range(4)],
        losers=["p1", "p3"],
        next_dealer="p0",
        lowest="2",
    )
    app.stage.receive(
        final,
        [
            {"type": "reveal", "cards": cards, "lowest": "2", "losers": ["p1", "p3"]},
            {"type": "life_lost", "player": "p1", "lives": 2, "lost": 1, "timed_out": False},
            {"type": "life_lost", "player": "p3", "lives": 2, "lost": 1, "timed_out": False},
        ],
    )
    app.step(0.05)
    app.render(canvas)
    inner, width = seat_inner(app, 3)
    back = back_pixels(app, width, card_rect(seat_spots(4)[3]))
    assert pixels(canvas, inner) == back  # the dealer's card flips last
    app.step(1.0)
    app.render(canvas)
    first, _ = seat_inner(app, 0)
    assert pixels(canvas, first) != back
    assert pixels(canvas, inner) == back
    while app.stage.beat is not None and app.stage.beat.kind == "reveal":
        app.step(0.1)
    assert app.stage.beat is not None and app.stage.beat.kind == "life_lost"
    assert app.stage.seat_of("p1").lives == 3  # type: ignore[union-attr]  # R15: not yet
    app.stage.fast_forward()
    app.render(canvas)
    assert app.stage.lowest == "2"
    for index in (1, 3):  # both tied lowest cards are highlighted (R11: all tied lose)
        rect = card_rect(seat_spots(4)[index])
        assert colour_at(canvas, (rect.left - 5, rect.centery)) == theme.HIGHLIGHT
    rect = card_rect(seat_spots(4)[0])
    assert colour_at(canvas, (rect.left - 5, rect.centery)) != theme.HIGHLIGHT
    assert [p.lives for p in app.stage.players] == [3, 2, 3, 2]


def test_r12_eliminated_waiting_and_disconnected_seats_are_marked(
    canvas: pygame.Surface, make_app: Any
) -> None:
    seated = [
        player(0),
        player(1, lives=0, status="eliminated"),
        player(2),
        player(3, connected=False),
        player(4, status="waiting"),
    ]
    app = app_for(make_app, view("turns", seated))
    app.render(canvas)
    grey = (44, 48, 54)
    for index, expected in ((0, False), (1, True), (3, True)):  # the game's four seats
        plate = plate_rect(seat_spots(4)[index])
        at = (plate.right - 8, plate.centery)
        assert (colour_at(canvas, at) == grey) is expected, index
    bench = app.table.bench(app.table.seating()[0])  # the latecomer: on the bench (round 44)
    chip = bench.chip_of("p4") if bench is not None else None
    assert chip is not None and colour_at(canvas, (chip.right - 4, chip.centery)) == grey


def test_r14_joint_winners_are_both_celebrated(canvas: pygame.Surface, make_app: Any) -> None:
    seated = [
        player(0, lives=0, status="eliminated", card="2H"),
        player(1, lives=0, status="eliminated", card="2S"),
        player(2, lives=0, status="eliminated", card="9S"),
    ]
    final = view("game_over", seated, winners=["p0", "p1"], eliminated=["p0", "p1"])
    app = app_for(make_app, final)
    app.render(canvas)
    assert colour_at(canvas, glow_pixel(app, 0)) == theme.GOLD
    assert colour_at(canvas, glow_pixel(app, 1)) == theme.GOLD
    assert colour_at(canvas, glow_pixel(app, 2)) != theme.GOLD


def test_r16_misdeal_collects_the_cards(make_app: Any) -> None:
    app = app_for(make_app, view("turns"))
    assert all(p.dealt for p in app.stage.players)
    app.stage.receive(
        view("turns"),
        [
            {
                "type": "misdeal",
                "round": 1,
                "dealer": "p3",
                "reason": RedealReason.MISDEAL,
                "player": None,
                "name": None,
                "deal": 2,
            }
        ],
    )
    app.step(1.0)
    assert app.stage.beat is not None and app.stage.beat.kind == "misdeal"
    app.stage.update(5.0)
    assert app.stage.beat is None


def test_sudden_death_and_every_beat_render_without_error(
    canvas: pygame.Surface, make_app: Any
) -> None:
    app = app_for(make_app, view("turns"))
    played: list[dict[str, Any]] = [
        {"type": "turn", "player": "p0"},
        {
            "type": "kept",
            "player": "p0",
            "auto": True,
            "timed_out": True,
            "reason": KeepReason.TIME,
        },
        {"type": "exchanged", "player": "p1", "target": "p2"},
        {"type": "cut", "dealer": "p3", "attempt": 1},
        {"type": "cut_taken", "dealer": "p3"},
        {"type": "eliminated", "player": "p2"},
        {"type": "sudden_death", "cards": {"p0": "5H", "p1": "9C"}, "winner": "p1"},
        {"type": "game_over", "winners": ["p1"], "joint": False},
    ]
    app.stage.receive(view("game_over", winners=["p1"]), events(*played))
    seen = set()
    for _ in range(2000):
        if app.stage.beat is None:
            break
        seen.add(app.stage.beat.kind)
        app.step(0.1)
        app.render(canvas)
    assert seen == {e["type"] for e in played}


def test_draw_never_changes_the_stage(canvas: pygame.Surface, make_app: Any) -> None:
    app = app_for(make_app, view("turns"))
    app.stage.receive(view("turns"), [{"type": "exchanged", "player": "p1", "target": "p2"}])
    app.step(0.3)
    before = repr(app.stage)
    app.table.draw(canvas)
    first = pygame.image.tobytes(canvas, "RGB")
    app.table.draw(canvas)
    assert repr(app.stage) == before
    assert pygame.image.tobytes(canvas, "RGB") == first


def test_captions_show_in_the_caption_bar_also_when_muted(
    canvas: pygame.Surface, make_app: Any
) -> None:
    from .conftest import FakeAnnouncer

    voice = FakeAnnouncer("Niccolò garde sa carte")
    voice.muted = True
    app = app_for(make_app, view("turns"), announcer=voice)
    app.poll_caption()
    app.render(canvas)
    bar = pygame.Rect(0, 990, 1920, 80)
    assert len(set(pygame.image.tobytes(canvas.subsurface(bar), "RGB"))) > 2
    voice.line = None
    app.poll_caption()
    app.render(canvas)
    assert colour_at(canvas, (960, 1030)) == (6, 10, 16)


def test_stage_plays_a_backlog_faster() -> None:
    stage = Stage()
    stage.receive(view("turns"), [{"type": "exchanged", "player": "p0", "target": "p1"}] * 12)
    stage.update(1.2)
    assert len(stage.queue) < 11  # 8× speed: more than one 1.2 s beat went by


def test_r7_a_shown_king_travels_with_a_later_swap(make_app: Any) -> None:
    """The King stays shown on whoever holds it; the TV moves it with the exchange."""
    shown = view(
        "turns",
        current="p1",
        shown={"p1": "KS"},
        players=[player(0), player(1, card="KS"), player(2), player(3)],
    )
    app = app_for(make_app, shown)
    after = view(
        "turns",
        current="p2",
        shown={"p2": "KS"},
        players=[player(0), player(1), player(2, card="KS"), player(3)],
    )
    app.stage.receive(
        after,
        [
            {"type": "exchanged", "player": "p1", "target": "p2"},
            {"type": "turn", "player": "p2"},
            {
                "type": "kept",
                "player": "p2",
                "auto": False,
                "timed_out": False,
                "reason": KeepReason.CHOSEN,
            },
        ],
    )
    while app.stage.beat is not None and app.stage.beat.kind == "exchanged":
        app.step(0.1)
    assert app.stage.seat_of("p2").card == "KS"  # type: ignore[union-attr]
    assert app.stage.seat_of("p1").card is None  # type: ignore[union-attr]


def test_r9_a_cut_discards_the_dealers_card_face_down(make_app: Any) -> None:
    app = app_for(make_app, view("turns", current="p3"))
    app.stage.receive(
        view("turns", current="p3", discard_count=1),
        [
            {"type": "cut", "dealer": "p3", "attempt": 1},
            {"type": "cut_taken", "dealer": "p3"},
            {"type": "turn", "player": "p3"},
        ],
    )
    while app.stage.beat is not None and app.stage.beat.kind != "turn":
        app.step(0.1)
    assert app.stage.discard_count == 1
    assert app.stage.seat_of("p3").dealt  # type: ignore[union-attr]


def _countdown_colour(app: Any, canvas: pygame.Surface, seat: int) -> tuple[int, int, int]:
    """H4's countdown bar, drawn now along the bottom of ``seat``'s plate (4 seats): its colour."""
    app.render(canvas)
    plate = plate_rect(seat_spots(4)[seat])
    return colour_at(canvas, (plate.left + 20, plate.bottom - 4))


def test_h4_rapid_countdown_empties_under_the_current_player(
    canvas: pygame.Surface, make_app: Any
) -> None:
    app = app_for(make_app, view("turns", current="p0", house_rules=["H4"], rapid_seconds=10))
    assert app.stage.rapid_left() is None  # the TV did not see this turn begin
    app.stage.receive(
        view("turns", current="p1", house_rules=["H4"], rapid_seconds=10),
        [{"type": "turn", "player": "p1"}],
    )
    app.step(1.0)
    left = app.stage.rapid_left()
    assert left is not None and 8.5 < left < 9.5
    assert _countdown_colour(app, canvas, seat=1) == theme.GOLD
    app.step(8.0)
    assert _countdown_colour(app, canvas, seat=1) == theme.ALERT
    app.stage.receive(view("turns", current="p1"), [])  # no H4: no countdown
    assert app.stage.rapid_left() is None


def test_h4_a_tv_that_starts_mid_turn_counts_down_from_the_time_the_view_says_is_left(
    canvas: pygame.Surface, make_app: Any
) -> None:
    """A host back after a crash: its TV never saw the turn begin, but the view says how long
    it has left (``turn_seconds_left``), so H4's countdown shows from there, not nothing."""
    app = app_for(
        make_app,
        view("turns", current="p1", house_rules=["H4"], rapid_seconds=10, turn_seconds_left=6.5),
    )
    left = app.stage.rapid_left()
    assert left is not None and abs(left - 6.5) < 0.01
    app.step(1.0)
    left = app.stage.rapid_left()
    assert left is not None and 5.0 < left < 6.0
    assert _countdown_colour(app, canvas, seat=1) == theme.GOLD
    nobody_timed = view("turns", current="p1", house_rules=[], turn_seconds_left=6.5)
    assert app_for(make_app, nobody_timed).stage.rapid_left() is None  # --turn-timeout: no bar


def test_issue18_the_felt_is_painted_once_and_the_table_repainted_over_it_each_turn(
    canvas: pygame.Surface, make_app: Any, monkeypatch: Any
) -> None:
    """R6: the glow follows the turn, so the still layer is repainted when the turn passes —
    the very frame in which the next phone may tap. The felt under it (two ellipses the size
    of the table, about 1 ms) is painted once and copied after (issue 18.1)."""
    big: list[pygame.Rect] = []
    ellipse = pygame.draw.ellipse

    def counted(surface: pygame.Surface, colour: Any, rect: Any, *rest: Any) -> pygame.Rect:
        if pygame.Rect(rect).width > 1000:
            big.append(pygame.Rect(rect))
        return ellipse(surface, colour, rect, *rest)

    monkeypatch.setattr(pygame.draw, "ellipse", counted)
    app = app_for(make_app, view("turns", current="p0"))
    app.render(canvas)
    assert len(big) == 2  # the rim, then the felt
    assert colour_at(canvas, glow_pixel(app, 0)) == theme.GOLD
    for current in ("p1", "p2", "p0"):
        app.stage.receive(view("turns", current=current), [])
        app.render(canvas)
        index = int(current[1])
        assert colour_at(canvas, glow_pixel(app, index)) == theme.GOLD
        assert colour_at(canvas, glow_pixel(app, (index + 1) % 4)) != theme.GOLD
    assert len(big) == 2  # not painted again
    inside = big[1].inflate(-40, -40)  # the felt, copied under the seats and the piles
    edge = [(inside.left, inside.centery), (inside.right, inside.centery)]
    assert [colour_at(canvas, at) for at in edge] == [theme.FELT, theme.FELT]


@pytest.mark.parametrize("words", [6, 30, 45, 200])
def test_caption_lines_stay_apart_inside_the_bar(words: int) -> None:
    """A long caption (a French lesson line takes two) is set a font's height apart, inside
    the bar; two lines at 40 px were 33 px apart and ran into each other. Three lines, at
    28 px (round 47: not 26), are a pixel closer, still their ascent and descent apart. One
    too long for three lines ends with "…" instead of spilling out."""
    from host.tv.overlays import CAPTION_WIDTH, caption_bar_rect, caption_lines
    from host.tv.theme import ELLIPSIS, Theme

    th = Theme()
    caption = " ".join(["Comment", "jouer", "au", "Coucou", "ne", "reste", "pas"] * 40)
    caption = " ".join(caption.split()[:words])
    placed = caption_lines(th, caption)
    bar = caption_bar_rect()
    rects = []
    for line, size, (x, top) in placed:
        font = th.font(size)
        rect = pygame.Rect(0, top, th.measure(line, size), font.get_ascent() - font.get_descent())
        rect.centerx = x
        assert top + font.get_height() <= bar.bottom, (words, size)
        assert bar.top + 2 <= rect.top and rect.bottom <= bar.bottom, (words, size)
        assert rect.width <= CAPTION_WIDTH
        rects.append(rect)
    for upper, lower in itertools.pairwise(rects):
        assert upper.bottom <= lower.top
    sizes = {size for _, size, _ in placed}
    assert len(sizes) == 1 and min(sizes) >= 28  # one size for the block, readable
    if words == 6:
        assert [line for line, _, _ in placed] == [caption] and sizes == {40}
    told = " ".join(line for line, _, _ in placed)
    assert told == caption or (words == 200 and told.endswith(ELLIPSIS))


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_host_keys_help_every_line_at_full_size(lang: str, make_app: Any) -> None:
    """H's panel: no line shrunk to fit (French's "next step" line was)."""
    from host.tv.overlays import HELP_SIZE, HELP_TEXT_WIDTH, HelpOverlay

    app, _ = make_app(lang=lang)
    rows = HelpOverlay(app.props, lambda: None).rows()
    th = app.props.theme
    assert all(th.measure(what, HELP_SIZE) <= HELP_TEXT_WIDTH for _, what in rows), lang
    assert all(th.measure(key, HELP_SIZE, True) <= 440 - 40 for key, _ in rows)


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_yes_no_questions_wrap_at_a_readable_size(lang: str, make_app: Any) -> None:
    """A yes/no question is wrapped, not shrunk (French's "new evening?" was small print), and
    stays inside its panel above the keys' line."""
    from host.tv.overlays import CONFIRM_PANEL, question_lines

    app, _ = make_app(lang=lang)
    th = app.props.theme
    catalog = app.props.catalog
    questions = {
        key: catalog.t(lang, key, **params)
        for key, params in (
            ("tv.quit_question", {}),
            ("evening.new_evening_question", {}),
            ("tv.kick_question", {"name": "Maximilianus-Ott"}),  # 16 characters
        )
    }
    for key, question in questions.items():
        placed = question_lines(th, question)
        assert " ".join(line for line, _, _ in placed) == question
        for line, size, (x, top) in placed:
            assert size >= 44, (key, size)
            assert th.measure(line, size, True) <= CONFIRM_PANEL.width - 80
            assert top >= CONFIRM_PANEL.top + 20
            assert top + th.font(size, True).get_height() <= CONFIRM_PANEL.top + 195  # keys below
            assert x == CONFIRM_PANEL.centerx


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_banners_take_the_biggest_size_that_clears_the_seats(lang: str, make_app: Any) -> None:
    """A banner's band between the seats is measured at the size it is drawn at: at 7 seats,
    "Lowest card: 3" was squeezed to 24 px (14 in French) into the band a 60 px banner would
    need, where at 56 px it clears the seats and fits (the reveal's 60 px banner). At 5 seats
    the top seats hang low: a banner may go a little lower, above the subtitle's row, where
    French's "Carte la plus basse : 3" takes 48 px (32 px on ``BANNER_Y``, smaller than the
    subtitle under it)."""
    from host.tv.banners import (
        BANNER_MIN,
        SUBTITLE_MAX,
        band_half,
        band_width,
        banner_fit,
        banner_rows,
    )

    app, _ = make_app(lang=lang)
    th = app.props.theme

    def fits(text: str, size: int, row: int, spots: tuple[Any, ...]) -> bool:
        return bool(th.measure(text, size, True) <= min(1300, band_width(spots, row, size) - 50))

    texts = {
        app.props.t("lowest", rank="3"): 60,  # the reveal's banner
        app.props.t("call_cuckoo"): 84,
        app.props.t("winner", name="François"): 84,
    }
    lowered = 0
    for count in range(3, 13):
        spots = tuple(seat_spots(count))
        for text, size in texts.items():
            fitted = banner_fit(th, text, size, BANNER_Y, spots)
            fit, width, row = fitted.size, fitted.width, fitted.row
            assert fitted.lines == (text,)  # short texts keep one line
            assert BANNER_MIN <= fit <= size
            assert width == band_width(spots, row, fit)  # the band of the size and row drawn
            assert fits(text, fit, row, spots) or fit == BANNER_MIN
            assert BANNER_Y <= row and (
                row == BANNER_Y or row + band_half(fit) <= SUBTITLE_Y - band_half(SUBTITLE_MAX)
            )  # lowered, it stays above the subtitle's row
            assert not any(fits(text, fit, r, spots) for r in range(BANNER_Y, row, 4))
            lowered += row > BANNER_Y
            bigger = range(fit + 2, size + 1, 2)
            assert not any(  # none bigger would have fitted its own band, at any row it may take
                fits(text, s, r, spots) for s in bigger for r in banner_rows(BANNER_Y, s)
            )
    seven, five = tuple(seat_spots(7)), tuple(seat_spots(5))
    assert banner_fit(th, app.props.t("lowest", rank="3"), 60, BANNER_Y, seven).size >= 48
    assert banner_fit(th, app.props.t("lowest", rank="3"), 56, BANNER_Y, five).size >= 48
    assert lowered  # at 5 seats, at least
    assert banner_rows(SUBTITLE_Y, 40) == range(SUBTITLE_Y, SUBTITLE_Y + 1)  # subtitles stay


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_lobby_all_house_rules_end_above_a_long_join_address(
    lang: str, canvas: pygame.Surface, catalog: Any
) -> None:
    """All eight house rules and the longest IPv4 address: the rules' list ends above the
    address, which reaches into their column (the last rule ran into it)."""
    from host.rules.options import RULE_FIELDS
    from host.tv.lobby import MIDDLE_X, QR_BOX, RULE_SIZE, RULES_TOP, URL_TOP, rule_step

    height = theme.Theme().font(RULE_SIZE).get_height()
    for count in range(1, len(RULE_FIELDS) + 1):
        assert RULES_TOP + (count - 1) * rule_step(count) + height <= URL_TOP - 4
    url = "http://192.168.100.200:8000/?room=CAKE"
    table = view("lobby", house_rules=list(RULE_FIELDS))
    app = TVApp(cast(Any, StillSession(table)), None, catalog, lang=lang, join_url=url)
    app.render(canvas)
    width = app.props.theme.measure(url, 40, True)
    qr_left = QR_BOX.left
    assert qr_left + width > MIDDLE_X  # the address does reach under the rules
    gap = [canvas.get_at((x, URL_TOP - 3))[:3] for x in range(MIDDLE_X, qr_left + width)]
    assert set(gap) == {canvas.get_at((MIDDLE_X, URL_TOP - 3))[:3]}  # nothing drawn there


def test_r14_the_confetti_falls_under_the_winners_name_and_the_final_standings(
    make_app: Any,
) -> None:
    """The celebration's confetti rains over the table, but every word of the game's end (the
    winner's banner, the new-game hint, the final standings) is painted after it, so no
    confetti sits on a letter (it used to fall over the standings' lines)."""
    seated = [
        player(0, lives=2, card="QD"),
        player(1, lives=0, status="eliminated", card="2S", out_round=3),
        player(2, lives=0, status="eliminated", card="9S", out_round=2),
    ]
    app = app_for(make_app, view("game_over", seated, winners=["p0"], eliminated=["p1", "p2"]))
    app.table.keep_still = False  # every piece painted on the recording canvas, in order
    canvas = Canvas()
    met = 0
    for tenths in range(0, 40, 4):  # the confetti at several instants of its fall
        app.stage.celebrating_since = app.stage.time - tenths / 10
        assert app.stage.celebrating
        canvas.reset()
        with recording_frames():
            app.render(canvas)
        boxes = list(enumerate(canvas.boxes))
        words = [(i, box) for i, box in boxes if box.kind == "draw_final_board"]
        confetti = [(i, box) for i, box in boxes if box.kind == "confetti"]
        assert words and confetti
        for i, bit in confetti:
            for j, word in words:
                if bit.rect.colliderect(word.rect):
                    met += 1
                    assert i < j, (tenths, bit.rect, word.kind, word.rect)
    assert met > 0  # some confetti did fall across the words


def test_r14_once_the_game_is_won_the_header_no_longer_says_who_deals(
    canvas: pygame.Surface, make_app: Any, phrases_asked: Any
) -> None:
    """ "Ada deals" over the winner's banner read as if a new round were coming."""
    seated = [player(0, lives=2), player(1, lives=0, status="eliminated", out_round=3)]
    for phase, extra, expected in (
        ("turns", {}, True),
        ("game_over", {"winners": ["p0"], "eliminated": ["p1"]}, False),
    ):
        app = app_for(make_app, view(phase, seated, dealer="p0", **extra))
        asked = phrases_asked(app)
        app.render(canvas)
        assert ("deals" in asked) is expected, phase
        assert "round" in asked  # the round number stays


def test_round40_a_players_own_colour_from_the_view_is_drawn_not_their_seats(
    canvas: pygame.Surface, make_app: Any
) -> None:
    """The session gives each player a colour kept when seats close up (``color`` in the
    view): the TV's lobby dot and table plate draw that one, not the seat's."""
    own = (213, 94, 0)  # the palette's sixth colour, for the first seat
    seated = [player(i, name=f"Joueur {i + 1}") for i in range(3)]
    seated[0]["color"] = "#d55e00"
    app = app_for(make_app, view("lobby", seated))
    app.render(canvas)
    assert colour_at(canvas, (PLAYERS_X + 14, 268 + 20)) == own
    table = app_for(make_app, view("turns", seated, dealer="p2"))
    table.render(canvas)
    spots, _ = table.table.seating()
    plate = plate_rect(spots["p0"])
    assert colour_at(canvas, (plate.left + 3, plate.centery)) == own


def test_r14_round41_the_winners_board_stays_15_s_then_tonights_standings(
    catalog: Any, canvas: pygame.Surface
) -> None:
    """Round 41's play-test: the winner's board (confetti, "X wins!", the game's own finishing
    order) gave way to tonight's standings after 8 s, short for cheering a guest who won. It
    now stays 15 s (the confetti its first 8), then the standings are drawn at once, though
    nothing else moves."""
    from host.rules import HouseRules
    from host.session import Session
    from host.tv.stage import CELEBRATION_SECONDS, WINNER_BOARD_SECONDS

    session = Session(HouseRules(), seed=3, room="TEST")
    ids = [session.join(name, "TEST").player_id for name in ("Ana", "Bea", "Cal")]
    app = TVApp(session, None, catalog, lang="en", join_url="http://x/?room=TEST")
    session.act(ids[0], "start", 0)
    for _ in range(500):  # bounded: everyone keeps, the host deals, until a winner
        table = session.view(None)
        if table["phase"] == "game_over":
            break
        if table["phase"] == "reveal":
            session.host_next()
        else:
            session.act(str(table["current"]), "keep", table["step"])
        while app.pump_updates():
            app.stage.fast_forward()
    while app.pump_updates():
        app.stage.fast_forward()
    app.stage.fast_forward()
    assert app.stage.phase == "game_over" and app.stage.celebrating_since is not None
    start = app.stage.time
    scenes: dict[float, Any] = {}
    drawn_at: list[float] = []
    while app.stage.time - start < WINNER_BOARD_SECONDS + 1:
        if app.play_frame(canvas):
            drawn_at.append(app.stage.time - start)
        for moment in (
            CELEBRATION_SECONDS + 1,
            WINNER_BOARD_SECONDS - 1,
            WINNER_BOARD_SECONDS + 0.5,
        ):
            if moment not in scenes and app.stage.time - start >= moment:
                scenes[moment] = app.base_scene()
    assert scenes[CELEBRATION_SECONDS + 1] is app.table  # the board, the confetti over
    assert scenes[WINNER_BOARD_SECONDS - 1] is app.table
    assert scenes[WINNER_BOARD_SECONDS + 0.5] is app.standings
    assert any(WINNER_BOARD_SECONDS <= t < WINNER_BOARD_SECONDS + 0.5 for t in drawn_at)
    app.close()
    session.close()
