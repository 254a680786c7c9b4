"""Build exact table situations for rule tests (cards chosen by the test, not the shuffle)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from host.rules import PACK, Card, Event, EventDict, Game, HouseRules
from host.rules.events import EventKind, private


def seated(count: int, options: HouseRules | None = None, seed: int = 0) -> Game:
    game = Game(options or HouseRules(), random.Random(seed))
    for i in range(count):
        game.add_player(f"p{i}", f"P{i}")
    return game


def count_event_dicts(monkeypatch: pytest.MonkeyPatch) -> Callable[[], int]:
    """Count the dicts events make (``Event.to_dict``) from now on; the function returned
    gives the count so far. ``monkeypatch.undo()`` stops the counting."""
    made = 0
    to_dict = Event.to_dict

    def counted(event: Event) -> EventDict:
        nonlocal made
        made += 1
        return to_dict(event)

    monkeypatch.setattr(Event, "to_dict", counted)
    return lambda: made


def rig(game: Game, dealer: str, cards: dict[str, str], stock: list[str] | None = None) -> Game:
    """Start (or redeal) with ``dealer`` dealing exactly ``cards``; ``stock`` fixes the cut
    order (the first listed card is cut first) by leaving only those cards in the stock."""
    game.dealer = dealer
    game._deal_round()
    for pid, code in cards.items():
        game.player(pid).card = Card.parse(code)
    held = {game.player(pid).card for pid in game.order}
    game.history = {
        pid: [private(EventKind.CARD_DEALT, (pid,), player=pid, card=str(game.player(pid).card))]
        for pid in game.order
    }
    if stock is None:
        game.stock = [c for c in PACK if c not in held]
    else:
        game.stock = [Card.parse(c) for c in stock]
        game.rng = _FirstCard()  # the cut draws stock[0], then stock[1] …
    return game


class _FirstCard(random.Random):
    """An RNG that always draws the first candidate: the stock is cut in listed order."""

    def random(self) -> float:
        return 0.0


def play(game: Game, *moves: tuple[str, str]) -> list[EventDict]:
    events: list[EventDict] = []
    for pid, action in moves:
        events += [e.to_dict() for e in game.apply(pid, action)]
    return events
