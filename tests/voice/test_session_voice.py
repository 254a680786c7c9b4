"""The voice fed by a real session's public stream, as host/app.py wires it (R5–R11)."""

from __future__ import annotations

import logging
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from host.i18n import Catalog
from host.rules import game_moves
from host.voice import Announcer
from tests.voice.fakes import FakeEngine, FakePlayer, wait_for

CARD_CODE = re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b")


def pump(subscription: Any, announcer: Announcer) -> list[dict[str, Any]]:
    """What the app's pump does: every public update's events go to ``announce``."""
    events: list[dict[str, Any]] = []
    while (update := subscription.get(timeout=0.05)) is not None:
        if update.events:
            announcer.announce(update.events, update.view)
            events.extend(update.events)
    return events


def test_r5_r11_a_round_played_through_the_session_is_announced_without_secrets(
    make_session: Callable[..., Any],
    catalog: Catalog,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    session = make_session()
    table = session.subscribe(None, presence=False)
    engine = FakeEngine(tmp_path, seconds=0.02)
    announcer = Announcer(catalog, "fr", engine=engine, player=FakePlayer(), max_lag_s=60.0)
    announcer.start()
    try:
        with caplog.at_level(logging.WARNING, logger="host.voice"):
            ids = [
                session.join(name, "TEST").player_id for name in ("Chloé", "Niccolò", "François")
            ]
            events = pump(table, announcer)
            rng = random.Random(7)
            for _ in range(40):  # one whole round, and the next deal (bounded)
                acted = False
                for pid in ids:
                    view = session.view(pid)
                    if game_moves(view["can"]):
                        session.act(pid, rng.choice(game_moves(view["can"])), view["step"])
                        acted = True
                        break
                events += pump(table, announcer)
                if not acted or any(e["type"] == "reveal" for e in events):
                    break
            assert any(e["type"] == "reveal" for e in events)
            assert wait_for(
                lambda: (
                    announcer.pending() == 0
                    and any(s.line.kind == "life_lost" for s in announcer.said())
                ),
                timeout=10.0,
            )
        said = [s.line.text for s in announcer.said()]
        assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
        names = {"Chloé", "Niccolò", "François"}
        assert {f"{name} rejoint la table." for name in names} <= set(said)
        dealt = next(e for e in events if e["type"] == "round_dealt")
        dealer = session.view(None)["players"]
        dealer_name = next(p["name"] for p in dealer if p["id"] == dealt["dealer"])
        # R4: the first dealer is told once ("Round 1 — … deals" would repeat it).
        assert f"Nouvelle partie\u00a0! {dealer_name} donne en premier." in said
        assert not any(text.startswith("Manche 1") for text in said)
        assert any(text.startswith("Cartes sur table\u00a0!") for text in said)
        assert not any(CARD_CODE.search(text) for text in said)
        assert engine.rendered and {lang for _, lang in engine.rendered} == {"fr"}
        assert not {e["type"] for e in events} & {"card_dealt", "swap", "cut_card"}
    finally:
        announcer.close()
        table.close()
