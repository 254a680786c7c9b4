"""Round 47: four things a guest notices on the phone.

"Your turn!" goes as soon as my turn ends without my tap. The big "Your turn!" (issue 12.2)
covers the screen 2.2 s and used to go only on a tap or its timer. A turn can end without a
tap of mine: the VIP removes everyone else (a walkover), ends the game, or removes me. The new
screen (the game's end, the lobby, the join form) then sat under the old cover for the rest of
its time. The tests record, as each new screen is drawn, whether the cover was still up and
how long after it came.

Removed by the VIP, "You are no longer at the table…" is a calm note, not a red error.

With no answer from the host (aborted requests), the VIP is asked first whether the game is
still open on the TV's computer; guests hear both causes; an offline phone, its own network.

At 200 % text on a small phone, my turn's line and both my buttons fit on the first screen.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

from host.i18n import Catalog
from tests.phone.helpers import Phone, rig_round
from tests.phone.test_phone_moments import open_phone

CATALOG = Catalog.load()
#: How long the cover stays without H4 (phone.js MOMENT_MS): the test is only a test if the
#: new screen came before this.
MOMENT_MS = 2200

#: Each time the page draws another step or screen: was the cover up, and for how long.
SCREENS = """
window.__screens = [];
document.addEventListener('DOMContentLoaded', () => {
  const main = document.getElementById('main');
  const moment = document.getElementById('moment');
  let shownAt = null;
  new MutationObserver(() => { shownAt = moment.hidden ? shownAt : performance.now(); })
    .observe(moment, {attributes: true, attributeFilter: ['hidden']});
  const record = () => window.__screens.push({
    phase: main.dataset.phase || '', joining: !document.getElementById('join-form').hidden,
    cover: !moment.hidden, since: shownAt === null ? null : performance.now() - shownAt});
  new MutationObserver(record).observe(main, {attributes: true, subtree: true,
    attributeFilter: ['data-phase', 'hidden']});
});
"""


def t(key: str, **params: Any) -> str:
    return CATALOG.t("en", f"phone.{key}", **params)


def covered_phone(phone_factory: Any, url: str, name: str) -> Phone:
    phone = open_phone(phone_factory, url, name)
    phone.page.add_init_script(SCREENS)
    phone.page.reload()  # the recorder runs from the page's start; the seat is kept
    phone.page.wait_for_selector("#game:not([hidden])")
    return phone


def wait_cover(phone: Phone) -> None:
    """Until "Your turn!" covers the screen."""
    phone.page.wait_for_function(
        "t => !document.getElementById('moment').hidden"
        " && document.getElementById('moment-text').textContent === t",
        arg=t("your_turn"),
    )


def first_screen(phone: Phone, condition: str) -> dict[str, Any]:
    """The first screen recorded after the cover came that meets ``condition`` (JS, on a
    record ``s``): the lobby before the game is not the lobby after it."""
    condition = f"s.since !== null && {condition}"
    phone.page.wait_for_function(f"() => window.__screens.some((s) => {condition})")
    found: dict[str, Any] = phone.page.evaluate(f"() => window.__screens.find((s) => {condition})")
    return found


def assert_cover_gone(screen: dict[str, Any]) -> None:
    assert screen["since"] is not None and screen["since"] < MOMENT_MS, screen  # came up before
    assert not screen["cover"], screen  # …and is gone as the new screen is drawn


@contextlib.contextmanager
def bo_in_his_turn(server: Any, phone_factory: Any) -> Iterator[Phone]:
    """Ana (the VIP, her stream open, no phone), Bo on a recording phone, Cy: a rigged round
    where Ana has kept and Bo's "Your turn!" covers his screen; Ana's stream closed after."""
    session = server.session
    vip = session.join("Ana", "TEST")
    stream = session.subscribe(vip.player_id)
    try:
        bo = covered_phone(phone_factory, f"{server.url}/?room=TEST", "Bo")
        session.join("Cy", "TEST")
        a, b, c = [p["id"] for p in session.view(None)["players"]]
        bo.player_id = b
        rig_round(session, {a: "5H", b: "KS", c: "QD"}, dealer=c)
        session.act(a, "keep", session.step)  # a step: the phones see the rigged table
        assert session.view(None)["current"] == b
        wait_cover(bo)
        yield bo
    finally:
        stream.close()


def test_round47_your_turn_goes_when_the_vip_removes_everyone_else(
    live_server: Any, phone_factory: Any
) -> None:
    """A walkover during my turn: the game's end is drawn without the cover over it."""
    server = live_server()
    session = server.session
    ana = covered_phone(phone_factory, f"{server.url}/?room=TEST", "Ana")
    streams = [session.subscribe(session.join(name, "TEST").player_id) for name in ("Bo", "Cy")]
    try:
        a, b, c = [p["id"] for p in session.view(None)["players"]]
        rig_round(session, {a: "5H", b: "KS", c: "QD"}, dealer=b)
        session.act(c, "keep", session.step)  # a step: the phones see the rigged table
        assert session.view(None)["current"] == a
        wait_cover(ana)
        for pid in (b, c):
            session.kick(pid)  # the VIP's remove
        assert session.view(None)["walkover"]
        screen = first_screen(ana, "s.phase === 'game_over'")
    finally:
        for stream in streams:
            stream.close()
    assert_cover_gone(screen)
    assert ana.page.is_hidden("#moment")
    assert t("last_at_table", name="Ana") in ana.text("#outcome-lines")


