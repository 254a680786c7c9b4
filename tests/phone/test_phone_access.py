"""Accessible and considerate (issue 4): labels, live regions, 44 px targets, AA contrast,
turn alerts that can be turned off, ``prefers-reduced-motion`` honoured."""

from __future__ import annotations

from typing import Any

from host.rules import game_moves
from tests.phone.helpers import Phone, seated_phone

#: Records alerts instead of buzzing/beeping; counts oscillators started by the page.
ALERT_SPY = """
window.__alerts = [];
navigator.vibrate = () => { window.__alerts.push('vibrate'); return true; };
const RealAudio = window.AudioContext;
window.AudioContext = class extends RealAudio {
  createOscillator() { window.__alerts.push('sound'); return super.createOscillator(); }
};
"""

#: Every visible text's contrast against the first opaque background behind it (WCAG 2.1).
CONTRAST = """() => {
  const rgb = (s) => s.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((c) => { c /= 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; })
    .reduce((a, c, i) => a + c * [0.2126, 0.7152, 0.0722][i], 0);
  const bg = (e) => { for (; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor);
    if (c.length < 4 || c[3] > 0) return c; } return [255, 255, 255]; };
  const worst = [];
  for (const e of document.querySelectorAll('body *')) {
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !e.getClientRects().length || getComputedStyle(e).visibility === 'hidden') continue;
    const [a, b] = [lum(rgb(getComputedStyle(e).color)), lum(bg(e))];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5) worst.push([e.id || e.className || e.tagName, e.textContent.trim(), ratio]);
  }
  return worst;
}"""

#: Interactive elements smaller than 44 × 44 CSS pixels.
SMALL_TARGETS = """() => [...document.querySelectorAll(
    'button, a, input:not([type=checkbox]), fieldset label')]  /* a checkbox: its label */
  .filter((e) => e.getClientRects().length)
  .map((e) => [e.id || e.textContent.trim(), e.getBoundingClientRect()])
  .filter(([, r]) => r.width < 44 || r.height < 44)
  .map(([name, r]) => [name, r.width, r.height])"""


def seat_with_two_others(server: Any, phone_factory: Any, **options: Any) -> Phone:
    phone: Phone = phone_factory("Pixel 7", "en-GB", **options)
    phone.page.add_init_script(ALERT_SPY)
    phone.open(f"{server.url}/?room=TEST")
    check_access(phone)
    phone.join("Ana")
    phone.player_id = server.session.view(None)["players"][0]["id"]
    server.session.join("Bo", "TEST")
    server.session.join("Cy", "TEST")
    return phone


def check_access(phone: Any) -> None:
    assert phone.page.evaluate(CONTRAST) == []
    assert phone.page.evaluate(SMALL_TARGETS) == []
    unlabelled = phone.page.evaluate("""() => [...document.querySelectorAll('input')]
        .filter((i) => !i.labels.length).map((i) => i.id)""")
    assert unlabelled == []


def until_my_turn(session: Any, pid: str) -> None:
    """Others keep and deal (through the session) until it is ``pid``'s turn; bounded."""
    for _ in range(12):
        table = session.view(None)
        if table["phase"] == "turns" and table["current"] == pid:
            return
        actor = next(p["id"] for p in table["players"] if game_moves(session.view(p["id"])["can"]))
        action = "deal" if table["phase"] == "reveal" else "keep"
        session.act(actor, action, table["step"])
    raise AssertionError("never my turn")


def test_my_turn_alerts_once_and_can_be_turned_off(live_server: Any, phone_factory: Any) -> None:
    server = live_server()
    session = server.session
    phone = seat_with_two_others(server, phone_factory)
    phone.wait_step(0)
    phone.tap("start")
    phone.wait_step(1)  # the tap reached the host: the game has started
    until_my_turn(session, phone.player_id)
    phone.page.wait_for_selector("body.myturn")
    phone.page.wait_for_function("() => window.__alerts.length >= 2")
    assert sorted(phone.page.evaluate("() => window.__alerts")) == ["sound", "vibrate"]
    check_access(phone)  # my turn: the card, both buttons, the table
    assert phone.page.get_attribute("#announcer", "role") == "status"  # one live region
    assert phone.page.get_attribute("#turn", "aria-live") is None  # not a second one
    assert phone.page.get_attribute("#banner", "role") == "status"
    assert phone.page.get_attribute("#card", "aria-label").startswith("Your card: ")

    phone.page.locator("#opt-sound").tap()
    phone.page.locator("#opt-vibrate").tap()
    step = phone.step()
    phone.tap("keep")
    phone.wait_past(step)  # the keep reached the host
    phone.page.evaluate("() => { window.__alerts = []; }")
    until_my_turn(session, phone.player_id)
    phone.wait_step(session.step)
    phone.page.wait_for_selector("body.myturn")
    phone.page.wait_for_timeout(200)
    assert phone.page.evaluate("() => window.__alerts") == []
    phone.page.reload()  # the choice is remembered on this phone
    phone.page.wait_for_selector("#game:not([hidden])")
    assert not phone.page.is_checked("#opt-sound") and not phone.page.is_checked("#opt-vibrate")


def test_reduced_motion_is_honoured(live_server: Any, phone_factory: Any) -> None:
    """The card pulses on my turn, unless the phone asks for reduced motion."""
    server = live_server()
    for name, motion, expected in (("Ana", "reduce", "none"), ("Bo", "no-preference", "pulse")):
        phone = seated_phone(
            phone_factory, server, name, others=(), device="iPhone 13", reduced_motion=motion
        )
        phone.page.evaluate("() => document.body.classList.add('myturn')")
        animation = phone.page.evaluate(
            "() => getComputedStyle(document.getElementById('card')).animationName"
        )
        assert animation == expected, motion
