"""Issue 18.1: one fan-out per change — one public view, each player's part added, encoded once.

Checked over seeded games through the session: every update a subscriber gets equals the view
built for that receiver alone at that moment, its event-stream message is exactly the
PHONE_API.md wire format (``data: <compact JSON>`` and a blank line, non-ASCII as is), it
leaks no card (RULES.md "Hidden information"), and equal updates are built and encoded once.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from host.rules import may_see
from host.session import Session
from host.subscriptions import Subscription, Update
from host.view_text import ViewText, encode_view, sse_message
from tests.clock import Clock
from tests.rules.helpers import count_event_dicts
from tests.rules.test_properties import cards_in
from tests.session.test_pacing import TV

GAME_MOVES = ("start", "keep", "exchange", "cut", "deal")
NAMES = ("Zoë", "Bea", "渡辺", "Cal", 'Ö\'Neil "O"', "Dan")


def _wire(view: Mapping[str, Any]) -> bytes:
    """The stream's message as phone_web/api.py wrote it before issue 18 (the contract)."""
    data = json.dumps(view, ensure_ascii=False, separators=(",", ":"))
    return f"data: {data}\n\n".encode()


def _drain(subscription: Subscription) -> list[Update]:
    updates = []
    while (update := subscription.get(timeout=0)) is not None:
        updates.append(update)
    return updates


def _tap(session: Session, rng: random.Random) -> bool:
    """A random legal game move by whoever may act; False once the game is over."""
    table = session.view(None)
    if table["phase"] == "game_over":
        return False
    who = {"lobby": table["vip"], "turns": table["current"], "reveal": table["next_dealer"]}[
        table["phase"]
    ]
    if who is None:
        return True  # the TV has not announced it yet
    moves = [
        m for m in session.view(who)["can"] if m in ("start", "keep", "exchange", "cut", "deal")
    ]
    if moves:
        session.act(who, rng.choice(moves), table["step"])
    return True


def _check(session: Session, subs: dict[str | None, Subscription]) -> None:
    """Each subscriber's last update: its receiver's view now, on the wire, leaking nothing."""
    game = session._game  # the rules' own statement of who may see what
    for pid, sub in subs.items():
        updates = _drain(sub)
        if not updates:
            continue
        last = updates[-1]
        alone = session.view(pid)
        assert last.view == alone, pid
        for update in updates:
            assert update.sse() == _wire(update.view), pid
        leaked = cards_in(last.view) - may_see(game, pid)
        assert not leaked, (pid, leaked)


@pytest.mark.parametrize("seed", range(12))
def test_issue18_hidden_information_every_update_is_the_receivers_own_view_on_the_wire(
    make_session: Callable[..., Session], seed: int
) -> None:
    rules = random.Random(seed).choice(["", "H1", "H3", "H2,H3", "H5", "H7"])
    # A stopped clock: a view built later agrees with the one sent on the time left.
    session = make_session(rules, seed=seed, clock=Clock())
    ids = [session.join(name, "TEST").player_id for name in NAMES[: 3 + seed % 4]]
    subs: dict[str | None, Subscription] = {pid: session.subscribe(pid) for pid in ids}
    subs[None] = session.subscribe(None, presence=False)
    rng = random.Random(seed)
    _check(session, subs)
    for _ in range(400):
        if not _tap(session, rng):
            break
        _check(session, subs)
    assert session.view(None)["phase"] == "game_over"


def test_issue18_hidden_information_paced_updates_on_the_wire(
    make_session: Callable[..., Session],
) -> None:
    """With the TV leading, phones' views are rewritten by the pacer: still exact and private."""
    # A stopped clock: a view built later agrees with the one sent on the time left.
    session = make_session("", seed=5, clock=Clock())
    ids = [session.join(name, "TEST").player_id for name in NAMES[:4]]
    tv = TV(session)
    subs: dict[str | None, Subscription] = {pid: session.subscribe(pid) for pid in ids}
    rng = random.Random(5)
    held = 0
    for _ in range(2000):
        if not _tap(session, rng) or session.view(None)["round"] > 3:
            break
        held += session._pacer.holding()  # the case this test is about
        _check(session, subs)  # before the TV plays: what the pacer holds back stays back
        tv.play(0.3)
        _check(session, subs)
    assert session.view(None)["round"] > 3 or session.view(None)["phase"] == "game_over"
    assert held > 0


