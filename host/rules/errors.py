"""Why an action was refused, in machine-readable form."""

from __future__ import annotations

from enum import Enum


class Reason(str, Enum):
    """One reason per guard, checked in this order by ``Game.apply``."""

    UNKNOWN_ACTION = "unknown_action"
    UNKNOWN_PLAYER = "unknown_player"
    NOT_YOUR_TURN = "not_your_turn"
    NOT_ALLOWED_NOW = "not_allowed_now"
    NOT_ENOUGH_PLAYERS = "not_enough_players"
    TABLE_FULL = "table_full"
    NAME_TAKEN = "name_taken"


class IllegalAction(Exception):
    """An action the rules do not allow now. The game is unchanged when this is raised."""

    def __init__(self, reason: Reason, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