def test_round47_your_turn_goes_when_the_vip_ends_the_game(
    live_server: Any, phone_factory: Any
) -> None:
    """The VIP ends the game during Bo's turn: Bo's phone shows the lobby at once."""
    server = live_server()
    session = server.session
    with bo_in_his_turn(server, phone_factory) as bo:
        session.act(session.view(None)["vip"], "end_game", session.step)
        screen = first_screen(bo, "s.phase === 'lobby'")
    assert_cover_gone(screen)


def test_round47_your_turn_goes_when_the_vip_removes_me(
    live_server: Any, phone_factory: Any
) -> None:
    """Removed during my turn: the join form and its note are not under the cover."""
    server = live_server()
    session = server.session
    with bo_in_his_turn(server, phone_factory) as bo:
        session.kick(bo.player_id)
        screen = first_screen(bo, "s.joining")
    assert_cover_gone(screen)
    assert bo.text("#join-error") == t("seat_gone")


#: The colour a node's text is drawn in.
COLOUR = "(node) => getComputedStyle(node).color"


def test_round47_removed_by_the_vip_is_a_calm_note_and_a_taken_name_still_red(
    live_server: Any, phone_factory: Any
) -> None:
    """Being removed by the VIP is news, not a mistake of the guest: "You are no longer at the
    table…" is in the hint colour, as a full table's wait is (round 46); a real join error (a
    name already taken) stays in the error colour."""
    server = live_server()
    session = server.session
    vip = session.join("Ana", "TEST")
    stream = session.subscribe(vip.player_id)
    try:
        bo = open_phone(phone_factory, f"{server.url}/?room=TEST", "Bo")
        bo.page.wait_for_selector("#me-name")
        error_colour = bo.page.eval_on_selector("#action-error", COLOUR)  # class="error"
        hint_colour = bo.page.eval_on_selector("#back-note", COLOUR)  # class="note"
        assert error_colour != hint_colour
        session.kick(session.view(None)["players"][1]["id"])
        bo.page.wait_for_selector("#join-form:not([hidden])")
        bo.page.wait_for_function(
            "text => document.getElementById('join-error').textContent === text",
            arg=t("seat_gone"),
        )
        assert bo.page.eval_on_selector("#join-error", COLOUR) == hint_colour
        bo.page.fill("#name-input", "Ana")  # Ana is at the table, her phone open
        bo.page.locator("#join-button").tap()
        bo.page.wait_for_function(
            "text => document.getElementById('join-error').textContent === text",
            arg=t("err_name_taken"),
        )
        assert bo.page.eval_on_selector("#join-error", COLOUR) == error_colour
    finally:
        stream.close()


