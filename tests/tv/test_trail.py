"""Issue 12 item 4 — the round's trail and the final standings on the TV."""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Callable
from typing import Any, cast

import pytest

from host.i18n import LANGUAGES, Catalog
from host.rules import Call, Game, HouseRules, RedealReason
from host.rules.bots import choose_action
from host.rules.contract import KeepReason
from host.rules.playout import MAX_ACTIONS, new_game
from host.tv.app import TVApp
from host.tv.final import final_board
from host.tv.layout import READABLE_SIZE, seat_spots
from host.tv.stage import Stage
from host.tv.trail import (
    FELT_TRAIL_MIN_WIDTH,
    HANGING_INDENT,
    LINE,
    TEXT_SIZE,
    TRAIL_WIDTHS,
    standings,
    trail_line,
    trail_moves,
    trail_room,
)
from tests.tv.views import StillSession, player, view


def _app(catalog: Catalog) -> TVApp:
    return TVApp(
        cast(Any, StillSession(view("turns"))),
        None,
        catalog,
        lang="en",
        join_url="http://x/?room=CAKE",
    )


def test_issue12_trail_tells_this_rounds_moves_in_order(catalog: Catalog) -> None:
    app = _app(catalog)
    stage = app.stage
    stage.receive(
        view("turns"),
        [
            {"type": "round_dealt", "round": 2, "dealer": "p3", "order": ["p0", "p1", "p2", "p3"]},
            {"type": "exchanged", "player": "p0", "target": "p1"},
            {"type": "blocked", "player": "p1", "target": "p2", "king": "KS", "call": Call.CUCKOO},
            {
                "type": "kept",
                "player": "p2",
                "auto": False,
                "timed_out": False,
                "reason": KeepReason.CHOSEN,
            },
            {"type": "cut_king", "dealer": "p3", "king": "KH", "call": Call.CUCKOO},
        ],
    )
    stage.fast_forward()
    lines = [trail_line(app.props, stage, e) for e in stage.trail]
    assert lines == [
        "Ana swapped with Chloé",
        "Niccolò showed a King to Chloé",
        "Niccolò kept",
        "François cut a King and kept their card",
    ]
    stage.receive(
        view("turns"),
        [{"type": "round_dealt", "round": 3, "dealer": "p0", "order": ["p1", "p2", "p3", "p0"]}],
    )
    stage.fast_forward()
    assert stage.trail == []  # a new round starts a new story


def test_round42_the_trail_tells_who_is_down_to_how_many_lives(catalog: Catalog) -> None:
    """Round 42's play-test: after the reveal the caption bar went blank, and someone glancing
    late had to work out Cat's loss from one dot. The round's trail now ends with who is
    down to how many lives, or out (R12), in each language; it stays until the next deal."""
    app = _app(catalog)
    stage = app.stage
    stage.receive(
        view("reveal"),
        [
            {"type": "round_dealt", "round": 2, "dealer": "p3", "order": ["p0", "p1", "p2", "p3"]},
            {"type": "exchanged", "player": "p0", "target": "p1"},
            {"type": "reveal", "cards": {}, "lowest": "2", "losers": ["p1", "p2"]},
            {"type": "life_lost", "player": "p1", "lives": 1, "lost": 1, "timed_out": False},
            {"type": "life_lost", "player": "p2", "lives": 0, "lost": 1, "timed_out": False},
            {"type": "eliminated", "player": "p2"},
        ],
    )
    stage.fast_forward()
    lines = [trail_line(app.props, stage, e) for e in stage.trail]
    assert lines == ["Ana swapped with Chloé", "Chloé is down to 1 life", "Niccolò is out"]
    app.props.lang = "fr"
    assert trail_line(app.props, stage, stage.trail[1]) == "Chloé n’a plus qu’une vie"
    app.props.lang = "it"
    assert trail_line(app.props, stage, stage.trail[2]) == "Niccolò è fuori"


