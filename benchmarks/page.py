"""Phone page weight: bytes transferred and requests as Chromium loads it (issue 16.5: target
<= 12 KB of headers + gzipped bodies, <= 3 requests after the HTML).

Why a real browser: only the browser knows what a page really pulls in (a favicon probe, a
font, a second script). We load ``/?room=CODE`` from the real headless host in Debian's
Chromium with a phone-sized viewport, wait until the network is idle, and count every request
from the browser's own network events (bytes = response headers + body as received).

Run: ``python -m benchmarks.page``.
"""

from __future__ import annotations

import argparse
from typing import Any

from benchmarks._host import HostProcess, print_table

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
TARGET_BYTES = 12 * 1024
TARGET_REQUESTS = 3
Row = tuple[str, str, str]


def load_page(url: str) -> list[dict[str, Any]]:
    """Every request the browser made while loading ``url``: path, status, body and header bytes."""
    from playwright.sync_api import sync_playwright

    seen: list[dict[str, Any]] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True, timeout=30_000
        )
        try:
            context = browser.new_context(
                viewport={"width": 412, "height": 915},
                is_mobile=True,
                has_touch=True,
                locale="en-GB",
            )
            page = context.new_page()

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
                    {
                        "url": request.url,
                        "type": request.resource_type,
                        "status": "failed",
                        "body": 0,
                        "headers": 0,
                    }
                )

            page.on("requestfinished", finished)
            page.on("requestfailed", failed)
            page.goto(url, wait_until="networkidle", timeout=30_000)
            page.wait_for_timeout(500)  # a late favicon probe would show up here
            context.close()
        finally:
            browser.close()
    return seen


def main(argv: list[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.parse_args(argv)
    with HostProcess() as host:
        requests = load_page(f"http://127.0.0.1:{host.port}/?room={host.room}")
    for request in requests:
        print(
            f"  {request['status']!s:>6} {request['type']:<10} {request['headers']:>5} B headers "
            f"{request['body']:>6} B body  {request['url']}"
        )
    total = sum(r["body"] + r["headers"] for r in requests)
    bodies = sum(r["body"] for r in requests)
    after_html = len(requests) - 1
    rows: list[Row] = [
        (
            "phone page: bytes transferred (headers + gzipped bodies)",
            f"{total / 1024:.1f} KB",
            f"<= {TARGET_BYTES // 1024} KB",
        ),
        ("phone page: bytes of encoded bodies only", f"{bodies / 1024:.1f} KB", "(context)"),
        ("phone page: requests after the HTML", str(after_html), f"<= {TARGET_REQUESTS}"),
    ]
    print_table(rows)
    return rows


if __name__ == "__main__":
    main()
