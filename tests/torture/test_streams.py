"""Issue 15, finding 2: one token must not be able to stall the server with event streams.

Each ``/api/events`` stream holds a server thread; before the fix one player opening 63 streams
took every thread and ``/api/state``, ``/api/join`` and ``/healthz`` timed out. Now a player has
at most one live stream: a new one replaces the old, which ends at once after ``event:
replaced``, and presence (``players[].connected``) stays right through replacements.
"""

from __future__ import annotations

import time
from typing import Any

from tests.api.cuckoo_http_client import EventStream, Http, wait_until


def _connected(server: Any, pid: str) -> bool:
    players = {p["id"]: p for p in server.session.view(None)["players"]}
    return bool(players[pid]["connected"])


def test_issue15_a_new_stream_replaces_the_old_one_which_ends_at_once(live_server: Any) -> None:
    server = live_server(heartbeat_seconds=1.0)
    http = Http(server.url)
    ana = http.join("Ana")
    first = EventStream(server.url, ana["token"])
    first.start()
    assert first.wait_for(lambda views: len(views) >= 1)
    second = EventStream(server.url, ana["token"])
    second.start()
    try:
        assert second.wait_for(lambda views: len(views) >= 1)
        assert first.ended.wait(5), "the replaced stream did not end"
        assert first.event_names == ["replaced"]
        assert "event: replaced" not in second.event_names
        assert _connected(server, ana["player_id"])  # presence never dropped
        bea = http.join("Bea")  # the new stream keeps delivering
        assert second.wait_for(lambda views: any(len(v["players"]) == 2 for v in views))
        assert bea["player_id"]
    finally:
        first.close()
        second.close()
    assert wait_until(lambda: not _connected(server, ana["player_id"]), 10)


def test_issue15_presence_is_not_flapped_by_a_replacement(live_server: Any) -> None:
    """Replacing a stream sends no "away then back" update to the other players."""
    server = live_server(heartbeat_seconds=1.0)
    http = Http(server.url)
    ana, bea = http.join("Ana"), http.join("Bea")
    watcher = EventStream(server.url, bea["token"])
    watcher.start()
    streams = [EventStream(server.url, ana["token"])]
    streams[0].start()
    try:
        # bool(v): the first view may not have arrived yet when the predicate is first asked
        assert watcher.wait_for(
            lambda v: bool(v) and _ana_connected(v[-1], ana["player_id"]) is True
        )
        for _ in range(3):
            streams.append(EventStream(server.url, ana["token"]))
            streams[-1].start()
            assert streams[-1].wait_for(lambda views: len(views) >= 1)
        time.sleep(0.5)
        seen = [_ana_connected(view, ana["player_id"]) for view in watcher.snapshot()]
        assert False not in seen[seen.index(True) :], seen
        assert all(s.ended.wait(5) for s in streams[:-1])
    finally:
        for stream in [watcher, *streams]:
            stream.close()


def _ana_connected(view: dict[str, Any], pid: str) -> bool | None:
    for player in view["players"]:
        if player["id"] == pid:
            return bool(player["connected"])
    return None


def test_issue15_one_token_with_63_streams_does_not_stall_the_server(live_server: Any) -> None:
    server = live_server(heartbeat_seconds=1.0)
    http = Http(server.url)
    ana = http.join("Ana")
    streams: list[EventStream] = []
    try:
        for _ in range(63):
            streams.append(EventStream(server.url, ana["token"]))
            streams[-1].start()
        assert wait_until(lambda: sum(not s.ended.is_set() for s in streams) == 1, 20)
        assert not streams[-1].ended.is_set()
        live = [s for s in server.session._subscribers if s.player_id == ana["player_id"]]
        assert len(live) == 1
        assert http.call("GET", "/healthz") == (200, "ok")
        assert http.state(ana["token"])["players"][0]["connected"] is True
        assert http.join("Bea")["status"] == "active"
    finally:
        for stream in streams:
            stream.close()


def test_issue15_session_keeps_one_presence_stream_per_player(session: Any) -> None:
    """The rule lives in the session: any front-end gets it, and presence counts stay right."""
    ana = session.join("Ana", "TEST").player_id
    first = session.subscribe(ana)
    second = session.subscribe(ana)
    watcher = session.subscribe(None, presence=False)  # TV, voice, bots: never replaced
    assert first.replaced and first.closed and not second.replaced
    assert first.get(timeout=0) is None  # nothing more for the replaced reader
    first.close()  # its reader hangs up afterwards: presence must not drop
    assert session.view(None)["players"][0]["connected"] is True
    assert not watcher.closed
    second.close()
    assert session.view(None)["players"][0]["connected"] is False


def test_issue15_heartbeat_is_at_most_10_seconds(session: Any) -> None:
    from phone_web import create_app

    writer = create_app(session).extensions["cuckoo_streams"]  # it sends every heartbeat
    assert 0 < writer.heartbeat_seconds <= 10
