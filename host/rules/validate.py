"""Check a saved game against the engine's invariants before resuming it.

Why: a save is read back after a crash, a kill -9 or a full disk, and a damaged or hand-edited
one (``turn_index: 99``, a card held twice, ``players`` as a string) used to start and then
answer 500 to every phone, or stop the host with a traceback. ``check_saved_game`` reads the
whole document first and names the first thing wrong, so the host can refuse to start with one
clear line and leave the file untouched. Pure: stdlib and the engine only.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import fields
from typing import Any

from host.rules.cards import PACK, RANKS, Card, InvalidCard
from host.rules.contract import Status
from host.rules.events import EventKind
from host.rules.game import PHASES, Game
from host.rules.options import HouseRules
from host.rules.serialize import FORMAT_VERSION, rng_state_from_data

MAX_LIVES = 5
MAX_NAME_LENGTH = 64
_STATUSES = tuple(status.value for status in Status)
_EVENT_TYPES = frozenset(kind.value for kind in EventKind)
_GAME_KEYS = (
    "format",
    "options",
    "rng",
    "players",
    "vip",
    "phase",
    "step",
    "round",
    "dealer",
    "next_dealer",
    "order",
    "turn_index",
    "cuts_made",
    "stock",
    "discard",
    "set_aside",
    "shown",
    "kings_seen",
    "cut_king",
    "penalties",
    "losers",
    "eliminated",
    "winners",
    "sudden_death",
    "log",
    "history",
)


class SaveInvalid(ValueError):
    """The saved game breaks a rule of the engine; the message names what and where."""


def _fail(where: str, what: str) -> SaveInvalid:
    return SaveInvalid(f"{where}: {what}")


def _int(value: Any, where: str, low: int = 0, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _fail(where, f"expected a whole number, found {type(value).__name__}")
    if value < low or (high is not None and value > high):
        raise _fail(where, f"{value} is out of range")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(where, f"expected a list, found {type(value).__name__}")
    return value


def _dict(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(where, f"expected an object, found {type(value).__name__}")
    return value


def _card(value: Any, where: str) -> Card:
    try:
        return Card.parse(value)
    except (InvalidCard, TypeError):
        raise _fail(where, f"{value!r} is not a card") from None


def _cards(value: Any, where: str) -> list[Card]:
    return [_card(code, f"{where}[{i}]") for i, code in enumerate(_list(value, where))]


def _ids(value: Any, where: str, known: set[str] | None = None) -> list[str]:
    ids = _list(value, where)
    for i, pid in enumerate(ids):
        if not isinstance(pid, str) or (known is not None and pid not in known):
            raise _fail(f"{where}[{i}]", f"{pid!r} is not a seated player")
    return ids


def _player_or_none(value: Any, where: str, known: set[str] | None) -> str | None:
    """A player id or None; seated (in ``known``) unless ``known`` is None."""
    if value is not None and (
        not isinstance(value, str) or (known is not None and value not in known)
    ):
        raise _fail(where, f"{value!r} is not a seated player")
    return value


def _check_options(value: Any) -> HouseRules:
    options = _dict(value, "game.options")
    for field in fields(HouseRules):
        if field.name not in options:
            continue
        item = options[field.name]
        if field.name == "rapid_seconds":
            _int(item, "game.options.rapid_seconds", 1, 3600)
        elif not isinstance(item, bool):
            raise _fail(f"game.options.{field.name}", "expected true or false")
    return HouseRules.from_dict(options)


def _check_rng(value: Any) -> None:
    state = _list(value, "game.rng")
    if len(state) != 3 or not isinstance(state[1], (list, str)):
        raise _fail("game.rng", "not a saved random state")
    try:
        random.Random().setstate(rng_state_from_data(state))
    except (TypeError, ValueError, OverflowError) as error:  # bad base64 is a ValueError
        raise _fail("game.rng", f"not a saved random state ({error})") from None


def _check_players(value: Any, options: HouseRules) -> dict[str, dict[str, Any]]:
    players: dict[str, dict[str, Any]] = {}
    names: set[str] = set()
    for i, raw in enumerate(_list(value, "game.players")):
        where = f"game.players[{i}]"
        entry = _dict(raw, where)
        for key in ("id", "name", "lives", "status", "bot", "card"):
            if key not in entry:
                raise _fail(where, f"no {key!r}")
        pid, name = entry["id"], entry["name"]
        if not isinstance(pid, str) or not pid or pid in players:
            raise _fail(f"{where}.id", f"{pid!r} is not a new player id")
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME_LENGTH:
            raise _fail(f"{where}.name", "expected a name of 1 to 64 characters")
        if name.casefold() in names:
            raise _fail(f"{where}.name", f"{name!r} is seated twice")
        names.add(name.casefold())
        _int(entry["lives"], f"{where}.lives", 0, MAX_LIVES)
        if entry["status"] not in _STATUSES:
            raise _fail(f"{where}.status", f"{entry['status']!r} is not a status")
        if not isinstance(entry["bot"], bool):
            raise _fail(f"{where}.bot", "expected true or false")
        if entry["card"] is not None:
            _card(entry["card"], f"{where}.card")
        players[pid] = entry
    if len(players) > options.max_players:
        raise _fail("game.players", f"{len(players)} players at a table of {options.max_players}")
    return players


def _check_out_rounds(players: dict[str, dict[str, Any]], rounds: int) -> None:
    """R12: only a knocked-out player has the round they went out in, one already played (a
    save from before it was kept has none, and loads)."""
    for pid, entry in players.items():
        value = entry.get("out_round")
        if value is None:
            continue
        _int(value, f"game.players[{pid}].out_round", 1, rounds)
        if entry["status"] != Status.ELIMINATED:
            raise _fail(f"game.players[{pid}].out_round", "a player still in went out in no round")


def _check_events(value: Any, where: str) -> None:
    for i, raw in enumerate(_list(value, where)):
        event = _dict(raw, f"{where}[{i}]")
        kind = event.get("type")
        if not isinstance(kind, str) or kind not in _EVENT_TYPES:
            raise _fail(f"{where}[{i}].type", f"{event.get('type')!r} is not an event")


def _check_turns(
    data: dict[str, Any], players: dict[str, dict[str, Any]], options: HouseRules
) -> None:
    """A round being played: everyone dealt in is active and holds one card, the turn is one
    of theirs, the dealer is last, and the 52 cards are each exactly once somewhere."""
    order = _ids(data["order"], "game.order", set(players))
    if len(order) < 2 or len(set(order)) != len(order):
        raise _fail("game.order", "a round needs two or more different players")
    _int(data["turn_index"], "game.turn_index", 0, len(order) - 1)
    if data["dealer"] != order[-1]:
        raise _fail("game.dealer", "the dealer must be the last in the order")
    _int(data["cuts_made"], "game.cuts_made", 0, options.max_cuts)
    held: list[Card] = []
    for pid, entry in players.items():
        dealt_in = pid in order
        if dealt_in and (entry["status"] != Status.ACTIVE or entry["card"] is None):
            raise _fail(f"game.players[{pid}]", "dealt in but not active with a card")
        if not dealt_in and entry["card"] is not None:
            raise _fail(f"game.players[{pid}]", "holds a card but is not dealt in")
        if dealt_in:
            held.append(Card.parse(entry["card"]))
    pack = (
        held
        + _cards(data["stock"], "game.stock")
        + _cards(data["discard"], "game.discard")
        + _cards(data["set_aside"], "game.set_aside")
    )
    twice = [str(card) for card, count in Counter(pack).items() if count > 1]
    if twice or len(pack) != len(PACK):
        raise _fail("game.cards", f"the pack is not whole (twice: {twice}, {len(pack)} cards)")
    if set(_dict(data["history"], "game.history")) != set(order):
        raise _fail("game.history", "every player dealt in has a history, nobody else")
    penalties = _dict(data["penalties"], "game.penalties")
    for pid, count in penalties.items():
        _player_or_none(pid, "game.penalties", set(order))
        _int(count, f"game.penalties.{pid}", 0, MAX_LIVES)


def _check_last_round(value: Any) -> None:
    """The last round's outcome (``Game.last_round``): its losers may have left since."""
    if value is None:
        return
    last = _dict(value, "game.last_round")
    _int(last.get("round"), "game.last_round.round", 1)
    if last.get("lowest") not in RANKS:
        raise _fail("game.last_round.lowest", f"{last.get('lowest')!r} is not a rank")
    for i, raw in enumerate(_list(last.get("losers"), "game.last_round.losers")):
        where = f"game.last_round.losers[{i}]"
        loser = _dict(raw, where)
        for key in ("player", "name"):
            if not isinstance(loser.get(key), str):
                raise _fail(f"{where}.{key}", f"{loser.get(key)!r} is not text")
        _int(loser.get("lives"), f"{where}.lives", 0, MAX_LIVES)
        _int(loser.get("lost"), f"{where}.lost", 1, MAX_LIVES)


