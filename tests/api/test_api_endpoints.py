"""Every endpoint and every error code of PHONE_API.md, through Flask's test client."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from phone_web import CONTENT_SECURITY_POLICY, create_app


def _join(client: Any, name: str, room: str = "TEST") -> dict[str, Any]:
    response = client.post("/api/join", json={"name": name, "room": room})
    assert response.status_code == 201, response.json
    return response.json  # type: ignore[no-any-return]


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _error(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, (response.status_code, response.data)
    body = response.get_json()
    assert body["error"] == code
    assert isinstance(body["message"], str) and body["message"]
    assert "Traceback" not in response.get_data(as_text=True)


def _table_of_three(client: Any) -> list[dict[str, Any]]:
    players = [_join(client, name) for name in ("Ana", "Bea", "Cal")]
    response = client.post(
        "/api/action", json={"action": "start", "step": 0}, headers=_auth(players[0]["token"])
    )
    assert response.status_code == 200
    return players


def test_healthz_says_ok(client: Any) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200 and response.get_data(as_text=True) == "ok"


def test_join_returns_token_of_at_least_128_bits(client: Any) -> None:
    joined = _join(client, "  Ana  ")
    assert joined["status"] == "active" and joined["player_id"]
    raw = base64.urlsafe_b64decode(joined["token"] + "=" * (-len(joined["token"]) % 4))
    assert len(raw) * 8 >= 128
    state = client.get("/api/state", headers=_auth(joined["token"])).json
    assert state["me"]["name"] == "Ana"  # trimmed
    assert state["me"]["is_vip"] is True  # the first joiner is the VIP


@pytest.mark.parametrize("name", ["", "   ", "x" * 17, "An\na", "Bell\x07", "\u202eevil", 42, None])
def test_join_bad_names(client: Any, name: Any) -> None:
    response = client.post("/api/join", json={"name": name, "room": "TEST"})
    _error(response, 400, "bad_name")


def test_join_without_a_json_object_is_bad_request(client: Any) -> None:
    for body in ("nonsense", "[]", '"Ana"', "{"):
        _error(
            client.post("/api/join", data=body, content_type="application/json"), 400, "bad_request"
        )
    _error(client.post("/api/join", json={"room": "TEST"}), 400, "bad_name")
    _error(client.post("/api/join", json={"name": "Ana"}), 403, "bad_room")
    _error(client.post("/api/join", json={"name": "Ana", "room": 7}), 403, "bad_room")


def test_join_accepts_sixteen_characters_and_accents(client: Any) -> None:
    assert _join(client, "x" * 16)["status"] == "active"
    assert _join(client, "Zoé Müller-Ñuñez")["status"] == "active"


def test_join_wrong_room_is_403(client: Any) -> None:
    _error(client.post("/api/join", json={"name": "Ana", "room": "NOPE"}), 403, "bad_room")


def test_join_room_code_ignores_case(client: Any) -> None:
    assert _join(client, "Ana", room="test")["status"] == "active"


def test_join_name_taken_ignores_case(client: Any) -> None:
    _join(client, "Ana")
    _error(client.post("/api/join", json={"name": "ANA", "room": "TEST"}), 409, "name_taken")


def test_r1_table_full_after_ten(client: Any) -> None:
    for number in range(10):
        _join(client, f"P{number}")
    _error(client.post("/api/join", json={"name": "Late", "room": "TEST"}), 409, "table_full")


def test_h7_big_table_allows_twenty(make_session: Any) -> None:
    client = create_app(make_session("H7")).test_client()
    for number in range(20):
        _join(client, f"P{number}")
    _error(client.post("/api/join", json={"name": "Late", "room": "TEST"}), 409, "table_full")


def test_late_joiner_waits_for_next_game(client: Any) -> None:
    _table_of_three(client)
    late = _join(client, "Dan")
    assert late["status"] == "waiting"
    view = client.get("/api/state", headers=_auth(late["token"])).json
    assert view["me"]["status"] == "waiting" and view["me"]["card"] is None and view["can"] == []


def test_state_needs_a_known_token(client: Any) -> None:
    _join(client, "Ana")
    _error(client.get("/api/state"), 401, "unauthorized")
    _error(client.get("/api/state", headers=_auth("forged" * 8)), 401, "unauthorized")
    _error(client.get("/api/state", headers={"Authorization": "Basic abc"}), 401, "unauthorized")


def test_state_is_the_callers_view(client: Any) -> None:
    ana = _join(client, "Ana")
    view = client.get("/api/state", headers=_auth(ana["token"])).json
    assert view["room"] == "TEST" and view["phase"] == "lobby" and view["step"] == 0
    assert view["round"] == 0 and view["me"]["id"] == ana["player_id"]
    assert view["players"][0]["connected"] is False
    for key in (
        "can",
        "players",
        "dealer",
        "current",
        "cut_king",
        "losers",
        "eliminated",
        "winners",
    ):
        assert key in view


def test_action_applies_and_step_rises_by_one(client: Any) -> None:
    players = [_join(client, name) for name in ("Ana", "Bea", "Cal")]
    response = client.post(
        "/api/action", json={"action": "start", "step": 0}, headers=_auth(players[0]["token"])
    )
    assert response.status_code == 200
    assert response.json["step"] == 1 and response.json["phase"] == "turns"
    assert response.json["me"]["card"] is not None


def test_action_order_of_checks(client: Any) -> None:
    players = _table_of_three(client)
    token = players[0]["token"]
    # 401 first, even with a bad body
    _error(client.post("/api/action", data="nonsense"), 401, "unauthorized")
    # then 400 bad_request for the body's shape
    for body in (
        "nonsense",
        "[1, 2]",
        '{"action": "keep"}',
        '{"step": 1}',
        '{"action": "keep", "step": "1"}',
        '{"action": "keep", "step": true}',
        '{"action": 5, "step": 1}',
        '{"action": "keep", "step": 1.5}',
    ):
        _error(
            client.post(
                "/api/action", data=body, headers=_auth(token), content_type="application/json"
            ),
            400,
            "bad_request",
        )
    # then 409 stale_step whatever the action
    for action in ("keep", "fly", "start"):
        _error(
            client.post("/api/action", json={"action": action, "step": 0}, headers=_auth(token)),
            409,
            "stale_step",
        )
    # then 400 bad_action: unknown, or not in `can`
    _error(
        client.post("/api/action", json={"action": "fly", "step": 1}, headers=_auth(token)),
        400,
        "bad_action",
    )
    view = client.get("/api/state", headers=_auth(token)).json
    not_allowed = next(a for a in ("start", "deal", "new_game") if a not in view["can"])
    _error(
        client.post("/api/action", json={"action": not_allowed, "step": 1}, headers=_auth(token)),
        400,
        "bad_action",
    )


def test_a_double_tap_changes_nothing(client: Any, session: Any) -> None:
    players = [_join(client, name) for name in ("Ana", "Bea", "Cal")]
    first = client.post(
        "/api/action", json={"action": "start", "step": 0}, headers=_auth(players[0]["token"])
    )
    again = client.post(
        "/api/action", json={"action": "start", "step": 0}, headers=_auth(players[0]["token"])
    )
    assert first.status_code == 200
    _error(again, 409, "stale_step")
    assert session.step == 1


def test_table_is_the_public_view(client: Any) -> None:
    _table_of_three(client)
    view = client.get("/api/table?room=TEST").json
    assert view["me"] is None and view["can"] == [] and view["phase"] == "turns"
    assert all(
        player["card"] is None or player["card"].startswith("K") for player in view["players"]
    )
    _error(client.get("/api/table?room=NOPE"), 403, "bad_room")
    _error(client.get("/api/table"), 403, "bad_room")


def test_events_needs_a_token_and_streams_the_view(client: Any) -> None:
    ana = _join(client, "Ana")
    _error(client.get("/api/events"), 401, "unauthorized")
    _error(client.get("/api/events?token=forged"), 401, "unauthorized")
    response = client.get(f"/api/events?token={ana['token']}", buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    chunks = response.response
    messages: list[dict[str, Any]] = []
    for chunk in chunks:
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        if text.startswith("data: "):
            messages.append(json.loads(text[6:]))
            break
    assert messages[0]["me"]["id"] == ana["player_id"]
    assert messages[0]["players"][0]["connected"] is True
    response.close()


def test_kicked_players_token_stops_working(client: Any, session: Any) -> None:
    ana, bea = _join(client, "Ana"), _join(client, "Bea")
    session.kick(bea["player_id"])
    _error(client.get("/api/state", headers=_auth(bea["token"])), 401, "unauthorized")
    assert client.get("/api/state", headers=_auth(ana["token"])).status_code == 200


def test_unknown_paths_and_methods_are_json(client: Any) -> None:
    _error(client.get("/api/nothing"), 404, "not_found")
    _error(client.get("/api/join"), 405, "method_not_allowed")


def test_bodies_over_4kb_get_413(client: Any, session: Any) -> None:
    big = json.dumps({"name": "Ana", "room": "TEST", "pad": "x" * 5000})
    _error(client.post("/api/join", data=big, content_type="application/json"), 413, "too_large")
    assert session.view(None)["players"] == []


def test_crash_is_json_without_stack_trace(
    client: Any, session: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    ana = _join(client, "Ana")

    def explode(player_id: Any) -> Any:
        raise RuntimeError("internal detail that must not leak")

    monkeypatch.setattr(session, "view", explode)
    response = client.get("/api/state", headers=_auth(ana["token"]))
    _error(response, 500, "internal")
    assert "internal detail" not in response.get_data(as_text=True)


def test_every_response_is_no_store_with_a_strict_csp(client: Any) -> None:
    ana = _join(client, "Ana")
    responses = [
        client.get("/healthz"),
        client.get("/api/state", headers=_auth(ana["token"])),
        client.get("/api/state"),
        client.get("/api/table?room=TEST"),
        client.get("/nope"),
        client.post("/api/join", json={"name": "", "room": "TEST"}),
    ]
    for response in responses:
        assert response.headers["Cache-Control"] == "no-store"
        assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert "unsafe-inline" not in CONTENT_SECURITY_POLICY


def test_error_messages_follow_the_phones_language(client: Any) -> None:
    english = client.post("/api/join", json={"name": "", "room": "TEST"}).json["message"]
    french = client.post(
        "/api/join",
        json={"name": "", "room": "TEST"},
        headers={"Accept-Language": "fr-FR,fr;q=0.9"},
    ).json["message"]
    italian = client.post(
        "/api/join", json={"name": "", "room": "TEST"}, headers={"Accept-Language": "it"}
    ).json["message"]
    assert len({english, french, italian}) == 3


def test_events_accepts_the_bearer_header_too(client: Any) -> None:
    ana = _join(client, "Ana")
    response = client.get("/api/events", headers=_auth(ana["token"]), buffered=False)
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-store"
    response.close()


def test_a_closing_host_answers_503_closed(client: Any, session: Any) -> None:
    ana = _join(client, "Ana")
    session.close()
    _error(client.post("/api/join", json={"name": "Bea", "room": "TEST"}), 503, "closed")
    _error(
        client.post(
            "/api/action", json={"action": "start", "step": 0}, headers=_auth(ana["token"])
        ),
        503,
        "closed",
    )
