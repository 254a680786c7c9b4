"""Issue 16 items 1 and 2 at the TV's and the voice's seam: typed, and no rule stated twice.

The stage is the TV's animation of the engine, not a second engine: whatever game fact it
shows once an update is played must be the one in that update's view.
"""

from __future__ import annotations

import re
from collections import deque
from pathlib import Path
from typing import Any

import pytest

from host.rules import EventDict, HouseRules, Phase, View
from host.subscriptions import Update
from host.tv.rehearsal import Rehearsal
from host.tv.stage import Stage, public_events

from .views import player, view

ROOT = Path(__file__).resolve().parents[2]
#: Where the contract must be read typed (issue 16 item 1).
TYPED_SEAM = [
    ROOT / "host" / "tv",
    ROOT / "host" / "voice",
    ROOT / "host" / "rules" / "bots.py",
    ROOT / "host" / "audio" / "cueing.py",
    ROOT / "host" / "pacing.py",
]
UNTYPED = re.compile(r"dict\[str, Any\]|Mapping\[str, Any\]|\.get\(\s*[\"']type[\"']")
#: Rules the engine states (host/rules) written again in a front-end (issue 16 item 2).
RESTATED = {
    "the rank order": re.compile(r"\"A\",\s*\"2\",\s*\"3\""),
    "the private event kinds": re.compile(r"\{\s*\"card_dealt\",\s*\"swap\""),
    "H1 means 5 lives": re.compile(r"5 if \"H1\"|\"H1\" in .*\b5\b"),
    "the minimum of players": re.compile(r"MIN_PLAYERS\s*=\s*\d"),
    "the house rule ids": re.compile(r"\(\s*\"H1\",\s*\"H2\""),
}


def _sources(paths: list[Path]) -> list[Path]:
    return sorted(f for p in paths for f in ([p] if p.is_file() else p.rglob("*.py")))


def test_issue16_item1_no_untyped_view_or_event_at_the_seam() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _sources(TYPED_SEAM)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if UNTYPED.search(line)
    ]
    assert not found, "read the contract's View/EventDict instead:\n" + "\n".join(found)


def test_issue16_item2_no_rule_restated_in_the_tv_or_the_voice() -> None:
    found = [
        f"{what}: {path.relative_to(ROOT)}:{number}"
        for path in _sources([ROOT / "host" / "tv", ROOT / "host" / "voice"])
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        for what, pattern in RESTATED.items()
        if pattern.search(line)
    ]
    assert not found, "import it from host.rules or read it in the view:\n" + "\n".join(found)


def test_issue16_item2_the_stage_takes_max_lives_and_the_minimum_from_the_view() -> None:
    """A view says how many lives a game starts with; the stage never works it out (H1)."""
    stage = Stage()
    stage.receive(view("lobby", [player(0, lives=4)], max_lives=4, min_players=5), [])
    assert (stage.max_lives, stage.min_players) == (4, 5)
    stage.receive(
        view("lobby", [player(0, lives=4)], house_rules=["H1"], max_lives=5, min_players=3), []
    )
    assert (stage.max_lives, stage.min_players) == (5, 3)


def test_issue16_item2_the_lowest_rank_is_the_views() -> None:
    """R11's lowest rank comes from the view (the engine's), not from the cards on the table."""
    cards = {"p0": "9H", "p1": "2C", "p2": "KS", "p3": "5D"}
    seated = [player(i, card=cards[f"p{i}"]) for i in range(4)]
    stage = Stage()
    stage.receive(view("reveal", seated, lowest="2"), [])
    assert stage.lowest == "2"
    stage.receive(view("turns", [player(i) for i in range(4)], lowest=None), [])
    assert stage.lowest is None


def _facts(stage: Stage) -> dict[str, Any]:
    return {
        "phase": str(stage.phase),
        "round": stage.round,
        "dealer": stage.dealer,
        "current": stage.current,
        "order": stage.order,
        "cut_king": stage.cut_king,
        "lowest": stage.lowest,
        "losers": stage.losers,
        "winners": stage.winners,
        "stock_count": stage.stock_count,
        "discard_count": stage.discard_count,
        "next_dealer": stage.next_dealer,
        "max_lives": stage.max_lives,
        "players": [(s.id, s.lives, str(s.status), s.card) for s in stage.players],
    }


def _view_facts(view: View) -> dict[str, Any]:
    return {
        "phase": str(view["phase"]),
        "round": view["round"],
        "dealer": view["dealer"],
        "current": view["current"],
        "order": view["order"],
        "cut_king": view["cut_king"],
        "lowest": view["lowest"],
        "losers": view["losers"],
        "winners": view["winners"],
        "stock_count": view["stock_count"],
        "discard_count": view["discard_count"],
        "next_dealer": view["next_dealer"],
        "max_lives": view["max_lives"],
        "players": [(p["id"], p["lives"], str(p["status"]), p["card"]) for p in view["players"]],
    }


def _party(rules: str, seed: int, seats: int) -> list[Update]:
    """The public updates of one seeded game from the lobby to its game over."""
    rehearsal = Rehearsal(HouseRules.parse(rules), seed=seed, strategy="smart")
    public = rehearsal.session.subscribe(None, presence=False)
    for index in range(seats):
        rehearsal.join(f"P{index}", bot=index % 2 == 1)
    for _ in range(2000):
        rehearsal.play()
        if rehearsal.phase == Phase.GAME_OVER:
            break
    assert rehearsal.phase == Phase.GAME_OVER, "the game did not end"
    updates = []
    while (update := public.get(timeout=0)) is not None:
        updates.append(update)
    return updates


GAMES = [("", 1, 4), ("H1", 2, 5), ("H3,H8", 3, 6), ("H2,H5", 4, 4), ("H1,H6", 5, 7), ("", 6, 10)]


@pytest.mark.parametrize(("rules", "seed", "seats"), GAMES)
@pytest.mark.parametrize("backlog", [1, 6])
def test_issue16_item2_the_stage_shows_each_updates_view_once_it_is_played(
    rules: str, seed: int, seats: int, backlog: int
) -> None:
    """Seeded games fed to the stage one update at a time, then in bursts (fast bots): when
    an update's last beat ends, the table shown is exactly that update's view — lives, cards,
    dealer, turn, counts — with no fact replayed or worked out by the stage itself."""
    updates = _party(rules, seed, seats)
    stage = Stage()
    checked = 0
    # Each update's last public event, with the view that came with it, in the order played.
    ends = deque((public_events(u.events)[-1], u.view) for u in updates if public_events(u.events))
    finish = stage._finish

    def finished(event: EventDict) -> None:
        nonlocal checked
        finish(event)
        if ends and ends[0][0] is event:
            _, view = ends.popleft()
            if stage.queue:  # a later update waits: this one's view shows meanwhile
                assert _facts(stage) == _view_facts(view), (rules, seed, event)
                checked += 1

    stage._finish = finished  # type: ignore[method-assign]
    for start in range(0, len(updates), backlog):
        for update in updates[start : start + backlog]:
            stage.receive(update.view, update.events)
        for _ in range(100_000):
            if not stage.animating:
                break
            stage.update(0.05)
        assert not stage.animating
        last = updates[min(start + backlog, len(updates)) - 1]
        assert _facts(stage) == _view_facts(last.view)
    assert checked > 20 or backlog == 1  # one update at a time: each is the latest
    assert _facts(stage) == _view_facts(updates[-1].view)
    assert stage.phase == "game_over" and stage.winners
