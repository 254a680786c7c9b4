"""Fuzz every endpoint (hypothesis): random methods, paths, headers, JSON shapes and sizes.

What must hold whatever arrives: never a 5xx; a refused request (any 4xx) changes nothing —
the whole saved session, RNG state included, is byte-identical afterwards; an accepted action
raises ``step`` by exactly 1 and leaves the engine's invariants true (cards accounted, R11 no
life gained, no view showing a card its receiver may not see). Raw bytes on a real socket must
not get a 5xx from the server either.
"""

from __future__ import annotations

import functools
import json
import socket
import string
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from host.i18n import Catalog
from host.rules import ACTIONS, HouseRules
from host.session import Session
from phone_web import create_app
from tests.torture.conftest import check_invariants

PATHS = [
    "/healthz",
    "/api/join",
    "/api/state",
    "/api/action",
    "/api/events",
    "/api/table",
    "/",
    "/phone/phone.js",
    "/phone/phone.css",
    "/phone/vip.js",
    "/phone/vip.js?lang=zz",
    "/phone/../app.py",
    "/api",
    "/api/action/",
]
METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]
SAFE_TEXT = st.text(
    alphabet=string.printable.replace("\r", "")
    .replace("\n", "")
    .replace("\x0b", "")
    .replace("\x0c", ""),
    max_size=60,
)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True)
    | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
#: ("token", i) stands for the i-th seated player's real token, resolved at run time.
tokens = st.tuples(st.just("token"), st.integers(0, 4))
action_bodies = st.fixed_dictionaries(
    {"action": st.sampled_from(ACTIONS) | json_values, "step": st.integers(-1, 12) | json_values},
    optional={"extra": json_values},
)
join_bodies = st.fixed_dictionaries(
    {
        "name": st.text(max_size=20) | json_values,
        "room": st.sampled_from(["TEST", "test", " TEST ", "XXXX", ""]) | json_values,
    },
)
bodies = st.one_of(
    st.none(),
    action_bodies.map(json.dumps),
    join_bodies.map(json.dumps),
    json_values.map(json.dumps),
    st.binary(max_size=512),
    st.integers(3000, 9000).map(
        lambda n: json.dumps({"action": "keep", "step": 1, "pad": "x" * n})
    ),
)
authorization = st.one_of(
    st.none(),
    tokens,
    SAFE_TEXT,
    SAFE_TEXT.map(lambda t: f"Bearer {t}"),
    st.sampled_from(["Bearer", "Bearer ", "Basic dXNlcjpwYXNz"]),
)
queries = st.one_of(
    st.just(""), st.just("?room=TEST"), tokens, SAFE_TEXT.map(lambda t: "?" + t.replace("#", ""))
)
requests = st.tuples(
    st.sampled_from(METHODS),
    # A path is one "/" then text; "//..." would be read by the test client as a host name
    # (a client-side error, never sent), so leading slashes are folded into one.
    st.sampled_from(PATHS)
    | SAFE_TEXT.map(lambda t: "/" + t.replace("?", "").replace("#", "").lstrip("/")),
    queries,
    authorization,
    st.sampled_from(
        [
            "application/json",
            "text/plain",
            "",
            "application/json; charset=latin-1",
            "multipart/form-data; boundary=x",
        ]
    ),
    bodies,
)


def _resolve(value: Any, seated: list[str], kind: str) -> str | None:
    if isinstance(value, tuple):
        token = seated[value[1] % len(seated)]
        return f"Bearer {token}" if kind == "auth" else f"?token={token}"
    return value  # type: ignore[no-any-return]


@functools.cache
def _catalog() -> Catalog:
    """Loaded once for all examples (a fresh app per example, not a fresh catalog)."""
    return Catalog.load()


def _snapshot(session: Session) -> str:
    return json.dumps(session.to_dict(), sort_keys=True)


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(started=st.booleans(), batch=st.lists(requests, min_size=1, max_size=20))
def test_fuzz_every_endpoint_no_5xx_and_refusals_change_nothing(
    started: bool, batch: list[Any]
) -> None:
    session = Session(HouseRules(), seed=42, room="TEST")
    try:
        client = create_app(session, _catalog()).test_client()
        seated = [session.join(name, "TEST").token for name in ("Ana", "Bea", "Cal", "Dan")]
        if started:
            session.act("p1", "start", 0)
        for method, path, query, auth, content_type, body in batch:
            headers = {}
            if (auth := _resolve(auth, seated, "auth")) is not None:
                headers["Authorization"] = auth
            if content_type:
                headers["Content-Type"] = content_type
            before, step = _snapshot(session), session.step
            game = session._game  # the engine behind the session, read-only here
            lives = {p.id: p.lives for p in game.players}
            response = client.open(
                path + (_resolve(query, seated, "query") or ""),
                method=method,
                headers=headers,
                data=body.encode() if isinstance(body, str) else body,
            )
            try:
                status = response.status_code
                assert status < 500, (method, path, status, response.get_data()[:200])
                if status >= 400:
                    assert _snapshot(session) == before, (method, path, status)
                    if method != "HEAD":
                        assert response.is_json and "error" in response.get_json()
                elif path == "/api/action" and method == "POST":
                    assert session.step == step + 1
                    check_invariants(session._game, lives)
                elif path == "/api/join" and method == "POST":
                    assert status == 201 and session.step == step
                    check_invariants(session._game, lives)
                else:
                    assert _snapshot(session) == before, (method, path, status)
            finally:
                response.close()
    finally:
        session.close()


RAW_GARBAGE = st.one_of(
    st.binary(min_size=1, max_size=2048),
    st.tuples(
        st.sampled_from(METHODS + ["BREW", "", "GET GET"]),
        SAFE_TEXT,
        st.sampled_from(["HTTP/1.1", "HTTP/1.0", "HTTP/9.9", "", "SPDY"]),
        st.lists(st.tuples(SAFE_TEXT, SAFE_TEXT), max_size=6),
        st.binary(max_size=300),
    ).map(
        lambda r: (
            (
                f"{r[0]} /{r[1]} {r[2]}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in r[3]) + "\r\n"
            ).encode()
            + r[4]
        )
    ),
    st.sampled_from(
        [
            b"POST /api/action HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
            b"POST /api/action HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\n{}",
            b"POST /api/join HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            b"GET /api/events?token=%ff%fe HTTP/1.1\r\n\r\n",
            b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\n\r\n",
            b"GET / HTTP/1.1\r\n" + b"X: y\r\n" * 500 + b"\r\n",
        ]
    ),
)


def test_fuzz_raw_bytes_on_the_socket_never_get_a_5xx(live_server: Any) -> None:
    server = live_server()
    before = _snapshot(server.session)

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(payload=RAW_GARBAGE)
    def send(payload: bytes) -> None:
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
            try:
                sock.sendall(payload)
                sock.shutdown(socket.SHUT_WR)
                answer = b""
                while len(answer) < 64 and (chunk := sock.recv(4096)):
                    answer += chunk
            except (TimeoutError, ConnectionResetError, BrokenPipeError):
                return  # the server may hang up on garbage; that is fine
        if answer.startswith(b"HTTP/"):
            status = int(answer.split(b" ", 2)[1])
            assert status < 500, payload[:200]

    send()
    assert _snapshot(server.session) == before
    assert server.session.view(None)["phase"] == "lobby"
