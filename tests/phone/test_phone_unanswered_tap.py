"""A tap that gets no answer is sent again with the same step, calmly, and counts once.

Round 37's play-test: the host stopped (``kill -STOP``) for 10–20 s in a player's turn, her
phone gave up on her tap after 8 s and showed the Wi-Fi alarm with the buttons live; the tap
was lost in one run of two. Now the page sends it again (PHONE_API.md: a second send of the
same step gets ``409 stale_step`` and changes nothing) while it says "still sending", and the
alarm comes only after the last send (phone.js ``sendAction``).
"""

from __future__ import annotations

import signal
import time
from pathlib import Path
from typing import Any

from host.i18n import Catalog
from tests.host_process import HostProcess
from tests.phone.helpers import Phone, is_action_answer
from tests.phone.test_phone_game import seat_three

CATALOG = Catalog.load()
#: The page's own wait for an answer (phone_web.REQUEST_TIMEOUT_SECONDS), used by the real
#: freeze below: long enough to give up once, short enough to answer the second send.
FREEZE_SECONDS = 10.0


def _mover(server: Any, phone_factory: Any) -> tuple[Phone, int]:
    """Three phones seated, the game started by the host: the phone whose turn it is, and the
    step its tap will carry."""
    session = server.session
    phones = seat_three(server, phone_factory, "en-GB")
    session.act(next(iter(phones)), "start", session.step)
    table = session.view(None)
    mover = phones[table["current"]]
    mover.wait_step(table["step"])
    return mover, table["step"]


def _table(host: HostProcess) -> dict[str, Any]:
    """The public view of a host process's room."""
    status, view = host.http.call("GET", "/api/table?room=TEST")
    assert status == 200, view
    return view  # type: ignore[no-any-return]


def _action_statuses(phone: Phone) -> list[int]:
    """The HTTP status of every answer to ``POST /api/action`` the phone received."""
    return [r.response().status for r in phone.requests if is_action_answer(r) and r.response()]


def test_a_tap_whose_send_was_lost_is_sent_again_calmly_and_counts(
    live_server: Any, phone_factory: Any
) -> None:
    """The first send dies on the way (the host never had it); the second reaches the host and
    its answer is held: meanwhile the phone says the tap is still being sent, not the Wi-Fi
    alarm, and its buttons stay disabled. Once answered, the tap has counted, no error shows.
    (The old page showed the alarm after the first failure, the tap lost.)"""
    server = live_server()
    session = server.session
    mover, step = _mover(server, phone_factory)
    sends: list[Any] = []

    def first_lost_then_held(route: Any) -> None:
        sends.append(route.request.post_data_json)
        if len(sends) == 1:
            route.abort("timedout")  # as a request that timed out
        else:
            held.append((route, route.fetch()))

    held: list[tuple[Any, Any]] = []
    mover.page.route("**/api/action", first_lost_then_held)
    mover.tap("keep")
    mover.page.wait_for_function("() => document.querySelector('#action-error.sending')")
    line = mover.text("#action-error")
    assert line == CATALOG.t("en", "phone.still_sending")
    assert CATALOG.t("en", "phone.err_no_answer") not in mover.text()
    assert mover.page.locator("#actions button:not([disabled])").count() == 0
    for _ in range(100):  # bounded: the second send reaches the route at once
        if held:
            break
        mover.page.wait_for_timeout(20)
    assert len(held) == 1 and session.step == step + 1  # the host has it, the phone waits
    route, response = held[0]
    route.fulfill(response=response)
    mover.wait_step(step + 1)
    mover.page.wait_for_function("() => !document.querySelector('#action-error.sending')")
    assert mover.text("#action-error") == ""
    assert [send["step"] for send in sends] == [step, step]  # the same step, sent twice
    assert session.step == step + 1 and "keep" not in mover.buttons()


def test_a_retry_of_a_tap_that_counted_changes_nothing(
    live_server: Any, phone_factory: Any
) -> None:
    """The first send reaches the host (it counts) but its answer is lost; the retry, with the
    same step, gets 409 stale_step: one step, not two, and the phone shows the fresh table
    without any error. (The old page showed the Wi-Fi alarm.)"""
    server = live_server()
    session = server.session
    mover, step = _mover(server, phone_factory)
    sends: list[int] = []

    def answer_lost_once(route: Any) -> None:
        sends.append(route.request.post_data_json["step"])
        if len(sends) == 1:
            route.fetch()  # the host applies it...
            route.abort("connectionreset")  # ...and the answer never reaches the phone
        else:
            route.continue_()

    mover.page.route("**/api/action", answer_lost_once)
    mover.tap("keep")
    mover.wait_step(step + 1)
    # The stream may draw the new table before the page has even seen its first send fail
    # (CI once caught it there, with no retry yet): wait for the retry's answer itself.
    for _ in range(150):  # bounded: the retry goes 0.5 s after the lost answer
        if _action_statuses(mover):
            break
        mover.page.wait_for_timeout(20)
    mover.page.wait_for_function("() => !document.querySelector('#action-error.sending')")
    assert sends == [step, step]
    assert _action_statuses(mover) == [409]  # the retry's answer: stale_step
    assert session.step == step + 1  # one step, not two
    kept = [e for e in session.view(None)["log"] if e["type"] == "kept"]
    assert [e["player"] for e in kept] == [mover.player_id]
    assert mover.text("#action-error") == ""
    assert mover.page.is_hidden("#banner")
    assert "keep" not in mover.buttons()


