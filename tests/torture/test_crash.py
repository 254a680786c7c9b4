"""Crash: kill -9 the real host at 10 random moments of one party; every restart resumes exactly.

The moments: in the lobby, mid-turn, mid-reveal, at game over, and twice while an action is in
flight. Between kills the phones make a random number of random legal moves (seeded). After
each restart every player's view and the public table are identical to before the kill (all
fields but ``players[].connected``), an action answered 200 before the kill is never lost, and
at the end the game is played to a winner.
"""

from __future__ import annotations

import http.client
import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from host.rules import game_moves
from tests.api.cuckoo_http_client import Http
from tests.host_process import HostProcess, without_connected

MOMENTS = (
    "lobby",
    "turns",
    "reveal",
    "turns",
    "in_flight",
    "turns",
    "game_over",
    "reveal",
    "in_flight",
    "turns",
)
MAX_MOVES = 3000


def _views(http: Http, tokens: dict[str, str]) -> dict[str | None, dict[str, Any]]:
    views: dict[str | None, dict[str, Any]] = {
        pid: without_connected(http.state(token)) for pid, token in tokens.items()
    }
    status, table = http.call("GET", "/api/table?room=TEST")
    assert status == 200, table
    views[None] = without_connected(table)
    return views


def _move(http: Http, tokens: dict[str, str], rng: random.Random) -> dict[str, Any]:
    """One random legal move by someone who may act; returns the mover's new view."""
    views = {pid: http.state(token) for pid, token in tokens.items()}
    movers = [pid for pid, view in views.items() if game_moves(view["can"])]
    assert movers, f"nobody may act in {next(iter(views.values()))['phase']}"
    pid = rng.choice(movers)
    status, body = http.act(
        tokens[pid], rng.choice(game_moves(views[pid]["can"])), views[pid]["step"]
    )
    assert status == 200, body
    return body  # type: ignore[no-any-return]


def _play_until(http: Http, tokens: dict[str, str], rng: random.Random, phase: str) -> None:
    """Random moves until ``phase`` (at least one move if already there, except the lobby)."""
    for moved in range(MAX_MOVES):
        current = http.state(next(iter(tokens.values())))["phase"]
        if current == phase and (moved or phase == "lobby") and rng.random() < 0.5:
            return
        _move(http, tokens, rng)
    raise AssertionError(f"never reached {phase}")


@pytest.mark.slow
def test_kill_9_at_ten_random_moments_resumes_identically_and_finishes(
    tmp_path: Path, host_processes: list[HostProcess]
) -> None:
    state = tmp_path / "state.json"
    rng = random.Random(2026)
    host = HostProcess(state)
    host_processes.append(host)
    tokens: dict[str, str] = {}
    for name in ("Ana", "Bea"):
        joined = host.http.join(name)
        tokens[joined["player_id"]] = joined["token"]
    host.present(tokens.values())
    kills = 0
    for moment in MOMENTS:
        answered: dict[str, Any] = {}
        if moment == "lobby":
            pass  # two players seated, no game yet
        elif moment == "in_flight":
            _play_until(host.http, tokens, rng, "turns")
            views = {pid: host.http.state(t) for pid, t in tokens.items()}
            pid = next(p for p, v in views.items() if game_moves(v["can"]))
            request = (tokens[pid], game_moves(views[pid]["can"])[0], views[pid]["step"])

            def tap(
                client: Http = host.http,
                call: tuple[str, str, int] = request,
                into: dict[str, Any] = answered,
            ) -> None:
                try:
                    into["reply"] = client.act(*call)
                except (OSError, http.client.HTTPException):
                    pass  # the host died first: no (whole) answer, so nothing was promised

            thread = threading.Thread(target=tap, daemon=True)
            before = _views(host.http, tokens)
            thread.start()
            time.sleep(rng.uniform(0.0, 0.02))
        else:
            _play_until(host.http, tokens, rng, moment)
        if moment != "in_flight":
            before = _views(host.http, tokens)
        host.kill_9()
        kills += 1
        if moment == "in_flight":
            thread.join(10)
        host = HostProcess(state)
        host_processes.append(host)
        host.present(tokens.values())
        after = _views(host.http, tokens)
        if moment == "in_flight":
            reply = answered.get("reply")
            if reply is not None and reply[0] == 200:
                assert after[None]["step"] == before[None]["step"] + 1, "an answered tap was lost"
                assert after[pid] == without_connected(reply[1])
            elif after[None]["step"] == before[None]["step"]:
                assert after == before
            else:  # applied and saved, but the answer never reached the phone
                assert after[None]["step"] == before[None]["step"] + 1
        else:
            assert after == before, f"restart after a kill in {moment} changed a view"
        if moment == "lobby":
            for name in ("Cal", "Dan"):
                joined = host.http.join(name)
                tokens[joined["player_id"]] = joined["token"]
                host.present([joined["token"]])
        if moment == "game_over":
            assert after[None]["winners"]
    assert kills == 10
    _play_until(host.http, tokens, rng, "game_over")
    final = host.http.state(tokens["p1"])
    assert final["phase"] == "game_over" and final["winners"]
