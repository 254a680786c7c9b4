"""Issue 12 item 1 — the TV leads: phones learn an outcome only when the TV shows it.

A real session, and the TV's real model of the table (``host.tv.stage.Stage``, no pygame)
driven with a fake clock: the test steps the TV's time itself and checks, at every moment,
what every phone's view holds against what the TV has played.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from host.pacing import STALL_SECONDS, Pacer, Shown, Unseen, present
from host.rules import EventDict, game_moves
from host.rules.contract import KeepReason, RevealEvent
from host.session import Session
from host.tv.stage import Stage, reveal_marked_at

NAMES = ("Ana", "Bea", "Cal", "Dan")


class TV:
    """The TV's stage following the session as ``TVApp`` does, with time in the test's hands."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.stage = Stage()
        self.stage.on_shown = session.tv_shown
        self.subscription = session.lead()

    def pump(self) -> None:
        while (update := self.subscription.get(0.0)) is not None:
            self.stage.receive(update.view, list(update.events))

    def play(
        self, seconds: float, dt: float = 0.05, check: Callable[[], None] | None = None
    ) -> None:
        for _ in range(round(seconds / dt)):
            self.pump()
            self.stage.update(dt)
            if check is not None:
                check()

    def finish(self, check: Callable[[], None] | None = None) -> None:
        for _ in range(4000):
            self.pump()
            if not self.stage.animating:
                return
            self.stage.update(0.05)
            if check is not None:
                check()
        raise AssertionError("the TV never finished playing")


def _table(make_session: Callable[..., Session], rules: str = "") -> tuple[Session, list[str]]:
    session = make_session(rules)
    ids = [session.join(name, "TEST").player_id for name in NAMES]
    return session, ids


def _cards_of_others(view: Mapping[str, Any]) -> dict[str, str]:
    me = view["me"]["id"]
    return {p["id"]: p["card"] for p in view["players"] if p["id"] != me and p["card"]}


def _to_dealer(session: Session, tv: TV | None) -> None:
    """Everyone but the dealer keeps (as soon as the TV — if any — shows their turn)."""
    for _ in range(40):
        table = session.view(None)
        if table["current"] == table["dealer"]:
            return
        current = table["current"]
        assert current is not None
        if tv is not None:
            while "keep" not in session.view(current)["can"]:
                tv.play(0.1)
        session.act(current, "keep", table["step"])
    raise AssertionError("the turns never reached the dealer")


def _start_to_the_dealers_turn(session: Session, tv: TV, ids: list[str]) -> str:
    """Start the game and keep for everyone but the dealer, the TV playing along; the TV has
    played it all. Returns the dealer, whose move it is."""
    session.act(ids[0], "start", 0)
    tv.finish()
    _to_dealer(session, tv)
    tv.finish()
    dealer = session.view(None)["dealer"]
    assert dealer is not None
    return dealer


def test_issue12_headless_views_are_never_delayed(make_session: Callable[..., Session]) -> None:
    session, ids = _table(make_session)
    session.act(ids[0], "start", 0)
    _to_dealer(session, None)
    dealer = session.view(None)["dealer"]
    assert dealer is not None
    session.act(dealer, "keep", session.step)
    for pid in ids:
        assert session.view(pid) == session.view(pid, paced=False)
        assert session.view(pid)["phase"] in ("reveal", "game_over")