def lost(route: Any) -> None:
    """A request that gets no answer at all (the host's computer off, or the Wi-Fi down)."""
    route.abort("connectionrefused")


def error_line(phone: Phone, text: str) -> None:
    phone.page.wait_for_function(
        "text => document.getElementById('action-error').textContent === text", arg=text
    )


def test_round47_an_unanswered_tap_asks_the_vip_about_the_tvs_computer_first(
    live_server: Any, phone_factory: Any
) -> None:
    """Round 47's brief: with the host down, the VIP (usually beside the TV's computer) was
    sent to their Wi-Fi settings. The VIP's unanswered Start asks first whether the game still
    runs on the TV's computer, and says every seat is kept; a guest's unanswered tap names
    both causes, the computer and the Wi-Fi, as the phone cannot tell them apart."""
    server = live_server()
    session = server.session
    url = f"{server.url}/?room=TEST"
    ana = open_phone(phone_factory, url, "Ana")
    bo = open_phone(phone_factory, url, "Bo")
    cy = session.join("Cy", "TEST").player_id
    stream = session.subscribe(cy)
    try:
        a, b = [p["id"] for p in session.view(None)["players"]][:2]
        ana.page.wait_for_selector('#actions button[data-action="start"]')
        ana.page.route("**/api/action", lost)
        ana.tap("start")
        error_line(ana, t("err_no_answer_vip"))
        assert t("reconnecting_vip") in t("err_no_answer_vip")  # the TV's computer, seats kept
        ana.page.unroute("**/api/action")
        session.act(a, "start", session.step)
        for _ in range(6):  # bounded: three players' turns, twice over
            table = session.view(None)
            if table["current"] == b:
                break
            session.act(table["current"], "keep", table["step"])
        assert session.view(None)["current"] == b
        bo.wait_step(session.step)
        bo.page.route("**/api/action", lost)
        bo.tap("keep")
        error_line(bo, t("err_no_answer"))
    finally:
        stream.close()
    assert t("err_no_answer") != t("err_no_answer_vip")
    assert ana.page.is_hidden("#banner") and bo.page.is_hidden("#banner")


def test_round47_a_join_unanswered_names_both_causes_and_offline_the_phones_own(
    live_server: Any, phone_factory: Any
) -> None:
    """Joining with no answer names the TV's computer and the Wi-Fi (the join cannot tell
    them apart, nor whether this phone will be the VIP); with the phone offline, it says this
    phone has no connection, which it surely knows."""
    server = live_server()
    phone = phone_factory()
    phone.open(f"{server.url}/?room=TEST")
    phone.page.route("**/api/join", lost)
    phone.page.fill("#name-input", "Ana")
    phone.page.locator("#join-button").tap()
    phone.page.wait_for_function(
        "text => document.getElementById('join-error').textContent === text",
        arg=t("err_network"),
    )
    phone.context.set_offline(True)
    phone.page.locator("#join-button").tap()
    phone.page.wait_for_function(
        "text => document.getElementById('join-error').textContent === text",
        arg=t("err_offline"),
    )
    assert server.session.view(None)["players"] == []


