"""What happened, as small immutable records that say who may see them.

Every engine call returns a list of ``Event``. ``audience`` is ``None`` for a public event
(the TV, the voice and every phone may see it) or the frozenset of player ids allowed to see a
private one (a dealt card, a trade's cards, a dealer's cut card). ``visible_to`` is the one
filter used by every front-end, so a secret cannot leak through a forgotten branch.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import Enum
from types import MappingProxyType
from typing import Any, NamedTuple


class EventKind(str, Enum):
    """Every kind of event; the value is the ``type`` field of the dict form."""

    PLAYER_JOINED = "player_joined"
    PLAYER_REMOVED = "player_removed"
    GAME_STARTED = "game_started"
    ROUND_DEALT = "round_dealt"
    TURN = "turn"
    KEPT = "kept"
    EXCHANGED = "exchanged"
    BLOCKED = "blocked"
    CUT = "cut"
    CUT_TAKEN = "cut_taken"
    CUT_KING = "cut_king"
    REVEAL = "reveal"
    LIFE_LOST = "life_lost"
    ELIMINATED = "eliminated"
    SUDDEN_DEATH = "sudden_death"
    GAME_OVER = "game_over"
    MISDEAL = "misdeal"
    NEW_GAME = "new_game"
    RULES_SET = "rules_set"
    VIP_CHANGED = "vip_changed"
    GAME_ENDED = "game_ended"
    PLAYER_AWAY = "player_away"
    # Private kinds: only their audience may ever see them.
    CARD_DEALT = "card_dealt"
    SWAP = "swap"
    CUT_CARD = "cut_card"


PRIVATE_KINDS: frozenset[EventKind] = frozenset(
    {EventKind.CARD_DEALT, EventKind.SWAP, EventKind.CUT_CARD}
)
PUBLIC_KINDS: frozenset[EventKind] = frozenset(EventKind) - PRIVATE_KINDS
# Enum hashing runs Python code; an identity check keeps event creation cheap on the hot path.
_PRIVATE_IDS = frozenset(id(kind) for kind in PRIVATE_KINDS)


class Event(NamedTuple):
    """One thing that happened. ``data`` holds only ids, counts and cards its audience may see.

    An immutable tuple rather than a dataclass: events are created on the engine's hot path.
    """

    kind: EventKind
    data: Mapping[str, Any]
    audience: frozenset[str] | None = None
    """``None``: public. Otherwise the only player ids allowed to see this event."""

    @property
    def is_public(self) -> bool:
        return self.audience is None

    def visible_to(self, player_id: str | None) -> bool:
        """May ``player_id`` (``None`` = the public: TV, voice, table view) see this event?"""
        return self.audience is None or (player_id is not None and player_id in self.audience)

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind._value_, **self.data}


#: The engine's hot path builds events with the tuple constructor itself (a NamedTuple's own
#: ``__new__`` adds a Python-level call per event): ``new_event(Event, (kind, data, audience))``.
new_event = tuple.__new__


class EventCache:
    """Interned copies of the events that recur round after round with the same content.

    The turn passing to a player, a plain keep, an exchange between the same two neighbours
    and a given card dealt to a given player are equal values every time they happen. They
    are built once, with read-only data, and the same immutable event is handed out again:
    everyone receives exactly what a fresh event would say, without the engine's hot path
    allocating it anew (the engine benchmark plays tens of thousands of rounds a second).
    The hot path reads the dicts directly: ``cache.turn.get(pid) or cache.new_turn(pid)``.
    """

    __slots__ = ("dealt", "exchanged", "kept", "turn")

    def __init__(self) -> None:
        self.turn: dict[str, Event] = {}
        self.kept: dict[str, Event] = {}
        self.exchanged: dict[tuple[str, str], tuple[Event, frozenset[str]]] = {}
        """(asker, target) -> (the public EXCHANGED event, the audience of their SWAP)."""
        self.dealt: dict[tuple[str, str], Event] = {}
        """(player id, card code) -> that player's private CARD_DEALT event."""

    def new_turn(self, player_id: str) -> Event:
        event = self.turn[player_id] = _frozen(EventKind.TURN, None, player=player_id)
        return event

    def new_kept(self, player_id: str) -> Event:
        event = self.kept[player_id] = _frozen(EventKind.KEPT, None, player=player_id,
                                               auto=False, timed_out=False)
        return event

    def new_exchanged(self, player_id: str, target_id: str) -> tuple[Event, frozenset[str]]:
        entry = self.exchanged[player_id, target_id] = (
            _frozen(EventKind.EXCHANGED, None, player=player_id, target=target_id),
            frozenset((player_id, target_id)),
        )
        return entry

    def new_dealt(self, player_id: str, code: str) -> Event:
        event = self.dealt[player_id, code] = _frozen(EventKind.CARD_DEALT,
                                                      frozenset((player_id,)),
                                                      player=player_id, card=code)
        return event


def _frozen(kind: EventKind, audience: frozenset[str] | None, **data: Any) -> Event:
    """An event whose data cannot be changed, so one instance can be handed out many times."""
    return Event(kind, MappingProxyType(data), audience)


def public(kind: EventKind, **data: Any) -> Event:
    if id(kind) in _PRIVATE_IDS:
        raise ValueError(f"{kind.value} is a private event kind")
    return Event(kind, data)


def private(kind: EventKind, audience: Iterable[str], **data: Any) -> Event:
    if id(kind) not in _PRIVATE_IDS:
        raise ValueError(f"{kind.value} is a public event kind")
    return Event(kind, data, frozenset(audience))


def event_from_dict(data: Mapping[str, Any], audience: Iterable[str] | None = None) -> Event:
    """Rebuild an event saved with ``to_dict`` (persistence)."""
    fields = dict(data)
    kind = EventKind(fields.pop("type"))
    return Event(kind, fields, None if audience is None else frozenset(audience))


def visible_to(events: Iterable[Event], player_id: str | None) -> list[dict[str, Any]]:
    """The dict form of the events ``player_id`` may see (``None`` = public only)."""
    return [event.to_dict() for event in events if event.visible_to(player_id)]
