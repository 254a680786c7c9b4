"""The session's side of the VIP's host controls and of presence (issues 13 and 12.3).

Why a mixin: ``Session`` is the one writer; these methods run under its lock and reach its
state, but they are a feature of their own, kept out of ``session.py`` so that file stays small
and other work on joins, saves and streams merges cleanly. The rules of each control are in
``host.rules.controls`` (pure); what the session adds is what only it knows: who is away, how
long the current player has been deciding, the computer players' strategies and the TV's
settings. Every applied control increases ``step`` by exactly 1 and is saved before the answer.
"""

from __future__ import annotations

import logging
import math
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from host.pacing import Pacer
from host.presence import Presence, Table, TurnClock
from host.rules import MIN_PLAYERS, RULE_FIELDS, Game, HouseRules, IllegalAction, Reason, View
from host.rules import controls as rules_controls
from host.rules.bots import STRATEGIES
from host.rules.controls import RAPID_SECONDS_RANGE, VIP_ACTIONS, TableFacts
from host.rules.events import Event, EventKind, public
from host.standings import Standings

log = logging.getLogger(__name__)

#: Controls handled by the session itself (the TV's settings, the evening), after the engine's.
SESSION_ACTIONS: tuple[str, ...] = ("set_tv", "how_to_play", "new_evening")
CONTROL_ACTIONS: tuple[str, ...] = (*VIP_ACTIONS, *SESSION_ACTIONS)
#: Strategies offered to the VIP, best first (PHONE_API.md ``bot_strategies``).
BOT_STRATEGIES: tuple[str, ...] = tuple(
    name for name in ("smart", "simple", "random") if name in STRATEGIES
)


@dataclass
class TvSettings:
    """What the VIP may change about the TV from the lobby; the TV honours it on every view."""

    language: str = "en"
    voice_muted: bool = False
    music_volume: int = 60
    """Percent, 0–100 (issue 20): the music's level under the voice and the cues."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "language": self.language,
            "voice_muted": self.voice_muted,
            "music_volume": self.music_volume,
        }

    @classmethod
    def from_dict(cls, data: Any, default: TvSettings) -> TvSettings:
        """The saved settings; a damaged or missing part keeps the defaults (the TV's voice
        and language are not worth refusing a party over)."""
        if not isinstance(data, Mapping):
            data = {}
        return cls(
            str(data.get("language", default.language)),
            bool(data.get("voice_muted", default.voice_muted)),
            _percent(data.get("music_volume"), default.music_volume),
        )


@dataclass(frozen=True)
class OpenTurn:
    """The turn a player can play now (their ``keep`` is offered), and since when."""

    step: int
    player: str
    since: float
    """The session's clock when the turn opened."""


@dataclass(frozen=True)
class TurnTime:
    """The open turn's time: whose, at which step, and the seconds left before the host keeps
    for them (H4's limit, else ``--turn-timeout``)."""

    step: int
    player: str
    seconds_left: float