def check_saved_game(data: Any) -> Game:
    """The game saved in ``data``, once every field and invariant checked; else SaveInvalid."""
    game = _dict(data, "game")
    missing = [key for key in _GAME_KEYS if key not in game]
    if missing:
        raise _fail("game", f"missing {', '.join(missing)}")
    if game["format"] != FORMAT_VERSION:
        raise _fail("game.format", f"unknown saved game format {game['format']!r}")
    options = _check_options(game["options"])
    _check_rng(game["rng"])
    players = _check_players(game["players"], options)
    known = set(players)
    vip = _player_or_none(game["vip"], "game.vip", known)
    if (vip is None) != (not players):
        raise _fail("game.vip", "a table with players has a VIP, an empty one none")
    phase = game["phase"]
    if phase not in PHASES:
        raise _fail("game.phase", f"{phase!r} is not a phase")
    _int(game["step"], "game.step")
    _int(game["round"], "game.round")
    _check_out_rounds(players, game["round"])
    # After the round (reveal, game over) its dealer may have been kicked: still named here,
    # like ``order`` (a save refused after the host's K on the dealer at the reveal).
    after_round = phase in ("reveal", "game_over")
    _player_or_none(game["dealer"], "game.dealer", known if not after_round else None)
    _player_or_none(game["next_dealer"], "game.next_dealer", known)
    for key in ("shown", "kings_seen"):
        _cards(game[key], f"game.{key}")
    if game["cut_king"] is not None:
        _card(game["cut_king"], "game.cut_king")
    for key in ("losers", "eliminated", "winners", "order"):
        _ids(game[key], f"game.{key}")  # a player kicked after the reveal stays named here
    for i, deal in enumerate(_list(game["sudden_death"], "game.sudden_death")):
        entry = _dict(deal, f"game.sudden_death[{i}]")
        for pid, code in entry.items():
            _card(code, f"game.sudden_death[{i}].{pid}")
    _check_last_round(game.get("last_round"))  # a save from before round 44: none
    if not isinstance(game.get("walkover", False), bool):  # a save from before round 46: none
        raise _fail("game.walkover", "expected true or false")
    _check_events(game["log"], "game.log")
    for pid, events in _dict(game["history"], "game.history").items():
        _player_or_none(pid, "game.history", known if not after_round else None)
        _check_events(events, f"game.history.{pid}")
    if phase == "lobby":
        if game["order"] or game["dealer"] is not None:
            raise _fail("game.order", "nobody is dealt in while in the lobby")
    elif phase == "turns":
        _check_turns(game, players, options)
        if len([p for p in players.values() if p["status"] == Status.ACTIVE]) < 2:
            raise _fail("game.players", "a round needs two active players")
    return _resumes(game, known)


def _resumes(data: dict[str, Any], players: set[str]) -> Game:
    """Build the game and ask it what every seat sees and may do: the engine's own check."""
    try:
        game = Game.from_dict(data)
        game.view(None)
        for pid in players:
            game.view(pid)
            game.legal_actions(pid)
    except (ArithmeticError, AttributeError, KeyError, LookupError, TypeError, ValueError) as error:
        raise _fail("game", f"does not resume ({type(error).__name__}: {error})") from None
    return game
