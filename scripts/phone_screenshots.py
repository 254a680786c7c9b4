"""Save phone screenshots for the README: join, the "Your turn!" moment, your turn (upright and
held sideways), blocked by a King, reveal, winner, VIP, and (issue 14's add-on) the first-time
"How to play" card and tonight's standings.

Runs a real host in-process (session + phone API + page on 127.0.0.1, a free port) and three
phones in Debian's Chromium, then plays a game by tapping the real buttons. As the host it may
peek at the cards, so it asks for an exchange whenever the neighbour holds a King, to catch
the "Cuckoo!" moment.

    python scripts/phone_screenshots.py [--out docs/img] [--lang en] [--seed 42] [--only vip]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
NAMES = ("Chloé", "Bo", "Dário")
LOCALES = {"en": "en-GB", "fr": "fr-FR", "it": "it-IT"}
MAX_TAPS = 400
#: A Pixel 7 held sideways (Playwright's "Pixel 7 landscape" viewport).
LANDSCAPE = {"width": 863, "height": 360}
TIMEOUT_MS = 10_000


def choose(session: Any, pid: str) -> str:
    """Start/deal when offered; exchange into a King (for the picture) or away from a low card."""
    view = session.view(pid)
    can = view["can"]
    for action in ("start", "deal"):
        if action in can:
            return action
    card = view["me"]["card"] or "KS"
    if "exchange" in can:
        order = view["order"]
        target = order[order.index(pid) + 1]
        if str(session.view(target)["me"]["card"]).startswith("K"):
            return "exchange"
    low = card[:-1] in ("A", "2", "3", "4", "5", "6", "7")
    for action in ("exchange", "cut"):
        if low and action in can:
            return action
    return "keep"


def wait_step(page: Any, step: int) -> None:
    page.wait_for_function(
        "s => Number(document.getElementById('main').dataset.step) === s", arg=step
    )


def shoot(page: Any, out: Path, name: str, focus: str | None = None) -> None:
    """Save one phone's screen; a big moment covering it is let pass first."""
    page.wait_for_selector("#moment", state="hidden", timeout=5_000)
    if focus:
        page.locator(focus).evaluate("e => e.scrollIntoView({block: 'center'})")
    else:  # the top of the page, as a guest sees it (an earlier shot may have scrolled it)
        page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(out / f"phone-{name}.png"))
    print(out / f"phone-{name}.png")


def run(out: Path, lang: str, seed: int, only: str | None = None) -> int:
    sys.path.insert(0, str(ROOT))
    from playwright.sync_api import sync_playwright

    from benchmarks.chromium import CHROMIUM, CHROMIUM_ARGS
    from host.network import BackgroundServer
    from host.rules import HouseRules
    from host.session import Session
    from phone_web import create_app

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        session = Session(HouseRules(), seed=seed, room="TEST", state_path=Path(tmp) / "s.json")
        server = BackgroundServer(create_app(session), "127.0.0.1", 0, threads=16).start()
        url = f"http://127.0.0.1:{server.port}/?room=TEST"
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                try:
                    return play(browser, playwright, session, url, out, lang, only)
                finally:
                    browser.close()
        finally:
            session.close()
            server.stop()


def shoot_sideways(page: Any, out: Path) -> None:
    """The same turn on the phone held sideways (Pixel 7 landscape): the card beside the
    buttons. The page is turned back upright afterwards."""
    upright = page.viewport_size
    page.set_viewport_size(LANDSCAPE)
    shoot(page, out, "landscape")
    page.set_viewport_size(upright)


