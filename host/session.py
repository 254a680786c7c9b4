"""The authoritative party session: the single writer in front of the rules engine.

Why one writer: phones, the TV, the voice, bots and timers all change the same table. Every
change goes through ``Session`` under one lock, is saved durably before the lock is released
(one synced journal record, ``host/journal.py``: an answered request survives a kill -9; when the disk refuses, the change still stands and
``save_problem`` says why until a save works again), and is then fanned out to subscribers' queues
*after* the lock is released, in order, without ever blocking the writer: a phone that stops
reading its stream slows nobody down.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import random
import secrets
import string
import threading
import time
import weakref
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from host import names, persistence, social
from host.journal import SaveFile
from host.pacing import STALL_SECONDS, Masking, Pacer, Shown
from host.palette import css_hex, free_colour, player_colour
from host.phones_first import PhonesFirst
from host.presence import DEFAULT_AWAY_SECONDS, Presence
from host.rules import Game, HouseRules, IllegalAction, Phase, Status, View
from host.rules.contract import KeepReason
from host.rules.controls import TableFacts
from host.rules.events import Event, EventDicts
from host.rules.views import player_view, public_view
from host.save_check import check_saved_session
from host.session_controls import CONTROL_ACTIONS, HostControls, TvSettings, checked_fields
from host.standings import Standings
from host.subscriptions import Subscription, Update
from host.view_text import ViewText

log = logging.getLogger(__name__)

SAVE_FORMAT = "cuckoo-party-session"
SAVE_VERSION = 1
MAX_NAME_LENGTH = names.MAX_NAME_LENGTH
#: Proper names for computer players: names are never translated.
BOT_NAMES: tuple[str, ...] = (
    "Ada",
    "Alan",
    "Grace",
    "Edsger",
    "Barbara",
    "Donald",
    "Margaret",
    "Dennis",
    "Frances",
    "Claude",
    "Hedy",
    "Tim",
    "Radia",
    "Linus",
    "Sophie",
    "Guido",
    "Katherine",
    "John",
    "Joan",
    "Niklaus",
)


class SessionError(Exception):
    """A refused request. ``code`` is the API's error code; nothing was changed."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(message or code)
        self.code = code


#: The TV's check of a name: the letters it cannot show ("" when it shows them all). The
#: party builds it from the TV's fonts (``host/tv/shown_names.py``); the session only asks it.
UnshownLetters = Callable[[str], str]


class NameNotShown(SessionError):
    """``bad_name`` for a name the TV cannot draw: ``letters`` are the ones it cannot show
    (the phone says them, and what to do)."""

    def __init__(self, letters: str) -> None:
        super().__init__("bad_name", f"the TV cannot show {letters!r}")
        self.letters = letters


class NameKeptForAway(SessionError):
    """``name_taken`` by a person whose phone is away: the answer says so (``"away": true``),
    for their phone died and they are joining from another one (round 43's play-test: told
    only "choose another name", a guest took "José2" and split his evening's standings)."""

    def __init__(self) -> None:
        super().__init__("name_taken", "that name's seat is kept for its phone, away now")


@dataclass(frozen=True)
class JoinResult:
    player_id: str
    token: str
    status: Status
    """``active`` in the lobby, ``waiting`` while a game runs (they play the next one)."""


def clean_name(raw: Any) -> str:
    """A valid display name (see ``host.names.clean_name``), or SessionError("bad_name")."""
    try:
        return names.clean_name(raw)
    except names.NameRefused as refusal:
        raise SessionError(refusal.code, str(refusal)) from None


