"""The VIP's host controls (issue 13; PHONE_API.md "Host controls (VIP)"): legality and effects.

Why in the engine: ``step`` is the engine's counter and the VIP is the engine's, so the rule
"each applied control increases ``step`` by exactly 1" and "listed in ``can`` only for the VIP,
only when allowed" belong next to ``legal_actions``. The engine stays pure and time-free: what
only the host knows (who is away, how long the current player has been deciding) comes in as
``TableFacts``, decided by the session. Refusals raise ``IllegalAction`` and change nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from host.rules.contract import KeepReason
from host.rules.errors import IllegalAction, Reason
from host.rules.events import Event, EventKind, public
from host.rules.game import ACTIONS
from host.rules.options import RULE_FIELDS, HouseRules

if TYPE_CHECKING:
    from host.rules.game import Game

#: Every control, in the order the VIP's ``can`` lists them.
VIP_ACTIONS: tuple[str, ...] = (
    "set_rules",
    "add_bot",
    "kick",
    "make_vip",
    "new_phone",
    "skip",
    "misdeal",
    "end_game",
)
#: The VIP may skip a present player who has been deciding for longer than this.
SKIP_AFTER_SECONDS = 10.0
#: H4's time limit the VIP may choose (PHONE_API.md: ``rapid_seconds`` 5..60).
RAPID_SECONDS_RANGE = range(5, 61)


@dataclass(frozen=True)
class TableFacts:
    """What the host knows beyond the rules: passed in so the engine never reads a clock."""

    away: frozenset[str] = frozenset()
    """Human players with no event stream open (bots are never away)."""
    deciding_seconds: float = 0.0
    """How long the current player (phase ``turns``) has been deciding."""


def _is_human(game: Game, player_id: str | None) -> bool:
    return player_id is not None and game.has_player(player_id) and not game.player(player_id).bot


def vip_actions(game: Game, player_id: str, facts: TableFacts) -> tuple[str, ...]:
    """The controls ``player_id`` may send now: none unless they are the (human) VIP."""
    if player_id != game.vip or not _is_human(game, player_id):
        return ()
    phase = game.phase
    allowed: list[str] = []
    if phase == "lobby":
        allowed.append("set_rules")
        if len(game.players) < game.options.max_players:
            allowed.append("add_bot")
    if any(p.id != player_id for p in game.players):
        allowed.append("kick")
    if any(p.id != player_id and not p.bot and p.id not in facts.away for p in game.players):
        allowed.append("make_vip")
    if any(p.id != player_id and p.id in facts.away for p in game.players):
        allowed.append("new_phone")  # the seat of a guest whose phone died (session.py)
    if phase == "turns":
        if may_skip(game, facts):
            allowed.append("skip")
        allowed.append("misdeal")
    if phase in ("turns", "reveal"):
        allowed.append("end_game")
    return tuple(allowed)


def rules_from_ids(ids: list[str], rapid_seconds: int | None, current: HouseRules) -> HouseRules:
    """The house rules named by ``ids`` (``[]``: standard); H4's seconds kept unless given."""
    flags = {RULE_FIELDS[rule]: True for rule in ids}
    seconds = current.rapid_seconds if rapid_seconds is None else rapid_seconds
    return HouseRules(**flags, rapid_seconds=seconds)


def set_rules(game: Game, rules: HouseRules) -> list[Event]:
    """Lobby: the rules of the next game, in force at once (lives shown, H7's table cap).

    The event says which rules were switched on and off (``added``, ``removed``): the TV's
    caption names them, where round 46's play-test read only "House rules updated"."""
    if game.phase != "lobby":
        raise IllegalAction(Reason.NOT_ALLOWED_NOW, "house rules change only in the lobby")
    if len(game.players) > rules.max_players:
        raise IllegalAction(Reason.TABLE_FULL, "too many players seated for that table size")
    before, after = game.options.ids(), rules.ids()
    game.options = rules
    for player in game.players:
        player.lives = rules.starting_lives
    game.step += 1
    return [
        public(
            EventKind.RULES_SET,
            rules=after,
            rapid_seconds=rules.rapid_seconds if rules.rapid else None,
            added=[rule for rule in after if rule not in before],
            removed=[rule for rule in before if rule not in after],
        )
    ]


