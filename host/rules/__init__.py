"""The pure Cuckoo engine: cards, house rules, state, legality, events and per-player views.

Stdlib only — no pygame, Flask, threads or I/O. Randomness comes from an injected
``random.Random``. Everything a front-end needs is re-exported here.
"""

from host.rules.cards import CARD_CODES, KING, PACK, RANKS, SUITS, Card, InvalidCard
from host.rules.contract import (
    Action,
    Call,
    EventDict,
    KeepReason,
    MeView,
    Phase,
    RedealReason,
    SeatView,
    Status,
    View,
)
from host.rules.controls import VIP_ACTIONS, game_moves
from host.rules.errors import IllegalAction, Reason
from host.rules.events import PRIVATE_KINDS, PUBLIC_KINDS, Event, EventKind, visible_to
from host.rules.game import ACTIONS, PHASES, Game
from host.rules.options import MIN_PLAYERS, RULE_FIELDS, HouseRules, UnknownHouseRule
from host.rules.player import Player
from host.rules.views import build_view, may_see

__all__ = [
    "ACTIONS",
    "CARD_CODES",
    "KING",
    "MIN_PLAYERS",
    "PACK",
    "PHASES",
    "PRIVATE_KINDS",
    "PUBLIC_KINDS",
    "RANKS",
    "RULE_FIELDS",
    "SUITS",
    "VIP_ACTIONS",
    "Action",
    "Call",
    "Card",
    "Event",
    "EventDict",
    "EventKind",
    "Game",
    "HouseRules",
    "IllegalAction",
    "InvalidCard",
    "KeepReason",
    "MeView",
    "Phase",
    "Player",
    "Reason",
    "RedealReason",
    "SeatView",
    "Status",
    "UnknownHouseRule",
    "View",
    "build_view",
    "game_moves",
    "may_see",
    "visible_to",
]