def test_round47_reconnecting_asks_the_vip_about_the_tvs_computer_not_when_offline(
    live_server: Any, phone_factory: Any
) -> None:
    """ "Reconnecting…": once the host gives no answer at all, the VIP's banner asks whether the
    game still runs on the TV's computer (a guest's says nothing of it); while the VIP's own
    phone is offline it does not (the phone's own network is surely the cause)."""
    server = live_server()
    url = f"{server.url}/?room=TEST"
    ana = open_phone(phone_factory, url, "Ana")
    bo = open_phone(phone_factory, url, "Bo")
    for phone in (ana, bo):
        phone.page.wait_for_selector("#me-name")
        phone.context.set_offline(True)
        phone.page.wait_for_selector("#banner:not([hidden])")
        wait_unanswered(phone, 1)  # its fetch while offline failed too…
        assert phone.text("#banner") == t("reconnecting")  # …yet nothing of the computer
        phone.page.route("**/api/**", lost)  # the host down: no answer
        before = len(unanswered_fetches(phone))  # offline ones too
        phone.context.set_offline(False)
    ana.page.wait_for_function(
        "text => document.getElementById('banner-why').textContent === text",
        arg=t("reconnecting_vip"),
    )
    wait_unanswered(bo, before + 2)  # by the second, the first one's banner is drawn
    assert bo.page.is_visible("#banner") and bo.text("#banner-why") == ""
    ana.page.unroute("**/api/**")  # the game is open again: every seat kept
    ana.page.wait_for_selector("#banner", state="hidden")


def unanswered_fetches(phone: Phone) -> list[Any]:
    """The phone's requests for the table that got no answer."""
    return [r for r in phone.requests if r.url.endswith("/api/state") and r.failure]


def wait_unanswered(phone: Phone, count: int) -> None:
    """Until ``count`` requests for the table got no answer; bounded (retries come 0.5, 1, 2,
    4 s apart)."""
    for _ in range(400):
        if len(unanswered_fetches(phone)) >= count:
            return
        phone.page.wait_for_timeout(25)
    raise AssertionError(f"{len(unanswered_fetches(phone))} fetches unanswered, not {count}")


#: My turn's line, each of my buttons, and the card's rank and suit: whole on the screen?
#: How tall each button is, and whether the card's words stay inside it.
IN_SIGHT = """() => {
    const whole = (e) => { const r = e.getBoundingClientRect();
        return r.top > -1 && r.bottom < innerHeight + 1 && r.left > -1 && r.right < innerWidth + 1; };
    const buttons = [...document.querySelectorAll('#actions button')];
    const card = document.getElementById('card').getBoundingClientRect();
    const inCard = ['rank', 'suit'].every((id) => {
        const r = document.getElementById(id).getBoundingClientRect();
        return r.left >= card.left && r.right <= card.right; });
    return {line: whole(document.getElementById('turn')), buttons: buttons.map(whole),
            heights: buttons.map((b) => b.getBoundingClientRect().height), inCard,
            text: document.getElementById('card').innerText};
}"""


@pytest.mark.parametrize(("width", "height"), [(320, 568), (360, 640)])
def test_round47_at_200_percent_text_a_small_phone_shows_my_turn_and_both_buttons(
    live_server: Any, phone_factory: Any, width: int, height: int
) -> None:
    """Issue 19, round 47's brief: at 200 % text on a small phone held upright, the second
    button of my turn needed a scroll (round 46 made 360x800 fit). Now my turn's line and
    both buttons (44 px tall at least) are on the first screen, the card lying down with its
    widest rank, a 10, inside it."""
    server = live_server()
    session = server.session
    phone = phone_factory("Pixel 7", "en-GB", viewport={"width": width, "height": height})
    phone.page.add_init_script(
        "document.addEventListener('DOMContentLoaded', () => "
        "{ document.documentElement.style.fontSize = '200%'; })"
    )
    phone.open(f"{server.url}/?room=TEST")
    phone.join("Ana")
    a = session.view(None)["players"][0]["id"]
    b, c = (session.join(name, "TEST").player_id for name in ("Bo", "Cy"))
    rig_round(session, {a: "10D", b: "KS", c: "QD"}, dealer=b)
    session.act(c, "keep", session.step)  # a step: the phone sees the rigged table
    assert session.view(None)["current"] == a
    phone.wait_step(session.step)
    phone.page.wait_for_selector("#moment", state="hidden", timeout=5000)
    seen = phone.page.evaluate(IN_SIGHT)
    assert seen["line"], seen
    assert seen["buttons"] == [True, True], seen
    assert all(height >= 44 for height in seen["heights"]), seen
    assert seen["inCard"] and seen["text"].startswith("10"), seen
