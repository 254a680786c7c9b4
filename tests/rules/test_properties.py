"""Property tests over random games: the engine's invariants hold whatever legal moves are made."""

from __future__ import annotations

import json
import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from host.rules import CARD_CODES, EventDict, Game, HouseRules, IllegalAction, may_see
from host.rules.options import RULE_FIELDS

CARD_PATTERN = re.compile(r'"(10|[A2-9JQK])([SHDC])"')

house_rules = st.builds(HouseRules, **{name: st.booleans() for name in RULE_FIELDS.values()})


def cards_in(payload: object) -> set[str]:
    """Every card code appearing as a JSON string anywhere in ``payload``."""
    found = {m.group(1) + m.group(2) for m in CARD_PATTERN.finditer(json.dumps(payload))}
    assert found <= CARD_CODES
    return found


def actor(game: Game) -> str:
    who = {"lobby": game.vip, "turns": game.current, "reveal": game.next_dealer}[game.phase]
    assert who is not None
    return who


def check_cards_accounted(game: Game) -> None:
    if game.phase != "turns":
        return
    held = [game.player(pid).card for pid in game.order]
    everything = held + game.stock + game.discard + game.set_aside
    assert len(everything) == 52 and len(set(everything)) == 52


def check_views_private(game: Game) -> None:
    viewers: list[str | None] = [None] + [p.id for p in game.players]
    for viewer in viewers:
        leaked = cards_in(game.view(viewer)) - may_see(game, viewer)
        assert not leaked, (viewer, game.phase, leaked)


def play_random_game(
    players: int, options: HouseRules, seed: int, extras: bool = True
) -> tuple[Game, list[EventDict]]:
    """A whole game of random legal moves, sometimes a misdeal, a timeout or a late joiner."""
    rng = random.Random(seed)
    game = Game(options, random.Random(seed))
    for i in range(players):
        game.add_player(f"p{i}", f"P{i}")
    log: list[EventDict] = []
    lives = {p.id: p.lives for p in game.players}
    turns: dict[str, int] = {}
    dealt_round, out_in = 0, {}  # R12: the round each player went out in, from the events
    late = 0
    for _ in range(5000):
        if game.phase == "game_over":
            break
        if game.phase == "lobby" and len(game.active_ids()) < 3:
            break  # kicks emptied the table before the first deal
        if game.phase == "turns" and extras and rng.random() < 0.03:
            events = game.timeout() if rng.random() < 0.5 else game.misdeal()
        elif (
            game.phase == "turns"
            and extras
            and rng.random() < 0.01
            and len(game.players) < options.max_players
        ):
            late += 1
            events = game.add_player(f"late{late}", f"Late {late}")
        elif extras and rng.random() < 0.005 and len(game.players) > 3:
            events = game.remove_player(rng.choice(game.players).id)  # a kick, any time
        else:
            who = actor(game)
            events = game.apply(who, rng.choice(game.legal_actions(who)))
        dicts = [e.to_dict() for e in events]
        log += dicts
        for event in dicts:
            if event["type"] == "round_dealt":
                turns = {pid: 0 for pid in event["order"]}
                dealt_round = event["round"]
            elif event["type"] == "eliminated":
                out_in[event["player"]] = dealt_round
            elif event["type"] == "turn":
                turns[event["player"]] += 1
            elif event["type"] == "player_removed":
                turns.pop(event["player"], None)
            elif event["type"] == "reveal":
                assert set(turns) == set(event["cards"])
                assert all(count == 1 for count in turns.values()), turns  # R6
        if game.phase != "lobby":
            for p in game.players:  # R11: nobody ever gains a life
                assert p.lives <= lives.get(p.id, p.lives)
                lives[p.id] = p.lives
        check_cards_accounted(game)
        check_views_private(game)
        seats = {p["id"]: p["out_round"] for p in game.view(None)["players"]}
        assert seats == {p.id: out_in.get(p.id) for p in game.players}  # R12, kept on the seat
    assert game.phase == "game_over" or len(game.active_ids()) < 3
    return game, log


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 20), options=house_rules, seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_every_invariant(players: int, options: HouseRules, seed: int) -> None:
    players = min(players, options.max_players)
    game, _ = play_random_game(players, options, seed)
    if game.phase != "game_over":
        return  # kicks emptied the table in the lobby
    assert len(game.winners) >= 1  # R14: every game ends with at least one winner
    if len(game.winners) > 1:
        assert not options.sudden_death  # H5 replaces joint winners