def test_issue12_trail_has_room_on_small_tables_and_yields_to_seats() -> None:
    """Round 43 / H7 too: big tables' seats take both corners; the trail keeps its title and
    two lines or more on the felt, clear of every seat (at 18 and 20 seats three, as it had
    in the bottom-left corner)."""
    assert trail_room(seat_spots(5)).height >= 150
    assert trail_room(seat_spots(20)).height < trail_room(seat_spots(5)).height
    for count in range(11, 21):
        for lines in (1, 2):
            spots = seat_spots(count, lines)
            room = trail_room(spots)
            fewest = 4 if count >= 18 else 3
            assert room.height // LINE >= fewest and room.width >= 300, (count, lines, room)
            for spot in spots:
                left, top, right, bottom = spot.box()
                assert not room.colliderect((left, top, right - left, bottom - top)), count


def test_issue12_standings_winner_then_last_out_first() -> None:
    stage = Stage()
    players = [
        player(0, lives=2),
        player(1, lives=0, status="eliminated", out_round=7),
        player(2, lives=0, status="eliminated", out_round=3),
        player(3, lives=0, status="eliminated", out_round=5),
    ]
    stage.receive(view("turns", players), [])
    stage.winners = ["p0"]
    assert standings(stage) == ["p0", "p1", "p3", "p2"]


def test_issue12_final_standings_name_every_player_in_french(catalog: Catalog) -> None:
    """R14's result names every player: French phrases are longer ("hors jeu à la manche
    12"), and the last player was left out; each line is on the game's end board, at the
    readable size or more (round 37: they were 18-24 px between the seats)."""
    names = ("Ana", "Chloé", "Niccolò", "François", "Ada")
    out_rounds = (8, 11, 10, 12)
    players = [
        player(i, name=n, lives=0, status="eliminated", out_round=r)
        for i, (n, r) in enumerate(zip(names[:4], out_rounds, strict=True))
    ]
    players.append(player(4, name="Ada", lives=2))
    table = view("game_over", players)
    app = TVApp(
        cast(Any, StillSession(table)), None, catalog, lang="fr", join_url="http://x/?room=CAKE"
    )
    stage = app.stage
    stage.receive(table, [])
    stage.winners = ["p4"]
    board = final_board(app.props, stage)
    text = "   ".join(line.text for line in board.lines)
    for rank, name in enumerate(("Ada", "François", "Chloé", "Niccolò", "Ana"), start=1):
        assert f"{rank}. {name} " in text
    rects = []
    for line in board.lines:  # on the board, never under the readable size (round 37)
        assert line.size >= READABLE_SIZE
        image = app.props.theme.text(line.text, line.size, line.colour, line.bold)
        rects.append(image.get_bounding_rect().move(line.topleft))
        assert board.rect.contains(rects[-1]), line.text
    for (i, one), (j, other) in itertools.combinations(enumerate(rects), 2):
        assert not one.colliderect(other), (board.lines[i].text, board.lines[j].text)


def test_r14_joint_winners_share_first_place_and_are_not_told_they_have_no_lives(
    catalog: Catalog,
) -> None:
    """Round 41's play-test: joint winners (R14) were numbered "1. Sara — 0 lives left" and
    "2. Sam — 0 lives left". They share 1st place, as joint winners; players knocked out in
    the same round share a place too, and the next place skips ("1, 1, 3")."""
    players = [
        player(0, name="Sara", lives=0, status="eliminated", out_round=9),
        player(1, name="Sam", lives=0, status="eliminated", out_round=9),
        player(2, name="Gigi", lives=0, status="eliminated", out_round=4),
        player(3, name="Bob", lives=0, status="eliminated", out_round=4),
        player(4, name="Ida", lives=0, status="eliminated", out_round=2),
    ]
    table = view("game_over", players)
    app = TVApp(
        cast(Any, StillSession(table)), None, catalog, lang="en", join_url="http://x/?room=CAKE"
    )
    app.stage.receive(table, [])
    app.stage.winners = ["p0", "p1"]
    text = final_board(app.props, app.stage).texts()
    assert "Joint winners!" in text
    assert [line for line in text if line[:1].isdigit()] == [
        "1. Sara — joint winner",
        "1. Sam — joint winner",
        "3. Bob — out in round 4",
        "3. Gigi — out in round 4",
        "5. Ida — out in round 2",
    ]