def add_bot(game: Game, player_id: str, name: str) -> list[Event]:
    """Lobby: a computer player takes the next seat (``TABLE_FULL`` when there is none)."""
    if game.phase != "lobby":
        raise IllegalAction(Reason.NOT_ALLOWED_NOW, "computer players join in the lobby")
    events = game.add_player(player_id, name, bot=True)
    game.step += 1
    return events


def kick(game: Game, target: str, facts: TableFacts) -> list[Event]:
    """Any phase: ``target`` (not the VIP) leaves; mid-round the round is redealt (R16)."""
    if target == game.vip or not game.has_player(target):
        raise IllegalAction(Reason.NOT_ALLOWED_NOW, "that player cannot be removed")
    game.step += 1
    return game.remove_player(target, away=facts.away)


def make_vip(game: Game, target: str, facts: TableFacts) -> list[Event]:
    """Any phase: hand the VIP role to a present human player."""
    if target == game.vip or not _is_human(game, target) or target in facts.away:
        raise IllegalAction(Reason.NOT_ALLOWED_NOW, "only a present person can become the VIP")
    game.step += 1
    return set_vip(game, target)


def set_vip(game: Game, target: str | None) -> list[Event]:
    """The VIP role moves to ``target`` (no step change: a handover is not an action)."""
    if target == game.vip:
        return []
    game.vip = target
    return [public(EventKind.VIP_CHANGED, player=target)] if target is not None else []


def next_vip(game: Game, after_seat: int, away: frozenset[str]) -> str | None:
    """The next present human clockwise from ``after_seat`` (else the next human, else anyone:
    a table of computer players keeps a VIP so the TV's Space can still start a game)."""
    count = len(game.players)
    seats = [game.players[(after_seat + offset) % count] for offset in range(1, count + 1)]
    humans = [p.id for p in seats if not p.bot]
    present = [pid for pid in humans if pid not in away]
    choices = present or humans or [p.id for p in seats]
    return choices[0] if choices else None


def may_skip(game: Game, facts: TableFacts) -> bool:
    """Whether the current player may be skipped now: during turns, away or deciding for more
    than ``SKIP_AFTER_SECONDS`` (the VIP's Skip, the TV's S and its "S: skip" hint)."""
    return game.phase == "turns" and (
        game.current in facts.away or facts.deciding_seconds > SKIP_AFTER_SECONDS
    )


def skip(game: Game, facts: TableFacts) -> list[Event]:
    """Turns: the current player, away or deciding too long, keeps as on a time-out (under H4
    with its life lost at the reveal); the ``kept`` event says the VIP skipped them."""
    if not may_skip(game, facts):
        raise IllegalAction(Reason.NOT_ALLOWED_NOW, "the current player may still decide")
    return game.timeout(KeepReason.SKIPPED)


def end_game(game: Game) -> list[Event]:
    """Turns or reveal: back to the lobby as after ``new_game`` (every player, full lives).

    The lobby's log keeps the ``game_ended`` event until the next game starts: phones get
    views, not events, and said nothing of why they were back in the lobby (round 42).
    """
    if game.phase not in ("turns", "reveal"):
        raise IllegalAction(Reason.NOT_ALLOWED_NOW, "no game to end now")
    game.step += 1
    ended = public(EventKind.GAME_ENDED, round=game.round)
    events = [ended, *game.reset_to_lobby()]
    game.log.append(ended)
    return events


def game_moves(can: Iterable[str]) -> list[str]:
    """The game's own moves in a ``can`` list, without the VIP's controls (for players that
    pick a move, such as test clients and benchmarks)."""
    return [action for action in can if action in ACTIONS]
