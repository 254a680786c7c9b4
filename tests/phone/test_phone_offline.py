"""A phone asleep, in the background or offline counts as away at once; a tap made offline is
sent when the phone is back, or the guest is told it did not count.

Round 40's play-test: a phone put offline kept its event stream open (the host only finds a
silent connection dead through its heartbeats), so it counted as present for about 33 s: the
TV showed a plain "Bruno's turn", and his phone "Your turn!" with live buttons and no sign of
the lost host. Now the page lets go of its stream when it is hidden or offline (phone.js
``letGo``), so the host sees the guest away within a second or two, as for a closed page, and
the page says it is reconnecting; looking again brings the table back at once. A tap made
offline fails at once (``fetch`` never leaves): the phone says it will be sent once the phone
is back, and then sends it (``resendUnsent``) or, if the table moved on meanwhile, says plainly
that it did not count.

Round 44's play-test: offline, the banner came at once, but under it the old card (one the
guest no longer held, after a neighbour's swap) and "Bea is deciding…" stayed at full
brightness while the TV gave the guest the turn. While the phone reconnects, the table under
the banner is dimmed and marked inactive (``aria-disabled``), the line saying a tap waits for
the connection is not; the moment the host is heard again, all is at full brightness.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from axe_playwright_python.sync_playwright import Axe

from host.i18n import Catalog
from tests.phone.helpers import Phone, is_action_answer
from tests.phone.test_phone_a11y import audit
from tests.phone.test_phone_game import seat_three

CATALOG = Catalog.load()
#: How soon the host must count a hidden or offline phone away: its stream's server thread
#: looks once a second whether the phone left. The old page kept the stream open for far
#: longer (about 33 s in the play-test, more than 6 s here with 1 s heartbeats).
AWAY_WITHIN_SECONDS = 3.0
#: Set the page's visibility as a phone does when it sleeps or another app comes in front.
SET_HIDDEN = """hidden => {
  Object.defineProperty(document, "visibilityState",
    { configurable: true, get: () => (hidden ? "hidden" : "visible") });
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


#: What a phone shows of the table, each as it is drawn: its opacity, and whether it is
#: marked inactive for screen readers (and axe's contrast rule) too.
LOOKS = """() => Object.fromEntries(["turn", "card", "action-error"].map((id) => {
  const part = document.getElementById(id);
  return [id, [Number(getComputedStyle(part).opacity), part.getAttribute("aria-disabled")]];
}))"""
#: The background of my first button, and the one a disabled button has (phone.css).
BUTTON = "() => getComputedStyle(document.querySelector('#actions button')).backgroundColor"
LOOKS_OFF = "rgb(58, 66, 82)"
DIMMED = (0.4, "true")
LIVE = (1.0, None)


def _looks(phone: Phone) -> dict[str, tuple[float, str | None]]:
    """``LOOKS`` for ``phone``: element id → (opacity, aria-disabled)."""
    return {key: tuple(value) for key, value in phone.page.evaluate(LOOKS).items()}


def _connected(session: Any, player_id: str) -> bool:
    """Whether the host counts ``player_id`` present (``players[].connected``)."""
    players = session.view(None)["players"]
    return bool(next(p for p in players if p["id"] == player_id)["connected"])


def _until(condition: Callable[[], bool], seconds: float) -> bool:
    """True once ``condition()`` holds, False after ``seconds`` (polled every 0.1 s; bounded)."""
    for _ in range(int(seconds / 0.1) + 1):
        if condition():
            return True
        time.sleep(0.1)
    return condition()


def _started(server: Any, phone_factory: Any) -> tuple[dict[str, Phone], Phone, Phone]:
    """Three phones seated and the game started: all phones, the mover, one who waits."""
    session = server.session
    phones = seat_three(server, phone_factory, "en-GB")
    session.act(next(iter(phones)), "start", session.step)
    table = session.view(None)
    for phone in phones.values():
        phone.wait_step(table["step"])
    mover = phones[table["current"]]
    waiting = next(phone for phone in phones.values() if phone is not mover)
    return phones, mover, waiting


def test_round40_a_hidden_page_counts_away_at_once_and_is_back_when_looked_at(
    live_server: Any, phone_factory: Any
) -> None:
    """A phone put to sleep (the page hidden) lets go of its stream: the host counts it away
    within seconds, not half a minute. Meanwhile the others, on screen and idle while their
    guests watch the TV, stay present. Looked at again, the phone is present at once and shows
    the table as it is now, with what happened while it slept."""
    server = live_server()
    session = server.session
    phones, mover, sleeper = _started(server, phone_factory)
    time.sleep(2.5)  # more than two heartbeats of nothing new: the guests watch the TV
    assert all(_connected(session, pid) for pid in phones)
    sleeper.page.evaluate(SET_HIDDEN, True)
    assert _until(lambda: not _connected(session, sleeper.player_id), AWAY_WITHIN_SECONDS)
    assert all(_connected(session, pid) for pid in phones if pid != sleeper.player_id)
    step = session.step
    mover.tap("keep")  # the table moves on while the phone sleeps
    mover.wait_step(step + 1)
    time.sleep(1.0)
    assert not _connected(session, sleeper.player_id)  # no stream reopened while hidden
    sleeper.page.evaluate(SET_HIDDEN, False)
    sleeper.wait_step(step + 1)
    assert _until(lambda: _connected(session, sleeper.player_id), AWAY_WITHIN_SECONDS)
    sleeper.page.wait_for_selector("#banner", state="hidden")
    assert sleeper.card() == session.view(sleeper.player_id)["me"]["card"]
    assert sorted(sleeper.buttons()) == sorted(session.view(sleeper.player_id)["can"])


def test_round40_a_phone_locked_in_the_lobby_keeps_its_seat_and_lets_go_once_dealt_in(
    live_server: Any, phone_factory: Any
) -> None:
    """Guests lock their phones while the others arrive: in the lobby (and at a game's end,
    which leads to it) a hidden page keeps its stream, so it stays present (counted for the
    start; the lobby's 60 s rule would take its seat). Once the game starts it lets go, and
    its turns are kept for it as for any away guest's."""
    server = live_server()
    session = server.session
    phones = seat_three(server, phone_factory, "en-GB")
    sleeper = phones[list(phones)[1]]
    sleeper.page.evaluate(SET_HIDDEN, True)
    time.sleep(AWAY_WITHIN_SECONDS)
    assert _connected(session, sleeper.player_id)
    session.act(next(iter(phones)), "start", session.step)
    assert _until(lambda: not _connected(session, sleeper.player_id), AWAY_WITHIN_SECONDS)
    sleeper.page.evaluate(SET_HIDDEN, False)
    assert _until(lambda: _connected(session, sleeper.player_id), AWAY_WITHIN_SECONDS)


def test_round40_an_offline_phone_says_it_is_reconnecting_and_counts_away(
    live_server: Any, phone_factory: Any
) -> None:
    """Offline, the phone shows "Reconnecting…" and keeps showing it while the table changes
    (the old page's stream, still open, drew the change and hid the banner: the guest saw a
    live table it could not play on), and the host counts it away within seconds. Back
    online, it is present again and shows the current table."""
    server = live_server()
    session = server.session
    _, _, sleeper = _started(server, phone_factory)
    sleeper.context.set_offline(True)
    sleeper.page.wait_for_selector("#banner:not([hidden])")
    assert sleeper.text("#banner") == CATALOG.t("en", "phone.reconnecting")
    assert _until(lambda: not _connected(session, sleeper.player_id), AWAY_WITHIN_SECONDS)
    session.join("Dan", "TEST")  # a change the offline phone must not pretend to follow
    time.sleep(1.0)
    assert sleeper.page.is_visible("#banner")
    assert sleeper.page.locator("#players li").count() == 3
    sleeper.context.set_offline(False)
    sleeper.page.wait_for_function("() => document.querySelectorAll('#players li').length === 4")
    assert _until(lambda: _connected(session, sleeper.player_id), AWAY_WITHIN_SECONDS)
    sleeper.page.wait_for_selector("#banner", state="hidden")


def test_round44_an_offline_phone_dims_the_stale_table_until_it_is_back(
    live_server: Any, phone_factory: Any
) -> None:
    """Offline, the card and the headline ("Bea is deciding…") under "Reconnecting…" are
    dimmed and marked inactive while the table moves on (the old page showed them at full
    brightness though the turn was now the guest's), and axe still finds nothing; back
    online, the current table is drawn at full brightness."""
    server = live_server()
    session = server.session
    _, mover, waiter = _started(server, phone_factory)
    assert _looks(waiter)["card"] == _looks(waiter)["turn"] == LIVE
    waiter.context.set_offline(True)
    waiter.page.wait_for_selector("#banner:not([hidden])")
    looks = _looks(waiter)
    assert looks["card"] == looks["turn"] == DIMMED, looks
    step = session.step
    mover.tap("keep")  # the table moves on: the offline phone cannot know
    mover.wait_step(step + 1)
    time.sleep(1.0)
    assert waiter.step() == step and _looks(waiter)["card"] == DIMMED
    audit(Axe(), waiter, "offline")  # dimmed, and marked inactive: not held to contrast
    waiter.context.set_offline(False)
    waiter.wait_step(step + 1)
    waiter.page.wait_for_selector("#banner", state="hidden")
    looks = _looks(waiter)
    assert looks["card"] == looks["turn"] == LIVE, looks


def test_round40_a_tap_made_offline_is_sent_when_the_phone_is_back_and_counts_once(
    live_server: Any, phone_factory: Any
) -> None:
    """His turn, the phone offline, he taps Keep: the phone says plainly that the tap waits for
    the connection (the old page showed the Wi-Fi alarm, which asks about the wrong Wi-Fi),
    and the host has nothing. Back online 3 s later, the tap is sent with its step and counts,
    once, as his own keep; the line goes."""
    server = live_server()
    session = server.session
    _, mover, _ = _started(server, phone_factory)
    step = session.step
    mover.wait_calm()
    mover.context.set_offline(True)
    mover.page.wait_for_selector("#banner:not([hidden])")
    assert mover.page.evaluate(BUTTON) == LOOKS_OFF  # not live-looking, yet they take a tap:
    mover.tap("keep")
    waits = CATALOG.t("en", "phone.tap_waits_offline")
    mover.page.wait_for_function(
        "text => document.getElementById('action-error').textContent === text", arg=waits
    )
    assert _looks(mover)["action-error"] == LIVE  # what the tap waits for is said plainly
    audit(Axe(), mover, "offline, a tap waiting")
    assert CATALOG.t("en", "phone.err_no_answer") not in mover.text()
    time.sleep(3.0)
    assert session.step == step
    assert mover.text("#action-error") == waits
    with mover.page.expect_response(is_action_answer) as answer:
        mover.context.set_offline(False)
    assert answer.value.status == 200
    assert answer.value.request.post_data_json == {"action": "keep", "step": step}
    mover.wait_step(step + 1)
    mover.page.wait_for_function("() => !document.getElementById('action-error').textContent")
    assert _looks(mover)["card"] == _looks(mover)["turn"] == LIVE
    if mover.buttons():
        assert mover.page.evaluate(BUTTON) != LOOKS_OFF
    kept = [e for e in session.view(None)["log"] if e["type"] == "kept"]
    assert [(e["player"], e["auto"]) for e in kept] == [(mover.player_id, False)]
    assert session.step == step + 1


def test_round40_a_tap_made_offline_that_the_table_moved_past_is_said_not_to_count(
    make_session: Any, live_server: Any, phone_factory: Any
) -> None:
    """The tap waited offline, and meanwhile the host kept his card for him (away for the
    away seconds). Back online, the tap is not sent (its step is gone) and the phone says it
    did not count, and still says so as the next turns go by (the old page said nothing: the
    guest could believe his Exchange had been made)."""
    session = make_session(presence=True, away_seconds=1.0)
    server = live_server(session)
    _, mover, _ = _started(server, phone_factory)
    step = session.step
    mover.wait_calm()
    mover.context.set_offline(True)
    mover.page.wait_for_selector("#banner:not([hidden])")
    mover.tap("exchange")
    mover.page.wait_for_selector("#action-error:has-text('No connection')")
    assert _until(lambda: not _connected(session, mover.player_id), AWAY_WITHIN_SECONDS)
    assert _until(lambda: bool(session.presence_tick()), 3.0)  # kept for him: he is away
    assert session.step == step + 1
    mover.context.set_offline(False)
    mover.wait_step(step + 1)
    lost = CATALOG.t("en", "phone.tap_lost_offline")
    mover.page.wait_for_function(
        "text => document.getElementById('action-error').textContent === text", arg=lost
    )
    table = session.view(None)
    if table["phase"] == "turns" and table["current"] != mover.player_id:
        session.act(table["current"], "keep", table["step"])  # the next turn goes by
        mover.wait_step(table["step"] + 1)
        assert mover.text("#action-error") == lost
    kept = [e for e in session.view(None)["log"] if e["type"] in ("kept", "exchanged")]
    assert (kept[0]["player"], kept[0]["type"], kept[0]["auto"]) == (
        mover.player_id,
        "kept",
        True,
    )
    assert not [r for r in mover.requests if is_action_answer(r) and r.response()]
