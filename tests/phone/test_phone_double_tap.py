"""A double tap acts once, even when the first tap's answer draws a new button in its place.

The play-test of round 36 found two: under H3 (the dealer may cut twice) a dealer's double tap
on Cut cut twice, the first card taken thrown away unseen; and the VIP's double tap on "New
game" landed on "Start" and began the next game before anyone could join or change the rules.
Both second taps were legal actions with the new step, so the host could not tell them from a
choice: the page drops a tap that comes this soon after the last (``SAME_GESTURE_MS`` in
``phone_web/static/phone.js``), and a second cut meant, once the page is calm again, is taken.
"""

from __future__ import annotations

from typing import Any

from host.i18n import Catalog
from tests.phone.helpers import Phone, rigged_reveal
from tests.phone.test_phone_game import seat_three
from tests.phone.test_phone_resilience import start_game

CATALOG = Catalog.load()

#: Tap the button, and tap again as soon as my answer has brought the buttons back (a finger's
#: second tap); returns the milliseconds between the two taps.
DOUBLE_TAP = """async ([first, second]) => {
    const button = (action) => document.querySelector(`#actions button[data-action="${action}"]`);
    const step = () => Number(document.getElementById('main').dataset.step);
    const before = step();
    button(first).click();
    const start = performance.now();
    while (performance.now() - start < 5000) {
        const again = button(second);
        if (step() > before && again && !again.disabled) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const gap = performance.now() - start;
    button(second).click();
    return gap;
}"""


def _double_tap(phone: Phone, first: str, second: str) -> float:
    phone.page.wait_for_selector(f'#actions button[data-action="{first}"]:not([disabled])')
    phone.wait_calm()
    gap = float(phone.page.evaluate(DOUBLE_TAP, [first, second]))
    assert gap < 400, f"the answer took {gap:.0f} ms: not a double tap's pace"
    phone.page.wait_for_timeout(700)  # a second action, had it gone out, would be in by now
    return gap


def _cuts(session: Any) -> list[dict[str, Any]]:
    return [e for e in session.view(None)["log"] if e["type"] in ("cut", "cut_king")]


def test_h3_a_double_tap_on_cut_cuts_once_and_a_second_cut_meant_is_taken(
    make_session: Any, live_server: Any, phone_factory: Any
) -> None:
    session = make_session("H3")
    server = live_server(session)
    phones = seat_three(server, phone_factory, "en-GB")
    start_game(server, phones)
    for _ in range(6):  # everyone else keeps, through the host: the dealer's turn comes
        table = session.view(None)
        if "cut" in session.view(table["current"])["can"]:
            break
        session.act(table["current"], "keep", table["step"])
    dealer = phones[session.view(None)["current"]]
    step = session.view(None)["step"]
    _double_tap(dealer, "cut", "cut")
    assert len(_cuts(session)) == 1
    assert session.view(None)["step"] == step + 1
    assert "cut" in session.view(dealer.player_id)["can"]  # H3: a second cut is allowed
    dealer.page.wait_for_timeout(400)  # the dealer reads the card, then cuts again
    dealer.tap("cut")
    dealer.wait_past(step + 1)
    assert len(_cuts(session)) == 2


def test_a_double_tap_on_new_game_leaves_the_table_in_the_lobby_and_no_one_out_waits_for_an_end(
    live_server: Any, phone_factory: Any
) -> None:
    server = live_server()
    session = server.session
    phones = seat_three(server, phone_factory, "en-GB")
    first, second, third = phones
    rigged_reveal(session, {first: "2S", second: "9H", third: "KD"}, lives={first: 1, second: 1})
    out = phones[first]
    assert session.view(None)["eliminated"] == [first]  # the game goes on without them
    end = rigged_reveal(session, {second: "2H", third: "KD"})
    assert end["phase"] == "game_over"
    out.wait_step(end["step"])  # out since the last round, and the game is over: nothing left
    assert out.card() == ""  # to watch on the TV, as the play-test's phone still said
    assert out.text("#suit-name") == CATALOG.t("en", "phone.status_lost")
    vip = phones[session.view(None)["vip"]]
    vip.page.wait_for_selector('#actions button[data-action="new_game"]')
    _double_tap(vip, "new_game", "start")
    table = session.view(None)
    assert table["phase"] == "lobby", "the second tap started the next game"
    vip.page.wait_for_timeout(300)
    vip.tap("start")  # a start meant, later, starts
    vip.wait_past(table["step"])
    assert session.view(None)["phase"] != "lobby"