def _trail_of(catalog: Catalog, lang: str, names: tuple[str, ...]) -> TVApp:
    """A TV whose round so far is: each player in turn swapped with the next."""
    players = [player(i, name=name) for i, name in enumerate(names)]
    app = TVApp(
        cast(Any, StillSession(view("turns", players))),
        None,
        catalog,
        lang=lang,
        join_url="http://x/?room=CAKE",
    )
    order = [f"p{i}" for i in range(len(names))]
    moves: list[Any] = [{"type": "round_dealt", "round": 1, "dealer": order[-1], "order": order}]
    moves += [{"type": "exchanged", "player": a, "target": b} for a, b in itertools.pairwise(order)]
    app.stage.receive(view("turns", players), moves)
    app.stage.fast_forward()
    return app


def test_issue12_trail_wraps_long_moves_at_one_size(catalog: Catalog) -> None:
    """Each trail line used to shrink on its own: with 16-character names "Bartholomew-Jone ha
    scambiato con Maximilianus-Ott" came out at 14 px beside 24 px lines. Now every move is
    at 24 px and a long one goes on in a second, indented line; the newest moves are shown."""
    names = ("Bartholomew-Jone", "Maximilianus-Ott", "Chloé", "Wolfgang-Amadeus", "Emma")
    for lang in ("en", "fr", "it"):
        app = _trail_of(catalog, lang, names)
        room = trail_room(seat_spots(len(names)))
        rows = room.height // LINE - 1
        moves = trail_moves(app.props, app.stage, room.width, rows)
        assert {size for size, _ in moves} == {TEXT_SIZE}, lang
        assert any(len(lines) == 2 for _, lines in moves), lang  # a long move wrapped
        assert sum(len(lines) for _, lines in moves) <= rows
        newest = trail_line(app.props, app.stage, app.stage.trail[-1])
        assert " ".join(moves[-1][1]) == newest  # the newest move, whole
        for _, lines in moves:
            for i, line in enumerate(lines):  # a second line is set in, and as much narrower
                limit = room.width - (HANGING_INDENT if i else 0)
                assert app.props.theme.measure(line, TEXT_SIZE) <= limit


