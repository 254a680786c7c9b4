"""The one contract between the engine and every front-end: the shapes of views and events.

Why here: the session, the TV, the voice, the bots and the phone API all read the same views
and events. Naming their shapes once (``TypedDict`` for the JSON-able dicts, str enums for the
words) lets ``mypy --strict`` check every reader against the engine, like python-chess's typed
``Move`` and ``Outcome``. The enums are ``str`` enums, so a view is still plain JSON and
``view["phase"] == "lobby"`` keeps working.

Stdlib only, like the rest of ``host/rules``.
"""

from __future__ import annotations

from enum import Enum
from typing import Literal, TypedDict


class Word(str, Enum):
    """A word of the API: compares, hashes, prints and serialises as its plain value."""

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)


class Phase(Word):
    """Where the table is (PHONE_API.md ``phase``)."""

    LOBBY = "lobby"
    TURNS = "turns"
    REVEAL = "reveal"
    GAME_OVER = "game_over"


class Status(Word):
    """A seat's standing (PHONE_API.md ``status``)."""

    ACTIVE = "active"
    ELIMINATED = "eliminated"
    WAITING = "waiting"
    """Joined during a game: plays from the next one."""


class Action(Word):
    """What a player may send (PHONE_API.md ``can``)."""

    START = "start"
    KEEP = "keep"
    EXCHANGE = "exchange"
    CUT = "cut"
    DEAL = "deal"
    NEW_GAME = "new_game"


class KeepReason(Word):
    """Why a player kept (a ``kept`` event's ``reason``): the screens say which, since a
    VIP's skip read as a time-out and an away player's keep as running out of time (round 40)."""

    CHOSEN = "chosen"
    """The player pressed Keep."""
    TIME = "time"
    """The turn's limit ran out while they were at the table (H4's, else ``--turn-timeout``)."""
    AWAY = "away"
    """Their phone was closed: the host kept for them (PHONE_API.md "Presence")."""
    SKIPPED = "skipped"
    """The VIP skipped their turn (the ``skip`` control)."""


class RedealReason(Word):
    """Why a round was dealt again (a ``misdeal`` event's ``reason``, R16)."""

    MISDEAL = "misdeal"
    """A misdeal was called (the VIP's control, the TV's R key)."""
    PLAYER_LEFT = "player_left"
    """A player dealt in was removed mid-round; the round is dealt among those left."""


class Call(Word):
    """What the host calls when a King blocks: ``cuckoo``, or ``chase`` under H8."""

    CUCKOO = "cuckoo"
    CHASE = "chase"


# ------------------------------------------------------------------ events (dict form)
# One TypedDict per ``EventKind``; ``type`` is the kind's value, so ``event["type"] == "kept"``
# narrows an ``EventDict`` to ``KeptEvent``.


class PlayerJoinedEvent(TypedDict):
    type: Literal["player_joined"]
    player: str
    name: str
    status: Status
    bot: bool


class PlayerRemovedEvent(TypedDict):
    """A kick."""

    type: Literal["player_removed"]
    player: str
    name: str


class GameStartedEvent(TypedDict):
    type: Literal["game_started"]
    dealer: str
    """Drawn by lot (R4)."""


class RoundDealtEvent(TypedDict):
    type: Literal["round_dealt"]
    round: int
    dealer: str
    order: list[str]
    """The round's turn order, the dealer last."""


class TurnEvent(TypedDict):
    type: Literal["turn"]
    player: str


class KeptEvent(TypedDict):
    type: Literal["kept"]
    player: str
    auto: bool
    """The host kept for them (``reason`` is not ``chosen``)."""
    timed_out: bool
    """H4: a life will be lost for it at the reveal (any keep the host made, a skip too)."""
    reason: KeepReason
    """Why they kept (a round saved before round 40 is read with one: ``event_from_dict``)."""


class ExchangedEvent(TypedDict):
    """A swap happened (no cards: those are in the traders' private ``swap``)."""

    type: Literal["exchanged"]
    player: str
    target: str


class BlockedEvent(TypedDict):
    type: Literal["blocked"]
    player: str
    target: str
    king: str
    """The King shown by ``target`` (R7)."""
    call: Call


class CutEvent(TypedDict):
    type: Literal["cut"]
    dealer: str
    attempt: int
    """1, or 2 under H3."""


class CutTakenEvent(TypedDict):
    type: Literal["cut_taken"]
    dealer: str


class CutKingEvent(TypedDict):
    """A King was cut: set aside face up, the dealer keeps their card (R9)."""

    type: Literal["cut_king"]
    dealer: str
    king: str
    call: Call


class RevealEvent(TypedDict):
    type: Literal["reveal"]
    cards: dict[str, str]
    """Every dealt player's final card."""
    lowest: str
    """The losing rank (R11)."""
    losers: list[str]


class LifeLostEvent(TypedDict):
    type: Literal["life_lost"]
    player: str
    lives: int
    """Lives left."""
    lost: int
    """Lives lost this round (round 42): 2 under H4 for a time-out with the lowest card."""
    timed_out: bool


