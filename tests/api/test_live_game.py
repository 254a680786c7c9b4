"""A real waitress server on 127.0.0.1: whole games over HTTP with open event streams, and races."""

from __future__ import annotations

import random
import threading
from typing import Any

from host.rules import game_moves
from tests.api.cuckoo_http_client import EventStream, Http

MAX_ACTIONS = 3000


def _play_to_game_over(http: Http, tokens: dict[str, str], rng: random.Random) -> int:
    """Random legal moves from each player's own ``can`` until ``game_over``; returns the step."""
    for _ in range(MAX_ACTIONS):
        views = {pid: http.state(token) for pid, token in tokens.items()}
        phase = next(iter(views.values()))["phase"]
        if phase == "game_over":
            return int(next(iter(views.values()))["step"])
        movers = [pid for pid, view in views.items() if game_moves(view["can"])]
        assert movers, f"nobody may act in phase {phase}"
        pid = rng.choice(movers)
        view = views[pid]
        status, body = http.act(tokens[pid], rng.choice(game_moves(view["can"])), view["step"])
        assert status == 200, body
        assert body["step"] == view["step"] + 1  # exactly +1 per applied action
    raise AssertionError("the game did not end")


def test_six_players_play_a_whole_game_over_http_with_streams(live_server: Any) -> None:
    server = live_server()
    http = Http(server.url)
    tokens: dict[str, str] = {}
    streams: dict[str, EventStream] = {}
    try:
        for name in ("Ana", "Bea", "Cal", "Dan", "Eve", "Fay"):
            joined = http.join(name)
            assert joined["status"] == "active"
            tokens[joined["player_id"]] = joined["token"]
            streams[joined["player_id"]] = stream = EventStream(server.url, joined["token"])
            assert stream.response.status == 200
            assert stream.response.getheader("Content-Type", "").startswith("text/event-stream")
            stream.start()
        first = next(iter(tokens))
        status, body = http.act(tokens[first], "start", 0)
        assert status == 200 and body["phase"] == "turns"
        final_step = _play_to_game_over(http, tokens, random.Random(7))
        for pid, stream in streams.items():
            assert stream.wait_for(
                lambda views: (
                    bool(views)
                    and views[-1]["step"] == final_step
                    and views[-1]["phase"] == "game_over"
                )
            ), pid
            views = stream.snapshot()
            steps = [view["step"] for view in views]
            assert steps == sorted(steps), f"{pid}: out of order"
            assert set(steps) == set(range(steps[0], final_step + 1)), f"{pid}: missed a change"
            assert all(view["me"]["id"] == pid for view in views)
            assert views[0]["players"][-1]["id"] == pid  # the first message: the view at once
            assert views[-1] == {**http.state(tokens[pid]), "players": views[-1]["players"]}
            assert all(p["connected"] for p in views[-1]["players"])
    finally:
        for stream in streams.values():
            stream.close()


def test_twenty_threads_same_step_exactly_one_applies(live_server: Any) -> None:
    server = live_server()
    http = Http(server.url)
    tokens = [http.join(name)["token"] for name in ("Ana", "Bea", "Cal")]
    assert http.act(tokens[0], "start", 0)[0] == 200
    current = server.session.view(None)["current"]
    token = next(t for t in tokens if server.session.player_for_token(t) == current)
    step = http.state(token)["step"]
    barrier = threading.Barrier(20)
    results: list[tuple[int, Any]] = []
    lock = threading.Lock()

    def tap() -> None:
        barrier.wait(timeout=10)
        outcome = http.act(token, "keep", step)
        with lock:
            results.append(outcome)

    threads = [threading.Thread(target=tap) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    statuses = sorted(status for status, _ in results)
    assert statuses == [200] + [409] * 19
    assert all(body["error"] == "stale_step" for status, body in results if status == 409)
    assert server.session.step == step + 1


def test_stream_heartbeat_and_a_closed_stream_frees_its_seat(live_server: Any) -> None:
    server = live_server(heartbeat_seconds=0.2)
    http = Http(server.url)
    joined = http.join("Ana")
    stream = EventStream(server.url, joined["token"])
    stream.start()
    assert stream.wait_for(lambda views: len(views) >= 1)
    deadline_ok = stream.wait_for(lambda _: stream.comments >= 3, timeout=5)
    assert deadline_ok, "no heartbeat comments"
    assert server.session.view(None)["players"][0]["connected"] is True
    stream.close()
    from tests.api.cuckoo_http_client import wait_until

    # the server notices the closed connection and the player shows as disconnected
    assert wait_until(lambda: not server.session.view(None)["players"][0]["connected"], 5)
    assert wait_until(lambda: not server.session._subscribers, 5)


def test_a_kicked_players_stream_ends(live_server: Any) -> None:
    server = live_server()
    http = Http(server.url)
    joined = http.join("Ana")
    http.join("Bea")
    stream = EventStream(server.url, joined["token"])
    stream.start()
    assert stream.wait_for(lambda views: len(views) >= 1)
    server.session.kick(joined["player_id"])
    assert stream.ended.wait(5)
    assert http.call("GET", "/api/state", token=joined["token"])[0] == 401
    stream.close()


def test_h7_twenty_phones_with_open_streams_are_all_served(
    make_session: Any, live_server: Any
) -> None:
    server = live_server(make_session("H7"))
    http = Http(server.url)
    tokens = [http.join(f"P{number}")["token"] for number in range(20)]
    streams = [EventStream(server.url, token) for token in tokens]
    try:
        for stream in streams:
            stream.start()
        assert http.call("GET", "/healthz") == (200, "ok")  # threads to spare
        assert http.act(tokens[0], "start", 0)[0] == 200
        for stream in streams:
            assert stream.wait_for(lambda views: any(v["step"] == 1 for v in views))
    finally:
        for stream in streams:
            stream.close()