def _percent(value: Any, default: int) -> int:
    """A saved volume in percent, or ``default`` when the save predates it or is odd."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 100:
        return value
    return default


class HostControls:
    """Mixed into ``Session``: the VIP's controls, the presence rules and the merged ``can``."""

    # Provided by Session.
    _lock: threading.RLock
    _game: Game
    _bots: dict[str, str]
    _connections: Counter[str]
    _presence: Presence | None
    tv: TvSettings
    tutorial_asks: int
    evenings_begun: int
    _standings: Standings
    _open_seats: set[str]
    """Seats the VIP opened for a guest's new phone (``_open_seat``); not saved."""
    bot_strategy: str
    turn_timeout: float
    _pacer: Pacer
    _clock: Callable[[], float]
    _open_turn: OpenTurn | None = None
    _away_announced: tuple[int, str | None] | None = None
    _skip_offered: int | None = None

    def _changed(self, events: Iterable[Event]) -> None: ...
    def _apply(self, change: Callable[[], list[Event]]) -> None: ...
    def _flush(self) -> None: ...
    def _check_open(self) -> None: ...
    def _save(self) -> None: ...
    def _seat_bot(self, strategy: str) -> str:
        raise NotImplementedError

    def _note_left_away(self, pid: str) -> None:
        raise NotImplementedError

    def _view_locked(self, player_id: str | None) -> View:
        raise NotImplementedError

    def timeout(self, player_id: str, step: int) -> bool:
        raise NotImplementedError

    def kick(self, player_id: str) -> None: ...

    # ------------------------------------------------------------------ facts

    def _away(self) -> frozenset[str]:
        """Humans with no stream open. Without presence rules nobody counts as away."""
        if self._presence is None:
            return frozenset()
        return frozenset(
            p.id for p in self._game.players if not p.bot and self._connections[p.id] <= 0
        )

    def _facts(self) -> TableFacts:
        deciding = self._presence.deciding_for() if self._presence is not None else 0.0
        return TableFacts(away=self._away(), deciding_seconds=deciding)

    def _table(self) -> Table:
        game = self._game
        humans = tuple(p.id for p in game.players if not p.bot)
        turn = self._open_turn
        return Table(
            game.phase,
            game.step,
            None if turn is None else turn.player,
            game.vip,
            humans,
            frozenset(pid for pid in humans if self._connections[pid] > 0),
            None if turn is None else turn.since,
            game.next_dealer if game.phase == "reveal" and not self._pacer.holding() else None,
        )

    # ------------------------------------------------------------- turn time

    def _note_open_turn(self) -> None:
        """Note whose turn phones can play now, and since when (lock held; after every change
        and every beat the TV reports).

        Why not the engine's turn: while a TV leads, a turn opens when the TV announces it —
        phones cannot act before (``host/pacing.py``) — which may be seconds after the change:
        dealing ten cards takes 2.7 s on screen. H4's limit, ``--turn-timeout`` and presence's
        waits all count from this moment, so a player's time is the time they see.
        """
        game = self._game
        player = game.current
        if game.phase != "turns" or player is None or self._pacer.turn_held():
            self._open_turn = None
            return
        turn = self._open_turn
        if turn is None or (turn.step, turn.player) != (game.step, player):
            self._open_turn = OpenTurn(game.step, player, self._clock())

    def _turn_time_locked(self) -> TurnTime | None:
        turn, limit = self._open_turn, self._idle_limit()
        if turn is None or limit <= 0:
            return None
        left = max(0.0, limit - (self._clock() - turn.since))
        return TurnTime(turn.step, turn.player, left)

    def turn_time(self) -> TurnTime | None:
        """The open turn's time left (None: no turn open, or nobody is timed)."""
        with self._lock:
            return self._turn_time_locked()

    def reveal_held(self) -> bool:
        """Is the TV still playing a reveal, its outcome held back from the phones? A computer
        player deals the next round only a pause after the outcome is shown (round 44's
        play-test: counted from the reveal itself, the pause was over before the TV had shown
        who lost a life, and the deal wiped it off the phones within 0.4-1.5 s)."""
        with self._lock:
            return self._game.phase in ("reveal", "game_over") and self._pacer.holding()

    def host_stalled(self, seconds: float) -> None:
        """The host did not run for ``seconds`` (``host/stall.py``): give them back.

        Why: the clock ran on while the process was stopped, so the open turn's limit (H4,
        ``--turn-timeout``) and presence's waits would end the moment it wakes, before a tap
        sent meanwhile is read. The open turn now started ``seconds`` later, presence's moments
        too, and every receiver gets a fresh view: phones count down from what is left again.
        The bot runner calls this before anything else when its wait ended far too late.
        """
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
            raise TypeError(f"stalled seconds must be a number, not {seconds!r}")
        if not 0 < seconds < math.inf:
            raise ValueError(f"stalled seconds must be positive and finite, not {seconds!r}")
        with self._lock:
            self._check_open()
            turn = self._open_turn
            if turn is not None:
                self._open_turn = replace(turn, since=turn.since + seconds)
            if self._presence is not None:
                self._presence.postpone(seconds)
            log.warning(
                "the host did not run for %.1f s (stopped or asleep): its timers get that time "
                "back%s",
                seconds,
                "" if turn is None else f" ({turn.player}'s turn included)",
            )
            self._changed([])
        self._flush()

    def _observe_table(self) -> None:
        """Called under the lock after every change and every beat the TV reports: the open
        turn is noted, then presence notes who went or came back (it reads the open turn)."""
        self._note_open_turn()
        if self._presence is not None:
            self._presence.observe(self._table())

    def _enough_present(self) -> bool:
        """PHONE_API.md "Presence": ``start`` counts only present players (bots always are)."""
        if self._presence is None:
            return True
        away = self._away()
        return sum(1 for pid in self._game.active_ids() if pid not in away) >= MIN_PLAYERS

    def _can(self, player_id: str, facts: TableFacts | None = None) -> list[str]:
        """The caller's ``can``: the engine's moves, then the VIP's controls.

        ``facts``: the table's facts when the caller already has them (one change's fan-out
        builds them once for every receiver, not once per phone).
        """
        game = self._game
        can: list[str] = list(game.legal_actions(player_id))
        if "start" in can and not self._enough_present():
            can.remove("start")
        if facts is None:
            facts = self._facts()
        controls = rules_controls.vip_actions(game, player_id, facts)
        if controls:
            can += controls
            if game.phase == "lobby":
                can += ["set_tv", "how_to_play"]
            if game.phase in ("lobby", "game_over"):
                can.append("new_evening")
        return can

    def _add_control_fields(self, view: View, player_id: str | None) -> None:
        """Fields of the view for the controls (added to the contract's view).

        Only ``can`` depends on the receiver: the session builds the rest once per change, in
        the public view every player's view is made from (``Session._player_locked``).
        """
        if player_id is not None:
            view["can"] = self._can(player_id)
        view["bot_strategies"] = list(BOT_STRATEGIES)
        view["house_rule_ids"] = list(RULE_FIELDS)
        view["rapid_seconds_range"] = {
            "min": RAPID_SECONDS_RANGE.start,
            "max": RAPID_SECONDS_RANGE.stop - 1,
            "default": HouseRules().rapid_seconds,
        }
        view["open_seats"] = self._seats_open()
        view["tv"] = self._pacer.leading  # its keyboard's Space starts: phones may say so
        view["tv_language"] = self.tv.language
        view["voice_muted"] = self.tv.voice_muted
        view["music_volume"] = self.tv.music_volume

    # --------------------------------------------------------------- controls

    def skip_ready(self) -> bool:
        """Whether ``skip_current`` would skip the current player now: the TV's header says
        so (``Stage.skip_ready``)."""
        with self._lock:
            return rules_controls.may_skip(self._game, self._facts())

    def skip_current(self) -> None:
        """The TV's S: the VIP's skip from the host's keyboard. The current player, away or
        deciding for longer than ``SKIP_AFTER_SECONDS``, keeps (``kept`` says skipped).

        Round 41's play-test: a guest stalled and the TV offered no way on; only the VIP's
        phone could skip, and there it sat below every player's buttons."""
        with self._lock:
            self._check_open()
            facts = self._facts()
            self._apply(lambda: rules_controls.skip(self._game, facts))
        self._flush()

    def _control(self, player_id: str, action: str, extra: Mapping[str, Any]) -> None:
        """Apply a control already found in ``can`` (the lock is held)."""
        from host.session import SessionError

        game = self._game
        facts = self._facts()
        try:
            if action == "set_rules":
                ids = list(extra.get("rules", []))
                seconds = extra.get("rapid_seconds")
                rules = rules_controls.rules_from_ids(ids, seconds, game.options)
                self._changed(rules_controls.set_rules(game, rules))
            elif action == "add_bot":
                self._add_bot_counted(str(extra.get("strategy") or BOT_STRATEGIES[0]))
            elif action == "kick":
                self._remove(str(extra["player"]), counted=True)
            elif action == "make_vip":
                self._changed(rules_controls.make_vip(game, str(extra["player"]), facts))
            elif action == "new_phone":
                self._open_seat(str(extra["player"]), facts)
            elif action == "skip":
                self._changed(rules_controls.skip(game, facts))
            elif action == "misdeal":
                self._changed(game.misdeal())
            elif action == "end_game":
                self._changed(rules_controls.end_game(game))
            elif action == "set_tv":
                self._set_tv(extra)
            elif action in ("how_to_play", "new_evening"):
                self._evening_control(action)
        except IllegalAction as refusal:
            # A control's target that is not allowed (the VIP, a bot as VIP…) is a bad action.
            code = "table_full" if refusal.reason is Reason.TABLE_FULL else "bad_action"
            raise SessionError(code, refusal.message) from None

    def _add_bot_counted(self, strategy: str) -> None:
        """The VIP's ``add_bot``: one step, counted before the seat so the save holds both."""
        game = self._game
        if game.phase != "lobby":
            raise IllegalAction(Reason.NOT_ALLOWED_NOW, "only in the lobby")
        before = game.step
        game.step += 1
        try:
            self._seat_bot(strategy)
        except Exception:
            game.step = before
            raise

    def control_refusal(self, player_id: str, action: str) -> str | None:
        """A more precise refusal than ``bad_action`` for the VIP: ``table_full`` (add_bot)."""
        game = self._game
        if (
            action == "add_bot"
            and player_id == game.vip
            and game.phase == "lobby"
            and len(game.players) >= game.options.max_players
        ):
            return "table_full"
        return None

    def _set_tv(self, extra: Mapping[str, Any]) -> None:
        """The TV's language and voice (lobby): saved with the game, counted as a step."""
        if "language" in extra:
            self.tv.language = str(extra["language"])
        if "voice_muted" in extra:
            self.tv.voice_muted = bool(extra["voice_muted"])
        if "music_volume" in extra:
            self.tv.music_volume = int(extra["music_volume"])
        self._game.step += 1
        self._save()  # no event to tell: the TV follows the view's settings
        self._changed([])

    def _evening_control(self, action: str) -> None:
        """Issue 14 from the VIP's phone: "How to play" on the TV, or a new evening's standings.

        Counted as a step and saved like every control; neither touches the game itself.
        """
        if action == "how_to_play":
            self.tutorial_asks += 1  # the TV starts the lesson on its next frame
        else:
            self._standings.reset()
            self.evenings_begun += 1  # the TV says so on its next frame
        self._game.step += 1
        self._save()
        self._changed([])

    def set_tv_settings(
        self,
        *,
        language: str | None = None,
        voice_muted: bool | None = None,
        music_volume: int | None = None,
    ) -> None:
        """The TV's keys (L, M, -/=): the same settings, from the host (not an action: no step)."""
        with self._lock:
            self._check_open()
            new = TvSettings(
                language or self.tv.language,
                self.tv.voice_muted if voice_muted is None else voice_muted,
                self.tv.music_volume if music_volume is None else music_volume,
            )
            if new == self.tv:
                return
            self.tv = new
            self._save()
            self._changed([])
        self._flush()

    def _open_seat(self, player_id: str, facts: TableFacts) -> None:
        """The VIP's ``new_phone``: the seat of ``player_id``, a guest whose phone is away, goes
        to the next phone that joins under their name (``Session._seat``), card and all.

        Round 45's play-test: a guest's phone died and she borrowed a friend's; her name was
        refused (its seat is kept for its phone) and the only way back was to be removed and
        wait for the next game. Only the VIP, who can see who is asking, opens the seat; it
        stays open until it is taken, the old phone comes back, or the guest leaves.
        """
        game = self._game
        if (
            player_id == game.vip
            or not game.has_player(player_id)
            or game.player(player_id).bot
            or player_id not in facts.away
        ):
            raise IllegalAction(Reason.NOT_ALLOWED_NOW, "only an away guest's seat can be opened")
        game.step += 1
        self._open_seats.add(player_id)
        self._save()
        self._changed([])

    def _seats_open(self) -> list[str]:
        """Seats open for a new phone (``_open_seat``) whose guest is still seated and away."""
        away = self._away()
        return [pid for pid in sorted(self._open_seats) if pid in away]

    def _remove(self, player_id: str, *, counted: bool) -> None:
        """A kick (``counted``: the VIP's control, one step) or a lobby leave (no step)."""
        from host.session import SessionError

        game = self._game
        if counted:
            if player_id == game.vip or not game.has_player(player_id):
                raise SessionError("bad_action", "that player cannot be removed")
            game.step += 1
        self._drop_player(player_id)

    def _drop_player(self, player_id: str) -> None:
        """Remove a player with the presence facts (the VIP role goes to a present person)."""
        raise NotImplementedError  # Session provides it

    # --------------------------------------------------------------- presence

    def presence_tick(self) -> list[str]:
        """Apply whatever presence says is due now; returns what was done (for tests)."""
        done: list[str] = []
        with self._lock:
            self._check_open()
            presence = self._presence
            if presence is None:
                return done
            dues = presence.due()
            self._announce_away_turn(presence)
            for due in dues:
                game = self._game
                if due.step != game.step:
                    break  # something changed the table: look again next time
                if due.kind == "leave" and game.has_player(due.player):
                    self._note_left_away(due.player)  # the 401 says why (round 47)
                    self._drop_player(due.player)
                    done.append(f"leave:{due.player}")
                elif due.kind == "hand_over" and game.vip == due.player:
                    target = rules_controls.next_vip(game, game.seat_of(due.player), self._away())
                    if target is not None and target != due.player:
                        self._changed(rules_controls.set_vip(game, target))
                        done.append(f"vip:{target}")
                elif due.kind == "keep" and self.timeout(due.player, due.step):
                    presence.played_for(due.player)
                    done.append(f"keep:{due.player}")
                elif due.kind == "deal" and "deal" in game.legal_actions(due.player):
                    self._apply(partial(game.apply, due.player, "deal"))  # as if they had tapped
                    presence.played_for(due.player)
                    done.append(f"deal:{due.player}")
            if self._refresh_skip(presence):
                self._changed([])
        self._flush()
        return done

    def _announce_away_turn(self, presence: Presence) -> None:
        """The voice names an away player once, when their turn begins (the TV counts down).

        It says when their card is really kept: presence's wait (``--away-seconds``) or the
        turn's limit (H4's, else ``--turn-timeout``), whichever ends first, counted from now.
        Either way the keep is ``Game.timeout``: under H4 that is a time-out with its penalty
        at the reveal, so the event says so (``timed_out``), as the ``kept`` event will.
        """
        game = self._game
        current = None if self._open_turn is None else self._open_turn.player
        marker = (game.step, current)
        if current is None or current not in self._away() or self._away_announced == marker:
            return
        self._away_announced = marker
        turn = self._turn_time_locked()
        waits = [presence.away_keep_in(), None if turn is None else turn.seconds_left]
        seconds = min((wait for wait in waits if wait is not None), default=presence.away_seconds)
        self._changed(
            [
                public(
                    EventKind.PLAYER_AWAY,
                    player=current,
                    seconds=math.ceil(round(seconds, 3)),  # as the TV's countdown shows it
                    timed_out=game.options.rapid,
                )
            ]
        )

    def _refresh_skip(self, presence: Presence) -> bool:
        """True once per turn when ``skip`` newly appears in the VIP's ``can`` (10 s idle)."""
        game = self._game
        if game.phase != "turns" or presence.deciding_for() <= rules_controls.SKIP_AFTER_SECONDS:
            return False
        if self._skip_offered == game.step:
            return False
        self._skip_offered = game.step
        return True

    def presence_due_in(self) -> float | None:
        """Seconds until presence may have something to do (for the runner's sleep)."""
        with self._lock:
            if self._presence is None:
                return None
            return self._presence.next_due_in(self._idle_limit())

    def _idle_limit(self) -> float:
        options = self._game.options
        return float(options.rapid_seconds) if options.rapid else self.turn_timeout

    def turn_clock(self) -> TurnClock | None:
        """The current turn's countdown for the TV (an away player, or an idle one's last 10 s)."""
        with self._lock:
            if self._presence is None:
                return None
            return self._presence.turn_clock(self._idle_limit(), timed_out=self._game.options.rapid)