def test_issue12_reveal_reaches_phones_card_by_card_with_the_tv(
    make_session: Callable[..., Session],
) -> None:
    session, ids = _table(make_session)
    tv = TV(session)
    phones = {pid: session.subscribe(pid, presence=False) for pid in ids}
    dealer = _start_to_the_dealers_turn(session, tv, ids)
    answer = session.act(dealer, "keep", session.step)
    final = {pid: session.view(pid, paced=False) for pid in ids}
    reveal = next(e for e in final[ids[0]]["log"] if e["type"] == "reveal")
    # The dealer's own answer and every phone: no other card, no loser before the TV plays.
    for view in [answer, *(session.view(pid) for pid in ids)]:
        assert _cards_of_others(view) == {} and view["losers"] == []
        assert view["lowest"] is None and "deal" not in view["can"]
        assert not any(e["type"] == "reveal" for e in view["log"])
    lives_at_start = {p["id"]: p["lives"] for p in session.view(ids[0])["players"]}
    most_cards_seen = 0

    def check() -> None:
        nonlocal most_cards_seen
        beat = tv.stage.beat
        on_tv = {s.id: s for s in tv.stage.players}
        for pid in ids:
            view = session.view(pid)
            others = _cards_of_others(view)
            # Every card a phone holds is face up on the TV (or the phone's own).
            for other, card in others.items():
                assert on_tv[other].card == card or (
                    beat is not None
                    and beat.kind == "reveal"
                    and _face_up_in_reveal(tv.stage, other)
                ), f"{pid} saw {other}'s card early"
            most_cards_seen = max(most_cards_seen, len(others))
            for player in view["players"]:
                tv_lives = on_tv[player["id"]].lives
                if (
                    beat is not None
                    and beat.event["type"] == "life_lost"
                    and beat.event["player"] == player["id"]
                ):
                    tv_lives = int(beat.event["lives"])
                assert player["lives"] >= tv_lives, f"{pid} saw a life lost before the TV"
            if view["winners"]:
                assert tv.stage.phase == "game_over"

    while tv.stage.beat is None or tv.stage.beat.kind != "reveal":
        tv.play(0.05, check=check)
    tv.play(reveal_marked_at(len(ids)) / 2, check=check)
    assert 0 < most_cards_seen < len(ids) - 1  # cards are coming up one after another
    tv.finish(check=check)
    for pid in ids:  # once the TV has played it all, the final view is unchanged
        assert session.view(pid) == final[pid]
    lost = [e["player"] for e in final[ids[0]]["log"] if e["type"] == "life_lost"]
    assert lost and all(
        final[ids[0]]["players"][ids.index(p)]["lives"] < lives_at_start[p] for p in lost
    )
    assert set(reveal["cards"]) == set(ids)
    # The stream of each phone ended on that same final view.
    for pid, subscription in phones.items():
        last = None
        while (update := subscription.get(0.0)) is not None:
            last = update
        assert last is not None and last.view == final[pid]


def test_issue12_tonights_standings_wait_for_the_tv_too(
    make_session: Callable[..., Session],
) -> None:
    """R15 as the TV plays it: tonight's standings (their order, rounds survived, lives lost,
    wins) tell who lost as plainly as the lives do, so a phone gets the standings from before
    the reveal until the TV has played all of it; then the final ones, unchanged."""
    session, ids = _table(make_session)
    tv = TV(session)
    dealer = _start_to_the_dealers_turn(session, tv, ids)
    before = session.view(None)["standings"]
    answer = session.act(dealer, "keep", session.step)
    final = session.view(None)["standings"]
    final_lives = [p["lives"] for p in session.view(None)["players"]]
    assert final != before  # the reveal changed the tally: someone survived, someone lost
    assert answer["standings"] == before  # the dealer's own answer too
    held = 0

    def check() -> None:
        nonlocal held
        for pid in ids:
            view = session.view(pid)
            if [p["lives"] for p in view["players"]] != final_lives:  # a life still to lose
                assert view["standings"] == before, f"{pid} saw the tally early"
                held += 1
            else:
                assert view["standings"] in (before, final)

    tv.play(0.5, check=check)
    tv.finish(check=check)
    assert held > 0
    for pid in ids:
        assert (
            session.view(pid)["standings"] == final == session.view(pid, paced=False)["standings"]
        )


def _face_up_in_reveal(stage: Stage, player: str) -> bool:
    from host.tv.table import card_look

    seat = stage.seat_of(player)
    return seat is not None and card_look(stage, seat).kind in ("face", "flip")


def test_issue12_a_reloading_phone_gets_what_the_tv_shows(
    make_session: Callable[..., Session],
) -> None:
    session, ids = _table(make_session)
    tv = TV(session)
    dealer = _start_to_the_dealers_turn(session, tv, ids)
    session.act(dealer, "keep", session.step)
    count = len(ids)
    while tv.stage.beat is None or tv.stage.beat.kind != "reveal":
        tv.play(0.05)
    tv.play(reveal_marked_at(count) / 2)
    fresh = session.subscribe(ids[1], presence=False).get(0.0)
    assert fresh is not None and fresh.view == session.view(ids[1])
    assert fresh.view["phase"] == "reveal" and fresh.view["losers"] == []
    assert 0 < len(_cards_of_others(fresh.view)) < count - 1


def test_issue12_reveal_is_a_real_beat() -> None:
    for players, low, high in ((4, 3.0, 5.0), (10, 3.0, 5.2)):
        from host.tv.stage import beat_length

        cards = {f"p{i}": "2S" for i in range(players)}
        length = beat_length({"type": "reveal", "cards": cards, "lowest": "2", "losers": []})
        assert low <= length <= high, (players, length)


