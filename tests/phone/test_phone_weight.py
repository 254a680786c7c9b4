"""Small and standard (issue 4): at most 20 KB in at most 3 requests after the HTML, no other host.

Measured from Chromium's own request/response events, for a first visit (join form) and for a
returning phone (token kept: straight to the game), in each language: the bytes on the wire as
the browser counts them (response headers + bodies, ``request.sizes()``; the script and the
stylesheet are gzipped, so their decoded bodies are larger).
"""

from __future__ import annotations

from typing import Any

import pytest

BUDGET_BYTES = 20 * 1024
MAX_REQUESTS_AFTER_HTML = 3


def measure(phone: Any, start: int, origin: str) -> tuple[list[str], int, int]:
    """URLs requested since ``start`` (the HTML first), the bytes of every finished body, and
    those bodies plus their response headers as Chromium received them."""
    requests = phone.requests[start:]
    assert requests and requests[0].resource_type == "document"
    total = wire = 0
    for request in requests:
        assert request.url.startswith(origin + "/"), f"external request: {request.url}"
        response = request.response()
        assert response is not None and response.ok, request.url
        if "/api/events" not in request.url:  # the live stream never ends: data, not page
            sizes = request.sizes()
            # the body as sent (the script travels gzipped, PHONE_ADDONS.md)
            total += sizes["responseBodySize"] or len(response.body())
            assert sizes["responseHeadersSize"] > 0, request.url
            wire += sizes["responseHeadersSize"] + sizes["responseBodySize"]
    return [r.url[len(origin):] for r in requests], total, wire


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR", "it-IT"])
def test_page_weight_and_requests_from_the_browsers_network_events(
        live_server: Any, phone_factory: Any, locale: str) -> None:
    server = live_server()
    phone = phone_factory("iPhone 13", locale)
    phone.open(f"{server.url}/?room=TEST")
    phone.page.wait_for_load_state("load")
    urls, total, wire = measure(phone, 0, server.url)
    assert len(urls) - 1 <= MAX_REQUESTS_AFTER_HTML, urls
    # The script (with its add-ons) and the stylesheet travel gzipped: the budget is the wire.
    assert 0 < wire <= BUDGET_BYTES, (total, wire)
    assert urls == ["/?room=TEST", "/phone/phone.css", "/phone/phone.js"]  # no favicon

    phone.join("Chloé")
    before = len(phone.requests)
    phone.page.reload()
    phone.page.wait_for_selector("#game:not([hidden])")
    phone.wait_step(0)
    urls, total, wire = measure(phone, before, server.url)
    assert len(urls) - 1 <= MAX_REQUESTS_AFTER_HTML, urls
    # The script (with its add-ons) and the stylesheet travel gzipped: the budget is the wire.
    assert 0 < wire <= BUDGET_BYTES, (total, wire)
    assert urls[-1].startswith("/api/events?token=")  # the view comes with the stream