def test_issue18_equal_updates_are_built_and_encoded_once(session: Session) -> None:
    ids = [session.join(name, "TEST").player_id for name in NAMES[:3]]
    public = [session.subscribe(None, presence=False) for _ in range(3)]
    mine = [session.subscribe(ids[0], presence=False) for _ in range(2)]
    for sub in public + mine:
        _drain(sub)
    session.act(ids[0], "start", 0)
    [first, *others] = [_drain(sub)[-1] for sub in public]
    assert all(update is first for update in others)
    a, b = (_drain(sub)[-1] for sub in mine)
    assert a is b and a.sse() is b.sse()  # encoded once, the same bytes for both
    assert a.view["players"] is first.view["players"]  # the public part is built once


def _dicts_made_by_a_start(
    make_session: Callable[..., Session], phones: int, monkeypatch: pytest.MonkeyPatch
) -> int:
    """How many event dicts one change (the deal: public events and a card each) makes."""
    session = make_session("H7", seed=3)
    ids = [session.join(f"P{i}", "TEST").player_id for i in range(phones)]
    for pid in ids:
        session.subscribe(pid)
    made = count_event_dicts(monkeypatch)
    session.act(ids[0], "start", 0)
    monkeypatch.undo()
    return made()


def test_issue18_a_change_makes_its_event_dicts_once_however_many_phones(
    make_session: Callable[..., Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 18.1: each phone's update lists the events it may see (its own card among
    them, R5), from dicts made once per change. So twelve more phones cost only their own
    dealt cards (each once in the change's dicts, once in its holder's ``me.history``), not
    a copy of every public event each (5 dicts a phone before: 25 at four, 85 at sixteen)."""
    four = _dicts_made_by_a_start(make_session, 4, monkeypatch)
    sixteen = _dicts_made_by_a_start(make_session, 16, monkeypatch)
    assert sixteen - four == 12 * 2


def test_issue18_view_text_splices_only_views_that_share_the_public_part(
    session: Session,
) -> None:
    ids = [session.join(name, "TEST").player_id for name in NAMES[:3]]
    session.act(ids[0], "start", 0)
    with session._lock:  # the views of one change, as _changed builds them
        base = session._public_locked()
        views = [session._player_locked(base, pid) for pid in ids]
    text = ViewText(base)
    assert text.encode(base) == encode_view(base)
    for view in views:
        assert text.encode(view) == encode_view(view)
        assert sse_message(view, text) == _wire(view)
    # A view that does not share the public part (the pacer rewrote it) is encoded whole.
    rewritten = dict(views[0])
    rewritten["players"] = [{**p, "lives": 0} for p in base["players"]]
    assert text.encode(rewritten) == encode_view(rewritten)
    assert text.encode(rewritten) != text.encode(views[0])
    assert sse_message(rewritten, text) == _wire(rewritten)
    extra = {**views[1], "added": 1}
    assert text.encode(extra) == encode_view(extra)
    assert sse_message(extra, text) == _wire(extra)
    assert sse_message(base, text) == _wire(base)
    # Equal to the public part but not the same objects: encoded whole, the same bytes.
    equal = {**views[2], "log": copy.deepcopy(base["log"])}
    assert not text._shares_base(equal) and text._shares_base(views[2])
    assert sse_message(equal, text) == _wire(views[2])


def _check_masking_leaves_shared_views_alone(session: Session) -> None:
    """The pacer masks each player's view without touching what it shares with the others."""
    with session._lock:  # one change's views, as _changed builds them
        base = session._public_locked()
        views = {p["id"]: session._player_locked(base, p["id"]) for p in base["players"]}
    before = copy.deepcopy((base, views))
    for pid, view in views.items():
        masked = session._pacer.present(view)
        assert masked == session._pacer.present(copy.deepcopy(view)), pid
    assert (base, views) == before


def test_issue18_pacing_masks_copies_only_what_it_changes(
    make_session: Callable[..., Session],
) -> None:
    session = make_session("H3", seed=11)
    ids = [session.join(name, "TEST").player_id for name in NAMES[:5]]
    tv = TV(session)
    rng = random.Random(11)
    held = 0
    for _ in range(2000):
        if not _tap(session, rng) or session.view(None)["round"] > 4:
            break
        held += session._pacer.holding()
        _check_masking_leaves_shared_views_alone(session)
        tv.play(0.2)
        _check_masking_leaves_shared_views_alone(session)
    assert held > 0 and ids


def test_issue18_adopt_shares_equal_members_and_keeps_the_others(session: Session) -> None:
    """A masked phone view (equal copies of the public members) is spliced after ``adopt``."""
    ids = [session.join(name, "TEST").player_id for name in NAMES[:3]]
    session.act(ids[0], "start", 0)
    with session._lock:
        base = session._public_locked()
        mine = session._player_locked(base, ids[1])
    text = ViewText(copy.deepcopy(base))  # equal to base, sharing nothing with it
    copied = copy.deepcopy(mine)
    copied["players"] = [{**p, "lives": 0} for p in base["players"]]  # differs: kept
    adopted = text.adopt(copied)
    assert adopted == copied and adopted is not copied
    assert adopted["log"] is text.base["log"] and adopted["players"] is copied["players"]
    assert adopted["me"] is copied["me"] and adopted["can"] is copied["can"]
    assert text.encode(adopted) == encode_view(copied)
    plain: Mapping[str, Any] = text.adopt(copy.deepcopy(mine))
    assert all(plain[k] is text.base[k] for k in plain if k not in ("me", "can"))
    assert sse_message(plain, text) == _wire(mine)


@pytest.mark.parametrize(("seed", "tv_leads"), [(seed, seed % 2 == 1) for seed in range(6)])
def test_issue18_a_taps_answer_is_its_streams_text_and_the_view_built_alone(
    make_session: Callable[..., Session], seed: int, tv_leads: bool
) -> None:
    """``act_json`` reuses the change's update for a player with a stream, builds one for a
    player without: either way the answer is the player's view now, exactly as before."""
    rules = random.Random(seed).choice(["", "H1", "H3", "H7"])
    # A stopped clock: a view built later agrees with the one sent on the time left.
    session = make_session(rules, seed=seed, clock=Clock())
    ids = [session.join(name, "TEST").player_id for name in NAMES[: 3 + seed % 3]]
    streams = {pid: session.subscribe(pid) for pid in ids[::2]}  # every other player
    tv = TV(session) if tv_leads else None
    rng = random.Random(seed)
    answered = {True: 0, False: 0}
    for _ in range(600):
        table = session.view(None)
        if table["phase"] == "game_over":
            break
        who = {"lobby": table["vip"], "turns": table["current"], "reveal": table["next_dealer"]}[
            table["phase"]
        ]
        moves = [] if who is None else [m for m in session.view(who)["can"] if m in GAME_MOVES]
        if who is not None and moves:
            answer = session.act_json(who, rng.choice(moves), table["step"])
            assert answer == encode_view(session.view(who)), who
            answered[who in streams] += 1
            if who in streams:  # the very text the player's own stream carries
                assert f"data: {answer}\n\n".encode() == _drain(streams[who])[-1].sse()
        if tv is not None:
            tv.finish()  # the TV plays the move out: the next player may act
    assert session.view(None)["phase"] == "game_over"
    assert answered[True] and answered[False]
