"""Issue 18.1 — phones first: the TV's drawing gives way while a phone's request is served
(``host/phones_first.py``), within a budget per frame, and the server marks the phones' POSTs
(``phone_web.ServedFirst``) but never their event streams."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from host.phones_first import PhonesFirst
from host.session import Session
from phone_web import create_app


class Held:
    """A request held inside ``serving`` on another thread until released."""

    def __init__(self, phones_first: PhonesFirst) -> None:
        self.inside = threading.Event()
        self.release = threading.Event()
        self.thread = threading.Thread(target=self._serve, args=(phones_first,), daemon=True)
        self.thread.start()
        assert self.inside.wait(5)

    def _serve(self, phones_first: PhonesFirst) -> None:
        with phones_first.serving():
            self.inside.set()
            self.release.wait(10)

    def end(self) -> None:
        self.release.set()
        self.thread.join(5)
        assert not self.thread.is_alive()


def test_nothing_served_the_tv_does_not_wait() -> None:
    phones_first = PhonesFirst(budget=5.0)
    began = time.monotonic()
    for _ in range(100):
        phones_first.give_way()
    assert time.monotonic() - began < 1.0
    assert phones_first.waited == 0.0 and phones_first.served_now == 0


def test_the_tv_waits_while_a_request_is_served_and_goes_on_when_it_ends() -> None:
    phones_first = PhonesFirst(budget=30.0)
    held = Held(phones_first)
    assert phones_first.served_now == 1
    drawn = threading.Event()

    def frame() -> None:
        phones_first.new_frame()
        phones_first.give_way()
        drawn.set()

    tv = threading.Thread(target=frame, daemon=True)
    tv.start()
    assert not drawn.wait(0.2)  # still giving way
    held.end()
    assert drawn.wait(5)  # the request ended: the frame goes on long before its budget
    tv.join(5)
    assert phones_first.served_now == 0
    assert 0.2 <= phones_first.waited < 10


def test_two_requests_at_once_the_tv_waits_for_both() -> None:
    phones_first = PhonesFirst(budget=30.0)
    first, second = Held(phones_first), Held(phones_first)
    assert phones_first.served_now == 2
    first.end()
    assert phones_first.served_now == 1
    done = threading.Event()

    def frame() -> None:
        phones_first.give_way()
        done.set()

    tv = threading.Thread(target=frame, daemon=True)
    tv.start()
    assert not done.wait(0.2)
    second.end()
    assert done.wait(5)


def test_a_frame_waits_at_most_its_budget_however_long_the_phones_take() -> None:
    """A flood of requests delays a frame by at most the budget; it never stops the TV."""
    phones_first = PhonesFirst(budget=0.15)
    held = Held(phones_first)
    try:
        began = time.monotonic()
        for _ in range(10):  # ten pieces of one frame
            phones_first.give_way()
        spent = time.monotonic() - began
        assert 0.15 <= spent < 2.0
        again = time.monotonic()
        phones_first.give_way()  # the budget is spent: at once
        assert time.monotonic() - again < 0.1
        phones_first.new_frame()  # the next frame gives way again
        again = time.monotonic()
        phones_first.give_way()
        assert time.monotonic() - again >= 0.15
    finally:
        held.end()


def test_a_request_that_fails_still_ends_its_mark() -> None:
    phones_first = PhonesFirst()
    with pytest.raises(RuntimeError), phones_first.serving():
        raise RuntimeError("the handler crashed")
    assert phones_first.served_now == 0


def test_a_negative_budget_is_refused() -> None:
    with pytest.raises(ValueError, match="budget"):
        PhonesFirst(budget=-1)


def test_the_server_marks_a_phones_posts_and_not_its_reads_or_streams(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A join (a POST, as a tap is) is served with the TV giving way; a read of the state is
    not: the server marks by method, and the event stream, open for hours, is a GET too."""
    session = Session(seed=3)
    client = create_app(session).test_client()
    seen: dict[str, int] = {}
    real_join, real_view = Session.join, Session.view

    def join(self: Session, *args: Any, **kwargs: Any) -> Any:
        seen["join"] = self.phones_first.served_now
        return real_join(self, *args, **kwargs)

    def view(self: Session, *args: Any, **kwargs: Any) -> Any:
        seen.setdefault("view", self.phones_first.served_now)
        return real_view(self, *args, **kwargs)

    monkeypatch.setattr(Session, "join", join)
    answer = client.post("/api/join", json={"name": "Ana", "room": session.room})
    assert answer.status_code == 201, answer.get_json()
    token = answer.get_json()["token"]
    monkeypatch.setattr(Session, "view", view)
    state = client.get("/api/state", headers={"Authorization": f"Bearer {token}"})
    assert state.status_code == 200
    assert seen == {"join": 1, "view": 0}
    assert session.phones_first.served_now == 0
