"""Save a whole game to plain JSON-able data and back, RNG state included (resume exactly)."""

from __future__ import annotations

import base64
import random
import struct
from typing import Any

from host.rules.cards import Card
from host.rules.contract import LastRound, LastRoundLoser, Phase, Status
from host.rules.events import Event, event_from_dict
from host.rules.game import Game
from host.rules.options import HouseRules
from host.rules.player import Player

FORMAT_VERSION = 1


def _card(card: Card | None) -> str | None:
    return None if card is None else str(card)


def _cards(cards: Any) -> list[str]:
    return [str(card) for card in cards]


def rng_state_to_data(state: tuple[Any, ...]) -> list[Any]:
    """``random.Random.getstate()`` as JSON-able data: ``[version, words, gauss]``, with the
    generator's 625 words packed into one base64 string (little-endian, 32 bits each).

    Why not a list of 625 numbers: the host writes the whole session to its journal after
    every tap, before any phone hears of it (``host/journal.py``); as numbers the state was
    7.3 of a record's 16.6 KB at 20 players and about a fifth of its encoding time (issue
    18). The words of a Mersenne Twister state are all below 2**32.
    """
    version, internal, gauss = state
    packed = struct.pack(f"<{len(internal)}I", *internal)
    return [version, base64.b64encode(packed).decode("ascii"), gauss]


def rng_state_from_data(saved: Any) -> tuple[Any, ...]:
    """The state ``rng_state_to_data`` wrote, for ``setstate``; a save from before it holds
    the words as a list of numbers, which still loads. Malformed data: ValueError or TypeError
    (``random.Random.setstate`` checks what the words mean)."""
    version, words, gauss = saved
    if isinstance(words, str):
        packed = base64.b64decode(words.encode("ascii"), validate=True)
        if len(packed) % 4:
            raise ValueError("the random state's words are cut short")
        words = struct.unpack(f"<{len(packed) // 4}I", packed)
    elif not isinstance(words, list):
        raise TypeError("the random state's words are neither text nor a list")
    return (version, tuple(words), gauss)


def game_to_dict(game: Game) -> dict[str, Any]:
    return {
        "format": FORMAT_VERSION,
        "options": game.options.to_dict(),
        "rng": rng_state_to_data(game.rng.getstate()),
        "players": [
            {
                "id": p.id,
                "name": p.name,
                "lives": p.lives,
                "status": p.status,
                "bot": p.bot,
                "card": _card(p.card),
                "out_round": p.out_round,
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
        "walkover": game.walkover,
        "sudden_death": [dict(d) for d in game.sudden_death],
        "last_round": _last_round(game.last_round),
        "log": [e.to_dict() for e in game.log],
        "history": {pid: [e.to_dict() for e in events] for pid, events in game.history.items()},
    }


def game_from_dict(data: dict[str, Any]) -> Game:
    if data.get("format") != FORMAT_VERSION:
        raise ValueError(f"unsupported saved game format {data.get('format')!r}")
    rng = random.Random()
    rng.setstate(rng_state_from_data(data["rng"]))

    def card(code: str | None) -> Card | None:
        return None if code is None else Card.parse(code)

    return Game(
        options=HouseRules.from_dict(data["options"]),
        rng=rng,
        players=[
            Player(
                p["id"],
                p["name"],
                p["lives"],
                Status(p["status"]),
                p["bot"],
                card(p["card"]),
                p.get("out_round"),  # a save from before it: not known
            )
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
        walkover=data.get("walkover", False),  # a save from before round 46: a game won
        sudden_death=[dict(d) for d in data["sudden_death"]],
        last_round=_last_round(data.get("last_round")),  # a save from before round 44: none
        log=[event_from_dict(e) for e in data["log"]],
        history=_history(data["history"]),
    )


def _last_round(saved: LastRound | None) -> LastRound | None:
    """A copy of ``Game.last_round`` (its losers' list and dicts too)."""
    if saved is None:
        return None
    losers: list[LastRoundLoser] = [
        {"player": p["player"], "name": p["name"], "lives": p["lives"], "lost": p["lost"]}
        for p in saved["losers"]
    ]
    return {"round": saved["round"], "lowest": saved["lowest"], "losers": losers}


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