def test_the_wifi_alarm_comes_only_after_the_last_send(
    live_server: Any, phone_factory: Any
) -> None:
    """A connection dead without a word (party Wi-Fi): no send is ever answered. The page sends
    the tap three times (each given up after the host's 1 s here), says "still sending" until
    the last, then shows the alarm and gives the buttons back (they once stayed disabled until
    the host's own time-out): the host never had the tap, and the next one counts."""
    server = live_server(request_timeout_seconds=1.0)
    session = server.session
    mover, step = _mover(server, phone_factory)
    lost: list[Any] = []
    mover.page.route("**/api/action", lambda route: lost.append(route))  # never answered
    mover.tap("keep")
    mover.page.wait_for_function("() => document.querySelector('#action-error.sending')")
    assert mover.text("#action-error") == CATALOG.t("en", "phone.still_sending")
    assert mover.page.locator("#actions button:not([disabled])").count() == 0
    mover.page.wait_for_selector("#actions button:not([disabled])", timeout=10_000)
    # round 47: the VIP is asked about the TV's computer first (tests/phone/test_phone_turn_end.py)
    vip = session.view(None)["vip"] == mover.player_id
    alarm = "phone.err_no_answer_vip" if vip else "phone.err_no_answer"
    assert mover.text("#action-error") == CATALOG.t("en", alarm)
    assert mover.page.locator("#action-error.sending").count() == 0  # styled as the alarm
    assert len(lost) == 3 and session.step == step
    # The host is heard again (its stream brings a change: a guest sits down for the next
    # game). Round 38's play-test: the alarm stayed beside live buttons, and her tap, lost,
    # cost her a life when H4 timed her out. Now the alarm goes and the tap is sent then,
    # once: the table has not moved and Keep is still hers.
    mover.page.unroute("**/api/action")
    with mover.page.expect_response(is_action_answer) as answer:
        session.join("Dan", "TEST")
    assert answer.value.status == 200 and session.step == step + 1
    mover.page.wait_for_function("() => !document.getElementById('action-error').textContent")
    assert session.view(None)["players"][0]["name"] and session.step == step + 1  # not twice


def test_a_tap_sent_while_the_host_is_frozen_counts_once_it_runs_again(
    tmp_path: Path, host_processes: list[HostProcess], phone_factory: Any
) -> None:
    """The play-test itself: a real host, H4 on, stopped for 10 s in her turn while she taps
    Keep. Past the page's 8 s the phone says "still sending" (not the Wi-Fi alarm) and sends
    again; once the host runs, her keep counts once, as her own (not a time-out), and the
    phone shows the next table with no error and no banner left on screen."""
    host = HostProcess(tmp_path / "s.json", "--house-rules", "H4", "--rapid-seconds", "10")
    host_processes.append(host)
    phone = phone_factory("Pixel 7", "en-GB")
    phone.open(f"{host.url}/?room=TEST")
    phone.join("Chloé")
    others = host.seat_present("Bo", "Cy")
    table = _table(host)
    her = next(p["id"] for p in table["players"] if p["name"] == "Chloé")
    phone.tap("start")
    phone.wait_step(table["step"] + 1)  # the host has started the game
    for _ in range(3):  # bounded: three seats
        table = _table(host)
        if table["current"] == her:
            break
        token = others[table["current"]]
        assert host.http.act(token, "keep", table["step"])[0] == 200
    assert table["current"] == her
    step = table["step"]
    phone.wait_step(step)
    phone.wait_calm()
    host.process.send_signal(signal.SIGSTOP)
    try:
        frozen_at = time.monotonic()
        phone.tap("keep")
        phone.page.wait_for_function(
            "() => document.querySelector('#action-error.sending')", timeout=12_000
        )
        assert phone.text("#action-error") == CATALOG.t("en", "phone.still_sending")
        assert (
            "keep" in phone.buttons()
            and phone.page.locator("#actions button:not([disabled])").count() == 0
        )
        time.sleep(max(0.0, FREEZE_SECONDS - (time.monotonic() - frozen_at)))
    finally:
        host.process.send_signal(signal.SIGCONT)
    phone.wait_step(step + 1)
    phone.page.wait_for_function("() => !document.querySelector('#action-error.sending')")
    assert phone.text("#action-error") == ""
    assert phone.page.is_hidden("#banner")
    view = _table(host)
    assert view["step"] == step + 1
    kept = [e for e in view["log"] if e["type"] == "kept"][-1]
    assert kept["player"] == her and kept["auto"] is False and kept["timed_out"] is False
    assert view["current"] != her