class EliminatedEvent(TypedDict):
    type: Literal["eliminated"]
    player: str


class SuddenDeathEvent(TypedDict):
    """H5: one deal among the players eliminated together; ``winner`` None on a tie.

    ``deal`` counts the deals from 1, so that the first can say why there is a sudden death
    (round 43)."""

    type: Literal["sudden_death"]
    cards: dict[str, str]
    winner: str | None
    deal: int


class GameOverEvent(TypedDict):
    type: Literal["game_over"]
    winners: list[str]
    joint: bool
    walkover: bool
    """True when the game ended because every other player was removed or left (round 46):
    R14 still names the last one at the table the winner, but nobody won a game, so no
    screen, voice or standings treats it as a win (an event saved before it: false)."""


class MisdealEvent(TypedDict):
    """R16: the round is void and dealt again, by the same dealer unless that one left.

    It opens the new deal's ``log`` too, so a view retells why the round was dealt again
    (a round saved before round 40 is read with the fields after ``dealer``: ``event_from_dict``).
    """

    type: Literal["misdeal"]
    round: int
    dealer: str
    reason: RedealReason
    player: str | None
    """Who left (``player_left``), else None."""
    name: str | None
    """Their name, since they are no longer in the view's ``players``, else None."""
    deal: int
    """How many times this round has been dealt now: 2 after its first redeal, 3 after the
    next… (so a phone tells two redeals in a row apart)."""


class NewGameEvent(TypedDict):
    type: Literal["new_game"]


class CardDealtEvent(TypedDict):
    """Private to the holder."""

    type: Literal["card_dealt"]
    player: str
    card: str


class SwapEvent(TypedDict):
    """Private to both traders."""

    type: Literal["swap"]
    player: str
    target: str
    gave: str
    """The asker's old card."""
    got: str
    """The target's old card."""


class CutCardEvent(TypedDict):
    """Private to the dealer: the card taken and the one discarded (never shown to others)."""

    type: Literal["cut_card"]
    dealer: str
    card: str
    discarded: str


class RulesSetEvent(TypedDict):
    """The VIP chose the house rules of the next game (issue 13)."""

    type: Literal["rules_set"]
    rules: list[str]
    rapid_seconds: int | None
    added: list[str]
    """The rules switched on by this change (round 46: the TV's caption names them)."""
    removed: list[str]
    """The rules switched off by this change."""


class VipChangedEvent(TypedDict):
    type: Literal["vip_changed"]
    player: str


class GameEndedEvent(TypedDict):
    """The VIP ended the game early: back to the lobby (issue 13)."""

    type: Literal["game_ended"]
    round: int


class PlayerAwayEvent(TypedDict):
    """The current player is away: their turn is kept for them after ``seconds`` (issue 12),
    the sooner of the away wait and the turn's limit."""

    type: Literal["player_away"]
    player: str
    seconds: int
    timed_out: bool
    """H4: that keep is a time-out, with a life lost at the reveal (as in ``kept``)."""


PublicEvent = (
    PlayerJoinedEvent
    | PlayerRemovedEvent
    | GameStartedEvent
    | RoundDealtEvent
    | TurnEvent
    | KeptEvent
    | ExchangedEvent
    | BlockedEvent
    | CutEvent
    | CutTakenEvent
    | CutKingEvent
    | RevealEvent
    | LifeLostEvent
    | EliminatedEvent
    | SuddenDeathEvent
    | GameOverEvent
    | MisdealEvent
    | NewGameEvent
    | RulesSetEvent
    | VipChangedEvent
    | GameEndedEvent
    | PlayerAwayEvent
)
PrivateEvent = CardDealtEvent | SwapEvent | CutCardEvent
EventDict = PublicEvent | PrivateEvent
"""Any event in its dict form (``Event.to_dict``), as the views' ``log`` and streams carry."""


# ------------------------------------------------------------------------------ views


class StandingsRow(TypedDict):
    """One line of the evening's standings (``host.standings.Standings.table``), best first."""

    player: str
    name: str
    bot: bool
    games: int
    wins: int
    shared_wins: int
    """Of ``wins``, games won jointly with another player (R14)."""
    rounds: int
    survived: int
    lives_lost: int
    cuckoos: int
    king_cuts: int
    close_escapes: int
    guesses: int
    good_guesses: int
    rank: int
    """1 for the best line."""
    titles: list[str]
    """The fun titles this line holds (``host.standings.TITLES``)."""


class LastRoundLoser(TypedDict):
    """One player who lost lives at the last round's reveal."""

    player: str
    name: str
    """Their name at that reveal (they may have left the table since)."""
    lives: int
    """Lives left after it: 0 is out (R12)."""
    lost: int
    """Lives lost: 2 under H4 for a time-out with the lowest card."""


class LastRound(TypedDict):
    """The last round's reveal, retold during the next round (round 44's play-test: a
    computer dealer dealt again before a guest had read who lost a life)."""

    round: int
    lowest: str
    """The rank that lost (R11)."""
    losers: list[LastRoundLoser]
    """Who lost lives, in turn order (R11: ties all lose; H4's penalties too)."""


