"""Issue 15: two tabs of one seat never flap. The tab whose stream was replaced says the game
moved to another tab or phone, stays quiet (no reconnection by itself while another tab holds
the seat), and takes the game back when asked — which in turn quiets the other tab — or, since
round 45, by itself once no tab holds the seat any more (the other one was closed).
"""

from __future__ import annotations

from typing import Any

from host.i18n import Catalog
from tests.phone.helpers import Phone, hold_action_answers, seated_phone

CATALOG = Catalog.load()


def _streams_of(session: Any, pid: str) -> int:
    return sum(1 for s in session._subscribers if s.player_id == pid and s.presence)


def test_issue15_a_replaced_tab_says_so_and_does_not_reconnect(
    live_server: Any, phone_factory: Any
) -> None:
    server = live_server(heartbeat_seconds=1.0)
    first = seated_phone(phone_factory, server, "Ana", others=(), locale="fr-FR", lang="fr")
    pid = first.player_id
    first.page.wait_for_function("() => document.getElementById('main').dataset.step === '0'")
    server.session.join("Bo", "TEST")
    server.session.join("Cy", "TEST")  # three: Ana, the VIP, may start
    first.page.wait_for_selector('#actions button[data-action="start"]')
    second = Phone(first.context, first.context.new_page())  # same phone, same storage
    second.open(f"{server.url}/?room=TEST&lang=fr")
    second.page.wait_for_selector("#game:not([hidden])")
    first.page.wait_for_selector("#replaced:not([hidden])")
    assert CATALOG.t("fr", "phone.stream_replaced") in first.text("#replaced")
    # Its Start went with its stream: drawn there, it would now do nothing when tapped. The
    # rest of its table goes too (round 37's play-test): no longer kept up to date, its turn,
    # clock and players would soon be wrong under the message.
    assert first.page.is_hidden("#actions")
    for stale in ("#turn", "#card", "#players", "#me", "#social-panel"):
        assert first.page.locator(stale).count() == 1, stale  # there, and hidden
        assert first.page.is_hidden(stale), stale
    assert first.text("#replaced button") == CATALOG.t("fr", "phone.stream_take_back")
    # No flapping: several seconds later the second tab still holds the only stream.
    requests_before = len([r for r in first.requests if "/api/events" in r.url])
    first.page.evaluate("() => window.dispatchEvent(new Event('online'))")  # no nudge works
    first.page.wait_for_timeout(3000)  # (Playwright reports requests only inside its calls)
    assert len([r for r in first.requests if "/api/events" in r.url]) == requests_before
    assert second.page.is_hidden("#replaced")
    assert _streams_of(server.session, pid) == 1
    assert server.session.view(None)["players"][0]["connected"] is True
    # Taking it back: the first tab listens again, the second one is now the quiet one.
    first.page.locator("#replaced button").tap()
    first.page.wait_for_selector("#replaced", state="hidden")
    first.page.wait_for_selector('#actions button[data-action="start"]')  # back, and live
    assert first.page.is_visible("#players") and first.page.is_visible("#me")
    second.page.wait_for_selector("#replaced:not([hidden])")
    first.page.wait_for_timeout(1000)
    assert first.page.is_hidden("#replaced")
    assert _streams_of(server.session, pid) == 1


def test_issue15_a_tab_replaced_while_checking_its_quiet_stream_stays_quiet(
    live_server: Any, phone_factory: Any
) -> None:
    """The replaced tab's quiet-stream check (``refresh(true)``, every few heartbeats) was on
    its way when the other tab took the game: its answer must not reconnect it. It did, and the
    two tabs took the game from each other (a clean-clone CI run failed on the test above so)."""
    server = live_server(heartbeat_seconds=0.5)  # the quiet check comes 2 s after a message
    first = seated_phone(phone_factory, server, "Ana", others=(), locale="fr-FR", lang="fr")
    pid = first.player_id
    first.page.wait_for_function("() => document.getElementById('main').dataset.step === '0'")
    second = Phone(first.context, first.context.new_page())  # same phone, same storage
    second.open(f"{server.url}/?room=TEST&lang=fr")
    second.page.wait_for_selector("#game:not([hidden])")
    first.page.wait_for_selector("#replaced:not([hidden])")
    held = hold_action_answers(second.page, first_only=True, path="/api/state")
    for _ in range(50):  # its next quiet check; bounded (about 2 s away)
        if held:
            break
        second.page.wait_for_timeout(100)
    assert held, "the second tab never checked its quiet stream"
    first.page.locator("#replaced button").tap()  # taken back while the check is on its way
    second.page.wait_for_selector("#replaced:not([hidden])")
    first.page.wait_for_selector("#replaced", state="hidden")
    route, answer = held[0]
    route.fulfill(response=answer)  # the check's answer arrives, after the take-back
    second.page.wait_for_timeout(1500)
    assert second.page.is_visible("#replaced")
    assert first.page.is_hidden("#replaced")
    assert _streams_of(server.session, pid) == 1
    assert server.session.view(None)["players"][0]["connected"] is True


def test_round45_a_replaced_tab_takes_its_seat_back_once_the_other_tab_is_closed(
    live_server: Any, phone_factory: Any
) -> None:
    """Round 45's play-test: Ben opened the game in a second tab (to lend his phone), closed
    it, and his first tab still said "open in another tab" when his turn came: the host kept
    for him. A replaced tab that is looked at now asks every few seconds whether any tab holds
    its seat, and takes it back when none does: live, its buttons back, without a tap."""
    server = live_server(heartbeat_seconds=1.0)
    session = server.session
    first = seated_phone(phone_factory, server, "Ben")
    pid = first.player_id
    first.page.wait_for_selector('#actions button[data-action="start"]')
    second = Phone(first.context, first.context.new_page())  # same phone, same storage
    second.open(f"{server.url}/?room=TEST")
    second.page.wait_for_selector("#game:not([hidden])")
    first.page.wait_for_selector("#replaced:not([hidden])")
    first.page.wait_for_timeout(5000)  # a look or more: the other tab holds it, so it waits
    assert first.page.is_visible("#replaced") and _streams_of(session, pid) == 1
    second.page.close()
    first.page.wait_for_selector("#replaced", state="hidden", timeout=15_000)
    first.page.wait_for_selector('#actions button[data-action="start"]')  # live again
    assert _streams_of(session, pid) == 1
    assert session.view(None)["players"][0]["connected"] is True
