"""The TV leads: what phones may see of the table while the TV is still playing it.

Why: the engine settles a whole move at once — the dealer's cut, the reveal, every lost life,
the eliminations and the winner arrive in one step — while the TV plays them one *beat* after
another. If phones got the final view at once, every guest would read "Sam loses a life" while
the TV is still turning the second card. So, while a TV leads, the session hands every phone
the view *as the TV shows it now*: ``present`` takes the final view and undoes the outcomes of
the public events the TV has not played yet (a reveal being played keeps only the cards turned
so far, and the lowest rank once it is marked). Masking only ever removes cards or puts back
the receiver's own earlier card, so a presented view never holds a card its receiver may not
see. Without a TV (``--headless``) nobody leads and nothing is delayed.

``Pacer`` is the session's small bookkeeper: it counts the public events sent to the TV, the TV
tells it how far it has played (``Shown``), and a stalled TV (no progress for
``STALL_SECONDS`` while something is held back) is simply skipped, so the game never freezes.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar, cast

from host.rules import EventDict, MeView, Phase, SeatView, Status, View
from host.rules.contract import ExchangedEvent, LifeLostEvent, RevealEvent, StandingsRow
from host.stall import stalled_for

AnyView = TypeVar("AnyView", bound=Mapping[str, object])
"""A view of any declared type (the contract's ``View``, or a test's hand-written dict): given
back as such. ``present`` reads it as the contract's ``View``; since a hand-written view may
leave members out, the view's members are read with ``.get`` and a default where they always
were (events, whole by the contract, are read by subscript)."""

#: Without any progress from the TV for this long, everything held back is released.
STALL_SECONDS = 8.0
#: The watchdog looks for a stalled TV this often.
WATCH_SECONDS = 0.5
#: Events after which the table is a new deal: nothing before them can be undone on a view.
BOUNDARY_KINDS = frozenset(
    {"round_dealt", "game_started", "misdeal", "new_game", "player_removed", "player_joined"}
)
#: Actions that only follow a turn the TV has announced.
PLAY_ACTIONS = frozenset({"keep", "exchange", "cut"})
#: Actions that only follow a reveal the TV has fully played.
AFTER_REVEAL_ACTIONS = frozenset({"deal", "new_game"})


@dataclass(frozen=True)
class Shown:
    """How far the TV has played the public events it was sent (counted since it took the lead).

    ``begun`` events have started on screen; if the last of them is a reveal, ``turned`` of its
    cards are face up and ``marked`` says whether the lowest rank is marked yet.
    """

    begun: int = 0
    turned: int = 0
    marked: bool = False


@dataclass(frozen=True)
class Unseen:
    """A public event the TV has not finished showing, with what the table looked like before.

    ``lives_before``: for a ``life_lost``, the player's lives before it (a timed-out player
    under H4 may lose two at once, so the event alone cannot say). ``standings_before``:
    tonight's standings before the change this event came with (their order and figures tell
    who lost and who won as plainly as the lives do); None leaves the view's standings as they are.
    """

    event: EventDict
    lives_before: int | None = None
    standings_before: Sequence[StandingsRow] | None = None


def reveal_order(order: Sequence[str], cards: Mapping[str, str]) -> list[str]:
    """The order the TV turns the cards up: turn order (dealer last), then anyone else."""
    ordered = [pid for pid in order if pid in cards]
    return ordered + [pid for pid in cards if pid not in ordered]


def present(
    view: AnyView,
    unseen: Sequence[Unseen],
    *,
    playing: bool = False,
    turned: int = 0,
    marked: bool = False,
    public: Mapping[str, object] | None = None,
) -> AnyView:
    """``view`` as the TV shows it: before the ``unseen`` events, oldest first.

    ``playing``: the first unseen event is on screen now; if it is a reveal, ``turned`` of its
    cards are up and ``marked`` tells whether the lowest rank is marked. Returns a new view; ``view``
    is not changed. Events before the last new deal in ``unseen`` cannot be undone (the view
    is already of the next deal) and are left as they are, but for a game's end: the next
    game's lobby names no winner of it before the TV has played it (``_hide_the_end``).

    ``public``: this change's public view, already presented with the same arguments, when
    ``view`` is a receiver's view of that change (``player_view``: the same public members,
    its own ``me`` and ``can``). The table is then not masked again: every member but ``me``
    and ``can`` is taken from ``public`` as it is, and only those two are masked — one masking
    of the table per change instead of one per phone (issue 18.1). The result is the same.
    """
    start = _after_last_deal(unseen)
    if start:  # the event playing now is older than the deal in the view: nothing partial
        playing, turned, marked = False, 0, False
    end = next((item for item in unseen[:start] if item.event["type"] == "game_over"), None)
    unseen = list(unseen[start:])
    if not unseen:
        return view if end is None else _before_the_end(view, end)
    final = cast(View, view)  # the one unchecked step: see ``AnyView``
    over = final.get("phase") in (Phase.REVEAL, Phase.GAME_OVER)
    if public is None or list(public) != list(final):
        shown = _masking_copy(final)
        _present_table(shown, unseen, playing, turned, marked, over)
        if end is not None:
            _hide_the_end(shown, end)
    else:  # the table is masked already: the public members as they are, a copy of ``me``
        shown = cast(View, {key: public[key] for key in final})
        shown["can"] = final.get("can", [])
        me = final.get("me")
        shown["me"] = None if me is None else me.copy()
    _present_own(shown, unseen, over)
    return cast(AnyView, shown)


def _turn_is_held(view: View, unseen: Sequence[Unseen]) -> bool:
    """Does ``view`` (the table masked) go back to the last turn the TV announced?"""
    kinds = {item.event["type"] for item in unseen}
    return "turn" in kinds or ("reveal" in kinds and view.get("phase") == Phase.TURNS)


def _present_table(
    shown: View, unseen: Sequence[Unseen], playing: bool, turned: int, marked: bool, over: bool
) -> None:
    """Mask the public members of ``shown`` (a masking copy): the table before ``unseen``.
    ``over``: the final view is of a reveal or a game's end (nobody deals before the TV ends it)."""
    log = _log_before(shown.get("log") or [], unseen)
    shown["log"] = log
    standings = unseen[0].standings_before
    if standings is not None and "standings" in shown:
        shown["standings"] = list(standings)
    kings_up = _kings_up(log)
    first = unseen[0].event
    partial = playing and first["type"] == "reveal"
    if partial and marked:
        log.append(first.copy())  # fully turned and marked: the reveal is on screen
    for index, item in reversed(list(enumerate(unseen))):
        now = partial and index == 0
        _undo(shown, item, kings_up, now, turned if now else 0, marked and now)
    if _turn_is_held(shown, unseen):  # the turn is the last one the TV announced
        turns = [e["player"] for e in log if e["type"] == "turn"]
        shown["current"] = turns[-1] if turns and shown.get("phase") == Phase.TURNS else None
    if over:
        shown["next_dealer"] = None


