"""Events handed out more than once (interned by the engine) are safe to share.

The engine gives the same event object for a turn, a plain keep, an exchange between the same
neighbours and a card dealt to a player every time it happens (``EventCache``). That is only
sound if nobody can change one, and if each says exactly what a freshly built event would.
"""

from __future__ import annotations

import pytest

from host.rules import PACK
from host.rules.events import Event, EventCache, EventKind, private, public
from tests.rules.helpers import play, seated


def test_interned_events_are_read_only() -> None:
    cache = EventCache()
    for event in (cache.new_turn("p1"), cache.new_kept("p1"),
                  cache.new_exchanged("p1", "p2")[0], cache.new_dealt("p1", "KS")):
        with pytest.raises(TypeError):
            event.data["player"] = "p2"  # type: ignore[index]
        assert event.to_dict()["player"] == "p1"


def test_interned_events_equal_fresh_ones() -> None:
    cache = EventCache()
    assert cache.new_turn("p1") == public(EventKind.TURN, player="p1")
    assert cache.new_kept("p1") == public(EventKind.KEPT, player="p1", auto=False, timed_out=False)
    exchanged, pair = cache.new_exchanged("p1", "p2")
    assert exchanged == public(EventKind.EXCHANGED, player="p1", target="p2")
    assert pair == frozenset({"p1", "p2"})
    for card in PACK:
        assert cache.new_dealt("p1", str(card)) == private(EventKind.CARD_DEALT, ("p1",),
                                                           player="p1", card=str(card))
    assert len(cache.dealt) == len(PACK)


def test_a_dealt_card_event_is_private_to_its_holder_only() -> None:
    """Hidden information: an interned CARD_DEALT is seen by its holder and nobody else (R5)."""
    game = seated(4)
    events = game.apply("p0", "start")
    dealt = [e for e in events if e.kind is EventKind.CARD_DEALT]
    assert len(dealt) == 4
    for event in dealt:
        holder = event.data["player"]
        assert event.audience == frozenset({holder})
        assert event.data["card"] == str(game.player(holder).card)
        assert all(not event.visible_to(p.id) for p in game.players if p.id != holder)
        assert not event.visible_to(None)


def test_the_same_turn_event_is_reused_round_after_round() -> None:
    """R6: the turn passes to each player every round; that event is shared, not rebuilt."""
    game = seated(3)
    game.apply("p0", "start")

    def turns_of_a_round() -> dict[str, Event]:
        play(game, *[(pid, "keep") for pid in game.order])
        return {e.data["player"]: e for e in game.log if e.kind is EventKind.TURN}

    first = turns_of_a_round()
    game.apply(game.next_dealer, "deal")  # type: ignore[arg-type]
    second = turns_of_a_round()
    assert set(first) == set(second) == {"p0", "p1", "p2"}
    assert all(first[pid] is second[pid] for pid in first)


def test_events_are_immutable_tuples() -> None:
    event = public(EventKind.TURN, player="p1")
    assert isinstance(event, Event)
    with pytest.raises(AttributeError):
        event.kind = EventKind.KEPT  # type: ignore[misc]
