"""What the TV shows right now: the last public view, replayed event by event as animations.

Why a separate model: a batch of public events arrives with the view *after* all of them
(e.g. ``exchanged``, ``turn``, ``blocked`` …). The stage keeps its own copy of the table
(``SeatShow`` rows) and plays the events one *beat* at a time, changing that copy when a beat
starts or ends with the facts the event itself carries (a shown King, the lives left, the
revealed cards); when the last beat of an update ends it takes that update's view as the
truth. It never works a game fact out by itself (no rank order, no "H1 means 5 lives", no
count of the discard): the engine is the only state machine, the stage is its animation.
Scenes only read the stage (``draw`` never changes it); ``update(dt)`` moves it forward.

Hidden information: the stage accepts only the public view and public events. Anything that
looks private (a ``me`` block, a private event kind) is dropped on arrival, so no private card
can reach a scene even if a caller made a mistake.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from host.names import shown_name
from host.pacing import Shown
from host.palette import PLAYER_COLOURS, Colour, colour_hex, player_colour
from host.rules import PRIVATE_KINDS, EventDict, View

if TYPE_CHECKING:
    from host.voice.phrases import Moment

#: Seconds each public event takes on screen (per-seat parts are added in ``beat_length``).
BEAT_SECONDS: dict[str, float] = {
    "game_started": 1.4,
    "turn": 0.35,
    "kept": 0.7,
    "exchanged": 1.2,
    "blocked": 2.2,
    "cut": 0.6,
    "cut_taken": 1.0,
    "cut_king": 2.0,
    "life_lost": 1.0,
    "eliminated": 1.0,
    "sudden_death": 4.5,  # the rule, then (``SUDDEN_DEATH_VERDICT_AT``) the verdict
    "game_over": 4.0,
    "misdeal": 1.4,
}
#: What the round's trail tells (host/tv/trail.py): its moves, a redeal's reason that opens
#: it, and its outcome, who is down to how many lives (round 42's play-test: once the reveal's
#: caption went, only a seat's dot told who had lost a life).
TRAIL_KINDS = frozenset(
    {"kept", "exchanged", "blocked", "cut_taken", "cut_king", "misdeal", "life_lost"}
)
DEAL_STAGGER = 0.22
FLIP_SECONDS = 0.4
DEAL_FLIGHT = 0.45
CELEBRATION_SECONDS = 8.0
#: The winners' board stays this long (the confetti for the first ``CELEBRATION_SECONDS``)
#: before tonight's standings take the screen: round 41's play-test found 8 s short to cheer
#: a guest who won, and the game's own finishing order gone with it.
WINNER_BOARD_SECONDS = 15.0
#: The reveal (issue 12): a pause with every card face down, the cards turned one after
#: another, then the lowest marked and held — about 4 s for 4 players, 5 s for 10.
#: A sudden death's banner gives the rule, then (from this second of its beat) the verdict:
#: round 42's play-test saw the cards dealt and nothing on the table saying who had won. Its
#: beat is 4.5 s: round 43's check heard the voice, still on the reveal's line, fall behind
#: a 2.8 s beat whose verdict came at 1.3 s. The voice says the verdict then too (round 47).
SUDDEN_DEATH_VERDICT_AT = 2.2
REVEAL_SUSPENSE = 0.6
REVEAL_HOLD = 1.3
#: Beats that may wait behind the one playing; past this the oldest are played at once.
MAX_WAITING = 40
#: A seat's move bubble ("Keeps") stays this long from its move's beat, the last
#: ``BUBBLE_FADE_SECONDS`` fading (round 46: it lived one 0.7 s beat, and from a sofa the
#: next seat's move had taken the eye before anyone read it). It outlives its beat, not the
#: game's pace: the next beats play meanwhile. That seat's next move, the reveal or a new deal
#: take it away sooner (``BUBBLE_ENDS``).
BUBBLE_SECONDS = 2.0
BUBBLE_FADE_SECONDS = 0.4
#: Events after which no bubble of the round's moves is left on the table.
BUBBLE_ENDS = frozenset({"round_dealt", "reveal", "misdeal", "game_started", "new_game"})


def reveal_stagger(count: int) -> float:
    """Seconds between two cards turning: the whole turning takes 0.9 s + 0.18 s a card."""
    return (0.9 + 0.18 * count) / max(1, count)


def reveal_flip_start(index: int, count: int) -> float:
    """When the ``index``-th card (in reveal order) starts turning, from the beat's start."""
    return REVEAL_SUSPENSE + index * reveal_stagger(count)


