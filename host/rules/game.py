"""The game state and the one path that changes it.

``Game`` follows OpenSpiel's small State API: ``legal_actions(player)`` says what a player may
do now, ``apply(player, action)`` validates first and changes nothing on refusal, and every
change returns typed events that say who may see them. Chance (shuffles, the first dealer, the
cut) comes only from the injected ``random.Random``, whose state is saved with the game so a
resumed game continues exactly as it would have.

The deal draws each card uniformly at random from the cards not dealt yet, and the stock is
what is left; a cut draws one of its cards uniformly at random. These are exactly the odds of
a shuffled pack dealt from the top and cut face down.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from host.rules.cards import PACK, Card
from host.rules.contract import (
    Action,
    KeepReason,
    LastRound,
    Phase,
    RedealReason,
    Status,
    View,
)
from host.rules.errors import IllegalAction, Reason
from host.rules.events import Event, EventKind, private, public
from host.rules.options import MIN_PLAYERS, HouseRules
from host.rules.player import Player
from host.rules.reveal import reveal_round, round_outcome

ACTIONS: tuple[Action, ...] = tuple(Action)
PHASES: tuple[Phase, ...] = tuple(Phase)


@dataclass
class Game:
    """One table: the lobby, then games of rounds until a winner, then the lobby again."""

    options: HouseRules = field(default_factory=HouseRules)
    rng: random.Random = field(default_factory=random.Random)
    players: list[Player] = field(default_factory=list)
    vip: str | None = None
    phase: Phase = Phase.LOBBY
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
    walkover: bool = False
    """The game ended because every other player left or was removed (``remove_player``):
    the last one at the table is R14's winner, yet nobody won a game (round 46)."""
    sudden_death: list[dict[str, str]] = field(default_factory=list)
    last_round: LastRound | None = None
    """The last round's outcome (``reveal.round_outcome``) while the next round is played."""
    log: list[Event] = field(default_factory=list)
    """This round's public events, so a view can retell the round (no JOIN noise)."""
    history: dict[str, list[Event]] = field(default_factory=dict)
    """This round's private events per player (their dealt card, trades, cut)."""

    def __post_init__(self) -> None:
        self.phase = Phase(self.phase)
        for p in self.players:
            p.status = Status(p.status)

    # ----------------------------------------------------------------- views

    def view(self, player_id: str | None) -> View:
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
        """The seat of ``player_id``; refuses an unknown id with ``Reason.UNKNOWN_PLAYER``."""
        for p in self.players:
            if p.id == player_id:
                return p
        raise IllegalAction(Reason.UNKNOWN_PLAYER, f"no player {player_id!r} at this table")

    def has_player(self, player_id: str) -> bool:
        return any(p.id == player_id for p in self.players)

    def seat_of(self, player_id: str) -> int:
        return self.players.index(self.player(player_id))

    def active_ids(self) -> list[str]:
        return [p.id for p in self.players if p.status == Status.ACTIVE]

    @property
    def current(self) -> str | None:
        """Whose turn it is in phase ``turns`` (R6), else None."""
        return self.order[self.turn_index] if self.phase == Phase.TURNS else None

    def left_of(self, player_id: str) -> str | None:
        """The nearest active player clockwise of ``player_id`` (R7, R13): seats rise clockwise."""
        seat = self.seat_of(player_id)
        count = len(self.players)
        for offset in range(1, count + 1):
            candidate = self.players[(seat + offset) % count]
            if candidate.status == Status.ACTIVE and candidate.id != player_id:
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
        status = Status.ACTIVE if self.phase == Phase.LOBBY else Status.WAITING
        self.players.append(Player(player_id, name, self.options.starting_lives, status, bot))
        events = [
            public(EventKind.PLAYER_JOINED, player=player_id, name=name, status=status, bot=bot)
        ]
        if self.vip is None:
            self.vip = player_id
        elif not bot and self.player(self.vip).bot:
            # A computer player holds the role only while no person sits at the table
            # (``controls.next_vip``), and it has no controls: the first person to sit down
            # again takes the role, to choose the rules and start the next game.
            from host.rules.controls import set_vip

            events += set_vip(self, player_id)
        return events

    def remove_player(self, player_id: str, *, away: frozenset[str] = frozenset()) -> list[Event]:
        """A kick. Mid-round the round is voided and redealt (R16) among those left.

        A leaving VIP hands the role to the next human clockwise not ``away`` (issue 13).
        """
        from host.rules.controls import next_vip, set_vip

        leaving = self.player(player_id)
        seat = self.seat_of(player_id)
        removed = public(EventKind.PLAYER_REMOVED, player=player_id, name=leaving.name)
        events = [removed]
        if self.phase != Phase.LOBBY:
            # The round's story keeps their name: its moves still say what they did (round
            # 40: "? kept" once they had gone). A redeal starts a new log, its misdeal names them.
            self.log.append(removed)
        was_dealt = player_id in self.order and self.phase == Phase.TURNS
        replacement_dealer = self.left_of(player_id) if player_id == self.dealer else self.dealer
        if self.phase == Phase.REVEAL and player_id == self.next_dealer:
            self.next_dealer = self.left_of(player_id)
        self.players.remove(leaving)
        if self.vip == player_id:
            self.vip = None
            if self.players:
                events += set_vip(self, next_vip(self, seat - 1, away))
        if self.phase in (Phase.LOBBY, Phase.GAME_OVER) or leaving.status == Status.WAITING:
            return events
        if len(self.active_ids()) <= 1:
            # R14 still makes the one left the winner, but the others went home: the end
            # says so, and nothing treats it as a game won (round 46).
            return events + self.finish_game(self.active_ids(), joint=False, walkover=True)
        if was_dealt:
            self.dealer = replacement_dealer
            events += self._redeal(RedealReason.PLAYER_LEFT, leaving)
        return events

    # -------------------------------------------------------------- legality

    def legal_actions(self, player_id: str) -> tuple[Action, ...]:
        """Exactly the actions ``player_id`` may send now (the API's ``can``)."""
        if self.phase == Phase.LOBBY:
            ok = player_id == self.vip and len(self.active_ids()) >= MIN_PLAYERS
            return (Action.START,) if ok else ()
        if self.phase == Phase.TURNS:
            if player_id != self.current:
                return ()
            if player_id != self.dealer:
                return (Action.KEEP, Action.EXCHANGE)
            if self.cuts_made < self.options.max_cuts:
                return (Action.KEEP, Action.CUT)
            return (Action.KEEP,)
        if self.phase == Phase.REVEAL:
            return (Action.DEAL,) if player_id == self.next_dealer else ()
        return (Action.NEW_GAME,) if player_id == self.vip else ()

    def _refusal(self, player_id: str, action: Action) -> IllegalAction:
        """Why ``action`` is not in ``legal_actions(player_id)``: one reason per guard."""
        if action in (Action.KEEP, Action.EXCHANGE, Action.CUT) and self.phase == Phase.TURNS:
            if player_id != self.current:
                return IllegalAction(Reason.NOT_YOUR_TURN, "it is not your turn")
            return IllegalAction(Reason.NOT_ALLOWED_NOW, f"{action} is not allowed on this turn")
        if action == Action.START and self.phase == Phase.LOBBY and player_id == self.vip:
            return IllegalAction(Reason.NOT_ENOUGH_PLAYERS, "at least 3 players are needed")
        return IllegalAction(Reason.NOT_ALLOWED_NOW, f"{action} is not allowed now")

    # ----------------------------------------------------------------- apply

    def apply(self, player_id: str, action: str) -> list[Event]:
        """Validate, then play ``action`` for ``player_id``. Refusals raise and change nothing.

        The guards, in order: a known action, a known player, an action legal now.
        """
        try:
            move = Action(action)
        except (ValueError, TypeError):
            raise IllegalAction(Reason.UNKNOWN_ACTION, f"unknown action {action!r}") from None
        if not isinstance(player_id, str):
            raise IllegalAction(Reason.UNKNOWN_PLAYER, f"no player {player_id!r} at this table")
        self.player(player_id)
        if move not in self.legal_actions(player_id):
            raise self._refusal(player_id, move)
        self.step += 1
        if move == Action.START:
            return self._start()
        if move == Action.KEEP:
            return self._keep(player_id, KeepReason.CHOSEN)
        if move == Action.EXCHANGE:
            return self._exchange(player_id)
        if move == Action.CUT:
            return self._cut(player_id)
        if move == Action.DEAL:
            self.dealer = player_id
            self.last_round = round_outcome(self)
            return self._deal_round()
        return self._new_game()

    def timeout(self, reason: KeepReason = KeepReason.TIME) -> list[Event]:
        """The host keeps for the current player (out of time, away, or skipped by the VIP);
        under H4 each of these is a time-out that costs a life at the reveal."""
        current = self.current
        if current is None:
            raise IllegalAction(Reason.NOT_ALLOWED_NOW, "nobody is deciding now")
        if reason == KeepReason.CHOSEN:
            raise IllegalAction(Reason.NOT_ALLOWED_NOW, "a chosen keep is the player's action")
        self.step += 1
        return self._keep(current, KeepReason(reason))

    def misdeal(self) -> list[Event]:
        """R16: void the round before the reveal; the same dealer deals again, no lives change."""
        if self.phase != Phase.TURNS:
            raise IllegalAction(
                Reason.NOT_ALLOWED_NOW, "a misdeal is only possible before the reveal"
            )
        self.step += 1
        return self._redeal(RedealReason.MISDEAL, None)

    def _redeal(self, reason: RedealReason, leaving: Player | None) -> list[Event]:
        """R16: the round is voided and the same round is dealt again by ``self.dealer``.

        The new deal's log opens with the ``misdeal`` event: a phone or a TV that joins the
        round later still reads why it was dealt again, and who left.
        """
        before = self.log[0] if self.log else None
        deal = 2
        if before is not None and before.kind == EventKind.MISDEAL:
            told = before.data.get("deal")
            deal = (told if isinstance(told, int) else 1) + 1
        misdeal = public(
            EventKind.MISDEAL,
            round=self.round,
            dealer=self.dealer,
            reason=reason,
            player=None if leaving is None else leaving.id,
            name=None if leaving is None else leaving.name,
            deal=deal,
        )
        self.round -= 1
        events = self._deal_round()
        self.log.insert(0, misdeal)
        return [misdeal, *events]

    # ---------------------------------------------------------------- rounds

    def _start(self) -> list[Event]:
        """R4: the first dealer is drawn by lot among the seated players, then round 1."""
        self.round = 0
        self.last_round = None
        self.dealer = self.rng.choice(self.active_ids())
        return [public(EventKind.GAME_STARTED, dealer=self.dealer), *self._deal_round()]

    def _deal_round(self) -> list[Event]:
        """R5: shuffle all 52 cards, one card each from the dealer's left, the dealer last."""
        assert self.dealer is not None
        seat = self.seat_of(self.dealer) + 1
        clockwise = self.players[seat:] + self.players[:seat]
        dealt_to = [p for p in clockwise if p.status == Status.ACTIVE]
        for p in self.players:
            p.card = None
        undealt = list(PACK)
        self.history = {}
        dealt: list[Event] = []
        for holder in dealt_to:
            holder.card = card = self._draw(undealt)
            own = private(EventKind.CARD_DEALT, (holder.id,), player=holder.id, card=str(card))
            dealt.append(own)
            self.history[holder.id] = [own]
        self.stock = undealt
        self.discard, self.set_aside = [], []
        self.shown, self.kings_seen, self.cut_king = set(), set(), None
        self.cuts_made, self.turn_index = 0, 0
        self.penalties = {}
        self.losers, self.eliminated, self.winners, self.sudden_death = [], [], [], []
        self.walkover = False
        self.next_dealer = None
        self.order = [p.id for p in dealt_to]
        self.round += 1
        self.phase = Phase.TURNS
        round_dealt = public(
            EventKind.ROUND_DEALT, round=self.round, dealer=self.dealer, order=list(self.order)
        )
        first = public(EventKind.TURN, player=self.order[0])
        self.log = [round_dealt, first]
        return [round_dealt, *dealt, first]

    def _draw(self, cards: list[Card]) -> Card:
        """Take one card uniformly at random out of ``cards`` (the order of the rest changes).

        Dealing this way from the undealt cards gives the same odds as dealing from the top of
        a shuffled pack, and what is left is the stock, which a cut also draws from at random.
        """
        pick = int(self.rng.random() * len(cards))
        cards[pick], cards[-1] = cards[-1], cards[pick]
        return cards.pop()

    def _keep(self, player_id: str, reason: KeepReason) -> list[Event]:
        """R6: the player keeps their card; a keep the host made costs a life at the reveal
        under H4 (the rule's "runs out of time": a skip or an away player's keep too)."""
        auto = reason != KeepReason.CHOSEN
        timed_out = auto and self.options.rapid
        if timed_out:
            self.penalties[player_id] = self.penalties.get(player_id, 0) + 1
        kept = public(
            EventKind.KEPT, player=player_id, auto=auto, timed_out=timed_out, reason=reason
        )
        self.log.append(kept)
        return self._next_turn([kept])

    def _exchange(self, player_id: str) -> list[Event]:
        """R7: swap with the nearest active neighbour on the left unless they show a King."""
        # The order is every active player clockwise from the dealer's left, so the nearest
        # active neighbour on the left is simply the next one in it (the dealer for the last).
        target_id = self.order[self.turn_index + 1]
        asker, target = self.player(player_id), self.player(target_id)
        gave, got = asker.card, target.card
        assert gave is not None and got is not None
        if got.is_king and self.options.kings_block:
            self.shown.add(got)
            self.kings_seen.add(got)
            blocked = public(
                EventKind.BLOCKED,
                player=player_id,
                target=target_id,
                king=str(got),
                call=self.options.call,
            )
            self.log.append(blocked)
            return self._next_turn([blocked])
        asker.card, target.card = got, gave
        exchanged = public(EventKind.EXCHANGED, player=player_id, target=target_id)
        swap = private(
            EventKind.SWAP,
            (player_id, target_id),
            player=player_id,
            target=target_id,
            gave=str(gave),
            got=str(got),
        )
        self.log.append(exchanged)
        self.history[player_id].append(swap)
        self.history[target_id].append(swap)
        return self._next_turn([exchanged, swap])

    def _cut(self, dealer_id: str) -> list[Event]:
        """R9 (and H3): draw from the stock; a cut King is set aside and blocks the cut."""
        dealer = self.player(dealer_id)
        old = dealer.card
        assert old is not None
        self.cuts_made += 1
        # A face-down stock cut anywhere: one of its cards, uniformly at random.
        card = self.stock.pop(int(self.rng.random() * len(self.stock)))
        cut = public(EventKind.CUT, dealer=dealer_id, attempt=self.cuts_made)
        events: list[Event]
        if card.is_king and self.options.kings_block:
            self.set_aside.append(card)
            self.kings_seen.add(card)
            self.cut_king = card
            blocked = public(
                EventKind.CUT_KING, dealer=dealer_id, king=str(card), call=self.options.call
            )
            self.log += (cut, blocked)
            events = [cut, blocked]
        else:
            self.discard.append(old)
            self.shown.discard(old)
            dealer.card = card
            taken = public(EventKind.CUT_TAKEN, dealer=dealer_id)
            secret = private(
                EventKind.CUT_CARD,
                (dealer_id,),
                dealer=dealer_id,
                card=str(card),
                discarded=str(old),
            )
            self.log += (cut, taken)
            self.history[dealer_id].append(secret)
            events = [cut, taken, secret]
        if self.cuts_made < self.options.max_cuts:
            return events  # H3: the dealer may cut once more or keep.
        return self._next_turn(events)

    def _next_turn(self, events: list[Event]) -> list[Event]:
        """Hand the turn to the next player in the order, or reveal after the dealer (R6, R11)."""
        self.turn_index += 1
        if self.turn_index < len(self.order):
            turn = public(EventKind.TURN, player=self.order[self.turn_index])
            self.log.append(turn)
            return [*events, turn]
        return [*events, *reveal_round(self)]

    # ---------------------------------------------------------------- reveal

    def finish_game(
        self, winners: list[str], *, joint: bool, walkover: bool = False
    ) -> list[Event]:
        """R14: the sole survivor wins; players eliminated together are joint winners.

        ``walkover``: the game ends because everyone else left, not at a reveal; the event
        says so, so that the screens, the voice and the standings do not cheer a win.
        """
        self.phase = Phase.GAME_OVER
        self.winners = list(winners)
        self.walkover = walkover
        self.next_dealer = None
        over = public(
            EventKind.GAME_OVER,
            winners=list(winners),
            joint=joint and len(winners) > 1,
            walkover=walkover,
        )
        self.log.append(over)
        return [over]

    def reset_to_lobby(self) -> list[Event]:
        """Back to the lobby as after ``new_game`` (the VIP's ``end_game``); no step change."""
        return self._new_game()

    def _new_game(self) -> list[Event]:
        """Back to the lobby: everyone, waiting players too, is active with full lives."""
        self.phase = Phase.LOBBY
        self.round = 0
        self.dealer = self.next_dealer = None
        self.order, self.turn_index, self.cuts_made = [], 0, 0
        self.stock, self.discard, self.set_aside = [], [], []
        self.shown, self.kings_seen, self.cut_king = set(), set(), None
        self.penalties, self.history, self.log = {}, {}, []
        self.losers, self.eliminated, self.winners, self.sudden_death = [], [], [], []
        self.walkover = False
        self.last_round = None
        for p in self.players:
            p.status, p.lives, p.card = Status.ACTIVE, self.options.starting_lives, None
            p.out_round = None
        return [public(EventKind.NEW_GAME)]
