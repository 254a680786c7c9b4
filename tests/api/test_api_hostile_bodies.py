"""Issue 15 finding 5 and deliverable 4: every bad input is a 4xx with a JSON body, deep
nesting included, and nothing is logged as a crash."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from phone_web import create_app


@pytest.fixture
def seated(make_session: Any) -> Any:
    session = make_session(saved=True)
    client = create_app(session).test_client()
    token = json.loads(client.post("/api/join", json={"name": "Ana", "room": "TEST"}).data)["token"]
    return session, client, {"Authorization": f"Bearer {token}"}


def _hostile_bodies() -> list[tuple[str, bytes]]:
    deep_list = b"[" * 1020 + b"]" * 1020
    deep_dict = b'{"a":' * 800 + b"1" + b"}" * 800
    return [
        ("1020 [", deep_list),
        ("unclosed 4000 [", b"[" * 4000),
        ("deep object", deep_dict),
        ("deep name", b'{"name":' + b"[" * 1500 + b"]" * 1500 + b',"room":"TEST"}'),
        ("deep step", b'{"action":"keep","step":' + b"[" * 1500 + b"]" * 1500 + b"}"),
        ("lone surrogate", b'{"name":"\\ud800","room":"TEST","action":"\\udfff","step":0}'),
        ("NaN", b'{"name":NaN,"room":"TEST","action":"keep","step":NaN}'),
        ("Infinity step", b'{"action":"keep","step":Infinity}'),
        ("huge int", b'{"action":"keep","step":' + b"9" * 3000 + b"}"),
        ("not utf-8", b'{"name":"\xff\xfe","room":"TEST"}'),
        ("utf-8 BOM", b'\xef\xbb\xbf{"name":"Bo","room":"TEST"}'),
        ("empty", b""),
        ("null", b"null"),
        ("string", b'"x"'),
        ("nested room", b'{"name":"Bo","room":{"room":"TEST"}}'),
        ("float step", b'{"action":"keep","step":0.0}'),
        ("true step", b'{"action":"keep","step":true}'),
    ]


@pytest.mark.parametrize("path", ["/api/join", "/api/action"])
def test_issue15_hostile_bodies_get_a_4xx_json_answer_and_no_crash_log(
    seated: Any, path: str, caplog: pytest.LogCaptureFixture
) -> None:
    session, client, auth = seated
    before = session.to_dict()
    for label, body in _hostile_bodies():
        with caplog.at_level(logging.WARNING):
            answer = client.post(path, data=body, headers=auth, content_type="application/json")
        assert 400 <= answer.status_code < 500, (label, answer.status_code, answer.data[:200])
        payload = json.loads(answer.data)
        assert set(payload) == {"error", "message"}, label
        assert session.to_dict() == before, label
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert "RecursionError" not in caplog.text


def test_issue15_deeply_nested_join_is_bad_request(seated: Any) -> None:
    _, client, _ = seated
    answer = client.post("/api/join", data="[" * 1020 + "]" * 1020, content_type="application/json")
    assert answer.status_code == 400 and json.loads(answer.data)["error"] == "bad_request"