#: One public move for the pacer to hold for the TV: p1 kept.
P1_KEPT: EventDict = {
    "type": "kept",
    "player": "p1",
    "auto": False,
    "timed_out": False,
    "reason": KeepReason.CHOSEN,
}


def test_issue12_a_stalled_tv_never_freezes_the_game() -> None:
    now = [100.0]
    pacer = Pacer(clock=lambda: now[0])
    pacer.lead(watchdog=False)
    pacer.sent([P1_KEPT], {})
    assert pacer.holding()
    now[0] += STALL_SECONDS - 0.1
    assert not pacer.release_if_stalled()
    now[0] += 0.2
    assert pacer.release_if_stalled() and not pacer.holding()


def test_a_frozen_host_is_no_stalled_tv() -> None:
    """``host/stall.py``: the whole host (its TV with it) stopped for 90 s is not the TV's stall;
    phones keep waiting for the TV, which is skipped only after ``STALL_SECONDS`` it ran."""
    now = [100.0]
    pacer = Pacer(clock=lambda: now[0])
    pacer.lead(watchdog=False)
    pacer.sent([P1_KEPT], {})
    now[0] += 3.0
    asleep_at = now[0]
    now[0] += 0.5 + 90.0  # the watchdog's wait, stopped in the middle for 90 s
    assert not pacer.woke(asleep_at, 0.5) and pacer.holding()
    asleep_at = now[0]
    now[0] += STALL_SECONDS - 3.5 - 0.1
    assert not pacer.woke(asleep_at, STALL_SECONDS - 3.6) and pacer.holding()
    asleep_at = now[0]
    now[0] += 0.2
    assert pacer.woke(asleep_at, 0.2) and not pacer.holding()


def test_issue12_a_block_shows_on_phones_when_the_tv_calls_it() -> None:
    view: dict[str, Any] = {
        "phase": "turns",
        "me": {"id": "p1", "card": "4H", "history": []},
        "can": [],
        "players": [
            {"id": "p1", "card": None, "lives": 3, "status": "active"},
            {"id": "p2", "card": "KS", "lives": 3, "status": "active"},
        ],
        "shown": {"p2": "KS"},
        "current": "p2",
        "order": ["p1", "p2"],
        "log": [
            {"type": "turn", "player": "p1"},
            {"type": "blocked", "player": "p1", "target": "p2", "king": "KS", "call": "cuckoo"},
            {"type": "turn", "player": "p2"},
        ],
    }
    unseen = [Unseen(e.copy()) for e in view["log"][1:]]
    masked = present(view, unseen)
    assert masked["players"][1]["card"] is None and masked["shown"] == {}
    assert masked["current"] == "p1" and len(masked["log"]) == 1
    assert present(view, unseen[1:])["players"][1]["card"] == "KS"
    assert view["shown"] == {"p2": "KS"}  # the session's own view is never changed


def test_issue12_a_swap_reaches_the_traders_when_the_tv_plays_it() -> None:
    swap = {"type": "swap", "player": "p1", "target": "p2", "gave": "3C", "got": "9D"}
    view: dict[str, Any] = {
        "phase": "turns",
        "me": {"id": "p2", "card": "3C", "history": [swap]},
        "can": ["keep"],
        "players": [{"id": "p1", "card": None}, {"id": "p2", "card": None}],
        "shown": {},
        "current": "p2",
        "order": ["p1", "p2"],
        "log": [
            {"type": "turn", "player": "p1"},
            {"type": "exchanged", "player": "p1", "target": "p2"},
            {"type": "turn", "player": "p2"},
        ],
    }
    masked = present(view, [Unseen(e.copy()) for e in view["log"][1:]])
    assert masked["me"]["card"] == "9D" and masked["me"]["history"] == []
    assert masked["can"] == [] and masked["current"] == "p1"
    shown_swap = present(view, [Unseen(view["log"][2].copy())])
    assert shown_swap["me"]["card"] == "3C" and shown_swap["can"] == []


def test_issue12_pacer_counts_what_the_tv_has_begun() -> None:
    pacer = Pacer()
    pacer.lead(watchdog=False)
    reveal: RevealEvent = {
        "type": "reveal",
        "cards": {"p1": "2S", "p2": "9H"},
        "lowest": "2",
        "losers": ["p1"],
    }
    pacer.sent(
        [reveal, {"type": "life_lost", "player": "p1", "lives": 1, "lost": 1, "timed_out": False}],
        {"p1": 1, "p2": 3},
    )
    assert pacer.show(Shown(1, 1, False)) and pacer.holding()
    assert pacer.show(Shown(1, 2, True)) and pacer.holding()  # the life is not lost yet
    assert pacer.show(Shown(2)) and not pacer.holding()
    pacer.resign()