class LastWinner(TypedDict):
    """One winner of the last game played to its end, shown in the next game's lobby."""

    player: str
    name: str
    """Their name when they won (they may have left the table since)."""


class LastGame(TypedDict):
    """The last game over, told to the next game's phones (round 47): a phone away across its
    end learns what it missed. Public: ids, names and a flag, no card."""

    number: int
    """Game overs since the party began (0: none yet); a phone compares it with the last it knew."""
    winners: list[LastWinner]
    """That game's ``winners`` (R14), names as they were; a walkover's last one at the table."""
    walkover: bool
    """The game ended because everyone else left (round 46): nobody won it."""


class _SeatRequired(TypedDict):
    id: str
    name: str
    seat: int
    lives: int
    status: Status
    bot: bool
    card: str | None
    """A shown King, or from the reveal on the final card; else None."""
    out_round: int | None
    """R12: the round of this game the player was knocked out in; None while still in (and
    for a player knocked out before the host kept it). The final standings rank by it."""


class SeatView(_SeatRequired, total=False):
    """One entry of ``players``. The session adds ``connected`` and ``color``."""

    connected: bool
    color: str
    """``#rrggbb``: the TV's seat colour (``host/palette.py``)."""


class _MeRequired(TypedDict):
    id: str
    name: str
    lives: int
    status: Status
    is_vip: bool
    card: str | None
    history: list[EventDict]
    """This round's private events of the caller."""
    target: str | None
    """Whom an exchange would go to now (R7), while ``exchange`` is in ``can``."""


class MeView(_MeRequired, total=False):
    """The caller's own facts (``me``); None in the public view. The session adds ``prediction``."""

    prediction: str | None
    """The caller's guess of this round's loser (``host/standings.py``), if any."""


class _ViewRequired(TypedDict):
    room: str | None
    phase: Phase
    step: int
    round: int
    me: MeView | None
    can: list[str]
    """``Action`` values, and for the VIP the host controls (``host.rules.VIP_ACTIONS``)."""
    players: list[SeatView]
    dealer: str | None
    current: str | None
    cut_king: str | None
    losers: list[str]
    eliminated: list[str]
    winners: list[str]
    vip: str | None
    next_dealer: str | None
    order: list[str]
    shown: dict[str, str]
    log: list[EventDict]
    sudden_death: list[dict[str, str]]
    house_rules: list[str]
    rapid_seconds: int | None
    stock_count: int
    discard_count: int
    min_players: int
    max_players: int
    max_lives: int
    cuts_left: int
    lowest: str | None
    """The rank that lost at this round's reveal (R11), from the reveal on."""
    last_round: LastRound | None
    """The last round's outcome during the next round of the same game (round 44)."""
    walkover: bool
    """In ``game_over`` only: the game ended because everyone else left or was removed
    (round 46, the ``game_over`` event's ``walkover``); false in every other phase."""


class RapidSecondsRange(TypedDict):
    """H4's time limit the VIP may choose: ``min``..``max`` seconds, ``default`` when unset."""

    min: int
    max: int
    default: int


class View(_ViewRequired, total=False):
    """What one receiver may see (PHONE_API.md plus the added fields of docs/architecture.md).

    The engine gives every key of ``_ViewRequired``; the session adds the optional ones.
    """

    standings: list[StandingsRow]
    """The evening's standings, best first (``host.standings.Standings.table``)."""
    last_winners: list[LastWinner]
    """In the lobby, who won the last game (R14: joint winners all), for a guest whose phone
    slept through its end (round 42); empty in any other phase and once the next game starts."""
    last_game: LastGame | None
    """During a game (``turns``, ``reveal``), the last game over before it (round 47); null in
    the lobby and at game over, and while the TV has still to show that end."""
    bot_strategies: list[str]
    """For the VIP: the bot strategies on offer."""
    house_rule_ids: list[str]
    """For the VIP: the house rules that may be switched on (``RULE_FIELDS``'s ids, in order)."""
    rapid_seconds_range: RapidSecondsRange
    """For the VIP: H4's seconds per decision that ``set_rules`` accepts, and the default."""
    tv_language: str
    """For the VIP: the TV's language."""
    voice_muted: bool
    """For the VIP: whether the TV's voice is muted."""
    music_volume: int
    """Percent (issue 20): the music under the voice and the cues, set by the VIP or the TV."""
    tv: bool
    """A TV shows the table (round 45): its keyboard's Space starts a game, so a phone waiting
    on an asleep VIP may say so; false on a ``--headless`` host."""
    open_seats: list[str]
    """Away guests whose seat the VIP opened for a new phone (``new_phone``, round 45): the
    next phone to join under that name takes the seat, card and all."""
    turn_seconds_left: float | None
    """Seconds the current player has left, when the view was built, before the host keeps for
    them (H4's limit, else ``--turn-timeout``); None outside turns, with no limit, or while a
    TV has still to announce the turn (``host.session_controls.TurnTime``)."""