def reveal_marked_at(count: int) -> float:
    """When every card is up and the lowest is marked."""
    return reveal_flip_start(count, count) + FLIP_SECONDS


def reveal_turned(elapsed: float, count: int) -> int:
    """How many cards show their face ``elapsed`` seconds into the reveal (half-way a flip)."""
    return sum(1 for i in range(count) if elapsed >= reveal_flip_start(i, count) + FLIP_SECONDS / 2)


def bubble_alpha(age: float) -> int:
    """How opaque (0–255) a seat's bubble is ``age`` seconds after its move began: whole,
    then fading out over its last ``BUBBLE_FADE_SECONDS``; 0 once gone."""
    left = BUBBLE_SECONDS - age
    if left <= 0:
        return 0
    return round(255 * min(1.0, left / BUBBLE_FADE_SECONDS))


def beat_length(event: EventDict) -> float:
    """How long an event's animation lasts; 0 for events with nothing to animate."""
    if event["type"] == "round_dealt":
        return DEAL_STAGGER * len(event.get("order", [])) + DEAL_FLIGHT + 0.1
    if event["type"] == "reveal":
        return reveal_marked_at(len(event.get("cards", {}))) + REVEAL_HOLD
    return BEAT_SECONDS.get(event["type"], 0.0)


def public_view(view: View) -> View:
    """The view with anything personal removed (``me``, ``can``, private log entries)."""
    clean = view.copy()
    clean["me"] = None
    clean["can"] = []
    clean["log"] = public_events(view.get("log", []))
    return clean


def public_events(events: Iterable[EventDict]) -> list[EventDict]:
    """Only events everyone may see (RULES.md "Hidden information"); a stray ``audience``
    (an engine ``Event`` mistaken for its dict form) counts as private too."""
    return [e for e in events if e["type"] not in PRIVATE_KINDS and e.get("audience") is None]


@dataclass
class SeatShow:
    """One player as the TV shows them at this instant."""

    id: str
    name: str
    seat: int
    lives: int
    status: str
    bot: bool = False
    connected: bool = True
    card: str | None = None  # a face-up card (shown King, or after the reveal)
    dealt: bool = False  # holds a face-down card this round
    out_round: int | None = None  # the round of this game they were knocked out in (R12)
    colour: Colour = PLAYER_COLOURS[0]
    """Their own colour (the view's ``color``), kept when seats close up (round 40)."""


@dataclass(frozen=True)
class SeatBubble:
    """A move told on its seat's card ("Keeps"), shown from game time ``since``."""

    event: EventDict
    since: float


@dataclass
class Beat:
    """One event being animated: ``elapsed`` runs from 0 to ``length`` seconds."""

    event: EventDict
    length: float
    elapsed: float = 0.0
    seq: int = -1
    """Which public event this is, counted from the TV's first update (the pacer's count)."""
    batch: int = 0
    """Which update it came in: a backlog is counted in updates, not events."""
    told: bool = False
    """Its second moment is told (a sudden death's verdict, said once the TV shows it)."""

    @property
    def kind(self) -> str:
        return str(self.event["type"])

    @property
    def progress(self) -> float:
        return 1.0 if self.length <= 0 else min(1.0, self.elapsed / self.length)


