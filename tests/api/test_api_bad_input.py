"""Bad input gets its documented error and changes nothing: the saved state is byte-identical."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from phone_web import create_app


@pytest.fixture
def table(make_session: Any, tmp_path: Path) -> Any:
    session = make_session(saved=True)
    client = create_app(session).test_client()
    tokens = []
    for name in ("Ana", "Bea", "Cal", "Dan"):
        answer = client.post("/api/join", json={"name": name, "room": "TEST"}).json
        assert answer is not None
        tokens.append(answer["token"])
    assert (
        client.post(
            "/api/action",
            json={"action": "start", "step": 0},
            headers={"Authorization": f"Bearer {tokens[0]}"},
        ).status_code
        == 200
    )
    kicked = tokens.pop()
    session.kick(session.player_for_token(kicked))
    return session, client, tokens, kicked, tmp_path / "state.json"


def _bad_requests(
    tokens: list[str], kicked: str, step: int
) -> list[tuple[str, str, Any, dict[str, str], int, str]]:
    good = {"Authorization": f"Bearer {tokens[0]}"}
    keep = json.dumps({"action": "keep", "step": step})
    return [
        ("POST", "/api/join", "{not json", {}, 400, "bad_request"),
        ("POST", "/api/join", "[]", {}, 400, "bad_request"),
        ("POST", "/api/join", '{"name": ["Eve"], "room": "TEST"}', {}, 400, "bad_name"),
        ("POST", "/api/join", '{"name": "Eve", "room": 7}', {}, 403, "bad_room"),
        (
            "POST",
            "/api/join",
            '{"name": "' + "E" * 5000 + '", "room": "TEST"}',
            {},
            413,
            "too_large",
        ),
        ("POST", "/api/join", '{"name": "' + "E" * 40 + '", "room": "TEST"}', {}, 400, "bad_name"),
        ("POST", "/api/join", '{"name": "Eve", "room": "XXXX"}', {}, 403, "bad_room"),
        ("POST", "/api/join", '{"name": "bea", "room": "TEST"}', {}, 409, "name_taken"),
        ("POST", "/api/action", "{broken", good, 400, "bad_request"),
        (
            "POST",
            "/api/action",
            json.dumps({"action": None, "step": step}),
            good,
            400,
            "bad_request",
        ),
        (
            "POST",
            "/api/action",
            json.dumps({"action": "keep", "step": str(step)}),
            good,
            400,
            "bad_request",
        ),
        (
            "POST",
            "/api/action",
            json.dumps({"action": "dance", "step": step}),
            good,
            400,
            "bad_action",
        ),
        (
            "POST",
            "/api/action",
            json.dumps({"action": "keep", "step": step + 5}),
            good,
            409,
            "stale_step",
        ),
        ("POST", "/api/action", keep, {"Authorization": "Bearer " + "A" * 43}, 401, "unauthorized"),
        ("POST", "/api/action", keep, {}, 401, "unauthorized"),
        ("POST", "/api/action", keep, {"Authorization": f"Bearer {kicked}"}, 401, "unauthorized"),
        ("GET", "/api/state", "", {"Authorization": f"Bearer {kicked}"}, 401, "unauthorized"),
        ("GET", "/api/table?room=ZZZZ", "", {}, 403, "bad_room"),
    ]


def test_bad_input_changes_nothing(table: Any) -> None:
    session, client, tokens, kicked, state_file = table
    before_file = state_file.read_bytes()
    before_state = session.to_dict()
    for method, path, body, headers, status, code in _bad_requests(tokens, kicked, session.step):
        response = client.open(
            path, method=method, data=body, headers=headers, content_type="application/json"
        )
        assert response.status_code == status, (path, body[:60], response.json)
        assert response.json["error"] == code
        assert state_file.read_bytes() == before_file, (path, body[:60])
        assert session.to_dict() == before_state


def test_a_move_out_of_turn_changes_nothing(table: Any) -> None:
    session, client, tokens, _, state_file = table
    before = state_file.read_bytes()
    current = session.view(None)["current"]
    idle = next(t for t in tokens if session.player_for_token(t) != current)
    response = client.post(
        "/api/action",
        json={"action": "keep", "step": session.step},
        headers={"Authorization": f"Bearer {idle}"},
    )
    assert response.status_code == 400 and response.json["error"] == "bad_action"
    assert state_file.read_bytes() == before