def test_issue12_h4_penalty_lives_come_back_exactly() -> None:
    pacer = Pacer()
    pacer.sent([], {"p1": 3})
    pacer.lead(watchdog=False)
    pacer.sent(
        [{"type": "life_lost", "player": "p1", "lives": 1, "lost": 1, "timed_out": True}], {"p1": 1}
    )
    view: dict[str, Any] = {
        "phase": "reveal",
        "me": None,
        "can": [],
        "losers": ["p1"],
        "players": [{"id": "p1", "lives": 1, "card": "2S"}],
        "log": [],
    }
    assert pacer.present(view)["players"][0]["lives"] == 3


def test_issue12_the_dealers_cut_reaches_the_dealer_when_the_tv_plays_it() -> None:
    cut = {"type": "cut_card", "dealer": "p2", "card": "9S", "discarded": "3D"}
    view: dict[str, Any] = {
        "phase": "turns",
        "me": {"id": "p2", "card": "9S", "history": [cut]},
        "can": [],
        "players": [{"id": "p1", "card": None}, {"id": "p2", "card": None}],
        "shown": {},
        "current": "p2",
        "order": ["p1", "p2"],
        "discard_count": 1,
        "log": [
            {"type": "turn", "player": "p2"},
            {"type": "cut", "dealer": "p2", "attempt": 1},
            {"type": "cut_taken", "dealer": "p2"},
        ],
    }
    masked = present(view, [Unseen(e.copy()) for e in view["log"][1:]])
    assert masked["me"]["card"] == "3D" and masked["me"]["history"] == []
    assert masked["discard_count"] == 0 and len(masked["log"]) == 1
    assert present(view, [])["me"]["card"] == "9S"


def _codes(view: Mapping[str, Any]) -> set[str]:
    """Every card code anywhere in a view."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif (
            isinstance(value, str)
            and 2 <= len(value) <= 3
            and value[-1] in "SHDC"
            and value[:-1] in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
        ):
            found.add(value)

    walk(value=view)
    return found


def _random_moments(
    session: Session, tv: TV, ids: list[str], rng: random.Random, steps: int
) -> Iterator[None]:
    """Start, then random moves by whoever may act while the TV plays at a random pace: yields
    after each of the TV's steps, before the next move, until the game is over or ``steps``."""
    session.act(ids[0], "start", 0)
    for _ in range(steps):
        tv.play(rng.choice((0.05, 0.2, 0.6)))
        yield
        if session.view(None)["phase"] == "game_over":
            return
        for pid in ids:
            view = session.view(pid)
            if game_moves(view["can"]):
                session.act(pid, rng.choice(game_moves(view["can"])), view["step"])
                break


def test_issue12_a_paced_view_never_holds_a_card_its_receiver_may_not_see(
    make_session: Callable[..., Session],
) -> None:
    """Random games, random TV pace: every paced view is checked against the engine's own
    independent rule (``host.rules.views.may_see``) — masking only ever hides or gives back
    the receiver's own earlier card."""
    from host.rules.views import may_see

    for seed in range(3):
        session = make_session("H3", seed=seed)
        ids = [session.join(name, "TEST").player_id for name in (*NAMES, "Eve")]
        for _ in _random_moments(session, TV(session), ids, random.Random(seed), 400):
            game = session._game  # the test is the referee: it may look at the engine
            for pid in [*ids, None]:
                view = session.view(pid, paced=True)
                assert _codes(view) <= {str(c) for c in may_see(game, pid)}, (seed, pid)
            rounds = session.view(None)["round"]
        assert rounds >= 3, "the random game should reach a few reveals"


def test_r12_r15_a_paced_view_names_the_round_someone_went_out_in_only_once_they_are_out(
    make_session: Callable[..., Session],
) -> None:
    """``players[].out_round`` tells an elimination as plainly as ``status``: while the TV has
    not played it, a phone sees neither (R15 as the TV plays it)."""
    held = 0
    for seed in range(3):
        session = make_session(seed=seed)
        ids = [session.join(name, "TEST").player_id for name in NAMES]
        for _ in _random_moments(session, TV(session), ids, random.Random(seed), 600):
            truth = {p["id"]: p["out_round"] for p in session.view(None)["players"]}
            for pid in ids:
                for seat in session.view(pid)["players"]:
                    out = seat["status"] == "eliminated"
                    assert (seat["out_round"] is not None) == out, (seed, pid, seat)
                    if out:
                        assert seat["out_round"] == truth[seat["id"]]
                    elif truth[seat["id"]] is not None:
                        held += 1  # out in the engine, not yet on the TV
    assert held > 0, "the TV never lagged behind an elimination: the test proved nothing"


