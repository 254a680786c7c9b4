"""Presence — nobody stalls the table (issue 12 item 3; PHONE_API.md "Presence").

Why its own module: every presence rule is "when did this start, and has long enough passed?".
``Presence`` only remembers moments (when a person went away, when the current turn began) from
an injected clock and answers what is due; the session applies what is due through its usual
locked paths. So the rules are tested with a fake clock, and the engine never sees time.

A person is *away* while no event stream of theirs is open (computer players never are).
- Lobby: away for ``LOBBY_AWAY_SECONDS`` → they leave the table, counted from when they went
  away or when the lobby opened, whichever is later. Round 41: a guest knocked out put their
  phone down, it slept, and the VIP's "New game" took their seat at once; now they have the
  lobby's minute to look at their phone again, as a guest who just arrived has.
- The VIP away for ``VIP_AWAY_SECONDS`` → the next present person becomes the VIP.
- Turns: the current player away → they keep after ``away_seconds`` (counted from when the
  turn came to them or when they went away, whichever is later). A turn comes to a player
  when they can play it: the session gives ``current`` only then (with a TV, once announced).
- The reveal: the next dealer away → the next round is dealt for them after ``away_seconds``,
  counted the same way from when they could deal (with a TV, once the reveal is shown). Round
  40's play-test: the table waited for ever for a next dealer whose phone had gone, until
  someone found the TV's Space key.
- Gone for good: once the host has kept or dealt for a person who has not come back since,
  their next moves wait only ``AWAY_AGAIN_SECONDS`` (or ``away_seconds`` if shorter). Round
  45's play-test: two guests went home without being removed, and every round waited 15 s at
  each of their turns (40–55 s a round). A guest whose phone is locked between turns and who
  looks when the TV names them plays their own turns, so their wait stays whole.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

#: A person away this long in the lobby leaves the table (their token stops working).
LOBBY_AWAY_SECONDS = 60.0
#: A VIP away this long hands the role to the next present person in seat order.
VIP_AWAY_SECONDS = 60.0
#: The default of ``--away-seconds``: an away player's turn is kept for them after this long.
DEFAULT_AWAY_SECONDS = 15.0
#: The TV counts down the last seconds of a present but idle player's ``--turn-timeout``.
IDLE_COUNTDOWN_SECONDS = 10.0
#: The wait for a person the host already played for, away ever since: long enough for the TV
#: to name them and count down, short enough not to hold the table up again and again.
AWAY_AGAIN_SECONDS = 3.0


@dataclass(frozen=True)
class Table:
    """The facts presence needs, read by the session under its lock."""

    phase: str
    step: int
    current: str | None
    vip: str | None
    humans: tuple[str, ...]
    """Human players in seat order."""
    present: frozenset[str]
    """Humans with at least one event stream open."""
    turn_since: float | None = None
    """When ``current``'s turn opened (the session's moment: with a TV, when it was announced);
    None: when presence first sees it."""
    next_dealer: str | None = None
    """Phase ``reveal``: who may deal the next round, once phones may (with a TV, when it has
    shown the reveal); else None."""


@dataclass(frozen=True)
class Due:
    """Something presence says should happen now: ``leave``, ``hand_over``, ``keep`` or
    ``deal``."""

    kind: str
    player: str
    step: int


@dataclass(frozen=True)
class TurnClock:
    """The countdown of the current turn, for the TV: whose, how long left, and why."""

    player: str
    seconds_left: float
    away: bool
    timed_out: bool = False
    """H4: the keep at the end is a time-out, with its penalty at the reveal."""
    deal: bool = False
    """The wait of an away next dealer: at its end the next round is dealt for them."""


class Presence:
    """Remembers when people went away and when the current turn began; says what is due."""

    def __init__(
        self,
        *,
        away_seconds: float = DEFAULT_AWAY_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.away_seconds = max(0.0, away_seconds)
        self.clock = clock
        self._away_since: dict[str, float] = {}
        self._played_for: set[str] = set()
        """Away people the host kept or dealt for, not back since (``AWAY_AGAIN_SECONDS``)."""
        self._turn: tuple[int, str | None] | None = None
        self._turn_since = clock()
        self._deal: tuple[int, str] | None = None
        self._deal_since = self._turn_since
        self._lobby_since = self._turn_since
        self._table: Table | None = None

    def observe(self, table: Table) -> None:
        """Note what changed since the last look (called after every change of the table)."""
        now = self.clock()
        for pid in table.humans:
            if pid in table.present:
                self._away_since.pop(pid, None)
                self._played_for.discard(pid)
            else:
                self._away_since.setdefault(pid, now)
        for pid in set(self._away_since) - set(table.humans):
            del self._away_since[pid]  # left the table
        self._played_for &= set(self._away_since)
        turn = (table.step, table.current) if table.phase == "turns" and table.current else None
        if turn != self._turn:
            self._turn = turn
            self._turn_since = now if table.turn_since is None else table.turn_since
        deal = (
            (table.step, table.next_dealer)
            if table.phase == "reveal" and table.next_dealer
            else None
        )
        if deal != self._deal:
            self._deal, self._deal_since = deal, now
        if table.phase == "lobby" and (self._table is None or self._table.phase != "lobby"):
            self._lobby_since = now  # a new game's lobby: every away guest's minute starts
        self._table = table

    def postpone(self, seconds: float) -> None:
        """Move every remembered moment ``seconds`` later: the host did not run that long
        (``host/stall.py``), so nobody was seen going or coming back, and no wait may end
        because of it (an away player's keep, the lobby's leave, the VIP's hand-over)."""
        self._turn_since += seconds
        self._deal_since += seconds
        self._lobby_since += seconds
        for pid in self._away_since:
            self._away_since[pid] += seconds

    def away_for(self, player_id: str) -> float:
        """Seconds ``player_id`` has been away (0 while present)."""
        since = self._away_since.get(player_id)
        return 0.0 if since is None else max(0.0, self.clock() - since)

    def deciding_for(self) -> float:
        """Seconds the current player has had the turn (0 outside turns)."""
        if self._turn is None:
            return 0.0
        return max(0.0, self.clock() - self._turn_since)

    def _lobby_leave_at(self, player: str) -> float | None:
        """When an away ``player`` leaves the lobby's table (None while present)."""
        if player not in self._away_since:
            return None
        return max(self._away_since[player], self._lobby_since) + LOBBY_AWAY_SECONDS

    def _keep_due_at(self, table: Table) -> float | None:
        """When an away current player's turn is kept for them (None: present or not turns)."""
        if table.phase != "turns" or table.current is None:
            return None
        return self._away_wait_ends(table.current, self._turn_since)

    def _deal_due_at(self, table: Table) -> float | None:
        """When the next round is dealt for an away next dealer (None: present, or no deal
        is open)."""
        if self._deal is None or table.next_dealer is None:
            return None
        return self._away_wait_ends(table.next_dealer, self._deal_since)

    def _away_wait_ends(self, player: str, since: float) -> float | None:
        """When the host acts for ``player`` (None while present): ``away_seconds`` after
        the later of ``since`` (when the move became theirs) and when they went away; only
        ``AWAY_AGAIN_SECONDS`` if the host already played for them since they went."""
        if player not in self._away_since:
            return None
        wait = self.away_seconds
        if player in self._played_for:
            wait = min(wait, AWAY_AGAIN_SECONDS)
        return max(since, self._away_since[player]) + wait

    def played_for(self, player: str) -> None:
        """The host kept or dealt for ``player``, away: their next wait is short until they
        come back (``AWAY_AGAIN_SECONDS``)."""
        if player in self._away_since:
            self._played_for.add(player)

    def away_keep_in(self) -> float | None:
        """Seconds until an away current player's turn is kept for them by presence (None:
        present, or not turns). The turn's own limit may come sooner: the session weighs both."""
        table = self._table
        keep_at = None if table is None else self._keep_due_at(table)
        return None if keep_at is None else max(0.0, keep_at - self.clock())

    def due(self) -> list[Due]:
        """Everything due now, in the order to apply it."""
        table = self._table
        if table is None:
            return []
        now = self.clock()
        found: list[Due] = []
        if table.phase == "lobby":
            found += [
                Due("leave", pid, table.step)
                for pid in table.humans
                if (leave_at := self._lobby_leave_at(pid)) is not None and now >= leave_at
            ]
        vip = table.vip
        if (
            vip in self._away_since
            and now - self._away_since[vip] >= VIP_AWAY_SECONDS
            and not any(d.player == vip for d in found)
            and any(pid in table.present for pid in table.humans)
        ):
            found.append(Due("hand_over", vip, table.step))
        keep_at = self._keep_due_at(table)
        if keep_at is not None and now >= keep_at and table.current is not None:
            found.append(Due("keep", table.current, table.step))
        deal_at = self._deal_due_at(table)
        if deal_at is not None and now >= deal_at and table.next_dealer is not None:
            found.append(Due("deal", table.next_dealer, table.step))
        return found

    def next_due_in(self, idle_limit: float = 0.0) -> float | None:
        """Seconds until the next thing could fall due (None: nothing is waiting).

        ``idle_limit`` (the turn time-out) adds the moment the skip control and the TV's idle
        countdown appear.
        """
        table = self._table
        if table is None:
            return None
        now = self.clock()
        moments: list[float] = []
        for pid, since in self._away_since.items():
            leave_at = self._lobby_leave_at(pid) if table.phase == "lobby" else None
            if leave_at is not None:
                moments.append(leave_at)
            if pid == table.vip:
                moments.append(since + VIP_AWAY_SECONDS)
        for moment in (self._keep_due_at(table), self._deal_due_at(table)):
            if moment is not None:
                moments.append(moment)
        if self._turn is not None:
            from host.rules.controls import SKIP_AFTER_SECONDS

            moments.append(self._turn_since + SKIP_AFTER_SECONDS + 0.01)
            if idle_limit > 0:
                moments.append(self._turn_since + idle_limit - IDLE_COUNTDOWN_SECONDS)
        ahead = [moment - now for moment in moments if moment > now]
        return min(ahead) if ahead else None

    def turn_clock(self, idle_limit: float, *, timed_out: bool = False) -> TurnClock | None:
        """The TV's countdown: an away player's whole wait (an away next dealer's too), or an
        idle player's last 10 s (``timed_out``: H4 is on, so the keep at the end costs a life
        at the reveal)."""
        table = self._table
        if table is None:
            return None
        now = self.clock()
        deal_at = self._deal_due_at(table)
        if deal_at is not None and table.next_dealer is not None:
            return TurnClock(table.next_dealer, max(0.0, deal_at - now), True, deal=True)
        if table.phase != "turns" or table.current is None:
            return None
        keep_at = self._keep_due_at(table)
        idle_at = self._turn_since + idle_limit if idle_limit > 0 else None
        if keep_at is not None and (idle_at is None or keep_at <= idle_at):
            return TurnClock(table.current, max(0.0, keep_at - now), True, timed_out)
        if idle_at is not None and idle_at - now <= IDLE_COUNTDOWN_SECONDS:
            return TurnClock(table.current, max(0.0, idle_at - now), False, timed_out)
        return None


def present_players(connections: Iterable[tuple[str, int]]) -> frozenset[str]:
    """The ids with at least one open stream, from (player id, open streams) pairs."""
    return frozenset(pid for pid, count in connections if count > 0)