#: Tokens freed by the away rule that a 401 still recognises (a party's guests, many times over).
LEFT_AWAY_KEPT = 64


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Session(HostControls):
    """One room: the game, who holds which token, the bots, and everyone watching.

    ``presence``: apply the presence rules of PHONE_API.md (the real host does; a bare session
    in unit tests counts every seated player as present). ``clock`` drives them.
    ``tv_stall_seconds``: how long a leading TV that shows nothing new is waited for before
    phones get what it holds back (``host/pacing.py``); a test that steps the TV's clock by
    hand, slower than real time, waits for ever.
    """

    def __init__(
        self,
        options: HouseRules | None = None,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        room: str | None = None,
        state_path: str | Path | None = None,
        fresh: bool = False,
        turn_timeout: float = 90.0,
        bot_delay: float = 1.5,
        bots: int = 0,
        bot_strategy: str = "smart",
        presence: bool = False,
        away_seconds: float = DEFAULT_AWAY_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        tv: TvSettings | None = None,
        save_file: SaveFile | None = None,
        tv_stall_seconds: float = STALL_SECONDS,
    ) -> None:
        self._presence = Presence(away_seconds=away_seconds, clock=clock) if presence else None
        self._clock = clock
        self.tv = tv or TvSettings()
        self.turn_timeout = turn_timeout
        self.bot_delay = bot_delay
        self.bot_strategy = bot_strategy
        self._state_path = Path(state_path) if state_path else None
        self._save_file = save_file or (
            SaveFile(self._state_path) if self._state_path is not None else None
        )
        self._save_problem: str | None = None
        self._lock = threading.RLock()
        self._open_seats = set()
        self._left_away: dict[str, None] = {}
        """Digests of the last tokens whose seats the lobby's away rule freed (round 47: the
        phone, back, says why); oldest first, at most ``LEFT_AWAY_KEPT``; not saved."""
        self._subscribers: list[Subscription] = []
        #: The last change's update per receiver: an action answers with its actor's.
        self._change_updates: dict[str | None, Update] = {}
        self._connections: Counter[str] = Counter()
        self._closed = False
        self.resumed = False
        self.reactions = social.ReactionDesk()
        self.phones_first = PhonesFirst()
        """The server marks the phones' requests here; the TV's drawing gives way to them."""
        self.tutorial_asks = 0
        self.evenings_begun = 0
        """New evenings begun since the host started (TV key or VIP): the TV says so when it
        changes, wherever the new evening was asked for."""
        self._unshown_letters: UnshownLetters | None = None
        self._standings = Standings()
        # The TV leads (host/pacing.py): phones see only what a running TV has shown.
        self._pacer = Pacer(stall_seconds=tv_stall_seconds)
        self._pacer.on_release = self._repace
        self._paced_last: weakref.WeakKeyDictionary[Subscription, View] = (
            weakref.WeakKeyDictionary()
        )
        saved = None
        if self._save_file is not None:
            saved = self._open_state(self._save_file, fresh)
        if saved is not None:
            self._restore(*saved)
            self.resumed = True
            self._save()  # a fresh snapshot: the journal starts empty (and a torn tail goes)
        else:
            self.room = (room or _random_room(seed)).strip().upper()
            self._game = Game(options or HouseRules(), rng or random.Random(seed))
            self._tokens: dict[str, str] = {}
            self._by_digest: dict[str, str] = {}
            self._bots: dict[str, str] = {}
            self._colours: dict[str, int] = {}
            self._next_number = 1
            self._save()
            self._seat_asked_bots(bots)
        self._observe_table()  # a resumed turn's time starts again now

    # ------------------------------------------------------------- persistence

    def to_dict(self) -> dict[str, Any]:
        """Everything needed to carry on exactly: room, tokens, bots and the whole game."""
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "room": self.room,
            "tokens": dict(self._tokens),
            "bots": dict(self._bots),
            "colours": dict(self._colours),
            "next_number": self._next_number,
            "tv": self.tv.to_dict(),
            "game": self._game.to_dict(),
            "standings": self._standings.to_dict(),
        }

    @staticmethod
    def _open_state(save_file: SaveFile, fresh: bool) -> tuple[dict[str, Any], Game] | None:
        """At start: the save to resume (None: start anew), once it can be written again.

        Raises CorruptSave (damaged or inconsistent: the file is left untouched) or
        StateUnwritable, each with one clear reason; removes temp files a kill -9 left behind.
        The save read is the snapshot with its journal replayed (``SaveFile.load``).
        """
        path = save_file.path
        saved: tuple[dict[str, Any], Game] | None = None
        if fresh:
            try:
                save_file.discard()  # the journal too
            except OSError as error:
                raise persistence.StateUnwritable(persistence.describe_failure(error)) from None
        else:
            data = save_file.load()
            if data is not None:
                saved = data, check_saved_session(data, SAVE_FORMAT, SAVE_VERSION)
        persistence.remove_stale_temps(path)
        persistence.check_writable(path)
        return saved

    def _restore(self, data: dict[str, Any], game: Game) -> None:
        """Resume a save that ``check_saved_session`` accepted (every field checked)."""
        self._game = game
        self.room = str(data["room"])
        self._tokens = {str(pid): str(tok) for pid, tok in data["tokens"].items()}
        self._by_digest = {_digest(tok): pid for pid, tok in self._tokens.items()}
        self._bots = {str(pid): str(s) for pid, s in data.get("bots", {}).items()}
        self._colours = {str(pid): int(c) for pid, c in data.get("colours", {}).items()}
        for index, player in enumerate(self._game.players):  # a save from before: the seat's
            self._colours.setdefault(player.id, index)
        self._next_number = int(data["next_number"])
        self._standings = Standings.from_dict(data.get("standings"))
        for p in self._game.players:  # a save from before the standings knew no names
            self._standings.names.setdefault(p.id, (p.name, p.bot))
        self.tv = TvSettings.from_dict(data.get("tv"), self.tv)
        # A save from before round 43 may still owe the ``--bots`` it was started with (they
        # sat down with the first person): they sit now, once, and the next save owes none.
        self._seat_asked_bots(int(data.get("pending_bots", 0)))

    def _save(self, *, compact: bool = False) -> None:
        """Save everything; when the disk refuses, the party goes on in memory (issue 15).

        The failure is kept in ``save_problem`` (the TV shows it) and every later change tries
        again: each save holds the whole session, so the next one that works catches up with
        all. ``compact``: write a snapshot and empty the journal (closing).
        """
        if self._save_file is None:
            return
        try:  # written in order under the lock, before the fan-out; synced by ``_flush``
            self._save_file.write(self.to_dict(), compact=compact, sync=False)
        except OSError as error:  # a full disk, a read-only or vanished folder…
            self._save_failed(error)
            return
        except Exception as error:  # anything else is a bug, but the change stays true
            log.exception("cannot save the game to %s", self._state_path)
            self._save_problem = persistence.describe_failure(error)
            return
        if self._save_problem is not None:
            log.warning("the game is saved again to %s", self._state_path)
            self._save_problem = None

    def _sync_save(self) -> None:
        """Make the changes written so far durable; called without the lock, before answering.

        Why here: the record is already written (it survives kill -9), so every phone gets
        the change first, and only the answer to whoever changed it waits for the disk.
        """
        if self._save_file is None:
            return
        try:
            self._save_file.sync()
        except OSError as error:  # the next change writes a snapshot (``SaveFile.sync``)
            with self._lock:
                self._save_failed(error)

    def _save_failed(self, error: OSError) -> None:
        """Keep why the save failed (the TV shows it); the change stands. Lock held."""
        problem = persistence.describe_failure(error)
        if problem != self._save_problem:
            log.warning(
                "cannot save the game to %s: %s (the game goes on in memory)",
                self._state_path,
                problem,
            )
        self._save_problem = problem

    @property
    def save_problem(self) -> str | None:
        """Why the last save failed (e.g. "No space left on device"), or None when saved."""
        return self._save_problem

    # ------------------------------------------------------------------ reads

    @property
    def state_path(self) -> Path | None:
        """Where the session is saved after every change (None: not saved)."""
        return self._state_path

    @property
    def options(self) -> HouseRules:
        return self._game.options

    @property
    def step(self) -> int:
        with self._lock:
            return self._game.step

    @property
    def bots(self) -> dict[str, str]:
        """Computer players and their strategy names."""
        with self._lock:
            return dict(self._bots)

    def left_for_being_away(self, token: Any) -> bool:
        """Whether ``token``'s seat was freed because its player was away (the lobby's minute):
        a phone told 401 can then say why, not only that the seat is gone (round 47)."""
        if not isinstance(token, str) or not token or len(token) > 256:
            return False
        with self._lock:
            return _digest(token) in self._left_away

    def _note_left_away(self, pid: str) -> None:
        """Remember that ``pid``'s token goes because they were away (lock held)."""
        token = self._tokens.get(pid)
        if token is None:
            return
        self._left_away[_digest(token)] = None
        while len(self._left_away) > LEFT_AWAY_KEPT:
            del self._left_away[next(iter(self._left_away))]

    def player_for_token(self, token: Any) -> str | None:
        """The player holding ``token``, or None (unknown, kicked or malformed)."""
        if not isinstance(token, str) or not token or len(token) > 256:
            return None
        with self._lock:
            pid = self._by_digest.get(_digest(token))
            if pid is None or not hmac.compare_digest(self._tokens[pid], token):
                return None
            return pid

    def view(self, player_id: str | None, *, paced: bool | None = None) -> View:
        """That player's view (``None``: the public table view), with ``connected`` added.

        ``paced`` (default: for players, not for the public view the TV reads): the view as a
        running TV shows it now, without the outcomes it has not played yet (host/pacing.py).
        """
        with self._lock:
            if player_id is not None and not self._game.has_player(player_id):
                raise SessionError("unknown_player", "no such player")
            view = self._view_locked(player_id)
            if paced if paced is not None else player_id is not None:
                # Under the lock: the pacer's unseen events are exactly those after this view.
                view = self._pacer.present(view)
            return view

    def _view_locked(self, player_id: str | None) -> View:
        base = self._public_locked()
        return base if player_id is None else self._player_locked(base, player_id)

    def _public_locked(self) -> View:
        """The public view with the session's facts (lock held); built once per change."""
        view = public_view(self._game)
        view["room"] = self.room
        for player in view["players"]:
            player["connected"] = bool(player.get("bot")) or self._connections[player["id"]] > 0
            colour = self._colours.get(player["id"], player["seat"])
            player["color"] = css_hex(player_colour(colour))  # the player's own, on every screen
        view["standings"] = self._standings.table()
        # Round 42: the next game's lobby says who won the last one (a phone asleep at its
        # end never saw it). Only in the lobby: at game over ``winners`` says it, and the
        # pacer holds that back until the TV has played it.
        lobby = view["phase"] == Phase.LOBBY
        view["last_winners"] = self._standings.last_game_winners() if lobby else []
        # Round 47: kept into the next game, for a phone away across the end (docs/api.md).
        playing = view["phase"] in (Phase.TURNS, Phase.REVEAL)
        view["last_game"] = self._standings.last_game() if playing else None
        self._add_control_fields(view, None)
        turn = self._turn_time_locked()
        view["turn_seconds_left"] = None if turn is None else round(turn.seconds_left, 1)
        return view

    def _player_locked(self, base: View, player_id: str, facts: TableFacts | None = None) -> View:
        """``player_id``'s view from this change's public ``base`` (lock held; issue 18.1).

        Shares everything but the top level, ``me`` and ``can`` with ``base``: read-only.
        ``facts``: this change's table facts, if the caller has them (for ``can``).
        """
        view = player_view(self._game, base, player_id)
        if view["me"] is not None:  # ``me`` is there for a player
            view["me"]["prediction"] = self._standings.predictions.get(player_id)
        view["can"] = self._can(player_id, facts)  # the other control fields are in ``base``
        return view

    # ----------------------------------------------------------------- lobby

    def check_names_with(self, unshown_letters: UnshownLetters | None) -> None:
        """From now on a name the TV cannot draw is refused at the join (None: any name, as
        a headless party has no TV to draw it). Set by the party when it builds the TV."""
        with self._lock:
            self._unshown_letters = unshown_letters

    def join(self, name: Any, room: Any) -> JoinResult:
        """Seat a person (R1): validated name, right room; waiting if a game is running."""
        with self._lock:
            self._check_open()
            if not isinstance(room, str) or room.strip().upper() != self.room:
                raise SessionError("bad_room", "no such room")
            clean = clean_name(name)
            if self._unshown_letters is not None:
                letters = self._unshown_letters(clean)
                if letters:
                    log.info("join refused: the TV cannot show %r", letters)
                    raise NameNotShown(letters)
            result = self._seat(clean, bot=False)
        self._flush()
        return result

    def _seat_asked_bots(self, count: int) -> None:
        """Seat the host's ``--bots`` at once, so the TV's lobby shows them (round 43).

        One seat is always left for a person: the first one to sit down takes the VIP from
        the computer player holding it (``Game.add_player``), and bots never start a game
        (``host/bot_runner.py``). Called while the session is built, before anyone watches.
        """
        free = self._game.options.max_players - 1 - len(self._game.players)
        try:
            for _ in range(max(0, min(count, free))):
                self._seat_bot(self.bot_strategy)
        except SessionError as refusal:  # a bot name the table refuses: the party goes on
            log.warning("could not seat the computer players: %s", refusal)

    def add_bot(self, strategy: str | None = None) -> str:
        """Seat a computer player (the host's choice); returns its player id."""
        with self._lock:
            self._check_open()
            pid = self._seat_bot(strategy or self.bot_strategy)
        self._flush()
        return pid

    def _seat_bot(self, strategy: str) -> str:
        taken = [p.name for p in self._game.players]
        name = next((n for n in BOT_NAMES if not names.looks_like(n, taken)), None)
        number = len(self._bots) + 1
        while name is None or names.looks_like(name, taken):
            name, number = f"Bot {number}", number + 1
        pid = self._seat(name, bot=True).player_id
        self._bots[pid] = strategy
        self._save()  # again: the save must know it is a bot
        return pid

    def _seat(self, name: str, *, bot: bool) -> JoinResult:
        keys = names.look_alike_keys(name)  # once, not once per seated player
        holders = [p for p in self._game.players if keys & names.look_alike_keys(p.name)]
        if holders:
            if not bot and all(p.id in self._away() for p in holders):
                opened = [p.id for p in holders if p.id in self._open_seats]
                if len(holders) == 1 and opened:
                    return self._new_phone(opened[0])
                raise NameKeptForAway
            raise SessionError("name_taken", "that name is taken (or one that looks the same)")
        if len(self._game.players) >= self._game.options.max_players:
            raise SessionError("table_full", "the table is full")
        pid = f"p{self._next_number}"
        try:
            events = self._game.add_player(pid, name, bot=bot)
        except IllegalAction as refusal:
            raise SessionError(refusal.reason.value, refusal.message) from None
        token = secrets.token_urlsafe(32)  # 256 random bits
        try:
            self._colours[pid] = free_colour(self._colours.values())
            self._next_number += 1
            if not bot:
                self._grant(pid, token)
            self._changed(events)
        except BaseException:  # all or nothing: a join that fails leaves no seat behind
            self._unseat(pid, token)
            raise
        status = self._game.player(pid).status
        return JoinResult(pid, token if not bot else "", status)

    def _new_phone(self, pid: str) -> JoinResult:
        """A seat the VIP opened (``new_phone``) goes to the phone joining under its name: a
        new token, and the old one stops working (that phone is away; if it comes back it is
        told its seat is gone, as after a kick). No step: nothing of the game changed."""
        self._revoke(pid)
        token = secrets.token_urlsafe(32)  # 256 random bits
        self._grant(pid, token)
        self._open_seats.discard(pid)
        log.info("%s's seat moved to a new phone (the VIP opened it)", pid)
        self._save()
        self._changed([])
        return JoinResult(pid, token, self._game.player(pid).status)

    def _grant(self, pid: str, token: str) -> None:
        """``token`` is ``pid``'s from now on (``player_for_token`` finds it by its digest)."""
        self._tokens[pid] = token
        self._by_digest[_digest(token)] = pid

    def _revoke(self, pid: str) -> None:
        """``pid``'s token, if any, stops working."""
        token = self._tokens.pop(pid, None)
        if token is not None:
            self._by_digest.pop(_digest(token), None)

    def _unseat(self, pid: str, token: str) -> None:
        """Undo a seat that was never answered: no events, no token, no ghost."""
        if self._game.has_player(pid):
            self._game.remove_player(pid)
        if self._tokens.get(pid) == token:
            del self._tokens[pid]
        self._by_digest.pop(_digest(token), None)
        self._colours.pop(pid, None)

    def kick(self, player_id: str) -> None:
        """The host removes a player: their token stops working and their streams end."""
        with self._lock:
            self._check_open()
            if not self._game.has_player(player_id):
                raise SessionError("unknown_player", "no such player")
            self._drop_player(player_id)
        self._flush()

    def _drop_player(self, player_id: str) -> None:
        """Remove a player (lock held): their token stops working and their streams end."""
        events = self._game.remove_player(player_id, away=self._away())
        self._revoke(player_id)
        self._bots.pop(player_id, None)
        self._colours.pop(player_id, None)
        self._open_seats.discard(player_id)
        self.reactions.forget(player_id)
        for sub in self._subscribers:
            if sub.player_id == player_id:
                sub.end()
        self._subscribers = [s for s in self._subscribers if s.player_id != player_id]
        self._connections.pop(player_id, None)
        self._changed(events)

    # --------------------------------------------------------------- actions

    def act(
        self, player_id: str, action: Any, step: Any, extra: Mapping[str, Any] | None = None
    ) -> View:
        """Play ``action`` for ``player_id`` if ``step`` is current and it is in ``can``.

        ``extra``: a host control's checked fields (``phone_web.controls``). Returns the
        player's view after the move, as their phone shows it (``host/pacing.py``).
        """
        return self._act(player_id, action, step, extra).view

    def act_json(
        self, player_id: str, action: Any, step: Any, extra: Mapping[str, Any] | None = None
    ) -> str:
        """``act``, answered as JSON: the text the player's own stream sends of this change.

        Why: the change has already built (and the stream will encode) the player's view; the
        answer to the tap reuses both instead of building and encoding it again (issue 18.1).
        """
        return self._act(player_id, action, step, extra).json()

    def _act(
        self, player_id: str, action: Any, step: Any, extra: Mapping[str, Any] | None
    ) -> Update:
        with self._lock:
            self._check_open()
            if not self._game.has_player(player_id):
                raise SessionError("unknown_player", "no such player")
            extra = checked_fields(action, extra or {})
            if step != self._game.step or isinstance(step, bool):
                raise SessionError("stale_step", "the table has moved on")
            if not isinstance(action, str) or action not in self._can(player_id):
                refusal = isinstance(action, str) and self.control_refusal(player_id, action)
                raise SessionError(refusal or "bad_action", "that action is not possible now")
            if action in CONTROL_ACTIONS:  # may change more than once: the view is built anew
                self._control(player_id, action, extra)
                update = self._phone_update(player_id)
            else:  # one change; the actor's update is the one their stream gets, if they have one
                self._change_updates = {}
                self._apply(lambda: self._game.apply(player_id, action))
                update = self._change_updates.get(player_id) or self._phone_update(player_id)
        self._flush()
        return update

    def host_next(self) -> str:
        """The host's one button: start, deal the next round or open a new game."""
        with self._lock:
            self._check_open()
            game = self._game
            actor = {"lobby": game.vip, "reveal": game.next_dealer, "game_over": game.vip}.get(
                game.phase
            )
            action = {"lobby": "start", "reveal": "deal", "game_over": "new_game"}.get(game.phase)
            if (
                actor is None
                or action is None
                or action not in game.legal_actions(actor)
                or (action == "start" and not self._enough_present())
            ):
                raise SessionError("not_allowed_now", "nothing to start now")
            self._apply(lambda: game.apply(actor, action))
        self._flush()
        return action

    def misdeal(self) -> None:
        """R16: the host voids the round before the reveal; the same dealer deals again."""
        with self._lock:
            self._check_open()
            self._apply(self._game.misdeal)
        self._flush()

    def timeout(self, player_id: str, step: int) -> bool:
        """An idle player keeps automatically (H4: penalty at the reveal). False if moved on.

        The ``kept`` event says ``away`` when their phone is closed (whichever wait ended
        first, presence's or the turn's limit), else ``time``: the screens word them apart.
        """
        with self._lock:
            if self._closed or self._game.step != step or self._game.current != player_id:
                return False
            reason = KeepReason.AWAY if player_id in self._away() else KeepReason.TIME
            self._apply(lambda: self._game.timeout(reason))
        self._flush()
        return True

    def _apply(self, change: Callable[[], list[Event]]) -> None:
        try:
            events = change()
        except IllegalAction as refusal:
            raise SessionError(refusal.reason.value, refusal.message) from None
        self._changed(events)

    # ---------------------------------------------------- the evening (issue 14)

    def new_evening(self) -> None:
        """The host (TV key, VIP) starts a new evening: the standings start from nothing."""
        with self._lock:
            self._check_open()
            self._standings.reset()
            self.evenings_begun += 1
            self._save()
            self._changed([])
        self._flush()

    def ask_tutorial(self) -> None:
        """Ask the TV for "How to play" (a VIP action); the TV plays it in the lobby."""
        with self._lock:
            self.tutorial_asks += 1

    def predict(self, player_id: str, target: Any) -> View:
        """A guess of who loses a life this round (see ``host.social``); never a game action."""
        with self._lock:
            self._check_open()
            if not self._game.has_player(player_id):
                raise SessionError("unknown_player", "no such player")
            refusal = social.prediction_refusal(self._game, player_id, target)
            if refusal is not None:
                raise SessionError(refusal, "no prediction possible now")
            self._standings.predict(player_id, str(target))
            self._save()
            view = self._view_locked(player_id)
        self._sync_save()
        return view

    def react(self, player_id: str, emoji: Any) -> None:
        """An emoji for the TV from a guest not playing this round; at most one a second."""
        with self._lock:
            self._check_open()
            if not self._game.has_player(player_id):
                raise SessionError("unknown_player", "no such player")
            if emoji not in social.REACTIONS:
                raise SessionError("bad_request", "not a reaction")
            if not social.may_react(self._game, player_id):
                raise SessionError("not_allowed_now", "play your turn instead")
        if not self.reactions.add(player_id, str(emoji)):
            raise SessionError("too_fast", "one reaction a second")

    # --------------------------------------------------------------- fan-out

    def subscribe(self, player_id: str | None, *, presence: bool = True) -> Subscription:
        """Follow the table as ``player_id`` sees it (``None``: public). First update is now.

        ``presence``: this subscription makes the player ``connected`` (a phone's stream).
        A player has at most one such stream (issue 15): a new one replaces the old, which
        ends at once (``Subscription.replaced``); presence stays on throughout.
        """
        with self._lock:
            self._check_open()
            if player_id is not None and not self._game.has_player(player_id):
                raise SessionError("unknown_player", "no such player")
            sub = Subscription(player_id, presence and player_id is not None, self._unsubscribe)
            if sub.presence and player_id is not None:
                was_present = self._connections[player_id] > 0
                self._replace_streams_of(player_id)
                self._connections[player_id] += 1
                self._open_seats.discard(player_id)  # its phone is back: the seat is its own
                if not was_present:
                    self._changed([])
            self._subscribers.append(sub)
            first = self._view_locked(player_id)
            if player_id is not None:  # a phone: as the TV shows it (host/pacing.py)
                first = self._paced_last[sub] = self._pacer.present(first)
            sub.push(Update(self._game.step, first, []))
        self._flush()
        return sub

    def _replace_streams_of(self, player_id: str) -> None:
        """End the player's presence streams (lock held); their count goes, silently."""
        for old in [s for s in self._subscribers if s.presence and s.player_id == player_id]:
            old.replace()
            self._subscribers.remove(old)
            if self._connections[player_id] > 0:
                self._connections[player_id] -= 1

    def _unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            if sub not in self._subscribers:
                return
            self._subscribers.remove(sub)
            pid = sub.player_id
            if sub.presence and pid is not None and self._connections[pid] > 0:
                self._connections[pid] -= 1
                if self._connections[pid] == 0 and not self._closed:
                    self._changed([])
        self._flush()

    def _changed(self, events: Iterable[Event]) -> None:
        """Save, then send each subscriber its update (``_push``). Called with the lock held.

        The record is written first, so no phone sees a change a kill -9 could undo
        (``host/journal.py``); the lock keeps every subscriber's updates in change order.
        """
        events = list(events)
        dicts = EventDicts(events)  # each event's dict made once, whoever may see it
        # With a TV leading, phones see the standings from before this change until it has
        # played it (headless, nothing waits: no need to read them).
        standings_before = self._standings.table() if events and self._pacer.leading else None
        if events:
            self._standings.record(events, self._game.options.starting_lives)
        if events or self._save_problem is not None:  # a failed save is retried at once
            self._save()
        if events:
            lives = {p.id: p.lives for p in self._game.players}
            self._pacer.sent(dicts.for_player(None), lives, standings_before)
        self._observe_table()  # after ``sent``: a turn the TV has still to announce is not open
        holding = self._pacer.holding()
        change: _Change | None = None
        updates: dict[str | None, Update] = {}  # one per receiver: equal updates shared
        batch: list[tuple[Subscription, Update]] = []
        for sub in self._subscribers:
            pid = sub.player_id
            if pid not in updates:
                change = change or self._change()
                if pid is None:
                    update = Update(self._game.step, change.public, dicts.for_player(None))
                else:
                    view = self._phone_view(pid, change)
                    seen = [] if holding else dicts.for_player(pid)
                    update = Update(self._game.step, view, seen, change.phones)
                updates[pid] = update
            update = updates[pid]
            if pid is not None:
                self._paced_last[sub] = update.view
            batch.append((sub, update))
        self._push(batch)
        self._change_updates = updates

    def _change(self) -> _Change:
        """This change's public view, built once for every receiver (lock held)."""
        public = self._public_locked()
        masking = self._pacer.masking()  # one moment of the TV's for every receiver
        shown = public if masking is None else masking.present(public)
        return _Change(public, ViewText(shown), self._facts(), masking)

    def _phone_update(self, player_id: str) -> Update:
        """The player's update of the table now, for a player with no stream (lock held)."""
        change = self._change()
        return Update(self._game.step, self._phone_view(player_id, change), [], change.phones)

    def _phone_view(self, player_id: str, change: _Change) -> View:
        """A phone's view of this change, as the TV shows it, sharing the public members: the
        table is masked once per change (``change.phones.base``), only ``me`` and ``can`` here."""
        view = self._player_locked(change.public, player_id, change.facts)
        if change.masking is not None:
            view = change.masking.present(view, public=change.phones.base)
        return change.phones.adopt(view)

    # ------------------------------------------------------------- the TV leads

    def lead(self) -> Subscription:
        """A TV takes the lead: its public stream, and from now on phones wait for its beats.

        The TV reports each beat with ``tv_shown``; ``resign`` ends the lead. A TV that stops
        reporting is skipped after ``pacing.STALL_SECONDS``.
        """
        with self._lock:
            self._check_open()
            self._pacer.lead()
            sub = self.subscribe(None, presence=False)
        return sub

    def tv_shown(self, shown: Shown) -> None:
        """The TV's progress: phones now get the table as far as the TV has played it."""
        if self._pacer.show(shown):
            self._repace()

    def resign(self) -> None:
        """The TV went away: nothing is held back any more."""
        self._pacer.resign()
        self._repace()

    def _repace(self) -> None:
        """Send each phone the view the TV now shows, if it differs from the last one sent.

        Runs on the TV's own thread, between two frames; nothing to save, so it never waits
        for the disk.
        """
        with self._lock:
            if self._closed:
                return
            self._observe_table()  # the TV may just have announced a turn: its time starts
            batch: list[tuple[Subscription, Update]] = []
            change: _Change | None = None
            updates: dict[str, Update] = {}
            for sub in self._subscribers:
                pid = sub.player_id
                if pid is None:
                    continue
                if pid not in updates:
                    change = change or self._change()
                    view = self._phone_view(pid, change)
                    updates[pid] = Update(self._game.step, view, [], change.phones)
                if self._paced_last.get(sub) != updates[pid].view:
                    self._paced_last[sub] = updates[pid].view
                    batch.append((sub, updates[pid]))
            self._push(batch)

    @staticmethod
    def _push(batch: list[tuple[Subscription, Update]]) -> None:
        """Send one change to its subscribers, the phones' streams first (lock held).

        Why under the session lock: a stream's ``send`` never blocks, and the lock alone then
        keeps each subscriber's updates in the order of the changes, whichever threads make
        them; before, a queue of batches and a second lock did that outside it, for the same
        figures (measured side by side; issue 18.1). Why the phones first: a woken
        reader (the TV, the voice, the bots) would take the GIL from the phones still to be
        written.
        """
        for sub, update in sorted(batch, key=lambda item: item[0].wakes_a_thread):
            sub.push(update)

    def _flush(self) -> None:
        """Sync the save before answering, outside the session lock.

        Every method that changes the session ends here before it answers, so an answer is
        sent only once its change is on the disk (``host/journal.py``); the phones already
        have the change (``_changed``), so they do not wait for that.
        """
        self._sync_save()

    # -------------------------------------------------------------- shutdown

    def _check_open(self) -> None:
        if self._closed:
            raise SessionError("closed", "the party is over")

    def close(self) -> None:
        """Save one last time and end every stream. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._pacer.close()
            self._save(compact=True)  # the next start reads one snapshot, no journal
            subscribers, self._subscribers = self._subscribers, []
        for sub in subscribers:
            sub.end()


@dataclass(frozen=True)
class _Change:
    """One change's public view, and its encoding for the phones (issue 18.1).

    ``phones`` encodes the public view as the TV shows it now (``host/pacing.py``; without a
    TV, the public view itself): every phone's view of the change shares its members, so each
    phone's message costs only the encoding of its own ``me`` and ``can``. ``facts``: the
    table's facts every receiver's ``can`` reads, gathered once. ``masking``: what the TV had
    not shown when the change was built (None: nothing), the same for every phone.
    """

    public: View
    phones: ViewText
    facts: TableFacts
    masking: Masking | None = None


def _random_room(seed: int | None) -> str:
    """Four capital letters: from the seed when given (reproducible), else from ``secrets``."""
    if seed is not None:
        chooser = random.Random(f"room-{seed}")
        return "".join(chooser.choice(string.ascii_uppercase) for _ in range(4))
    return "".join(secrets.choice(string.ascii_uppercase) for _ in range(4))
