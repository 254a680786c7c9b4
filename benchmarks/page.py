"""Phone page weight: bytes transferred and requests as Chromium loads it (issue 16.5: target
<= 12 KB of headers + gzipped bodies, <= 3 requests after the HTML), in each language.

Why a real browser: only the browser knows what a page really pulls in (a favicon probe, a
font, a second script). We load ``/?room=CODE`` from the real headless host in Debian's
Chromium with a phone-sized viewport, wait until the network is idle, and count every request
from the browser's own network events (bytes = response headers + body as received).

Three loads per language, each on a fresh host: a first visit (the join form), a returning
guest (token kept: straight to the game) and a returning VIP, whose phone also fetches the host
controls (``vip.js`` with their messages: code splitting, a guest never downloads them). The
event stream is the API's live data, not the page: it is listed but neither weighed nor counted.

Run: ``python -m benchmarks.page``.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from benchmarks._host import HostProcess, print_table
from benchmarks.chromium import CHROMIUM, CHROMIUM_ARGS

TARGET_BYTES = 12 * 1024
TARGET_REQUESTS = 3
LOCALES = {"en": "en-GB", "fr": "fr-FR", "it": "it-IT"}
STREAM = "/api/events"
Row = tuple[str, str, str]


def _watch(page: Any, seen: list[dict[str, Any]]) -> None:
    """Record every request ``page`` finishes (or fails): URL, status, body and header bytes."""

    def finished(request: Any) -> None:
        response = request.response()
        sizes = request.sizes()
        seen.append(
            {
                "url": request.url,
                "type": request.resource_type,
                "status": response.status if response else None,
                "body": sizes["responseBodySize"],
                "headers": sizes["responseHeadersSize"],
            }
        )

    def failed(request: Any) -> None:
        seen.append(
            {"url": request.url, "type": request.resource_type, "status": "failed"}
            | {"body": 0, "headers": 0}
        )

    page.on("requestfinished", finished)
    page.on("requestfailed", failed)


def load_pages(url: str, locale: str) -> dict[str, list[dict[str, Any]]]:
    """The requests of a first visit, a returning guest and a returning VIP, in that order."""
    from playwright.sync_api import sync_playwright

    loads: dict[str, list[dict[str, Any]]] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True, timeout=30_000
        )
        try:
            phones = []
            for name in ("Ana", "Bo"):  # the first to join is the VIP
                context = browser.new_context(
                    viewport={"width": 412, "height": 915},
                    is_mobile=True,
                    has_touch=True,
                    locale=locale,
                )
                page = context.new_page()
                seen: list[dict[str, Any]] = []
                _watch(page, seen)
                page.goto(url, wait_until="networkidle", timeout=30_000)
                page.wait_for_timeout(500)  # a late favicon probe would show up here
                if name == "Ana":
                    loads["first visit (join form)"] = list(seen)
                page.fill("#name-input", name)
                page.locator("#join-button").tap()
                page.wait_for_selector("#game:not([hidden])", timeout=30_000)
                phones.append((name, page, seen))
            for name, page, seen in reversed(phones):
                seen.clear()
                page.reload(wait_until="load", timeout=30_000)
                page.wait_for_selector("#game:not([hidden])", timeout=30_000)
                if name == "Ana":
                    page.wait_for_selector("#vip-panel:not([hidden])", timeout=30_000)
                page.wait_for_timeout(1000)  # a late request would show up here
                loads["returning VIP" if name == "Ana" else "returning guest"] = list(seen)
            for _, page, _ in phones:
                page.context.close()
        finally:
            browser.close()
    return loads


def weigh(requests: list[dict[str, Any]]) -> tuple[int, int]:
    """(bytes transferred, page requests after the HTML), the event stream left out."""
    page = [r for r in requests if STREAM not in r["url"]]
    return sum(r["body"] + r["headers"] for r in page), len(page) - 1


def main(argv: list[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lang", choices=sorted(LOCALES), action="append")
    args = parser.parse_args(argv)
    print(f"load average: {os.getloadavg()[0]:.2f}")
    rows: list[Row] = []
    for lang in args.lang or list(LOCALES):
        with HostProcess() as host:
            loads = load_pages(f"http://127.0.0.1:{host.port}/?room={host.room}", LOCALES[lang])
        for label, requests in loads.items():
            print(f"[{lang}] {label}")
            for request in requests:
                if STREAM in request["url"]:
                    continue  # the live data, not the page (the reload also aborts the old one)
                print(
                    f"  {request['status']!s:>6} {request['type']:<12} {request['headers']:>5} B "
                    f"headers {request['body']:>6} B body  {request['url']}"
                )
            wire, after_html = weigh(requests)
            rows.append(
                (
                    f"phone page [{lang}] {label}: bytes transferred / requests after the HTML",
                    f"{wire / 1024:.1f} KB / {after_html}",
                    f"<= {TARGET_BYTES // 1024} KB / <= {TARGET_REQUESTS}",
                )
            )
    print_table(rows)
    return rows


if __name__ == "__main__":
    main()