def _before_the_end(view: AnyView, end: Unseen) -> AnyView:
    """A copy of ``view`` with the game's end ``end`` hidden (``_hide_the_end``)."""
    shown = cast(View, dict(view))
    _hide_the_end(shown, end)
    return cast(AnyView, shown)


def _hide_the_end(view: View, end: Unseen) -> None:
    """The TV's host pressed on to the next game's lobby while the TV had still to play the
    last game's end (round 42): the lobby names none of its winners yet (``last_winners``),
    and tonight's standings are from before it, as while the TV plays it."""
    if "last_winners" in view:
        view["last_winners"] = []
    if view.get("last_game") is not None:
        view["last_game"] = None  # the next game's phones are told it once the TV has shown it
    if end.standings_before is not None and "standings" in view:
        view["standings"] = list(end.standings_before)


def _present_own(shown: View, unseen: Sequence[Unseen], over: bool) -> None:
    """Mask the receiver's own ``me`` (a copy in ``shown``) and ``can``, the table masked."""
    me = shown.get("me")
    if me is not None:
        for item in reversed(unseen):
            _undo_own(me, item)
    if _turn_is_held(shown, unseen):
        # No move can be made before the TV shows more.
        shown["can"] = [a for a in shown.get("can", []) if a not in PLAY_ACTIONS]
        if me is not None:
            me["target"] = None
    if over:
        shown["can"] = [a for a in shown.get("can", []) if a not in AFTER_REVEAL_ACTIONS]


