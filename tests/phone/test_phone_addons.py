"""PHONE_ADDONS.md: the core page's interface for add-ons, and the stream-replacement rule.

An add-on script (here a test one standing for vip.js, the on-demand add-on) is fetched by the
VIP's phone only, with its messages in front, uses ``window.cuckoo`` and renders on every
``cuckoo:view``; a guest's phone never asks for it. When the server ends a
stream with ``event: replaced``, the page says so, offers to take the game back and does not
reconnect by itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from host.i18n import LANGUAGES, Catalog
from tests.phone.helpers import Phone, seated_phone

CATALOG = Catalog.load()
ADDON = """/* a test add-on, standing for vip.js */
(() => {
  const panel = document.createElement("section");
  panel.id = "vip-panel";
  document.querySelector("main").append(panel);
  window.__addon = { views: 0 };
  document.addEventListener("cuckoo:view", (event) => {
    window.__addon.views += 1;
    panel.textContent = cuckoo.t("vip.hello", { name: event.detail.me.name }) + " | " +
      cuckoo.cardSymbol("10H") + " | " + cuckoo.cardName("10H");
  });
})();
"""


@pytest.fixture
def addon_server(make_session: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[SimpleNamespace]:
    """A live host whose static folder also holds ``vip.js`` and whose catalog has ``vip.*``."""
    from host.network import BackgroundServer
    from phone_web import create_app, page

    real = page._static_text
    monkeypatch.setattr(
        page, "_static_text", lambda name: ADDON if name == "vip.js" else real(name)
    )
    catalog = Catalog.load()
    for lang in LANGUAGES:
        catalog.messages[lang]["vip.hello"] = f"[{lang}] Hello {{name}}"
    session = make_session()
    server = BackgroundServer(create_app(session, catalog), "127.0.0.1", 0).start()
    yield SimpleNamespace(url=f"http://127.0.0.1:{server.port}", session=session)
    server.stop()


def scripts_of(phone: Phone, origin: str) -> list[str]:
    return [r.url[len(origin) :] for r in phone.requests if r.resource_type == "script"]


def test_addons_use_window_cuckoo_and_only_the_vip_fetches_the_vip_addon(
    addon_server: Any, phone_factory: Any
) -> None:
    session = addon_server.session
    # the first to join is the VIP
    phone = seated_phone(phone_factory, addon_server, "Ana", (), locale="fr-FR", lang="en")
    phone.wait_step(0)
    panel = phone.page.locator("main > #vip-panel")
    panel.wait_for()
    assert scripts_of(phone, addon_server.url) == ["/phone/phone.js", "/phone/vip.js?lang=en"]
    assert panel.inner_text() == "[en] Hello Ana | 10\u2665 | 10 of Hearts"
    views = phone.page.evaluate("() => window.__addon.views")
    session.join("Bo", "TEST")
    session.join("Cy", "TEST")
    phone.page.wait_for_function("(n) => window.__addon.views >= n + 2", arg=views)

    # send(): the current step is added; the new view comes back and is drawn.
    assert phone.page.evaluate("() => window.cuckoo.view().phase") == "lobby"
    sent = phone.page.evaluate("async () => (await window.cuckoo.send('start')).phase")
    assert sent == "turns" and session.view(None)["phase"] == "turns"
    phone.wait_step(1)
    # A refused action: null, and the reason shown.
    refused = phone.page.evaluate("async () => await window.cuckoo.send('make_tea')")
    assert refused is None
    assert phone.text("#action-error") == CATALOG.t("en", "phone.err_bad_action")
    assert session.step == 1  # nothing changed
    # request(): authenticated, JSON.
    status = phone.page.evaluate(
        "async () => (await window.cuckoo.request('GET', '/api/state')).status"
    )
    assert status == 200

    # joins mid-game: waiting, not the VIP
    guest = seated_phone(phone_factory, addon_server, "Dee", others=(), locale="it-IT")
    guest.wait_step(1)
    guest.page.wait_for_timeout(500)  # a late request for vip.js would show up here
    assert scripts_of(guest, addon_server.url) == ["/phone/phone.js"]
    assert guest.page.evaluate("() => window.__addon === undefined")


REPLACED = "event: replaced\ndata: {}\n\n"


def test_a_replaced_stream_is_said_and_not_reconnected_until_taken_back(
    live_server: Any, phone_factory: Any
) -> None:
    server = live_server()
    phone = seated_phone(phone_factory, server, "Ana", others=())
    phone.wait_step(0)
    # From now on the server says: this game is open elsewhere.
    phone.page.route(
        "**/api/events*",
        lambda route: route.fulfill(
            status=200, headers={"Content-Type": "text/event-stream"}, body=REPLACED
        ),
    )
    phone.page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    phone.page.wait_for_selector("#replaced:not([hidden])")
    assert phone.text("#replaced p") == CATALOG.t("en", "phone.stream_replaced")
    assert phone.text("#take-back") == CATALOG.t("en", "phone.stream_take_back")
    assert phone.page.evaluate("() => document.activeElement.id") == "take-back"
    streams = len([r for r in phone.requests if "/api/events" in r.url])
    phone.page.wait_for_timeout(3_000)  # longer than any reconnection wait
    phone.page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    phone.page.wait_for_timeout(500)
    assert len([r for r in phone.requests if "/api/events" in r.url]) == streams
    assert phone.page.is_hidden("#banner")  # not "Reconnecting…": it was not lost

    phone.page.unroute("**/api/events*")
    server.session.join("Bo", "TEST")
    phone.page.locator("#take-back").tap()  # play here again
    phone.page.wait_for_selector("#replaced", state="hidden")
    phone.page.wait_for_function("() => document.querySelectorAll('#players li').length === 2")
