"""Issue 15, deliverable 6: a whole party night, compressed into about two minutes.

The real headless host (``soak_host.py``: ``host.cli`` plus kicks on stdin) plays game after
game with 3 computer players and 4 scripted phones. The phones tap through their turns, fall
asleep (their stream is never read again and never closed: no FIN; on waking, the old socket
is reset or simply left), reload (a new stream replaces the old one, which must end with
``event: replaced``), get kicked by the host and join again. Between parties the host is
restarted with other house rules (``--fresh``: everyone joins again); every few games it is
killed with SIGKILL mid-game and resumed from its save. Every game is played to its end.

At a quiet moment after the first game, and again at the end, the host's threads, open file
descriptors, temporary files and RSS are measured: the end must be back at the first level
within the margins below (figures in docs/benchmarks.md). 26 games of 7 players at about 15
minutes each is a 6-hour night.
"""

from __future__ import annotations

import functools
import os
import random
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
import pytest

from tests.api.cuckoo_http_client import Http, wait_until
from tests.host_process import JOIN_LINE, ROOT

#: A bound for a loop that stopped making progress, not a speed target: the night takes about
#: 110 s alone and 150 s beside three other test workers on two cores.
DEADLINE_S = 400.0
#: (house rules, games to finish, how the segment ends: "kill" mid-game, "fresh" or "end").
NIGHT: list[tuple[str, int, str]] = [
    ("", 4, "kill"),
    ("", 3, "fresh"),
    ("H1,H2", 4, "kill"),
    ("H1,H2", 3, "fresh"),
    ("H3,H8", 3, "kill"),
    ("H3,H8", 2, "fresh"),
    ("H5,H6,H7", 7, "end"),
]
#: How far the end may be above the level after the first game (stated in docs/benchmarks.md).
MARGIN_THREADS = 2
MARGIN_FDS = 6
MARGIN_RSS = 1.25
NAMES = ("Ana", "Bea", "Cal", "Dan")


