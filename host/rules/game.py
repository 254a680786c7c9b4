"""The game state and the one path that changes it.

``Game`` follows OpenSpiel's small State API: ``legal_actions(player)`` says what a player may
do now, ``apply(player, action)`` validates first and changes nothing on refusal, and every
change returns typed events that say who may see them. Chance (shuffles, the first dealer, the
cut) comes only from the injected ``random.Random``, whose state is saved with the game so a
resumed game continues exactly as it would have.

The stock is kept as the set of undealt cards and a cut draws one of them uniformly at random:
the same odds as a shuffled face-down stock, and much cheaper than shuffling 52 cards a round.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from host.rules.cards import PACK, Card
from host.rules.errors import IllegalAction, Reason
from host.rules.events import Event, EventCache, EventKind, new_event, public
from host.rules.options import MIN_PLAYERS, HouseRules
from host.rules.player import ACTIVE, WAITING, Player
from host.rules.reveal import reveal_round

ACTIONS: tuple[str, ...] = ("start", "keep", "exchange", "cut", "deal", "new_game")
PHASES: tuple[str, ...] = ("lobby", "turns", "reveal", "game_over")


@dataclass
class Game:
    """One table: the lobby, then games of rounds until a winner, then the lobby again."""

    options: HouseRules = field(default_factory=HouseRules)
    rng: random.Random = field(default_factory=random.Random)
    players: list[Player] = field(default_factory=list)
    vip: str | None = None
    phase: str = "lobby"
    step: int = 0
    round: int = 0
    dealer: str | None = None
    next_dealer: str | None = None
    order: list[str] = field(default_factory=list)
    turn_index: int = 0
    cuts_made: int = 0
    stock: list[Card] = field(default_factory=list)
    discard: list[Card] = field(default_factory=list)
    set_aside: list[Card] = field(default_factory=list)
    shown: set[Card] = field(default_factory=set)
    kings_seen: set[Card] = field(default_factory=set)
    cut_king: Card | None = None
    penalties: dict[str, int] = field(default_factory=dict)
    losers: list[str] = field(default_factory=list)
    eliminated: list[str] = field(default_factory=list)
    winners: list[str] = field(default_factory=list)
    sudden_death: list[dict[str, str]] = field(default_factory=list)
    log: list[Event] = field(default_factory=list)
    """This round's public events, so a view can retell the round (no JOIN noise)."""
    history: dict[str, list[Event]] = field(default_factory=dict)
    """This round's private events per player (their dealt card, trades, cut)."""
    _by_id: dict[str, Player] = field(default_factory=dict, init=False, repr=False, compare=False)
    _seats: dict[str, int] = field(default_factory=dict, init=False, repr=False, compare=False)
    _solo: dict[str, frozenset[str]] = field(default_factory=dict, init=False, repr=False,
                                             compare=False)
    _interned: EventCache = field(default_factory=EventCache, init=False, repr=False,
                                  compare=False)

    def __post_init__(self) -> None:
        self._reindex()

    def _reindex(self) -> None:
        """Id and seat lookups are on the hot path; rebuilt whenever the seating changes."""
        self._by_id = {p.id: p for p in self.players}
        self._seats = {p.id: seat for seat, p in enumerate(self.players)}
        self._solo = {p.id: frozenset((p.id,)) for p in self.players}
        self._interned = EventCache()

    # ----------------------------------------------------------------- views

    def view(self, player_id: str | None) -> dict[str, Any]:
        """What ``player_id`` may see (``None``: the public table). See ``views.build_view``."""
        from host.rules.views import build_view

        return build_view(self, player_id)

    def to_dict(self) -> dict[str, Any]:
        from host.rules.serialize import game_to_dict

        return game_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        from host.rules.serialize import game_from_dict

        return game_from_dict(data)

    # ----------------------------------------------------------------- lookups

    def player(self, player_id: str) -> Player:
        try:
            return self._by_id[player_id]
        except (KeyError, TypeError):
            raise IllegalAction(Reason.UNKNOWN_PLAYER, f"no player {player_id!r} at this table") from None

    def has_player(self, player_id: str) -> bool:
        return player_id in self._by_id

    def seat_of(self, player_id: str) -> int:
        return self._seats[player_id]

    def active_ids(self) -> list[str]:
        return [p.id for p in self.players if p.status == ACTIVE]

    @property
    def current(self) -> str | None:
        """Whose turn it is in phase ``turns`` (R6), else None."""
        return self.order[self.turn_index] if self.phase == "turns" else None

    def left_of(self, player_id: str) -> str | None:
        """The nearest active player clockwise of ``player_id`` (R7, R13): seats rise clockwise."""
        seat = self.seat_of(player_id)
        count = len(self.players)
        for offset in range(1, count + 1):
            candidate = self.players[(seat + offset) % count]
            if candidate.status == ACTIVE and candidate.id != player_id:
                return candidate.id
        return None

    # ------------------------------------------------------------------ lobby

    def add_player(self, player_id: str, name: str, *, bot: bool = False) -> list[Event]:
        """Seat a player: active in the lobby, waiting during a game (they play the next one)."""
        if self.has_player(player_id):
            raise IllegalAction(Reason.NAME_TAKEN, f"player id {player_id!r} is taken")
        folded = name.casefold()
        if any(p.name.casefold() == folded for p in self.players):
            raise IllegalAction(Reason.NAME_TAKEN, f"the name {name!r} is taken")
        if len(self.players) >= self.options.max_players:
            raise IllegalAction(Reason.TABLE_FULL, "the table is full")
        status = ACTIVE if self.phase == "lobby" else WAITING
        self.players.append(Player(player_id, name, self.options.starting_lives, status, bot))
        self._reindex()
        if self.vip is None:
            self.vip = player_id
        return [public(EventKind.PLAYER_JOINED, player=player_id, name=name, status=status, bot=bot)]

    def remove_player(self, player_id: str, *,
                      away: frozenset[str] = frozenset()) -> list[Event]:
        """A kick. Mid-round the round is voided and redealt (R16) among those left.

        A leaving VIP hands the role to the next human clockwise not ``away`` (issue 13).
        """
        from host.rules.controls import next_vip, set_vip

        leaving = self.player(player_id)
        seat = self.seat_of(player_id)
        events = [public(EventKind.PLAYER_REMOVED, player=player_id, name=leaving.name)]
        was_dealt = player_id in self.order and self.phase == "turns"
        replacement_dealer = self.left_of(player_id) if player_id == self.dealer else self.dealer
        if self.phase == "reveal" and player_id == self.next_dealer:
            self.next_dealer = self.left_of(player_id)
        self.players.remove(leaving)
        self._reindex()
        if self.vip == player_id:
            self.vip = None
            if self.players:
                events += set_vip(self, next_vip(self, seat - 1, away))
        if self.phase in ("lobby", "game_over") or leaving.status == WAITING:
            return events
        if len(self.active_ids()) <= 1:
            return events + self._finish_game(self.active_ids(), joint=False)
        if was_dealt:
            self.dealer = replacement_dealer
            events += self._redeal()
        return events

    # -------------------------------------------------------------- legality

    def legal_actions(self, player_id: str) -> tuple[str, ...]:
        """Exactly the actions ``player_id`` may send now (the API's ``can``)."""
        if self.phase == "lobby":
            ok = player_id == self.vip and len(self.active_ids()) >= MIN_PLAYERS
            return ("start",) if ok else ()
        if self.phase == "turns":
            if player_id != self.order[self.turn_index]:
                return ()
            if player_id == self.dealer:
                return ("keep", "cut") if self.cuts_made < self.options.max_cuts else ("keep",)
            return ("keep", "exchange")
        if self.phase == "reveal":
            return ("deal",) if player_id == self.next_dealer else ()
        return ("new_game",) if player_id == self.vip else ()

    def _refusal(self, player_id: str, action: str) -> IllegalAction:
        if action in ("keep", "exchange", "cut") and self.phase == "turns":
            if player_id != self.current:
                return IllegalAction(Reason.NOT_YOUR_TURN, "it is not your turn")
            return IllegalAction(Reason.NOT_ALLOWED_NOW, f"{action} is not allowed on this turn")
        if action == "start" and self.phase == "lobby" and player_id == self.vip:
            return IllegalAction(Reason.NOT_ENOUGH_PLAYERS, "at least 3 players are needed")
        return IllegalAction(Reason.NOT_ALLOWED_NOW, f"{action} is not allowed now")

    # ----------------------------------------------------------------- apply

    def apply(self, player_id: str, action: str) -> list[Event]:
        """Validate, then play ``action`` for ``player_id``. Refusals raise and change nothing."""
        if self.phase == "turns" and player_id == self.order[self.turn_index]:
            # The hot path: the current player's move, the same rules as ``legal_actions``
            # (tests check both agree in every state); anything else falls through to it.
            if action == "keep":
                self.step += 1
                return self._keep(player_id, auto=False)
            if action == "exchange" and player_id != self.dealer:
                self.step += 1
                return self._exchange(player_id)
            if action == "cut" and player_id == self.dealer and self.cuts_made < self.options.max_cuts:
                self.step += 1
                return self._cut(player_id)
        if action not in ACTIONS:
            raise IllegalAction(Reason.UNKNOWN_ACTION, f"unknown action {action!r}")
        if not isinstance(player_id, str) or player_id not in self._by_id:
            self.player(player_id)  # raises the unknown-player refusal
        if action not in self.legal_actions(player_id):
            raise self._refusal(player_id, action)
        # Legal and not a turn move (those returned above): start, deal or new game.
        self.step += 1
        if action == "start":
            return self._start()
        if action == "deal":
            self.dealer = player_id
            return self._deal_round()
        return self._new_game()

    def timeout(self) -> list[Event]:
        """The current player ran out of time: they keep; under H4 they also lose a life later."""
        if self.phase != "turns":
            raise IllegalAction(Reason.NOT_ALLOWED_NOW, "nobody is deciding now")
        self.step += 1
        return self._keep(self.order[self.turn_index], auto=True)

    def misdeal(self) -> list[Event]:
        """R16: void the round before the reveal; the same dealer deals again, no lives change."""
        if self.phase != "turns":
            raise IllegalAction(Reason.NOT_ALLOWED_NOW, "a misdeal is only possible before the reveal")
        self.step += 1
        return self._redeal()

    def _redeal(self) -> list[Event]:
        """R16: the round is voided and the same round is dealt again by ``self.dealer``."""
        events = [public(EventKind.MISDEAL, round=self.round, dealer=self.dealer)]
        self.round -= 1
        return events + self._deal_round()

    # ---------------------------------------------------------------- rounds

    def _start(self) -> list[Event]:
        """R4: the first dealer is drawn by lot among the seated players, then round 1."""
        self.round = 0
        self.dealer = self.rng.choice(self.active_ids())
        return [public(EventKind.GAME_STARTED, dealer=self.dealer), *self._deal_round()]

    def _deal_round(self) -> list[Event]:
        """R5: shuffle all 52 cards, one card each from the dealer's left, the dealer last."""
        assert self.dealer is not None
        players = self.players
        seat = self._seats[self.dealer] + 1
        dealt_to = [p for p in players[seat:] + players[:seat] if p.status == ACTIVE]
        if len(dealt_to) < len(players):
            for p in players:
                p.card = None
        cache = self._interned
        events: list[Event] = []
        history: dict[str, list[Event]] = {}
        # A partial Fisher–Yates shuffle: each dealt card is drawn uniformly from the cards
        # not yet dealt, and what is left over is the stock (the cut draws from it at random).
        pool = list(PACK)
        rand = self.rng.random
        size = len(pool)
        for holder in dealt_to:
            pick = int(rand() * size)
            size -= 1
            holder.card = card = pool[pick]
            pool[pick] = pool[size]
            pid = holder.id
            own = cache.dealt.get((pid, card._code)) or cache.new_dealt(pid, card._code)
            events.append(own)
            history[pid] = [own]
        self.stock = pool[:size]
        self.discard, self.set_aside = [], []
        self.shown, self.kings_seen, self.cut_king = set(), set(), None
        self.cuts_made, self.turn_index = 0, 0
        self.penalties = {}
        self.losers, self.eliminated, self.winners, self.sudden_death = [], [], [], []
        self.next_dealer = None
        order = self.order = [p.id for p in dealt_to]
        self.round += 1
        self.phase = "turns"
        self.history = history
        dealt = new_event(Event, (EventKind.ROUND_DEALT, {
            "round": self.round, "dealer": self.dealer, "order": list(order)}, None))
        first = cache.turn.get(order[0]) or cache.new_turn(order[0])
        self.log = [dealt, first]
        return [dealt, *events, first]

    def _keep(self, player_id: str, *, auto: bool) -> list[Event]:
        if auto:
            timed_out = self.options.rapid
            if timed_out:
                self.penalties[player_id] = self.penalties.get(player_id, 0) + 1
            kept = public(EventKind.KEPT, player=player_id, auto=True, timed_out=timed_out)
        else:
            cache = self._interned
            kept = cache.kept.get(player_id) or cache.new_kept(player_id)
        self.log.append(kept)
        return self._next_turn([kept])

    def _exchange(self, player_id: str) -> list[Event]:
        """R7: swap with the nearest active neighbour on the left unless they show a King."""
        # The order is every active player clockwise from the dealer's left, so the nearest
        # active neighbour on the left is simply the next one in it (the dealer for the last).
        target_id = self.order[self.turn_index + 1]
        by_id = self._by_id
        asker, target = by_id[player_id], by_id[target_id]
        gave, got = asker.card, target.card
        assert gave is not None and got is not None
        if got.is_king and self.options.kings_block:
            self.shown.add(got)
            self.kings_seen.add(got)
            blocked = public(EventKind.BLOCKED, player=player_id, target=target_id,
                             king=got._code, call=self.options.call)
            self.log.append(blocked)
            return self._next_turn([blocked])
        asker.card, target.card = got, gave
        cache = self._interned
        exchanged, pair = (cache.exchanged.get((player_id, target_id))
                           or cache.new_exchanged(player_id, target_id))
        swap = new_event(Event, (EventKind.SWAP, {"player": player_id, "target": target_id,
                                                   "gave": gave._code, "got": got._code},
                                  pair))
        self.log.append(exchanged)
        history = self.history
        history[player_id].append(swap)
        history[target_id].append(swap)
        return self._next_turn([exchanged, swap])

    def _cut(self, dealer_id: str) -> list[Event]:
        """R9 (and H3): draw from the stock; a cut King is set aside and blocks the cut."""
        dealer = self._by_id[dealer_id]
        old = dealer.card
        assert old is not None
        options = self.options
        self.cuts_made += 1
        card = self.stock.pop(int(self.rng.random() * len(self.stock)))
        cut = new_event(Event, (EventKind.CUT, {"dealer": dealer_id, "attempt": self.cuts_made},
                                None))
        if card.is_king and options.kings_block:
            self.set_aside.append(card)
            self.kings_seen.add(card)
            self.cut_king = card
            blocked = new_event(Event, (EventKind.CUT_KING, {
                "dealer": dealer_id, "king": card._code, "call": options.call}, None))
            self.log += (cut, blocked)
            events = [cut, blocked]
        else:
            self.discard.append(old)
            self.shown.discard(old)
            dealer.card = card
            taken = new_event(Event, (EventKind.CUT_TAKEN, {"dealer": dealer_id}, None))
            secret = new_event(Event, (EventKind.CUT_CARD, {
                "dealer": dealer_id, "card": card._code, "discarded": old._code},
                self._solo[dealer_id]))
            self.log += (cut, taken)
            self.history[dealer_id].append(secret)
            events = [cut, taken, secret]
        if self.cuts_made < options.max_cuts:
            return events  # H3: the dealer may cut once more or keep.
        return self._next_turn(events)

    def _next_turn(self, events: list[Event]) -> list[Event]:
        """Hand the turn to the next player in the order, or reveal after the dealer (R6, R11)."""
        index = self.turn_index = self.turn_index + 1
        order = self.order
        if index < len(order):
            cache = self._interned
            turn = cache.turn.get(order[index]) or cache.new_turn(order[index])
            self.log.append(turn)
            events.append(turn)
            return events
        events += reveal_round(self)
        return events

    # ---------------------------------------------------------------- reveal

    def _finish_game(self, winners: list[str], *, joint: bool) -> list[Event]:
        """R14: the sole survivor wins; players eliminated together are joint winners."""
        self.phase = "game_over"
        self.winners = list(winners)
        self.next_dealer = None
        over = public(EventKind.GAME_OVER, winners=list(winners), joint=joint and len(winners) > 1)
        self.log.append(over)
        return [over]

    def reset_to_lobby(self) -> list[Event]:
        """Back to the lobby as after ``new_game`` (the VIP's ``end_game``); no step change."""
        return self._new_game()

    def _new_game(self) -> list[Event]:
        """Back to the lobby: everyone, waiting players too, is active with full lives."""
        self.phase = "lobby"
        self.round = 0
        self.dealer = self.next_dealer = None
        self.order, self.turn_index, self.cuts_made = [], 0, 0
        self.stock, self.discard, self.set_aside = [], [], []
        self.shown, self.kings_seen, self.cut_king = set(), set(), None
        self.penalties, self.history, self.log = {}, {}, []
        self.losers, self.eliminated, self.winners, self.sudden_death = [], [], [], []
        for p in self.players:
            p.status, p.lives, p.card = ACTIVE, self.options.starting_lives, None
        return [public(EventKind.NEW_GAME)]