def _after_last_deal(unseen: Sequence[Unseen]) -> int:
    """Where the events of the view's own deal start in ``unseen`` (0: none was a new deal)."""
    start = 0
    for index, item in enumerate(unseen):
        if item.event["type"] in BOUNDARY_KINDS:
            start = index + 1
    return start


def _log_before(log: Iterable[EventDict], unseen: Sequence[Unseen]) -> list[EventDict]:
    """The log without the ``unseen`` events it ends with (a new list)."""
    kept = list(log)
    for item in reversed(unseen):
        if kept and kept[-1] == item.event:
            kept.pop()
    return kept


def _kings_up(log: Iterable[EventDict]) -> set[str]:
    """The Kings the TV has shown blocking this round: masking never hides them."""
    return {e["king"] for e in log if e["type"] == "blocked" and e["king"]}


def _masking_copy(view: View) -> View:
    """A copy of ``view`` that masking may change without touching ``view`` (issue 18.1).

    Why not ``copy.deepcopy``: it copied every event of the log for each phone on every change
    while the TV played (most of the fan-out's time). Masking only ever sets top-level members,
    fields of the seats in ``players`` and fields of ``me``; every list it changes (``log``,
    ``can``, ``me.history``…) it builds anew. So those three levels are copied, the rest is
    shared — ``view`` may itself share its members with other receivers' views.
    """
    shown = view.copy()
    if "players" in view:
        shown["players"] = [seat.copy() for seat in view["players"]]
    me = view.get("me")
    if me is not None:
        shown["me"] = me.copy()
    return shown


def _players(view: View) -> dict[str, SeatView]:
    return {p["id"]: p for p in view.get("players", [])}


def _undo_own(me: MeView, item: Unseen) -> None:
    """Put back the receiver's own facts as they were before ``item.event``."""
    event, own = item.event, me.get("id")
    if event["type"] == "eliminated" and event["player"] == own:
        me["status"] = Status.ACTIVE
    elif event["type"] == "life_lost" and event["player"] == own:
        me["lives"] = item.lives_before if item.lives_before is not None else event["lives"] + 1
    elif event["type"] == "cut_taken" and event["dealer"] == own:
        dealer = event["dealer"]
        cut = _take_private(me, lambda e: e["type"] == "cut_card" and e["dealer"] == dealer)
        if cut is not None and cut["type"] == "cut_card":  # always: narrows it for mypy
            me["card"] = cut["discarded"]
    elif event["type"] == "exchanged" and own in (event["player"], event["target"]):
        asker, target = event["player"], event["target"]
        own_side: Literal["gave", "got"] = "gave" if own == asker else "got"
        swap = _take_private(
            me, lambda e: e["type"] == "swap" and e["player"] == asker and e["target"] == target
        )
        if swap is not None and swap["type"] == "swap":  # always: narrows it for mypy
            me["card"] = swap[own_side]


def _undo(
    view: View, item: Unseen, kings_up: set[str], playing: bool, turned: int, marked: bool
) -> None:
    """Put back the table as it was before ``item.event`` (one kind at a time); the
    receiver's own ``me`` is ``_undo_own``'s."""
    event = item.event
    players = _players(view)
    if event["type"] == "game_over":
        if view.get("phase") == Phase.GAME_OVER:
            # A walkover mid-round had no reveal: the table was still at its turns (round 46).
            mid_round = event.get("walkover") and view.get("lowest") is None
            view["phase"] = Phase.TURNS if mid_round else Phase.REVEAL
        view["winners"] = []
        view["walkover"] = False
    elif event["type"] == "eliminated":
        _undo_elimination(view, players, event["player"])
    elif event["type"] == "life_lost":
        _undo_life_lost(view, players, event, item.lives_before)
    elif event["type"] == "sudden_death":
        view["sudden_death"] = list(view.get("sudden_death", []))[:-1]
    elif event["type"] == "reveal":
        _undo_reveal(view, event, kings_up, playing, turned, marked)
    elif event["type"] == "cut_king":
        view["cut_king"] = None
    elif event["type"] == "cut_taken":  # the discard is one card shorter
        view["discard_count"] = max(0, view.get("discard_count", 0) - 1)
    elif event["type"] == "blocked":
        _undo_block(view, players, event["king"], kings_up)
    elif event["type"] == "exchanged":
        _undo_exchange(view, event, players)


