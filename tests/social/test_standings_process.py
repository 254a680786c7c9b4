"""Issue 14.1: tonight's standings survive a kill -9 and a restart with the same --state;
``--fresh`` starts a new evening. A real host process, phones over HTTP."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from host.journal import journal_path
from host.rules import game_moves
from tests.host_process import HostProcess


def _play_game(host: HostProcess, tokens: dict[str, str]) -> None:
    """Everybody keeps; whoever may deal deals, until the game is over."""
    for _ in range(400):
        views = {pid: host.http.state(token) for pid, token in tokens.items()}
        table = next(iter(views.values()))
        if table["phase"] == "game_over":
            return
        pid, view = next((p, v) for p, v in views.items() if game_moves(v["can"]))
        action = "deal" if "deal" in view["can"] else "keep"
        status, body = host.http.act(tokens[pid], action, view["step"])
        assert status == 200, body
    raise AssertionError("the game did not end")


def _first_game(host: HostProcess) -> dict[str, str]:
    """Ana, Bea and Cal join with phones, Ana starts, and they play to the end; their tokens."""
    tokens = host.seat_present("Ana", "Bea", "Cal")
    assert host.http.act(tokens["p1"], "start", 0)[0] == 200
    _play_game(host, tokens)
    return tokens


def test_issue14_standings_survive_kill_9_and_fresh_starts_a_new_evening(
    tmp_path: Path, host_processes: list[HostProcess]
) -> None:
    state = tmp_path / "state.json"
    first = HostProcess(state)
    host_processes.append(first)
    tokens = _first_game(first)
    status, table = first.http.call("GET", "/api/table?room=TEST")
    standings: list[dict[str, Any]] = table["standings"]
    assert status == 200 and [r["games"] for r in standings] == [1, 1, 1]
    assert standings[0]["player"] == table["winners"][0] and standings[0]["wins"] == 1
    assert first.http.state(tokens["p2"])["standings"] == standings
    first.kill_9()

    second = HostProcess(state)
    host_processes.append(second)
    assert second.http.call("GET", "/api/table?room=TEST")[1]["standings"] == standings
    second.stop()

    fresh = HostProcess(state, "--fresh")
    host_processes.append(fresh)
    assert fresh.http.call("GET", "/api/table?room=TEST")[1]["standings"] == []


def test_last_weeks_save_is_put_aside_and_a_new_evening_starts(
    tmp_path: Path, host_processes: list[HostProcess]
) -> None:
    """R14 standings and the whole table belong to one evening: a host started a week after
    the last change opens a new party (no players, no standings, a new table), keeps the old
    save beside the new one and says where; ``--resume`` carries that save on."""
    state = tmp_path / "state.json"
    first = HostProcess(state)
    host_processes.append(first)
    tokens = _first_game(first)
    standings = first.http.call("GET", "/api/table?room=TEST")[1]["standings"]
    first.stop()
    week_ago = time.time() - 7 * 24 * 3600
    for saved in (state, journal_path(state)):
        if saved.exists():
            os.utime(saved, (week_ago, week_ago))

    tonight = HostProcess(state)
    host_processes.append(tonight)
    status, table = tonight.http.call("GET", "/api/table?room=TEST")
    assert status == 200 and table["phase"] == "lobby"
    assert table["players"] == [] and table["standings"] == []
    status, _ = tonight.http.call("GET", "/api/state", token=tokens["p1"])
    assert status == 401  # last week's phones are not seated tonight
    aside = [line for line in tonight.lines if "another evening" in line]
    assert len(aside) == 1, tonight.lines
    kept = Path(aside[0].rsplit("--state ", 1)[1])
    assert kept.parent == tmp_path and kept != state and kept.exists()
    tonight.stop()

    resumed = HostProcess(kept, "--resume")
    host_processes.append(resumed)
    status, table = resumed.http.call("GET", "/api/table?room=TEST")
    assert table["phase"] == "game_over" and table["standings"] == standings
    assert not any("another evening" in line for line in resumed.lines)


def test_round42_the_last_games_winners_survive_kill_9_in_the_next_lobby(
    tmp_path: Path, host_processes: list[HostProcess]
) -> None:
    """Round 42 / R14: the next game's lobby names the last game's winners (``last_winners``)
    to every phone, and a host killed with kill -9 and started again still does."""
    state = tmp_path / "state.json"
    first = HostProcess(state)
    host_processes.append(first)
    tokens = _first_game(first)
    over = first.http.call("GET", "/api/table?room=TEST")[1]
    assert first.http.act(tokens["p1"], "new_game", over["step"])[0] == 200  # the VIP
    status, table = first.http.call("GET", "/api/table?room=TEST")
    assert status == 200 and table["phase"] == "lobby"
    named = {p["id"]: p["name"] for p in over["players"]}
    won = [{"player": pid, "name": named[pid]} for pid in over["winners"]]
    assert table["last_winners"] == won
    assert first.http.state(tokens["p3"])["last_winners"] == won
    first.kill_9()

    second = HostProcess(state)
    host_processes.append(second)
    assert second.http.call("GET", "/api/table?room=TEST")[1]["last_winners"] == won
    assert second.http.state(tokens["p2"])["last_winners"] == won
