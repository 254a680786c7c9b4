"""Check a whole saved session (room, tokens, bots, counters and the game) before resuming.

Why: ``Session`` used to read a save field by field while building itself, so a damaged save
(``tokens`` as a list, ``game`` as a string) stopped the host with a traceback, and an
inconsistent one (a token for nobody, a bot without a strategy) started and then failed
requests. Every check here runs before anything is built, and each failure is one
``CorruptSave`` naming the field, so the host refuses to start with one clear line.
"""

from __future__ import annotations

import re
from typing import Any

from host.palette import PLAYER_COLOURS
from host.persistence import CorruptSave
from host.rules.bots import STRATEGIES
from host.rules.game import Game
from host.rules.validate import SaveInvalid, check_saved_game
from host.standings import Standings

_PLAYER_ID = re.compile(r"p([1-9][0-9]{0,8})")
#: ``pending_bots``: bots a save from before round 43 still owes (they sat down with the first
#: person); read, seated once on resuming (``Session._restore``), no longer written.
MAX_PENDING_BOTS = 19


def check_saved_session(data: Any, save_format: str, version: int) -> Game:
    """The resumable game of a saved session ``data``; CorruptSave naming the first fault."""
    if isinstance(data, dict) and (
        data.get("format") != save_format or data.get("version") != version
    ):  # another version's save (or another program's file): the host is told so, not "damaged"
        raise CorruptSave("not a Cuckoo Party save of a known version", "unknown_version")
    try:
        return _check(data, save_format, version)
    except SaveInvalid as fault:
        raise CorruptSave(str(fault)) from None
    except (
        ArithmeticError,
        AttributeError,
        LookupError,
        RecursionError,
        TypeError,
        ValueError,
    ) as error:  # a shape no check foresaw: still one clear line
        raise CorruptSave(f"unreadable ({type(error).__name__}: {error})") from None


def _check(data: Any, save_format: str, version: int) -> Game:
    if not isinstance(data, dict):
        raise SaveInvalid("not a saved session")
    for key in ("room", "tokens", "next_number", "game"):
        if key not in data:
            raise SaveInvalid(f"no {key!r}")
    room = data["room"]
    if not isinstance(room, str) or not room.strip() or len(room) > 32 or room != room.upper():
        raise SaveInvalid(f"room: {room!r} is not a room code")
    game = check_saved_game(data["game"])
    Standings.from_dict(data.get("standings"))  # tonight's tally must read back too
    seated = {p.id: p for p in game.players}
    tokens, bots = data["tokens"], data.get("bots", {})
    if not isinstance(tokens, dict):
        raise SaveInvalid(f"tokens: expected an object, found {type(tokens).__name__}")
    if not isinstance(bots, dict):
        raise SaveInvalid(f"bots: expected an object, found {type(bots).__name__}")
    for pid, token in tokens.items():
        if pid not in seated or seated[pid].bot:
            raise SaveInvalid(f"tokens: {pid!r} is not a seated person")
        if not isinstance(token, str) or not 16 <= len(token) <= 256:
            raise SaveInvalid(f"tokens.{pid}: not a token")
    if len(set(tokens.values())) != len(tokens):
        raise SaveInvalid("tokens: two players hold the same token")
    for pid, strategy in bots.items():
        if pid not in seated or not seated[pid].bot:
            raise SaveInvalid(f"bots: {pid!r} is not a seated computer player")
        if strategy not in STRATEGIES:
            raise SaveInvalid(f"bots.{pid}: {strategy!r} is not a strategy")
    for pid, player in seated.items():
        if player.bot and pid not in bots:
            raise SaveInvalid(f"bots: the computer player {pid!r} has no strategy")
        if not player.bot and pid not in tokens:
            raise SaveInvalid(f"tokens: the player {pid!r} has no token")
    colours = data.get("colours", {})  # a save from before round 40 has none: seats' colours
    if not isinstance(colours, dict):
        raise SaveInvalid(f"colours: expected an object, found {type(colours).__name__}")
    for pid, colour in colours.items():
        if pid not in seated:
            raise SaveInvalid(f"colours: {pid!r} is not seated")
        if not isinstance(colour, int) or isinstance(colour, bool):
            raise SaveInvalid(f"colours.{pid}: expected a whole number")
        if not 0 <= colour < len(PLAYER_COLOURS):
            raise SaveInvalid(f"colours.{pid}: {colour} is not a colour of the palette")
    if len(set(colours.values())) != len(colours):
        raise SaveInvalid("colours: two players share a colour")
    next_number = data["next_number"]
    if not isinstance(next_number, int) or isinstance(next_number, bool) or next_number < 1:
        raise SaveInvalid("next_number: expected a whole number from 1")
    for pid in seated:
        match = _PLAYER_ID.fullmatch(pid)
        if match is None or int(match.group(1)) >= next_number:
            raise SaveInvalid(f"game.players: {pid!r} is not an id below next_number")
    pending = data.get("pending_bots", 0)
    if (
        not isinstance(pending, int)
        or isinstance(pending, bool)
        or not (0 <= pending <= MAX_PENDING_BOTS)
    ):
        raise SaveInvalid("pending_bots: expected a whole number from 0 to 19")
    return game