def _undo_elimination(view: View, players: dict[str, SeatView], pid: str) -> None:
    if pid in players:
        players[pid]["status"], players[pid]["out_round"] = Status.ACTIVE, None
    view["eliminated"] = [p for p in view.get("eliminated", []) if p != pid]


def _undo_life_lost(
    view: View, players: dict[str, SeatView], event: LifeLostEvent, before: int | None
) -> None:
    """The lives before: ``before`` when the pacer knew them, else one more than left."""
    pid = event["player"]
    lives = before if before is not None else event["lives"] + 1
    if pid in players:
        players[pid]["lives"] = lives
    view["losers"] = [p for p in view.get("losers", []) if p != pid]


def _undo_reveal(
    view: View, event: RevealEvent, kings_up: set[str], playing: bool, turned: int, marked: bool
) -> None:
    """Before the reveal: no card up but shown Kings. During it: the first ``turned`` cards."""
    cards = event["cards"]
    up = set(reveal_order(view.get("order") or [], cards)[:turned]) if playing else set()
    for player in view.get("players", []):
        card = player.get("card")
        if card is not None and player["id"] not in up and card not in kings_up:
            player["card"] = None
    view["losers"] = []
    if not marked:
        view["lowest"] = None
    if not playing:
        view["phase"] = Phase.TURNS
        view["lowest"] = None
        view["eliminated"] = []
        view["shown"] = _cards_up(view)


def _undo_block(view: View, players: dict[str, SeatView], king: str, kings_up: set[str]) -> None:
    """The blocking King goes face down again, unless the TV showed it blocking before."""
    if king in kings_up:
        return
    for player in players.values():
        if player.get("card") == king and view.get("phase") == Phase.TURNS:
            player["card"] = None
    view["shown"] = {p: c for p, c in (view.get("shown") or {}).items() if c != king}


def _undo_exchange(view: View, event: ExchangedEvent, players: dict[str, SeatView]) -> None:
    """Swap back the cards up on the table: shown Kings travel back (each trader's own card
    is ``_undo_own``'s)."""
    asker, target = event["player"], event["target"]
    if asker in players and target in players:
        a, b = players[asker], players[target]
        a["card"], b["card"] = b.get("card"), a.get("card")
        if view.get("phase") == Phase.TURNS:
            view["shown"] = _cards_up(view)


def _cards_up(view: View) -> dict[str, str]:
    """Every card face up on the table, by player."""
    return {p["id"]: card for p in view.get("players", []) if (card := p.get("card")) is not None}


def _take_private(me: MeView, found: Callable[[EventDict], bool]) -> EventDict | None:
    """Take the latest private event ``found`` out of ``me.history`` (a new list)."""
    history = list(me.get("history") or [])
    for index in range(len(history) - 1, -1, -1):
        if found(history[index]):
            entry = history.pop(index)
            me["history"] = history
            return entry
    return None


@dataclass(frozen=True)
class Masking:
    """The outcomes a TV had not shown at one moment, and how far it was into the first."""

    unseen: tuple[Unseen, ...]
    playing: bool
    turned: int
    marked: bool

    def present(self, view: AnyView, public: Mapping[str, object] | None = None) -> AnyView:
        """``present(view, …)`` at that moment; ``public``: this change's public view already
        presented by this masking (see ``present``)."""
        return present(
            view,
            self.unseen,
            playing=self.playing,
            turned=self.turned,
            marked=self.marked,
            public=public,
        )


