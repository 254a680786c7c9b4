"""Issue 15, finding 9: room codes are four letters, so guessing them must be slowed.

Before the fix ``/api/table`` answered every wrong code at full speed (823 a second: every code
in about 9 minutes). Now, past 20 wrong room codes or failed joins a minute from one address,
its further attempts get ``429`` with ``Retry-After`` and ``{"error": "rate_limited"}``, while
a request with a valid token is never limited.
"""

from __future__ import annotations

from typing import Any

from host.i18n import Catalog
from phone_web import create_app
from phone_web.limits import GUESSES_PER_MINUTE, GuessLimiter
from tests.clock import Clock

GUESSER = {"REMOTE_ADDR": "192.0.2.66"}
NEIGHBOUR = {"REMOTE_ADDR": "192.0.2.7"}


def _app(session: Any, clock: Clock | None = None) -> Any:
    app = create_app(session)
    if clock is not None:
        app.extensions["cuckoo_limiter"] = GuessLimiter(GUESSES_PER_MINUTE, clock=clock)
    return app.test_client()


def test_issue15_wrong_room_codes_past_20_a_minute_get_429(session: Any) -> None:
    client = _app(session)
    ana = client.post(
        "/api/join", json={"name": "Ana", "room": "TEST"}, environ_base=GUESSER
    ).get_json()
    for guess in range(GUESSES_PER_MINUTE):
        answer = client.get(f"/api/table?room=Z{guess:03d}", environ_base=GUESSER)
        assert answer.status_code == 403, guess
    limited = client.get(
        "/api/table?room=ZZZZ", environ_base=GUESSER, headers={"Accept-Language": "fr"}
    )
    assert limited.status_code == 429
    assert 1 <= int(limited.headers["Retry-After"]) <= 60
    body = limited.get_json()
    assert body["error"] == "rate_limited"
    assert body["message"] == Catalog.load().t("fr", "cli.error_rate_limited")
    # Further attempts, even the right code, wait; the refusal changed nothing.
    assert client.get("/api/table?room=TEST", environ_base=GUESSER).status_code == 429
    assert (
        client.post(
            "/api/join", json={"name": "Bea", "room": "TEST"}, environ_base=GUESSER
        ).status_code
        == 429
    )
    assert [p["name"] for p in session.view(None)["players"]] == ["Ana"]
    # A seated player at the same address is never slowed down.
    auth = {"Authorization": f"Bearer {ana['token']}"}
    for _ in range(30):
        assert client.get("/api/state", headers=auth, environ_base=GUESSER).status_code == 200
        assert client.get("/api/table", headers=auth, environ_base=GUESSER).status_code == 200
    # Another address is not affected.
    assert client.get("/api/table?room=TEST", environ_base=NEIGHBOUR).status_code == 200


def test_issue15_failed_joins_count_and_the_wait_ends_after_a_minute(session: Any) -> None:
    clock = Clock()
    client = _app(session, clock)
    refusals = [
        ({"name": "", "room": "TEST"}, 400),
        ({"name": "Ana", "room": "NOPE"}, 403),
        ({"name": "Ana"}, 403),
        ({"room": "TEST"}, 400),
    ]
    for index in range(GUESSES_PER_MINUTE):
        body, status = refusals[index % len(refusals)]
        assert client.post("/api/join", json=body, environ_base=GUESSER).status_code == status
        clock.now += 1
    limited = client.post("/api/join", json={"name": "Ana", "room": "TEST"}, environ_base=GUESSER)
    assert limited.status_code == 429
    assert int(limited.headers["Retry-After"]) == 40  # when the oldest failure leaves the window
    assert session.view(None)["players"] == []
    clock.now += 40
    joined = client.post("/api/join", json={"name": "Ana", "room": "TEST"}, environ_base=GUESSER)
    assert joined.status_code == 201


def test_issue15_a_few_mistakes_are_not_limited_and_the_limit_can_be_raised(session: Any) -> None:
    client = _app(session)
    for _ in range(5):
        assert client.get("/api/table?room=NOPE", environ_base=GUESSER).status_code == 403
    assert client.get("/api/table?room=TEST", environ_base=GUESSER).status_code == 200
    relaxed = create_app(session, guesses_per_minute=None).test_client()
    for _ in range(100):
        assert relaxed.get("/api/table?room=NOPE").status_code == 403


def test_issue15_the_limiter_remembers_a_bounded_number_of_addresses() -> None:
    limiter = GuessLimiter(2, max_addresses=3)
    for number in range(10):
        limiter.failed(f"10.0.0.{number}")
        limiter.failed(f"10.0.0.{number}")
    assert len(limiter._failures) == 3
    assert limiter.retry_after("10.0.0.9") > 0
    assert limiter.retry_after("10.0.0.0") == 0  # forgotten