class BadControlFields(ValueError):
    """A control's extra field is missing or malformed (the API's ``400 bad_request``)."""


def _player_field(body: Mapping[str, Any]) -> str:
    player = body.get("player")
    if not isinstance(player, str) or not 0 < len(player) <= 64:
        raise BadControlFields("player must be a player id")
    return player


def control_fields(action: str, body: Mapping[str, Any]) -> dict[str, Any]:
    """The checked extra fields of a control (PHONE_API.md "Host controls (VIP)").

    Only the shape is checked here — whoever sends it, before the step check; whether the
    control is allowed now is the session's business. Other actions take no extra fields.
    """
    from host.i18n import LANGUAGES
    from host.rules.controls import RAPID_SECONDS_RANGE
    from host.rules.options import RULE_FIELDS

    if action == "set_rules":
        rules = body.get("rules")
        if not isinstance(rules, list) or not all(
            isinstance(rule, str) and rule in RULE_FIELDS for rule in rules
        ):
            raise BadControlFields("rules must be a list of house-rule ids H1…H8")
        fields: dict[str, Any] = {"rules": sorted(set(rules), key=list(RULE_FIELDS).index)}
        if "rapid_seconds" in body:
            seconds = body["rapid_seconds"]
            if (
                not isinstance(seconds, int)
                or isinstance(seconds, bool)
                or seconds not in RAPID_SECONDS_RANGE
            ):
                raise BadControlFields("rapid_seconds must be a whole number from 5 to 60")
            fields["rapid_seconds"] = seconds
        return fields
    if action == "add_bot":
        strategy = body.get("strategy")
        if strategy is None:
            return {}
        if not isinstance(strategy, str) or strategy not in BOT_STRATEGIES:
            raise BadControlFields("strategy must be one of bot_strategies")
        return {"strategy": strategy}
    if action in ("kick", "make_vip", "new_phone"):
        return {"player": _player_field(body)}
    if action == "set_tv":
        fields = {}
        if "language" in body:
            if body["language"] not in LANGUAGES:
                raise BadControlFields("language must be one of en, fr, it")
            fields["language"] = body["language"]
        if "voice_muted" in body:
            if not isinstance(body["voice_muted"], bool):
                raise BadControlFields("voice_muted must be true or false")
            fields["voice_muted"] = body["voice_muted"]
        if "music_volume" in body:
            volume = body["music_volume"]
            if not isinstance(volume, int) or isinstance(volume, bool) or not 0 <= volume <= 100:
                raise BadControlFields("music_volume must be a whole number from 0 to 100")
            fields["music_volume"] = volume
        if not fields:
            raise BadControlFields("set_tv needs language, voice_muted or music_volume")
        return fields
    return {}


def checked_fields(action: Any, extra: Mapping[str, Any]) -> dict[str, Any]:
    """``control_fields`` for the session's own callers: a bad field is ``bad_request``."""
    from host.session import SessionError

    if not isinstance(action, str):
        return {}
    try:
        return control_fields(action, extra)
    except BadControlFields as error:
        raise SessionError("bad_request", str(error)) from None