def shoot_vip(page: Any, session: Any, out: Path) -> None:
    """The VIP's controls in the lobby (issue 13): H1 and H4 switched on, then back to none."""
    for rule in ("H1", "H4"):
        step = session.step
        page.locator(f"#vip-rule-{rule}").check()
        wait_step(page, step + 1)
    page.locator("#vip-panel").evaluate("e => e.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(out / "phone-vip.png"))
    print(out / "phone-vip.png")
    step = session.step
    session.act(session.view(None)["vip"], "set_rules", step, {"rules": []})
    wait_step(page, step + 1)


def play(
    browser: Any,
    playwright: Any,
    session: Any,
    url: str,
    out: Path,
    lang: str,
    only: str | None = None,
) -> int:
    from host.rules import game_moves

    device = dict(playwright.devices["Pixel 7"])
    device.pop("default_browser_type", None)
    device["device_scale_factor"] = 2
    pages: dict[str, Any] = {}
    for index, name in enumerate(NAMES):
        page = browser.new_context(**device, locale=LOCALES[lang]).new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(url)
        page.fill("#name-input", name)
        if index == 0 and only != "vip":
            shoot(page, out, "join")
        page.locator("#join-button").tap()
        page.wait_for_selector("#game:not([hidden])")
        if index == 0:  # the first to join is the VIP: their controls load on demand (vip.js)
            page.wait_for_selector("#vip-panel:not([hidden])", timeout=10_000)
        if index == 0 and page.locator("#social-howto:not([hidden])").count():
            shoot(page, out, "howto", "#social-howto")
        pid = next(p["id"] for p in session.view(None)["players"] if p["name"] == name)
        pages[pid] = page
    shoot_vip(pages[session.view(None)["vip"]], session, out)
    if only == "vip":
        return 0
    wanted = {"your-turn", "blocked", "reveal", "winner"}
    for _ in range(MAX_TAPS):
        table = session.view(None)
        for page in pages.values():
            wait_step(page, table["step"])
        if table["phase"] == "turns" and "your-turn" in wanted:
            moment = pages[table["current"]]
            moment.wait_for_selector("#moment:not([hidden])", timeout=5_000)
            moment.evaluate("window.scrollTo(0, 0)")
            moment.screenshot(path=str(out / "phone-moment.png"))  # the big "Your turn!"
            print(out / "phone-moment.png")
            shoot(moment, out, "your-turn")
            shoot_sideways(moment, out)
            wanted.discard("your-turn")
        blocked = [e for e in table["log"] if e["type"] == "blocked"]
        if blocked and "blocked" in wanted:
            shoot(pages[blocked[-1]["player"]], out, "blocked", "#turn")
            wanted.discard("blocked")
        if table["phase"] == "reveal" and "reveal" in wanted:
            shoot(pages[table["losers"][0]], out, "reveal", "#outcome")
            wanted.discard("reveal")
        if table["phase"] == "game_over":
            if "blocked" in wanted:  # no King this game: another one, same phones
                tap(pages[table["vip"]], "new_game")
                wait_step(pages[table["vip"]], table["step"] + 1)
                continue
            shoot(pages[table["winners"][0]], out, "winner", "#outcome")
            other = next(pid for pid in pages if pid not in table["winners"])
            if pages[other].locator("#social-standings li").count():
                shoot(pages[other], out, "standings", "#social-standings")
            return 0
        actor = next(pid for pid in pages if game_moves(session.view(pid)["can"]))
        action = choose(session, actor)
        tap(pages[actor], action)
        wait_step(pages[actor], table["step"] + 1)
    print("the game did not end", file=sys.stderr)
    return 1


def tap(page: Any, action: str) -> None:
    """Tap as a person does: not in the instant after this phone's own last tap or its answer,
    when the page takes a tap for a double tap and drops it (``#actions[data-calm]``)."""
    page.wait_for_function(
        "() => performance.now() >= Number(document.getElementById('actions').dataset.calm)"
    )
    page.locator(f'#actions button[data-action="{action}"]').tap()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    parser.add_argument("--lang", choices=sorted(LOCALES), default="en")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument(
        "--only",
        choices=["vip"],
        default=None,
        help="only the VIP's controls (the others are left as they are)",
    )
    args = parser.parse_args(argv)
    return run(args.out, args.lang, args.seed, args.only)


if __name__ == "__main__":
    sys.exit(main())
