"""Events say who may see them, cannot be changed, and their dict form is the contract's."""

from __future__ import annotations

import json

import pytest

from host.rules import Action, Event, EventKind, Phase, Status
from host.rules.events import PRIVATE_KINDS, EventDicts, private, public, visible_to
from tests.rules.helpers import count_event_dicts, seated


def test_a_dealt_card_event_is_private_to_its_holder_only() -> None:
    """Hidden information: a CARD_DEALT is seen by its holder and nobody else (R5)."""
    game = seated(4)
    events = game.apply("p0", "start")
    dealt = [e for e in events if e.kind is EventKind.CARD_DEALT]
    assert len(dealt) == 4
    for event in dealt:
        holder = str(event.data["player"])
        assert event.audience == frozenset({holder})
        assert event.data["card"] == str(game.player(holder).card)
        assert all(not event.visible_to(p.id) for p in game.players if p.id != holder)
        assert not event.visible_to(None)


def test_events_are_immutable() -> None:
    event = public(EventKind.TURN, player="p1")
    assert isinstance(event, Event)
    with pytest.raises(AttributeError):
        event.kind = EventKind.KEPT  # type: ignore[misc]


def test_issue16_a_private_kind_cannot_be_made_public_nor_the_reverse() -> None:
    """Hidden information: the constructors refuse a kind built with the wrong audience."""
    for kind in PRIVATE_KINDS:
        with pytest.raises(ValueError):
            public(kind, player="p1")
    with pytest.raises(ValueError):
        private(EventKind.TURN, ("p1",), player="p1")


def test_issue16_enums_are_plain_words_in_json_and_text() -> None:
    """The contract's enums compare, print and serialise as the API's plain strings."""
    words: list[str] = [Phase.LOBBY, Status.WAITING, Action.NEW_GAME]
    assert words == ["lobby", "waiting", "new_game"]
    assert f"{Action.KEEP} / {Phase.GAME_OVER}" == "keep / game_over"
    assert (
        json.dumps({"phase": Phase.TURNS, "can": [Action.CUT]})
        == '{"phase": "turns", "can": ["cut"]}'
    )
    assert {"keep": 1}[Action.KEEP] == 1


def test_issue18_event_dicts_give_each_receiver_what_visible_to_gives() -> None:
    """Hidden information (R5, RULES.md): the dicts made once per change still give each
    receiver only the events it may see, in order, as ``visible_to`` does."""
    game = seated(4)
    events = game.apply("p0", "start")
    dicts = EventDicts(events)
    assert any(e.kind is EventKind.CARD_DEALT for e in events)
    for receiver in [None, *(p.id for p in game.players), "p9"]:
        assert dicts.for_player(receiver) == visible_to(events, receiver), receiver
    for player in game.players:  # nobody gets another's card
        cards = [d for d in dicts.for_player(player.id) if d["type"] == "card_dealt"]
        assert [d["player"] for d in cards] == [player.id]
    assert all(d["type"] != "card_dealt" for d in dicts.for_player(None))


def test_issue18_event_dicts_are_made_once_whoever_receives_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 18.1: twenty receivers cost no more dicts than one."""
    events = seated(4).apply("p0", "start")
    made = count_event_dicts(monkeypatch)
    dicts = EventDicts(events)
    for _ in range(20):
        for receiver in (None, "p0", "p1", "p2", "p3"):
            dicts.for_player(receiver)
    assert made() == len(events)