def test_issue12_trail_of_short_names_is_one_line_a_move(catalog: Catalog) -> None:
    app = _trail_of(catalog, "en", ("Ana", "Bo", "Cy", "Di", "Ed"))
    room = trail_room(seat_spots(5))
    moves = trail_moves(app.props, app.stage, room.width, room.height // LINE - 1)
    assert [lines for _, lines in moves] == [
        [trail_line(app.props, app.stage, event)] for event in app.stage.trail[-len(moves) :]
    ]
    assert len(moves) == 4  # every move of the round fits


def _played_by_the_tv(seed: int, stop: Callable[[Game], bool]) -> tuple[Game, Stage]:
    """Six computer players play until ``stop``; a TV's stage plays every move as it comes."""
    game, strategies = new_game(6, seed=seed, strategies=("random", "smart"))
    rng = random.Random(seed)
    stage = Stage()
    stage.receive(game.view(None), [])
    for _ in range(MAX_ACTIONS):
        if stop(game):
            break
        who = {"lobby": game.vip, "turns": game.current, "reveal": game.next_dealer}[game.phase]
        assert who is not None
        events = game.apply(who, choose_action(strategies[who], game.view(who), rng))
        stage.receive(game.view(None), [e.to_dict() for e in events])
        stage.fast_forward()
    return game, stage


def _restarted(game: Game) -> Stage:
    """The TV of a host that came back after a crash: it sees only the saved game's view."""
    resumed = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    stage = Stage()
    stage.receive(resumed.view(None), [])
    return stage


def test_r12_final_standings_are_the_same_after_the_host_restarts(catalog: Catalog) -> None:
    """Issue 12's promise "nothing lost when the host crashes": the TV used to learn who went
    out when from the events it played, so a restarted host ranked the knocked-out by seat
    and gave them "0 lives left" instead of the round they went out in."""
    for seed in (1, 2, 3):
        game, played = _played_by_the_tv(seed, lambda g: g.phase == "game_over")
        again = _restarted(game)
        assert len(standings(played)) == 6
        assert standings(again) == standings(played)
        app = _app(catalog)
        told = [final_board(app.props, stage) for stage in (played, again)]
        assert told[1] == told[0]
        assert " ".join(told[1].texts()).count("out in round") == 5  # all but one


def test_issue12_the_trail_is_the_same_after_the_host_restarts_mid_round(
    catalog: Catalog,
) -> None:
    """Someone back from the kitchen reads the round so far, even if the host restarted."""
    for seed in (1, 2, 3):
        game, played = _played_by_the_tv(seed, lambda g: g.phase == "turns" and g.turn_index >= 3)
        again = _restarted(game)
        app = _app(catalog)
        told = [trail_line(app.props, played, e) for e in played.trail]
        assert len(told) == 3
        assert [trail_line(app.props, again, e) for e in again.trail] == told


def _dealer_cuts_twice(seed: int) -> tuple[Game, Stage, list[str]]:
    """Under H3 everyone keeps and the dealer cuts twice; a TV's stage plays every move."""
    game, _ = new_game(4, HouseRules.parse("H3"), seed=seed)
    stage = Stage()
    stage.receive(game.view(None), [])
    kinds: list[str] = []

    def play(who: str | None, action: str) -> None:
        assert who is not None
        events = [e.to_dict() for e in game.apply(who, action)]
        kinds.extend(e["type"] for e in events if e["type"] in ("cut_taken", "cut_king"))
        stage.receive(game.view(None), events)
        stage.fast_forward()

    play(game.vip, "start")
    while game.current != game.dealer:
        play(game.current, "keep")
    play(game.dealer, "cut")
    play(game.dealer, "cut")
    return game, stage, kinds


def test_round43_h3_the_trail_tells_the_second_cut_as_a_second_cut(catalog: Catalog) -> None:
    """round 43 / H3 (double cut): the dealer's second cut read like the first on the TV's
    trail ("Sam cut and took a new card" twice); it now says "cut again", in each language,
    live and on a TV restarted mid-round (which reads the round from the view's log)."""
    app = _app(catalog)
    seen: set[tuple[str, str]] = set()
    for seed in range(40):
        game, stage, kinds = _dealer_cuts_twice(seed)
        dealer = stage.name_of(game.dealer)
        firsts = {"cut_taken": f"{dealer} cut and took a new card"}
        firsts["cut_king"] = f"{dealer} cut a King and kept their card"
        seconds = {"cut_taken": f"{dealer} cut again and took a new card"}
        seconds["cut_king"] = f"{dealer} cut again: a King — kept their card"
        app.props.lang = "en"
        for played in (stage, _restarted(game)):
            told = [trail_line(app.props, played, e) for e in played.trail]
            cuts = [line for line in told if line.startswith(f"{dealer} cut")]
            assert cuts == [firsts[kinds[0]], seconds[kinds[1]]], (seed, told)
        for lang in ("fr", "it"):
            app.props.lang = lang
            first, second = [
                trail_line(app.props, stage, e)
                for e in stage.trail
                if e["type"] in ("cut_taken", "cut_king")
            ]
            assert first != second and second not in seconds.values(), (lang, second)
        seen.add((kinds[0], kinds[1]))
        if {k[1] for k in seen} == {"cut_taken", "cut_king"}:
            break
    assert {k[1] for k in seen} == {"cut_taken", "cut_king"}  # both second-cut endings told


@pytest.mark.parametrize("lang", LANGUAGES)
def test_round46_a_wrapped_move_leaves_no_lone_word_it_could_have_taken_along(
    catalog: Catalog, lang: str
) -> None:
    """Round 46's play-test read "Amélie a échangé avec" over a lone "Benoît", and "Benoît a
    coupé et pris une" over "carte". At every width the trail takes, a move in two lines has
    more than one word on its second line, unless the first line's last word could not join
    it there (the set-in line would then be too wide): "Amélie a échangé" / "avec Benoît"."""
    names = ("Amélie", "Benoît", "Céline", "Damien", "Marie-Éléonore", "Jean-Christophe")
    app = _trail_of(catalog, lang, names)
    order = [f"p{i}" for i in range(len(names))]
    cuts: list[Any] = [
        {"type": "cut_taken", "dealer": "p1"},
        {"type": "cut_king", "dealer": "p1", "king": "KH", "call": Call.CUCKOO},
    ]
    app.stage.receive(view("turns", [player(i, name=n) for i, n in enumerate(names)]), cuts)
    app.stage.fast_forward()
    assert len(app.stage.trail) == len(order) - 1 + len(cuts)
    th = app.props.theme
    wrapped = 0
    for width in (FELT_TRAIL_MIN_WIDTH, *TRAIL_WIDTHS):
        for _, lines in trail_moves(app.props, app.stage, width, 40):
            if len(lines) != 2:
                continue
            wrapped += 1
            first, second = lines
            if " " not in second and " " in first:
                taken = f"{first.rsplit(' ', 1)[1]} {second}"
                assert th.measure(taken, TEXT_SIZE) > width - HANGING_INDENT, (width, lines)
            for i, line in enumerate(lines):
                assert th.measure(line, TEXT_SIZE) <= width - (HANGING_INDENT if i else 0)
    assert wrapped >= 4, lang  # the check saw moves in two lines


#: Round 47: a move broken in two after its colon, at the corner's full width, by language.
AFTER_THE_COLON = {
    "en": ["Zoë cut again:", "a King \u2014 kept their card"],
    "fr": ["Redistribuée\u00a0:", "Zoë a quitté la table"],
    "it": ["Carte ridate:", "Zoë ha lasciato il tavolo"],
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_round47_a_move_in_two_lines_breaks_after_its_colon(catalog: Catalog, lang: str) -> None:
    """Broken only evenly, the story of the round cut a clause after its first word: "Zoë cut
    again: a" over "King — kept their card", Italian "Carte ridate: Zoë ha" over "lasciato il
    tavolo"; a move in two lines breaks after its colon where the lines stay fair, as the
    caption bar breaks after a sentence (``Theme.evenly``)."""
    names = ("Amélie", "Zoë", "Céline", "Damien")
    app = _trail_of(catalog, lang, names)
    events: list[Any] = [
        {"type": "misdeal", "reason": RedealReason.PLAYER_LEFT, "player": "p1", "name": "Zoë"},
        {"type": "cut_taken", "dealer": "p1"},
        {"type": "cut_king", "dealer": "p1", "king": "KH", "call": Call.CUCKOO},
    ]
    app.stage.receive(view("turns", [player(i, name=n) for i, n in enumerate(names)]), events)
    app.stage.fast_forward()
    assert len(app.stage.trail) == 3
    moves = [lines for _, lines in trail_moves(app.props, app.stage, TRAIL_WIDTHS[0], 40)]
    assert AFTER_THE_COLON[lang] in moves, moves


@pytest.mark.parametrize("lang", LANGUAGES)
def test_round47_a_move_in_two_lines_ends_no_line_with_a_lone_letter(
    catalog: Catalog, lang: str
) -> None:
    """The README's Cuckoo screenshot read "Ada showed a" over "King to François": a word of
    one letter (English "a", French "à", Italian "a", "e") belongs to the word after it, so a
    move in two lines breaks elsewhere when it can (``Theme.evenly``), at every corner width
    where the move takes two lines (a narrower corner may have no other break that fits)."""
    names = ("Ana", "Ada", "François", "Chloé")
    app = _trail_of(catalog, lang, names)
    blocked: Any = {
        "type": "blocked",
        "player": "p2",
        "target": "p1",
        "king": "KS",
        "call": Call.CUCKOO,
    }
    app.stage.receive(view("turns", [player(i, name=n) for i, n in enumerate(names)]), [blocked])
    app.stage.fast_forward()
    broken = []
    for width in range(FELT_TRAIL_MIN_WIDTH, TRAIL_WIDTHS[0] + 1, 10):
        lines = trail_moves(app.props, app.stage, width, 4)[-1][1]
        if len(lines) == 2:
            broken.append(lines)
            assert not re.search(r"(^|\s)\w$", lines[0]), (width, lines)
    assert len(broken) >= 3, broken  # the move did take two lines at several widths
