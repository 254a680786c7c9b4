"""What happened, as small immutable records that say who may see them.

Every engine call returns a list of ``Event``. ``audience`` is ``None`` for a public event
(the TV, the voice and every phone may see it) or the frozenset of player ids allowed to see a
private one (a dealt card, a trade's cards, a dealer's cut card). ``visible_to`` is the one
filter used by every front-end, so a secret cannot leak through a forgotten branch.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import cast

from host.rules.contract import EventDict, KeepReason, RedealReason, Word


class EventKind(Word):
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


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened. ``data`` holds only ids, counts and cards its audience may see."""

    kind: EventKind
    data: Mapping[str, object]
    """The fields of the dict form, without ``type`` (see ``host.rules.contract``)."""
    audience: frozenset[str] | None = None
    """``None``: public. Otherwise the only player ids allowed to see this event."""

    @property
    def is_public(self) -> bool:
        return self.audience is None

    def visible_to(self, player_id: str | None) -> bool:
        """May ``player_id`` (``None`` = the public: TV, voice, table view) see this event?"""
        return self.audience is None or (player_id is not None and player_id in self.audience)

    def to_dict(self) -> EventDict:
        """The JSON-able form: ``{"type": kind, **data}``, one of ``contract.EventDict``."""
        return cast(EventDict, {"type": self.kind.value, **self.data})


def public(kind: EventKind, **data: object) -> Event:
    """A public event: the TV, the voice and every phone may see it."""
    if kind in PRIVATE_KINDS:
        raise ValueError(f"{kind.value} is a private event kind")
    return Event(kind, data)


def private(kind: EventKind, audience: Iterable[str], **data: object) -> Event:
    """A private event: only the players in ``audience`` may see it."""
    if kind not in PRIVATE_KINDS:
        raise ValueError(f"{kind.value} is a public event kind")
    return Event(kind, data, frozenset(audience))


def event_from_dict(data: Mapping[str, object], audience: Iterable[str] | None = None) -> Event:
    """Rebuild an event saved with ``to_dict`` (persistence); one saved before round 40 (or
    a ``life_lost`` before round 42, a ``sudden_death`` before round 43) gets the fields it
    lacked, as the engine would have given them (a ``game_over`` before round 46: no
    ``walkover``, read as a game won)."""
    fields = dict(data)
    kind = EventKind(fields.pop("type"))
    if kind == EventKind.KEPT and "reason" not in fields:
        # Which of a time-out, an away keep or a skip it was is lost: a time-out it reads.
        fields["reason"] = KeepReason.TIME if fields.get("auto") else KeepReason.CHOSEN
    if kind == EventKind.MISDEAL and "reason" not in fields:
        fields.update(reason=RedealReason.MISDEAL, player=None, name=None, deal=2)
    if kind == EventKind.LIFE_LOST and "lost" not in fields:  # saved before round 42
        fields["lost"] = 1
    if kind == EventKind.SUDDEN_DEATH and "deal" not in fields:  # saved before round 43
        fields["deal"] = 1  # which deal it was is lost: the first, told as such, is harmless
    if kind == EventKind.GAME_OVER and "walkover" not in fields:  # saved before round 46
        fields["walkover"] = False
    return Event(kind, fields, None if audience is None else frozenset(audience))


def visible_to(events: Iterable[Event], player_id: str | None) -> list[EventDict]:
    """The dict form of the events ``player_id`` may see (``None`` = public only)."""
    return [event.to_dict() for event in events if event.visible_to(player_id)]


class EventDicts:
    """One change's events in their dict form, made once and shared by all its receivers.

    Why: a change reaches every phone, and each phone's update lists the events it may see;
    building those dicts again for each of twenty receivers cost more than choosing them
    (issue 18.1). ``for_player`` gives the same lists as ``visible_to``; the dicts in them are
    shared, so a receiver must not change them (none does: they are read and encoded).
    """

    __slots__ = ("_pairs",)

    def __init__(self, events: Iterable[Event]) -> None:
        self._pairs = [(event, event.to_dict()) for event in events]

    def for_player(self, player_id: str | None) -> list[EventDict]:
        """The dicts of the events ``player_id`` may see (``None`` = public only), in order."""
        return [data for event, data in self._pairs if event.visible_to(player_id)]
