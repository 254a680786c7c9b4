"""Play-test a real party: the host with its TV (under Xvfb) and Chromium phones.

Why: the unit and browser tests drive a session in-process; a guest meets the real host, its
TV window and its pacing, over a network that can drop. This script starts
``python -m host.cli`` under ``xvfb-run`` (the TV drawn on a virtual screen, captured with
ImageMagick's ``import``), opens phones in Debian's Chromium through Playwright, and plays one
scenario, writing phone and TV screenshots and the phones' text to look at afterwards.

Scenario ``offline-end`` (round 47's play-test): a guest's phone goes offline in a game's last
round, the game ends and the next one starts while it is offline, then it comes back.

    python scripts/playtest/party.py offline-end --port 6150 --out /tmp/playtest

Scenario ``sudden-death`` (round 47b's): house rule H5 with three phones; the saved game is
rigged between two starts of the host so that everyone left holds a 2 with one life, all keep,
and the TV plays the one-card duel.

Every wait is bounded; the host's process group is ended on the way out.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.phone.helpers import Phone

ROOM = "PLAY"
MOVES = ("keep", "exchange", "cut", "deal")
#: A game of four takes far fewer passes than this.
MAX_PASSES = 3000


def log(*parts: Any) -> None:
    print(time.strftime("%H:%M:%S"), *parts, flush=True)


class Host:
    """``cuckoo-party`` with its TV on a virtual screen, bound to 127.0.0.1."""

    def __init__(self, out: Path, port: int, extra: list[str]) -> None:
        self.out, self.port, self.extra = out, port, extra
        self.display = self.xauth = ""
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, fresh: bool = True) -> None:
        marker = self.out / "display"
        marker.unlink(missing_ok=True)
        env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_AUDIODRIVER="dummy")
        env.pop("SDL_VIDEODRIVER", None)  # the TV draws on Xvfb, to be captured
        command = (
            f"echo $DISPLAY $XAUTHORITY > {marker}; exec {sys.executable} -m host.cli "
            f"--bind 127.0.0.1 --port {self.port} --room {ROOM} --state {self.out}/state.json "
            f"--mute --no-music {'--fresh' if fresh else '--resume'} {' '.join(self.extra)}"
        )
        log_file = open(self.out / "host.log", "ab")  # noqa: SIM115 - kept for the child
        self.proc = subprocess.Popen(
            ["xvfb-run", "-a", "-s", "-screen 0 1280x720x24", "sh", "-c", command],
            cwd=ROOT,
            env=env,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # one process group: xvfb-run, Xvfb and the host
        )
        for _ in range(120):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=2)
                break
            except OSError:
                time.sleep(0.5)
        else:
            raise RuntimeError("the host did not answer within a minute")
        self.display, self.xauth = marker.read_text().split()

    def stop(self) -> None:
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=15)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)

    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/?room={ROOM}"

    def table(self) -> dict[str, Any]:
        """The public view: what the TV shows now."""
        address = f"http://127.0.0.1:{self.port}/api/table?room={ROOM}"
        with urllib.request.urlopen(address, timeout=5) as answer:
            return dict(json.loads(answer.read()))

    def view(self, token: str) -> dict[str, Any]:
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}/api/state",
            headers={"Authorization": f"Bearer {token}"},
        )
        with urllib.request.urlopen(request, timeout=5) as answer:
            return dict(json.loads(answer.read()))

    def tv_shot(self, name: str) -> None:
        subprocess.run(
            ["import", "-display", self.display, "-window", "root", str(self.out / f"{name}.png")],
            timeout=30,
            check=False,
            env=dict(os.environ, XAUTHORITY=self.xauth),
        )


class Phones:
    """Handsets: one Chromium context each (own storage), joined through the real page."""

    def __init__(self, out: Path) -> None:
        from playwright.sync_api import sync_playwright

        self.out = out
        self.playwright = sync_playwright().start()
        self.browser = self.playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True, timeout=30_000
        )
        self.made: dict[str, Phone] = {}

    def join(self, name: str, url: str, locale: str = "en-GB") -> Phone:
        device = dict(self.playwright.devices["Pixel 7"])
        device.pop("default_browser_type", None)
        context = self.browser.new_context(**{**device, "locale": locale})
        context.set_default_timeout(15_000)
        phone = Phone(context, context.new_page())
        phone.open(url)
        phone.join(name)
        phone.player_id = str(  # here: the token, to read this phone's view from the host
            phone.page.evaluate(
                "() => { for (const k of Object.keys(localStorage))"
                " if (k.startsWith('cuckoo:token')) return localStorage.getItem(k); return ''; }"
            )
        )
        self.made[name] = phone
        return phone

    def shot(self, name: str, phone: Phone) -> None:
        from playwright.sync_api import Error as PlaywrightError

        try:
            phone.page.screenshot(path=str(self.out / f"{name}.png"), full_page=True)
        except PlaywrightError as error:  # a screenshot missed is reported, not fatal
            log("no screenshot", name, error)
        (self.out / f"{name}.txt").write_text(phone.text())

    def close(self) -> None:
        for phone in self.made.values():
            phone.close()
        self.browser.close()
        self.playwright.stop()


def choose(can: list[str], card: str | None) -> str | None:
    """Deal when asked; exchange or cut a low card, keep a high one."""
    moves = [move for move in can if move in MOVES]
    if not moves:
        return None
    if "deal" in moves:
        return "deal"
    low = (card or "KS")[:-1] in ("A", "2", "3", "4", "5", "6")
    for move in ("exchange", "cut"):
        if low and move in moves:
            return move
    return "keep"


def play_once(host: Host, phones: dict[str, Phone]) -> bool:
    """The first phone that may act taps its button; False when nobody may (the TV plays)."""
    for phone in phones.values():
        view = host.view(phone.player_id)
        move = choose(view["can"], (view.get("me") or {}).get("card"))
        if move is not None:
            phone.tap(move)
            phone.wait_past(view["step"])
            return True
    return False


def offline_end(host: Host, phones: Phones) -> None:
    """A guest offline across a game's end and the next game's start, then back."""
    host.start()
    ana = phones.join("Ana", host.url())
    bo = phones.join("Bo", host.url())
    step = host.table()["step"]
    ana.tap("start")
    ana.wait_past(step)
    online = {"Ana": ana, "Bo": bo}
    for _ in range(MAX_PASSES):
        table = host.table()
        if table["phase"] == "game_over":
            break
        alive = [p for p in table["players"] if p["lives"] > 0]
        last = len(alive) == 2 and min(p["lives"] for p in alive) == 1  # maybe the last round
        if "Bo" in online and table["phase"] == "turns" and last:
            log("Bo goes offline:", [(p["name"], p["lives"]) for p in alive])
            phones.shot("bo-before-offline", bo)
            bo.context.set_offline(True)
            del online["Bo"]
        if not play_once(host, online):
            time.sleep(0.3)
    else:
        raise RuntimeError("the game did not end")
    time.sleep(4)  # the TV plays the winner
    host.tv_shot("tv-game-over")
    for action in ("new_game", "start"):
        step = host.table()["step"]
        ana.tap(action)
        ana.wait_past(step)
    time.sleep(3)
    host.tv_shot("tv-new-game")
    phones.shot("bo-offline", bo)
    bo.context.set_offline(False)
    for seconds in (1, 3, 8):
        time.sleep(seconds)
        phones.shot(f"bo-back-{seconds}s", bo)
    table = host.table()
    log("table:", [(p["name"], p["connected"], p["status"], p["lives"]) for p in table["players"]])


def rig_tie(state: Path, cards: tuple[str, ...]) -> None:
    """Give the seated players ``cards`` and one life each in the saved game (host stopped).

    Why through the save: a real host deals from its own shuffle; the only way to a table where
    everyone left loses together is to change the game between two starts. Every card moved
    trades places with the one it replaces, so the 52 cards stay accounted for.
    """
    from host.journal import journal_path, read_journal

    data = json.loads(state.read_text())
    journal = journal_path(state)
    if journal.exists():
        seq, replayed = read_journal(journal.read_bytes(), int(data.get("seq", 0)), data)
        if replayed is not None:
            data, data["seq"] = replayed, seq
    game = data["game"]
    for player, card in zip(game["players"], cards, strict=False):
        old = player["card"]
        for other in game["players"]:
            if other["card"] == card:
                other["card"] = old
        for pile in ("stock", "discard", "set_aside"):
            game[pile] = [old if held == card else held for held in game[pile]]
        player["card"], player["lives"] = card, 1
    state.write_text(json.dumps(data))
    journal.unlink(missing_ok=True)


def sudden_death(host: Host, phones: Phones) -> None:
    """H5: everyone left loses together (three 2s, one life each); the TV plays the duel."""
    bots = host.extra.index("--bots")
    host.extra = [*host.extra[:bots], *host.extra[bots + 2 :], "--house-rules", "H5"]
    host.start()
    table = {name: phones.join(name, host.url()) for name in ("Ana", "Bo", "Cy")}
    step = host.table()["step"]
    table["Ana"].tap("start")
    table["Ana"].wait_past(step)
    time.sleep(3)  # the deal is saved
    host.stop()
    rig_tie(host.out / "state.json", ("2H", "2S", "2D"))
    host.start(fresh=False)
    for _ in range(20):
        if host.table()["phase"] != "turns":
            break
        for phone in table.values():
            view = host.view(phone.player_id)
            if "keep" in view["can"]:
                phone.tap("keep")
                phone.wait_past(view["step"])
                break
        else:
            time.sleep(0.5)
    for second in range(0, 20, 2):
        host.tv_shot(f"tv-duel-{second:02d}s")
        time.sleep(2)
    for name, phone in table.items():
        phones.shot(f"{name.lower()}-game-over", phone)
    log("winners:", host.table().get("winners"))


SCENARIOS = {"offline-end": offline_end, "sudden-death": sudden_death}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenario", choices=sorted(SCENARIOS))
    parser.add_argument("--port", type=int, default=6150)
    parser.add_argument("--out", type=Path, default=Path("/tmp/playtest"))
    parser.add_argument("--seed", default="11")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    extra = ["--bots", "2", "--bot-delay", "0.3", "--away-seconds", "3", "--seed", args.seed]
    host = Host(args.out, args.port, extra)
    phones = Phones(args.out)
    try:
        SCENARIOS[args.scenario](host, phones)
    finally:
        phones.close()
        host.stop()
    log("screenshots and texts in", args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
