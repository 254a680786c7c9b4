"""Debian's Chromium, as the phone tests, the page benchmark and the phone screenshots launch it.

Why one place: Playwright cannot download browsers here, so every launch uses the system's
``/usr/bin/chromium`` with the flags that keep it from reaching out (no sandbox as root, no
GPU, no background networking, updates, sync or QUIC).
"""

from __future__ import annotations

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