class Pacer:
    """Holds back outcomes the TV has not shown yet. Thread-safe; the session owns one.

    ``lead()`` when a TV starts playing (counting from the events sent after it), ``sent()``
    for every batch of public events, ``show()`` as the TV's beats play, ``resign()`` when it
    goes away. ``present(view)`` masks a view; ``on_release`` is called (from the watchdog
    thread) when a stalled TV is skipped, so the session can send the released views.
    """

    def __init__(
        self, *, stall_seconds: float = STALL_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.stall_seconds = stall_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._leading = False
        self._sent = 0
        self._unseen: deque[tuple[int, Unseen]] = deque()
        self._shown = Shown()
        self._progress_at = clock()
        self._lives: dict[str, int] = {}
        self._watchdog: threading.Thread | None = None
        self._stop = threading.Event()
        self.on_release: Callable[[], None] | None = None

    @property
    def leading(self) -> bool:
        return self._leading

    def lead(self, *, watchdog: bool = True) -> None:
        """A TV takes the lead: events sent from now on wait for it."""
        with self._lock:
            self._leading, self._sent, self._shown = True, 0, Shown()
            self._unseen.clear()
            self._progress_at = self._clock()
        if watchdog and self._watchdog is None:
            self._stop.clear()
            self._watchdog = threading.Thread(target=self._watch, name="pacer", daemon=True)
            self._watchdog.start()

    def resign(self) -> None:
        """The TV went away: nothing is held back any more."""
        with self._lock:
            self._leading = False
            self._unseen.clear()
        self._stop.set()
        self._watchdog = None

    def sent(
        self,
        events: Iterable[EventDict],
        lives: Mapping[str, int],
        standings_before: Sequence[StandingsRow] | None = None,
    ) -> None:
        """A batch of public events went to the TV; ``lives``: every player's lives after it;
        ``standings_before``: tonight's standings before it (shown while any of it is unseen)."""
        with self._lock:
            for event in events:
                before = None
                if event["type"] == "life_lost":
                    before = self._lives.get(event["player"], event["lives"] + 1)
                if self._leading:
                    if not self._unseen:
                        self._progress_at = self._clock()  # the TV's clock starts now
                    self._unseen.append((self._sent, Unseen(event, before, standings_before)))
                    self._sent += 1
            self._lives = dict(lives)

    def show(self, shown: Shown) -> bool:
        """The TV reports its progress; True if phones may now see more than before."""
        with self._lock:
            if not self._leading or shown == self._shown:
                return False
            self._shown = shown
            self._progress_at = self._clock()
            while self._unseen and self._unseen[0][0] < shown.begun - 1:
                self._unseen.popleft()
            if self._unseen and self._unseen[0][0] == shown.begun - 1:
                playing = self._unseen[0][1].event
                if playing["type"] != "reveal" or shown.marked:
                    self._unseen.popleft()
            return True

    def holding(self) -> bool:
        """Is anything held back from phones right now?"""
        with self._lock:
            return self._leading and bool(self._unseen)

    def turn_held(self) -> bool:
        """Is a turn held back (sent to the TV, not yet announced on it)? Its player cannot
        play until it is (``_back_to_the_shown_turn``), so their time has not started."""
        with self._lock:
            return self._leading and any(item.event["type"] == "turn" for _, item in self._unseen)

    def present(self, view: AnyView) -> AnyView:
        """``view`` as the TV shows it now (unchanged when nothing is held back)."""
        masking = self.masking()
        return view if masking is None else masking.present(view)

    def masking(self) -> Masking | None:
        """What the TV has not shown yet, now (None: nothing is held back). The session masks
        every receiver's view of one change with the same one."""
        with self._lock:
            if not self._leading or not self._unseen:
                return None
            unseen = tuple(item for _, item in self._unseen)
            playing = self._unseen[0][0] == self._shown.begun - 1
            turned = self._shown.turned if playing else 0
            marked = self._shown.marked if playing else False
        return Masking(unseen, playing, turned, marked)

    def release_if_stalled(self) -> bool:
        """Skip a TV that made no progress for ``stall_seconds``; True if it released views."""
        with self._lock:
            if not (self._leading and self._unseen):
                return False
            if self._clock() - self._progress_at < self.stall_seconds:
                return False
            self._unseen.clear()
            self._shown = Shown(self._sent)
            self._progress_at = self._clock()
        return True

    def close(self) -> None:
        self._stop.set()

    def woke(self, asleep_at: float, wait: float) -> bool:
        """The watchdog slept ``wait`` seconds from ``asleep_at``: skip a stalled TV now; True
        if it released views.

        Why the check first: a wake far later than asked means the whole host, the TV with it,
        did not run (``host/stall.py``); that time is no stall of the TV's, and counting it
        would show phones outcomes the TV has still to play.
        """
        stalled = stalled_for(asleep_at, wait, self._clock())
        if stalled:
            with self._lock:
                self._progress_at += stalled
        return self.release_if_stalled()

    def _watch(self) -> None:
        while True:
            asleep_at = self._clock()
            if self._stop.wait(WATCH_SECONDS):
                return
            if self.woke(asleep_at, WATCH_SECONDS) and self.on_release is not None:
                self.on_release()