@settings(max_examples=15, deadline=None)
@given(players=st.integers(3, 10), options=house_rules, seed=st.integers(0, 2**32 - 1))
def test_replay_with_same_seed_gives_same_game(
    players: int, options: HouseRules, seed: int
) -> None:
    first = play_random_game(players, options, seed)[1]
    again = play_random_game(players, options, seed)[1]
    assert first == again


@settings(max_examples=25, deadline=None)
@given(players=st.integers(3, 10), seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 40))
def test_save_and_load_resumes_exactly(players: int, seed: int, cut: int) -> None:
    """A game saved mid-way and loaded plays on exactly like the original (same RNG state)."""
    rng_a, rng_b = random.Random(seed), random.Random()
    game = Game(HouseRules(), random.Random(seed))
    for i in range(players):
        game.add_player(f"p{i}", f"P{i}")
    for _ in range(cut):
        if game.phase == "game_over":
            break
        who = actor(game)
        game.apply(who, rng_a.choice(game.legal_actions(who)))
    copy = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    rng_b.setstate(rng_a.getstate())
    for _ in range(3000):
        if game.phase == "game_over":
            break
        assert copy.view(None) == game.view(None)
        who = actor(game)
        choice_a = rng_a.choice(game.legal_actions(who))
        choice_b = rng_b.choice(copy.legal_actions(who))
        assert [e.to_dict() for e in game.apply(who, choice_a)] == [
            e.to_dict() for e in copy.apply(who, choice_b)
        ]
    assert copy.to_dict() == game.to_dict()


def test_refused_actions_change_nothing_in_any_phase() -> None:
    game = Game(HouseRules(), random.Random(5))
    for i in range(4):
        game.add_player(f"p{i}", f"P{i}")
    rng = random.Random(5)
    for _ in range(400):
        if game.phase == "game_over":
            break
        before = game.to_dict()
        for pid in ("p0", "p1", "p2", "p3", "ghost"):
            for action in ("start", "keep", "exchange", "cut", "deal", "new_game", "fold"):
                if game.has_player(pid) and action in game.legal_actions(pid):
                    continue
                try:
                    game.apply(pid, action)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"{action} by {pid} should be refused")
                assert game.to_dict() == before
        who = actor(game)
        game.apply(who, rng.choice(game.legal_actions(who)))


@settings(max_examples=20, deadline=None)
@given(players=st.integers(3, 8), options=house_rules, seed=st.integers(0, 2**32 - 1))
def test_apply_accepts_exactly_the_legal_actions(
    players: int, options: HouseRules, seed: int
) -> None:
    """``apply`` has a fast path for the current player's move: in every state it must accept
    exactly what ``legal_actions`` lists, for every player and every action."""
    rng = random.Random(seed)
    game = Game(options, random.Random(seed))
    for i in range(players):
        game.add_player(f"p{i}", f"P{i}")
    for _ in range(300):
        if game.phase == "game_over":
            break
        snapshot = game.to_dict()
        for pid in [p.id for p in game.players]:
            for action in ("start", "keep", "exchange", "cut", "deal", "new_game"):
                trial = Game.from_dict(snapshot)
                try:
                    trial.apply(pid, action)
                    accepted = True
                except IllegalAction:
                    accepted = False
                assert accepted == (action in game.legal_actions(pid)), (pid, action, game.phase)
        who = actor(game)
        game.apply(who, rng.choice(game.legal_actions(who)))