@dataclass
class Stage:
    """The TV's model of the table, advanced by ``update(dt)``."""

    time: float = 0.0
    phase: str = "lobby"
    room: str = ""
    round: int = 0
    players: list[SeatShow] = field(default_factory=list)
    dealer: str | None = None
    current: str | None = None
    order: list[str] = field(default_factory=list)
    vip: str | None = None
    cut_king: str | None = None
    lowest: str | None = None
    losers: list[str] = field(default_factory=list)
    winners: list[str] = field(default_factory=list)
    house_rules: list[str] = field(default_factory=list)
    rapid_seconds: int = 10
    stock_count: int = 0
    discard_count: int = 0
    sudden_death: list[dict[str, str]] = field(default_factory=list)
    next_dealer: str | None = None
    max_lives: int = 0
    """Lives a player starts a game with (the view's ``max_lives``: 5 under H1)."""
    min_players: int = 0
    """Players needed to start (the view's ``min_players``)."""
    celebrating_since: float | None = None  # game time the winners' celebration began
    walkover: bool = False
    """The game ended because everyone else left (the view's and ``game_over``'s
    ``walkover``, round 46): the board says so, with no confetti."""
    trail: list[EventDict] = field(default_factory=list)
    """This round's moves as the TV played them (the story for someone back from the kitchen);
    a TV that starts mid-round takes the ones before it from the view's log (``sync``)."""
    departed: dict[str, str] = field(default_factory=dict)
    """The names of players who left, by id: the round's story and a redeal's banner still
    name them (round 40's play-test read "? kept (time out)" after a kick)."""
    turn_since: float | None = None  # game time the current turn began (H4's countdown)
    skip_ready: bool = False
    """S would skip the current player now (away, or deciding for over 10 s): the header's
    hint says "S: skip" instead of "H: host keys" (round 42's play-test: a guest dithered
    for 30 s and nothing on the TV told the host about S). Set by the app, from the session."""
    presume_connected: bool = False
    """A restarted host's first seconds: every phone is reconnecting, and the seats are not
    shown away meanwhile (``stop_presuming``; round 41's play-test saw every seat marked
    away, and a red countdown, before the phones were back 2.4 s later)."""
    bubbles: dict[str, SeatBubble] = field(default_factory=dict)
    """Each seat's move bubble, by player id, while it may still show (``shown_bubbles``)."""
    beat: Beat | None = None
    queue: deque[Beat] = field(default_factory=deque)
    latest: View | None = None
    changed: bool = True  # something new to draw since the last frame
    #: Told as each beat begins (the TV's sound cues start on that frame).
    on_begin: Callable[[Beat], None] | None = field(default=None, repr=False, compare=False)
    received: int = 0  # public events received so far
    batches: int = 0  # updates received so far
    on_shown: Callable[[Shown], None] | None = None
    """Told how far the TV has played (the session's pacer: phones follow the TV)."""
    on_cue: Callable[[EventDict, Moment], None] | None = None
    """Told when an event's moment comes on screen (the voice speaks it then): most events
    have one ("whole"); a sudden death two, its rule and then its verdict."""
    _reported: Shown = field(default_factory=Shown)
    _ends: deque[tuple[EventDict, View]] = field(default_factory=deque, repr=False)
    """Each queued update's last event and its view, oldest first: when that event's beat
    ends, the view is the table's truth (the first entry is the update playing now)."""

    # -- input -----------------------------------------------------------------------------
    def receive(self, view: View, events: Sequence[EventDict]) -> None:
        """Take one public update: queue its events, remember its view for later."""
        self.latest = public_view(view)
        self.batches += 1
        for event in public_events(events):
            self.queue.append(
                Beat(event, beat_length(event), seq=self.received, batch=self.batches)
            )
            self.received += 1
        if self.queue and self.queue[-1].batch == self.batches:
            self._ends.append((self.queue[-1].event, self.latest))
        self.changed = True
        self._catch_up()
        if self.beat is None:
            self._advance()

    def _report(self, shown: Shown) -> None:
        if shown != self._reported:
            self._reported = shown
            if self.on_shown is not None:
                self.on_shown(shown)

    def _cue(self, event: EventDict, moment: Moment = "whole") -> None:
        if self.on_cue is not None:
            self.on_cue(event, moment)

    def _progress(self) -> None:
        """The moments inside the beat playing: a reveal's cards, a sudden death's verdict."""
        self._reveal_progress()
        self._verdict_progress()

    def _verdict_progress(self) -> None:
        """A sudden death's verdict is told when its banner shows it, not as the duel's cards
        are dealt face down (round 47's play-test heard "Bo takes it!" before they turned)."""
        beat = self.beat
        if beat is None or beat.kind != "sudden_death" or beat.told:
            return
        if beat.elapsed >= min(SUDDEN_DEATH_VERDICT_AT, beat.length):
            beat.told = True
            self._cue(beat.event, "verdict")

    def _reveal_progress(self) -> None:
        """During a reveal: tell the pacer each card turned, then the lowest marked."""
        beat = self.beat
        if beat is None or beat.kind != "reveal":
            return
        count = len(beat.event["cards"]) if beat.event["type"] == "reveal" else 0
        marked = beat.elapsed >= reveal_marked_at(count)
        if marked and not self._reported.marked:
            self._cue(beat.event)
        self._report(Shown(beat.seq + 1, reveal_turned(beat.elapsed, count), marked))

    # -- time ------------------------------------------------------------------------------
    @property
    def animating(self) -> bool:
        return self.beat is not None or bool(self.queue)

    @property
    def celebrating(self) -> bool:
        """The confetti falls: the first seconds of a game won, not of a walkover (round 46:
        the last one at the table after the others went home had won nothing)."""
        since = self.celebrating_since
        return since is not None and not self.walkover and self.time - since < CELEBRATION_SECONDS

    def rapid_left(self) -> float | None:
        """H4: seconds the current player has left (as the TV saw the turn begin), else None."""
        if "H4" not in self.house_rules or self.phase != "turns" or self.turn_since is None:
            return None
        return max(0.0, self.rapid_seconds - (self.time - self.turn_since))

    @property
    def winner_board_up(self) -> bool:
        """The game's end is still the winners' moment (``WINNER_BOARD_SECONDS``)."""
        since = self.celebrating_since
        return since is not None and self.time - since < WINNER_BOARD_SECONDS

    @property
    def busy(self) -> bool:
        """Something plays that the next move waits for (a beat, the confetti): the loop runs
        at full frame rate. A seat's bubble is not one of them: it outlives its beat while the
        game goes on (``bubbles_fading``)."""
        return self.animating or self.celebrating

    @property
    def bubbles_fading(self) -> bool:
        """A seat's bubble is fading out: drawn at full frame rate. While whole it is still,
        and the TV may idle (a rehearsal's next move and the frame budget do not wait on it)."""
        return any(alpha < 255 for _, _, alpha in self.shown_bubbles())

    def shown_bubbles(self) -> list[tuple[str, SeatBubble, int]]:
        """The seats' bubbles showing now: (player id, bubble, opacity 0–255), in the
        order of their moves."""
        shown = ((pid, b, bubble_alpha(self.time - b.since)) for pid, b in self.bubbles.items())
        return [(pid, b, alpha) for pid, b, alpha in shown if alpha > 0]

    def update(self, dt: float) -> None:
        """Move time on; a backlog (fast bots) plays faster so the TV never lags far behind."""
        board_was_up = self.winner_board_up
        self.time += dt
        self._forget_faded_bubbles()
        if self.beat is None:
            left = self.rapid_left()
            ticking = left is not None and left > 0
            board_down = board_was_up and not self.winner_board_up  # the standings' turn
            self.changed = self.changed or self.celebrating or ticking or board_down
            return
        # Updates waiting behind this one (fast bots): the TV hurries so it never lags far
        # behind; the beats of one move (a reveal with its lost lives) keep their pace.
        backlog = len({b.batch for b in self.queue if b.batch != self.beat.batch})
        speed = 1.0 if backlog < 3 else 2.5 if backlog < 8 else 8.0
        self.beat.elapsed += dt * speed  # what this moves on screen: host/tv/motion.py
        self._progress()
        while self.beat is not None and self.beat.elapsed >= self.beat.length:
            self._finish(self.beat.event)
            self.beat = None
            self.changed = True
            self._advance()

    def fast_forward(self) -> None:
        """Play everything queued at once (screenshots, tests, a resumed party): the moves'
        bubbles have had their time too."""
        while self.beat is not None:
            self.beat.elapsed = self.beat.length
            self._progress()
            self.update(0.0)
        self.bubbles.clear()

    def _forget_faded_bubbles(self) -> None:
        """Bubbles whose time is over are dropped (the frame after, their place is restored)."""
        gone = [pid for pid, b in self.bubbles.items() if bubble_alpha(self.time - b.since) == 0]
        for pid in gone:
            del self.bubbles[pid]

    def _advance(self) -> None:
        while self.beat is None and self.queue:
            self._start(self.queue.popleft())
        if self.beat is None and self.latest is not None:
            self.sync(self.latest)

    def _start(self, beat: Beat) -> None:
        """A beat begins: the table copy, its cues, the pacer; a beat of no length ends too."""
        self._begin(beat.event)
        self.changed = True
        if self.on_begin is not None:
            self.on_begin(beat)
        if beat.kind == "sudden_death":
            self._cue(beat.event, "begin")
        elif beat.kind != "reveal":
            self._cue(beat.event)
        self._report(Shown(beat.seq + 1))
        if beat.length > 0:
            self.beat = beat
        else:
            if beat.kind == "sudden_death":  # no time to show it apart: told at once
                self._cue(beat.event, "verdict")
            self._finish(beat.event)

    def _catch_up(self) -> None:
        """Taps outpace even the hurried animations (bots with a tiny delay, a stress test):
        while more than ``MAX_WAITING`` beats wait, the one playing and then the oldest
        waiting are played out at once, so the queue stays bounded (issue 18 item 5)."""
        while len(self.queue) > MAX_WAITING:
            if self.beat is not None:
                self.beat.elapsed = self.beat.length
                self._progress()
                self._finish(self.beat.event)
                self.beat = None
            self._start(self.queue.popleft())

    # -- the table copy --------------------------------------------------------------------
    def seat_of(self, player: str | None) -> SeatShow | None:
        return next((p for p in self.players if p.id == player), None)

    def name_of(self, player: str | None) -> str:
        """The name of a seated player, or of one who left; "?" only for an unknown id."""
        seat = self.seat_of(player)
        if seat is not None:
            return seat.name
        return self.departed.get(player or "", "?")

    def person_vip(self) -> str | None:
        """The VIP when a person holds the role; None at a table of computer players, whose
        VIP starts nothing (only the TV's Space does, ``host/bot_runner.py``)."""
        seat = self.seat_of(self.vip)
        return seat.id if seat is not None and not seat.bot else None

    def cheer_again(self) -> None:
        """A host restarted at the game's end: the winners' board goes up as if the end had
        just played (its confetti, then the board for ``WINNER_BOARD_SECONDS``). Round 47:
        a host killed during the game's last reveal came back on tonight's standings, and
        no card, loser or winner of that reveal was shown while the voice told them."""
        if self.phase == "game_over":
            self.celebrating_since, self.changed = self.time, True

    def stop_presuming(self) -> None:
        """The phones have had their time to come back after a restart: show who is away."""
        self.presume_connected = False
        self.changed = True
        if self.beat is None and self.latest is not None:
            self.sync(self.latest)

    def sync(self, view: View) -> None:
        """Make the table copy equal to a public view."""
        if view.get("current") != self.current:
            self.turn_since = None  # a turn we did not see begin: no countdown of our own
        left = view.get("turn_seconds_left")
        if self.turn_since is None and left is not None and "H4" in view.get("house_rules", []):
            # The view says how long the open turn has left (a host back after a crash): H4's
            # countdown goes on from there instead of missing from the TV.
            self.turn_since = self.time - (int(view.get("rapid_seconds") or 10) - float(left))
        self.phase = view.get("phase", "lobby")
        self.room = view.get("room") or ""
        self.round = int(view.get("round", 0))
        self.dealer = view.get("dealer")
        self.current = view.get("current")
        self.order = list(view.get("order", []))
        self.vip = view.get("vip")
        self.next_dealer = view.get("next_dealer")
        self.cut_king = view.get("cut_king")
        self.losers = list(view.get("losers", []))
        self.winners = list(view.get("winners", []))
        self.walkover = bool(view.get("walkover", False))
        self.house_rules = list(view.get("house_rules", []))
        self.rapid_seconds = int(view.get("rapid_seconds") or 10)
        self.stock_count = int(view.get("stock_count", 0))
        self.discard_count = int(view.get("discard_count", 0))
        self.sudden_death = list(view.get("sudden_death", []))
        self.max_lives = int(view.get("max_lives", self.max_lives))
        self.min_players = int(view.get("min_players", self.min_players))
        self.lowest = view.get("lowest")
        in_round = self.phase in ("turns", "reveal", "game_over")
        self.players = [
            SeatShow(
                id=p["id"],
                name=shown_name(p["name"]),
                seat=int(p.get("seat", i)),
                lives=int(p["lives"]),
                status=p.get("status", "active"),
                bot=bool(p.get("bot", False)),
                connected=bool(p.get("connected", True)) or self.presume_connected,
                card=p.get("card"),
                dealt=in_round and (p["id"] in self.order or p.get("card") is not None),
                out_round=p.get("out_round"),
                colour=colour_hex(str(p.get("color", ""))) or player_colour(int(p.get("seat", i))),
            )
            for i, p in enumerate(view.get("players", []))
        ]
        for event in view.get("log", []):  # players who left this round, for its story
            if event["type"] in ("player_removed", "misdeal"):
                self._note_departed(event)
        if not self.trail:
            # The view retells the round so far: a TV that starts mid-round (the host came
            # back after a crash) tells the story of the moves it never played.
            self.trail = [e for e in view.get("log", []) if e["type"] in TRAIL_KINDS]
        self.changed = True

    def _note_departed(self, event: EventDict) -> None:
        """Remember the name of the player a ``player_removed`` or ``misdeal`` names."""
        if event["type"] in ("player_removed", "misdeal"):
            player, name = event.get("player"), event.get("name")
            if player and name:
                self.departed[player] = shown_name(name)

    def _bubble(self, event: EventDict) -> None:
        """A move's bubble goes up on its seat; any later event naming a seat (its next move,
        a swap with it, its turn again) takes that seat's bubble down, and the reveal or a
        new deal takes all of them (``BUBBLE_ENDS``)."""
        if event["type"] in BUBBLE_ENDS:
            self.bubbles.clear()
            return
        for key in ("player", "target", "dealer"):
            named = event.get(key)
            if isinstance(named, str):
                self.bubbles.pop(named, None)
        if event["type"] == "kept":  # the one move told on its seat's card
            self.bubbles[event["player"]] = SeatBubble(event, self.time)

    def _begin(self, event: EventDict) -> None:
        kind = event["type"]
        self._bubble(event)
        if kind == "misdeal":
            self.trail = [event]  # the redeal's story opens with why it was dealt again
            self._note_departed(event)
        elif kind == "round_dealt":
            self.trail = [e for e in self.trail[-1:] if e["type"] == "misdeal"]
        elif kind in TRAIL_KINDS:
            self.trail.append(event)
        elif kind in ("new_game", "game_started"):
            self.trail = []
        if kind in ("new_game", "game_started"):
            for seat in self.players:
                seat.out_round = None
        if event["type"] == "round_dealt":
            self.phase, self.round = "turns", int(event.get("round", self.round))
            self.dealer, self.order = event.get("dealer"), list(event.get("order", []))
            self.current = self.cut_king = self.lowest = None
            self.losers, self.winners, self.sudden_death = [], [], []
            self.walkover = False
            for seat in self.players:
                seat.card, seat.dealt = None, False
        elif event["type"] == "game_started":
            self.phase, self.dealer = "turns", event.get("dealer")
        elif event["type"] == "turn":
            self.current, self.turn_since = event.get("player"), self.time
        elif event["type"] == "eliminated":
            one = self.seat_of(event.get("player"))
            if one:
                one.status, one.out_round = "eliminated", self.round
        elif event["type"] == "game_over":
            self.phase, self.winners, self.current = (
                "game_over",
                list(event.get("winners", [])),
                None,
            )
            self.walkover = bool(event.get("walkover", False))
            self.celebrating_since = self.time
        elif event["type"] == "reveal":
            self.phase, self.current = "reveal", None
        elif event["type"] == "new_game":
            self.phase, self.celebrating_since, self.walkover = "lobby", None, False
        elif event["type"] == "player_joined" and self.seat_of(event.get("player")) is None:
            self.players.append(
                SeatShow(
                    id=event["player"],
                    name=shown_name(event.get("name")),
                    seat=len(self.players),
                    lives=self.max_lives,
                    status=event.get("status", "active"),
                    bot=bool(event.get("bot", False)),
                )
            )
        elif event["type"] == "player_removed":
            self._note_departed(event)
            self.players = [p for p in self.players if p.id != event.get("player")]

    def _finish(self, event: EventDict) -> None:
        after = self._ends[0][1] if self._ends else None  # the view of the update playing
        if event["type"] == "round_dealt":
            for seat in self.players:
                seat.dealt = seat.id in self.order
        elif event["type"] == "blocked":
            one = self.seat_of(event.get("target"))
            if one:
                one.card = event.get("king")
        elif event["type"] == "cut_king":
            self.cut_king = event.get("king")
        elif event["type"] == "exchanged":
            # A shown King stays shown on whoever holds it (R7): where it is now, the view says.
            for pid in (event.get("player"), event.get("target")):
                one = self.seat_of(pid)
                if one and after is not None:
                    one.card = _shown_card(after, pid)
        elif event["type"] == "cut_taken":
            dealer = self.seat_of(event.get("dealer"))
            if dealer:
                dealer.card = None  # the old card went face down to the discard (R9)
            if after is not None:
                self.discard_count = int(after.get("discard_count", self.discard_count))
        elif event["type"] == "reveal":
            cards = event.get("cards", {})
            for seat in self.players:
                if seat.id in cards:
                    seat.card = cards[seat.id]
            self.lowest = event.get("lowest")
            self.losers = list(event.get("losers", []))
        elif event["type"] == "life_lost":
            one = self.seat_of(event.get("player"))
            if one:
                one.lives = int(event.get("lives", one.lives))
        elif event["type"] == "sudden_death":
            self.sudden_death.append(dict(event.get("cards", {})))
        elif event["type"] == "misdeal":
            self.current = None
            for seat in self.players:
                seat.dealt, seat.card = False, None
        if after is not None and self._ends[0][0] is event:  # the update is played
            self._ends.popleft()
            if after is not self.latest:  # else the idle stage takes the latest view anyway
                self.sync(after)


def _shown_card(view: View, player: str) -> str | None:
    """The face-up card ``player`` holds in ``view`` (a shown King before the reveal)."""
    return next((p.get("card") for p in view.get("players", []) if p.get("id") == player), None)