@pytest.mark.parametrize(("rules", "seed"), [("H3", 0), ("H4,H5", 1), ("H1,H2", 2), ("", 3)])
def test_issue18_one_masking_of_the_table_per_change_gives_every_phone_its_own_view(
    make_session: Callable[..., Session], rules: str, seed: int
) -> None:
    """Issue 18.1 with a TV: the fan-out masks the table once per change and each phone's
    ``me`` and ``can`` alone (``present(…, public=…)``). Checked at random moments of the TV
    (a reveal half turned, a swap not yet played, a cut, lives lost, eliminations) against
    masking each phone's whole view, the path ``session.view`` takes: equal, for every
    player, so no phone sees more (or less) than before (RULES.md "Hidden information")."""
    session = make_session(rules, seed=seed)
    ids = [session.join(name, "TEST").player_id for name in (*NAMES, "Eve")]
    compared = 0
    for _ in _random_moments(session, TV(session), ids, random.Random(seed), 500):
        masking = session._pacer.masking()
        if masking is not None:
            with session._lock:
                public = session._public_locked()
                views = {pid: session._player_locked(public, pid) for pid in ids}
            shown = masking.present(public)
            for pid, view in views.items():
                assert masking.present(view, public=shown) == masking.present(view), (pid, seed)
                compared += 1
    assert compared > 100  # the TV was behind often enough for the check to mean something


def test_round42_r14_the_last_games_winner_waits_for_the_tv_in_the_next_lobby(
    make_session: Callable[..., Session],
) -> None:
    """Round 42 / R14: the next game's lobby names the last game's winner (``last_winners``),
    but never before the TV has shown the end: the TV's host may press Space for the next
    game while the TV still plays the last reveal, and the phones, already in the lobby, get
    neither the winner nor the tally counting the win until the TV shows the game's end."""
    from tests.phone.helpers import rigged_reveal

    session, ids = _table(make_session)
    tv = TV(session)
    session.act(ids[0], "start", 0)
    tv.finish()
    before = session.view(None)["standings"]
    cards = dict(zip(ids, ("KH", "2S", "2C", "2D"), strict=True))
    table = rigged_reveal(session, cards, lives={pid: 1 for pid in ids[1:]})
    assert table["phase"] == "game_over" and table["winners"] == [ids[0]]
    session.host_next()  # the TV's Space, before it played the reveal
    won = [{"player": ids[0], "name": "Ana"}]
    told = 0

    def check() -> None:
        nonlocal told
        for pid in ids:
            view = session.view(pid)
            assert view["phase"] == "lobby"
            if tv.stage.phase != "game_over" and not told:
                assert view["last_winners"] == [], f"{pid} was told before the TV showed it"
                assert view["standings"] == before
            elif view["last_winners"] == won:
                told += 1

    check()
    tv.play(0.5, check=check)
    tv.finish(check=check)
    assert told > 0
    for pid in ids:
        assert session.view(pid)["last_winners"] == won


def test_round46_r14_a_walkover_reaches_phones_when_the_tv_plays_it() -> None:
    """Round 46: the game's end by walkover is the TV's to show first, like any game's end:
    until it plays the ``game_over``, a phone's view names no winner and no walkover."""
    over: EventDict = {"type": "game_over", "winners": ["p1"], "joint": False, "walkover": True}
    view: dict[str, Any] = {
        "phase": "game_over",
        "me": {"id": "p1", "card": "4H", "history": []},
        "can": [],
        "players": [{"id": "p1", "card": "4H", "lives": 3, "status": "active"}],
        "winners": ["p1"],
        "walkover": True,
        "order": ["p1"],
        "log": [{"type": "player_removed", "player": "p2", "name": "Bea"}, over],
    }
    masked = present(view, [Unseen(over.copy())])
    assert masked["winners"] == [] and masked["walkover"] is False
    assert masked["phase"] == "turns"  # mid-round: there was no reveal to show meanwhile
    after_reveal = present({**view, "lowest": "4"}, [Unseen(over.copy())])
    assert after_reveal["phase"] == "reveal"
    assert present(view, [])["walkover"] is True
    assert view["walkover"] is True  # the session's own view is never changed