class SoakHost:
    """The host child process: started, kicked through stdin, killed or stopped; measured."""

    def __init__(self, state: Path, rules: str, *, fresh: bool) -> None:
        command = [
            sys.executable,
            "-m",
            "tests.torture.soak_host",
            "--headless",
            "--bind",
            "127.0.0.1",
            "--port",
            "0",
            "--room",
            "TEST",
            "--seed",
            "7",
            "--state",
            str(state),
            "--turn-timeout",
            "0.15",
            "--bots",
            "3",
            "--bot-delay",
            "0.02",
            "--rapid-seconds",
            "1",
            "--house-rules",
            rules,
        ]
        env = {**os.environ, "PYTHONPATH": str(ROOT), "CI": "true"}
        self.process = subprocess.Popen(
            [*command, *(["--fresh"] if fresh else [])],
            cwd=ROOT,
            env=env,
            text=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        self.lines: list[str] = []
        self.port = 0
        threading.Thread(target=self._read, daemon=True).start()
        assert wait_until(lambda: self.port > 0 or self.process.poll() is not None, 30, 0.02)
        assert self.port, self.lines[-10:]
        self.http = Http(f"http://127.0.0.1:{self.port}")

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))
            if match := JOIN_LINE.match(line.rstrip("\n")):
                self.port = int(match.group(1))

    def command(self, line: str) -> None:
        """``kick PLAYER_ID`` or ``next`` (the TV's button), done by the host's session."""
        assert self.process.stdin is not None
        self.process.stdin.write(f"{line}\n")
        self.process.stdin.flush()

    def kill_9(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    def levels(self, state_dir: Path) -> dict[str, float]:
        """Threads, open descriptors, temp files and RSS (MB) of the host process now.

        Temp files: save files in the making in the state folder that this host made (newer
        than its start), plus deleted-but-open files (waitress's overflow buffers);
        ``stale_tmp`` counts older ones, left by a SIGKILL mid-save (issue 15 finding 8,
        removed at start by the "data" branch).
        """
        proc = psutil.Process(self.process.pid)
        links = []
        for fd in os.listdir(f"/proc/{proc.pid}/fd"):
            try:
                links.append(os.readlink(f"/proc/{proc.pid}/fd/{fd}"))
            except OSError:
                pass
        tmp = [state_dir / n for n in os.listdir(state_dir) if n.endswith(".tmp")]
        born = proc.create_time()
        fresh_tmp = sum(1 for path in tmp if path.stat().st_mtime >= born)
        return {
            "threads": proc.num_threads(),
            "fds": len(links),
            "temp_files": fresh_tmp + sum(1 for x in links if x.endswith("(deleted)")),
            "stale_tmp": len(tmp) - fresh_tmp,
            "rss_mb": round(proc.memory_info().rss / 2**20, 1),
        }


@dataclass
class Phone:
    """A scripted phone: its seat, its live stream socket (drained while awake), old sockets."""

    name: str
    token: str = ""
    player_id: str = ""
    stream: socket.socket | None = None
    asleep: bool = False
    left: list[socket.socket] = field(default_factory=list)

    def join(self, http: Http) -> None:
        status, body = http.call("POST", "/api/join", {"name": self.name, "room": "TEST"})
        assert status == 201, (self.name, status, body)
        self.token, self.player_id = body["token"], body["player_id"]

    def listen(self, port: int) -> socket.socket | None:
        """Open a new stream (a page load); returns the previous one (kept in ``left``)."""
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.sendall(f"GET /api/events?token={self.token} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        sock.setblocking(False)
        old, self.stream = self.stream, sock
        if old is not None:
            self.left.append(old)
        return old

    def forget_sockets(self, *, reset: bool) -> None:
        """Close old sockets: with a reset (RST, a phone dropping off Wi-Fi) or a plain FIN."""
        for sock in self.left:
            if reset:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()
        self.left.clear()


def _drain(sock: socket.socket | None) -> bytes:
    """What a socket holds now, without waiting (b"" if nothing, closed or gone)."""
    data = b""
    while sock is not None and len(data) < 2**22:
        try:
            chunk = sock.recv(65536)
        except OSError:  # BlockingIOError: nothing more now; others: gone
            break
        if not chunk:
            break
        data += chunk
    return data


def _answered(sock: socket.socket | None) -> bool:
    """Has the host begun to answer this stream (its first bytes are in)?"""
    return bool(_drain(sock))


class Party:
    """The night: one host after another on one state file, the phones, and what happened."""

    def __init__(self, tmp_path: Path) -> None:
        self.state_dir = tmp_path
        self.state = tmp_path / "state.json"
        self.rng = random.Random(15)
        self.phones = [Phone(name) for name in NAMES]
        self.host: SoakHost | None = None
        self.deadline = time.monotonic() + DEADLINE_S
        self.count = {
            "games": 0,
            "started": 0,
            "actions": 0,
            "kills": 0,
            "fresh_starts": 0,
            "kicks": 0,
            "rejoins": 0,
            "sleeps": 0,
            "reloads": 0,
            "replaced": 0,
            "host_deals": 0,
        }
        self.levels: dict[str, dict[str, float]] = {}
        self.cleans_stale_tmp = False

    @property
    def live(self) -> SoakHost:
        assert self.host is not None
        return self.host

    def start(self, rules: str, *, fresh: bool) -> None:
        planted = self.state_dir / f".{self.state.name}.planted.tmp"
        if not fresh:
            planted.write_text("{}")  # does the host clear stale temp files at start?
        self.host = SoakHost(self.state, rules, fresh=fresh)
        if not fresh:
            self.cleans_stale_tmp = not planted.exists()
            planted.unlink(missing_ok=True)
        for phone in self.phones:
            phone.stream, dead = None, phone.stream  # the old host is gone with its sockets
            if dead is not None:
                phone.left.append(dead)
            phone.forget_sockets(reset=False)
            if fresh:
                phone.join(self.live.http)
                self.count["fresh_starts"] += phone is self.phones[0]
            phone.asleep = False
            phone.listen(self.live.port)

    def tap(self, phone: Phone) -> dict[str, Any]:
        """The phone reads its view and taps one of its buttons; rejoins if it was kicked."""
        http = self.live.http
        status, view = http.call("GET", "/api/state", token=phone.token)
        if status == 401:  # kicked by the host: the phone joins again (waiting if mid-game)
            phone.join(http)
            phone.listen(self.live.port)
            self.count["rejoins"] += 1
            status, view = http.call("GET", "/api/state", token=phone.token)
        assert status == 200, (status, view)
        can = [a for a in view["can"] if a in ("start", "keep", "exchange", "cut", "deal")]
        if can and not phone.asleep:
            action = "start" if "start" in can else self.rng.choice(can)
            answer, body = http.act(phone.token, action, view["step"])
            # 409: a bot or a time-out moved first. 400 on "start" only: a phone went away
            # between the read and the tap (presence changes "can" without a new step).
            refused_start = answer == 400 and action == "start" and body["error"] == "bad_action"
            if not (answer in (200, 409) or refused_start):
                self._refusal_after_a_kick(phone, view, action, answer, body)
            self.count["actions"] += answer == 200
            self.count["started"] += answer == 200 and action == "start"
        return view  # type: ignore[no-any-return]

    def _refusal_after_a_kick(
        self, phone: Phone, read: dict[str, Any], action: str, answer: int, body: Any
    ) -> None:
        """A refused tap passes only if the host's kick landed between the read and the tap.

        The kick comes on the host's stdin and lands on its own time. Mid-round it deals the
        round again among those left at the same step (PHONE_API.md: kicks do not change
        ``step``), so the move read may be gone (``400 bad_action``), or this phone was the one
        kicked (``401``). Anything else fails, with what the phone read and what is true now.
        """
        status, now = self.live.http.call("GET", "/api/state", token=phone.token)
        if answer == 401 and status == 401:
            return  # this phone was kicked; its next tap joins again
        removed_at_the_same_step = (
            status == 200
            and now["step"] == read["step"]
            and len(now["players"]) < len(read["players"])
        )
        if answer == 400 and body["error"] == "bad_action" and removed_at_the_same_step:
            return
        fields = ("step", "phase", "current", "dealer", "can")
        before = {key: read.get(key) for key in fields}
        after = {key: now.get(key) for key in fields} if status == 200 else status
        raise AssertionError((answer, action, body, "read:", before, "now:", after))

    def play(self, games: int, ending: str) -> None:
        """Play ``games`` games to their end; ``ending`` "kill": then SIGKILL mid-game."""
        finished, kicked = 0, False
        last_step, since = -1, time.monotonic()
        while True:
            assert time.monotonic() < self.deadline, f"out of time: {self.count}"
            for phone in self.phones:
                if not phone.asleep:
                    _drain(phone.stream)
                view = self.tap(phone)
            vip = self.live.http.state(self.phones[0].token)
            if vip["step"] != last_step:
                last_step, since = vip["step"], time.monotonic()
            elif vip["phase"] == "reveal" and time.monotonic() - since > 0.25:
                self.live.command("next")  # the next dealer's phone sleeps: the host deals
                self.count["host_deals"] += 1
                since = time.monotonic()
            if vip["phase"] == "turns" and not kicked and finished == 0 and games > 1:
                self.live.command(f"kick {self.rng.choice(self.phones[1:]).player_id}")
                self.count["kicks"] += 1
                kicked = True
            if (
                vip["phase"] == "turns"
                and ending == "kill"
                and finished == games
                and vip["round"] >= 2
            ):
                self.live.kill_9()
                self.count["kills"] += 1
                return
            if vip["phase"] == "game_over":
                finished += 1
                self.count["games"] += 1
                if self.count["games"] == 1:
                    self.levels["after the first game"] = self.quiet_levels()
                if ending == "end" and finished == 1:
                    self.levels["after the last party's first game"] = self.quiet_levels()
                if finished == games and ending != "kill":
                    return
                self.between_games()
                assert self.live.http.act(self.phones[0].token, "new_game", vip["step"])[0] == 200
            del view
            time.sleep(0.003)

    def between_games(self) -> None:
        """Sleepers wake (a new stream; the old socket reset or left), one phone reloads (its
        old stream must end with ``event: replaced``), another falls asleep."""
        for phone in self.phones[1:]:
            if phone.asleep:
                phone.asleep = False
                phone.listen(self.live.port)
                phone.forget_sockets(reset=self.count["games"] % 2 == 0)
                # Served before going on: if this phone is the one reloading below, its two
                # requests must reach the host in order, or the older would replace the newer.
                answered = functools.partial(_answered, phone.stream)
                assert wait_until(answered, 5, 0.01), phone.name
        reloading = self.rng.choice([p for p in self.phones if not p.left])
        old = reloading.listen(self.live.port)
        self.count["reloads"] += 1
        seen = bytearray()

        def replaced() -> bool:
            seen.extend(_drain(old)[-8192:])
            return b"event: replaced" in seen

        assert wait_until(replaced, 5, 0.01), bytes(seen[-300:])
        self.count["replaced"] += 1
        reloading.forget_sockets(reset=False)
        sleeper = self.rng.choice(self.phones[1:])
        sleeper.asleep = True  # from now on its stream is never read, and never closed
        self.count["sleeps"] += 1

    def quiet_levels(self) -> dict[str, float]:
        """The host's levels once every phone is awake with one stream, old sockets closed."""
        for phone in self.phones:
            if phone.asleep:
                phone.asleep = False
                phone.listen(self.live.port)
                # served before going on, as in between_games: it may be the next to reload
                answered = functools.partial(_answered, phone.stream)
                assert wait_until(answered, 5, 0.01), phone.name
            phone.forget_sockets(reset=False)
            _drain(phone.stream)
        time.sleep(1.5)  # the host sees the closed sockets and ends those streams
        for phone in self.phones:
            _drain(phone.stream)
        return self.live.levels(self.state_dir)

    def close(self) -> None:
        for phone in self.phones:
            if phone.stream is not None:
                phone.left.append(phone.stream)
                phone.stream = None
            phone.forget_sockets(reset=False)
        if self.host is not None:
            self.host.stop()


@pytest.mark.slow
def test_issue15_a_whole_night_compressed(tmp_path: Path) -> None:
    party = Party(tmp_path)
    try:
        fresh = True
        for rules, games, ending in NIGHT:
            if party.host is None or party.host.process.poll() is not None or fresh:
                if party.host is not None:
                    party.host.stop()
                party.start(rules, fresh=fresh)
            party.play(games, ending)
            fresh = ending == "fresh"
        party.levels["at the end"] = party.quiet_levels()
        first, end = party.levels["after the first game"], party.levels["at the end"]
        same_process = party.levels["after the last party's first game"]
        print(
            f"soak: {party.count}; levels {party.levels}; "
            f"host clears stale temp files at start: {party.cleans_stale_tmp}"
        )

        count = party.count
        assert count["games"] == sum(games for _, games, _ in NIGHT) == 26
        assert count["started"] == count["games"]  # every game started was played to its end
        assert count["kills"] == 3 and count["fresh_starts"] == 4
        assert count["kicks"] >= 5 and count["rejoins"] == count["kicks"]
        assert count["replaced"] == count["reloads"] >= 20 and count["sleeps"] >= 20
        assert end["threads"] <= first["threads"] + MARGIN_THREADS, party.levels
        assert end["fds"] <= first["fds"] + MARGIN_FDS, party.levels
        assert end["temp_files"] <= first["temp_files"], party.levels
        if party.cleans_stale_tmp:
            assert end["stale_tmp"] == 0, party.levels
        assert end["rss_mb"] <= first["rss_mb"] * MARGIN_RSS, party.levels
        # The last host ran 7 games with every kind of trouble: nothing grew in it either.
        assert end["threads"] <= same_process["threads"], party.levels
        assert end["fds"] <= same_process["fds"] + MARGIN_FDS, party.levels
        assert end["rss_mb"] <= same_process["rss_mb"] * MARGIN_RSS, party.levels

        # Presence is right after all those replacements: everyone here, then everyone away.
        table = party.live.http.call("GET", "/api/table?room=TEST")[1]
        people = {p["id"]: p for p in table["players"] if not p["bot"]}
        assert all(people[phone.player_id]["connected"] for phone in party.phones)
        for phone in party.phones:
            phone.left.append(phone.stream)  # type: ignore[arg-type]
            phone.stream = None
            phone.forget_sockets(reset=False)

        def all_away() -> bool:
            table = party.live.http.call("GET", "/api/table?room=TEST")[1]
            return not any(p["connected"] for p in table["players"] if not p["bot"])

        assert wait_until(all_away, 10, 0.05)
    finally:
        party.close()
