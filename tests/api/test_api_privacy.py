"""Hidden information: no response body or stream message carries a card its receiver may not see.

The oracle is independent of the views: from the true game state after every step it records
which cards each player has held this deal, which Kings were shown or cut (R7, R9), and, from
the reveal on, every dealt player's final card (R11). The dealer's discarded card (R9) is never
anyone's but the dealer's. Every card code found in any text a receiver got must be in its set.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from host.rules import game_moves
from tests.api.cuckoo_http_client import EventStream, Http

CARD = re.compile(r'"((?:10|[A2-9JQK])[SHDC])"')
NAMES = ("Ana", "Bea", "Cal", "Dan", "Eve")


class Oracle:
    """What each receiver (player id, or None for the public) may see at each step."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.held: dict[str, set[str]] = {}
        self.by_step: dict[int, dict[str | None, set[str]]] = {}

    def new_deal(self) -> None:
        self.held = {}

    def record(self) -> None:
        game = self.session._game  # the ground truth, read only
        with self.session._lock:
            # Every King shown this round stays public knowledge (R7), even after it moves on
            # or the dealer cuts it away into the discard.
            public: set[str] = {str(card) for card in game.shown | game.kings_seen}
            public |= {str(card) for card in game.set_aside if card.is_king}
            if game.cut_king is not None:
                public.add(str(game.cut_king))
            for deal in game.sudden_death:
                public |= set(deal.values())
            for player in game.players:
                if player.card is not None and player.id in game.order:
                    self.held.setdefault(player.id, set()).add(str(player.card))
            if game.phase in ("reveal", "game_over"):
                public |= {
                    str(p.card) for p in game.players if p.card is not None and p.id in game.order
                }
            allowed: dict[str | None, set[str]] = {None: public}
            for player in game.players:
                allowed[player.id] = public | self.held.get(player.id, set())
            self.by_step[game.step] = allowed

    def check(self, receiver: str | None, step: int, text: str, where: str) -> int:
        allowed = self.by_step[step].get(receiver, self.by_step[step][None])
        found = set(CARD.findall(text))
        leaked = found - allowed
        assert not leaked, f"{where}: {receiver} at step {step} got {sorted(leaked)}"
        return len(found)


@pytest.mark.parametrize("house_rules, seed", [("", 11), ("H2,H3", 12), ("H5,H1", 13)])
def test_no_response_or_stream_message_leaks_a_card(
    make_session: Any, live_server: Any, house_rules: str, seed: int
) -> None:
    session = make_session(house_rules, seed=seed)
    server = live_server(session)
    http = Http(server.url)
    oracle = Oracle(session)
    oracle.record()
    tokens: dict[str, str] = {}
    streams: dict[str, EventStream] = {}
    seen_cards = 0
    phases: set[str] = set()
    rng = random.Random(seed)

    def scan_all(step: int) -> int:
        count = 0
        for pid, token in tokens.items():
            _, body = http.call("GET", "/api/state", token=token)
            count += oracle.check(pid, step, str(body).replace("'", '"'), "state")
        _, body = http.call("GET", "/api/table?room=TEST")
        phases.add(body["phase"])
        return count + oracle.check(None, step, str(body).replace("'", '"'), "table")

    try:
        for name in NAMES:
            status, body = http.call("POST", "/api/join", {"name": name, "room": "TEST"})
            oracle.check(None, 0, str(body), "join")
            tokens[body["player_id"]] = body["token"]
            streams[body["player_id"]] = EventStream(server.url, body["token"])
            streams[body["player_id"]].start()
            scan_all(0)
        for _ in range(2000):
            views = {pid: http.state(token) for pid, token in tokens.items()}
            movers = [pid for pid, view in views.items() if game_moves(view["can"])]
            phase = next(iter(views.values()))["phase"]
            if phase == "game_over":
                break
            pid = rng.choice(movers)
            action = rng.choice(game_moves(views[pid]["can"]))
            if action in ("start", "deal"):
                oracle.new_deal()
            status, body = http.act(tokens[pid], action, views[pid]["step"])
            assert status == 200
            oracle.record()
            seen_cards += oracle.check(pid, body["step"], str(body).replace("'", '"'), "action")
            seen_cards += scan_all(body["step"])
        vip = session.view(None)["vip"]
        status, body = http.act(tokens[vip], "new_game", session.step)
        assert status == 200 and body["phase"] == "lobby"
        oracle.record()
        seen_cards += scan_all(body["step"])
        assert phases >= {"lobby", "turns", "reveal", "game_over"}
        final_step = session.step
        for pid, stream in streams.items():
            assert stream.wait_for(lambda views: bool(views) and views[-1]["step"] == final_step)
        for pid, stream in streams.items():
            for raw, view in zip(stream.raw, stream.snapshot()):
                seen_cards += oracle.check(pid, view["step"], raw, "stream")
        assert seen_cards > 0  # the scan really saw cards (own cards, reveals)
    finally:
        for stream in streams.values():
            stream.close()
