"""Save and resume: atomic saves after every change; a resumed session carries on exactly."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from host import persistence
from host.rules import HouseRules, game_moves
from host.session import Session
from tests.clock import Clock


def _play(session: Any, ids: list[str], moves: int, rng: random.Random) -> None:
    for _ in range(moves):
        movers = [pid for pid in ids if game_moves(session.view(pid)["can"])]
        if not movers:
            return
        pid = rng.choice(movers)
        view = session.view(pid)
        session.act(pid, rng.choice(game_moves(view["can"])), view["step"])


def test_default_state_path_uses_xdg_data_home_on_linux(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", "/data")
    assert persistence.default_state_path() == Path("/data/cuckoo-party/state.json")
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", "/h")
    assert persistence.default_state_path() == Path("/h/.local/share/cuckoo-party/state.json")


def test_save_is_atomic_and_private(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "state.json"
    persistence.save_atomic(target, {"a": 1})
    persistence.save_atomic(target, {"a": 2})
    assert persistence.load(target) == {"a": 2}
    assert os.listdir(target.parent) == ["state.json"]  # no temporary file left behind
    assert target.stat().st_mode & 0o077 == 0  # holds tokens: owner only


def test_corrupt_save_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "state.json"
    target.write_text("{half", encoding="utf-8")
    with pytest.raises(persistence.CorruptSave):
        persistence.load(target)
    with pytest.raises(persistence.CorruptSave):
        Session(HouseRules(), state_path=target)


def test_every_change_is_saved_and_resumed_exactly(tmp_path: Path) -> None:
    path = tmp_path / "state.json"

    # A stopped clock: a restart opens the current turn anew (its time left is full again),
    # and with time standing still so is the first host's.
    still = Clock()
    first = Session(
        HouseRules.parse("H1,H3"), seed=5, room="ROOM", state_path=path, bots=1, clock=still
    )
    tokens = {name: first.join(name, "ROOM").token for name in ("Ana", "Bea", "Cal")}
    found = [first.player_for_token(token) for token in tokens.values()]
    ids = [pid for pid in found if pid is not None]
    assert len(ids) == len(tokens)
    first.act(ids[0], "start", 0)
    _play(first, ids, 7, random.Random(1))
    views = {pid: first.view(pid) for pid in [*ids, None]}
    # no close(): as if the process died right after the last answer
    second = Session(HouseRules(), seed=999, room="OTHER", state_path=path, clock=still)
    try:
        assert second.resumed and second.room == "ROOM"
        assert second.options.five_lives and second.options.double_cut
        assert {name: second.player_for_token(t) for name, t in tokens.items()} == dict(
            zip(tokens, ids)
        )
        for pid, view in views.items():
            assert second.view(pid) == view
        assert second.to_dict() == first.to_dict()
        # both carry on identically: the RNG state was saved too
        _play(first, ids, 30, random.Random(2))
        _play(second, ids, 30, random.Random(2))
        assert second.to_dict()["game"] == first.to_dict()["game"]
    finally:
        first.close()
        second.close()


def test_fresh_starts_over(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    first = Session(HouseRules(), room="ROOM", state_path=path)
    first.join("Ana", "ROOM")
    first.close()
    again = Session(HouseRules(), room="NEW", state_path=path, fresh=True)
    assert not again.resumed and again.room == "NEW" and again.view(None)["players"] == []
    again.close()
    saved = persistence.load(path)
    assert saved is not None and saved["room"] == "NEW"


@pytest.mark.parametrize("who", ["dealer", "other"])
def test_round43_a_kick_after_the_round_leaves_a_save_that_resumes(
    tmp_path: Path, who: str
) -> None:
    """R16 / issue 15: the host kicks a player at the reveal (the round's dealer, or anyone with
    a move in the round's history); the save still names them there, like ``order``, and must
    resume. Found in round 43: it was refused ("game.dealer: 'p2' is not a seated player")."""
    path = tmp_path / "state.json"
    session = Session(HouseRules(), seed=1, room="CAKE", state_path=path)
    for name in ("Ana", "Bea", "Cal", "Dan"):
        session.join(name, "CAKE")
    session.host_next()
    rng = random.Random(2)
    while (view := session.view(None))["phase"] == "turns":
        current = view["current"]
        assert current is not None
        session.act(current, rng.choice(game_moves(session.view(current)["can"])), session.step)
    assert view["phase"] == "reveal"
    keep = {view["vip"], view["next_dealer"]}
    dealer = view["dealer"]
    gone = (
        dealer
        if who == "dealer"
        else next(p["id"] for p in view["players"] if p["id"] not in keep | {dealer})
    )
    assert gone is not None and gone not in keep
    session.kick(gone)
    views = {
        pid: session.view(pid)
        for pid in [None, *(p["id"] for p in view["players"] if p["id"] != gone)]
    }
    session.close()
    resumed = Session(HouseRules(), state_path=path)
    try:
        assert resumed.resumed
        for pid, seen in views.items():
            assert resumed.view(pid) == seen
    finally:
        resumed.close()
