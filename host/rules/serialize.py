"""Save a whole game to plain JSON-able data and back, RNG state included (resume exactly)."""

from __future__ import annotations

import random
from typing import Any

from host.rules.cards import Card
from host.rules.contract import Phase, Status
from host.rules.events import Event, event_from_dict
from host.rules.game import Game
from host.rules.options import HouseRules
from host.rules.player import Player

FORMAT_VERSION = 1


def _card(card: Card | None) -> str | None:
    return None if card is None else str(card)


def _cards(cards: Any) -> list[str]:
    return [str(card) for card in cards]


def game_to_dict(game: Game) -> dict[str, Any]:
    version, internal, gauss = game.rng.getstate()
    return {
        "format": FORMAT_VERSION,
        "options": game.options.to_dict(),
        "rng": [version, list(internal), gauss],
        "players": [
            {
                "id": p.id,
                "name": p.name,
                "lives": p.lives,
                "status": p.status,
                "bot": p.bot,
                "card": _card(p.card),
            }
            for p in game.players
        ],
        "vip": game.vip,
        "phase": game.phase,
        "step": game.step,
        "round": game.round,
        "dealer": game.dealer,
        "next_dealer": game.next_dealer,
        "order": list(game.order),
        "turn_index": game.turn_index,
        "cuts_made": game.cuts_made,
        "stock": _cards(game.stock),
        "discard": _cards(game.discard),
        "set_aside": _cards(game.set_aside),
        "shown": sorted(_cards(game.shown)),
        "kings_seen": sorted(_cards(game.kings_seen)),
        "cut_king": _card(game.cut_king),
        "penalties": dict(game.penalties),
        "losers": list(game.losers),
        "eliminated": list(game.eliminated),
        "winners": list(game.winners),
        "sudden_death": [dict(d) for d in game.sudden_death],
        "log": [e.to_dict() for e in game.log],
        "history": {pid: [e.to_dict() for e in events] for pid, events in game.history.items()},
    }


def game_from_dict(data: dict[str, Any]) -> Game:
    if data.get("format") != FORMAT_VERSION:
        raise ValueError(f"unsupported saved game format {data.get('format')!r}")
    rng = random.Random()
    version, internal, gauss = data["rng"]
    rng.setstate((version, tuple(internal), gauss))

    def card(code: str | None) -> Card | None:
        return None if code is None else Card.parse(code)

    return Game(
        options=HouseRules.from_dict(data["options"]),
        rng=rng,
        players=[
            Player(p["id"], p["name"], p["lives"], Status(p["status"]), p["bot"], card(p["card"]))
            for p in data["players"]
        ],
        vip=data["vip"],
        phase=Phase(data["phase"]),
        step=data["step"],
        round=data["round"],
        dealer=data["dealer"],
        next_dealer=data["next_dealer"],
        order=list(data["order"]),
        turn_index=data["turn_index"],
        cuts_made=data["cuts_made"],
        stock=[Card.parse(c) for c in data["stock"]],
        discard=[Card.parse(c) for c in data["discard"]],
        set_aside=[Card.parse(c) for c in data["set_aside"]],
        shown={Card.parse(c) for c in data["shown"]},
        kings_seen={Card.parse(c) for c in data["kings_seen"]},
        cut_king=card(data["cut_king"]),
        penalties=dict(data["penalties"]),
        losers=list(data["losers"]),
        eliminated=list(data["eliminated"]),
        winners=list(data["winners"]),
        sudden_death=[dict(d) for d in data["sudden_death"]],
        log=[event_from_dict(e) for e in data["log"]],
        history=_history(data["history"]),
    )


def _history(saved: dict[str, list[dict[str, Any]]]) -> dict[str, list[Event]]:
    """Private events are shared by their audience: rebuild one Event per original event."""
    audiences: dict[str, set[str]] = {}
    for pid, events in saved.items():
        for event in events:
            key = repr(sorted(event.items()))
            audiences.setdefault(key, set()).add(pid)
    return {
        pid: [event_from_dict(e, audiences[repr(sorted(e.items()))]) for e in events]
        for pid, events in saved.items()
    }
