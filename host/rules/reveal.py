"""The reveal (R11–R15) and what follows it: lives lost, eliminations, the end or the next dealer.

Kept apart from ``game.py`` because it is the one place where a round's outcome is decided:
every card turned up together, the lowest rank (ties included) losing a life, H4's pending
penalties applied with them, H5's sudden death instead of joint winners, and R13's next dealer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from host.rules.cards import PACK, RANKS, Card
from host.rules.contract import LastRound, LastRoundLoser, Phase, Status
from host.rules.events import Event, EventKind, public
from host.rules.player import Player

if TYPE_CHECKING:
    from host.rules.game import Game

#: H5 sudden death re-deals on a tie for highest; this bounds the loop (a tie 100 times in a
#: row is astronomically unlikely) after which the lot decides among the tied players.
MAX_SUDDEN_DEATH_DEALS = 100


def reveal_round(game: Game) -> list[Event]:
    """R11–R15: all cards shown together; lowest rank loses a life; eliminations; the end."""
    game.phase = Phase.REVEAL
    dealt = [game.player(pid) for pid in game.order]
    cards = {p.id: _card_of(p) for p in dealt}
    lowest = min(card.rank_value for card in cards.values())
    losses = {p.id: 1 for p in dealt if cards[p.id].rank_value == lowest}  # lives each loses
    for pid, penalty in game.penalties.items():  # H4: time-outs cost a life at the reveal
        losses[pid] = losses.get(pid, 0) + penalty
    losers = [p for p in dealt if p.id in losses]
    doomed = [p for p in losers if p.lives <= losses[p.id]]
    events = [
        public(
            EventKind.REVEAL,
            cards={pid: str(card) for pid, card in cards.items()},
            lowest=RANKS[lowest - 1],
            losers=[p.id for p in losers],
        )
    ]
    spared = None
    if len(doomed) == len(dealt) >= 2 and game.options.sudden_death:
        spared, duel = sudden_death(game, [p.id for p in doomed])
        events += duel
    for p in losers:
        new_lives = max(p.lives - losses[p.id], 1 if p.id == spared else 0)
        if new_lives < p.lives:
            game.losers.append(p.id)
            events.append(
                public(
                    EventKind.LIFE_LOST,
                    player=p.id,
                    lives=new_lives,
                    lost=p.lives - new_lives,
                    timed_out=p.id in game.penalties,
                )
            )
        p.lives = new_lives
    for p in losers:
        if p.lives == 0:
            p.status, p.out_round = Status.ELIMINATED, game.round
            game.eliminated.append(p.id)
            events.append(public(EventKind.ELIMINATED, player=p.id))
    game.log.extend(events)
    if game.eliminated:  # Every active player was dealt in (joiners wait): all are in order.
        remaining = [p.id for p in dealt if p.status == Status.ACTIVE]
        if len(remaining) == 1:
            return events + game.finish_game(remaining, joint=False)
        if not remaining:
            return events + game.finish_game([p.id for p in doomed], joint=True)
    game.next_dealer = choose_next_dealer(game)
    return events


def round_outcome(game: Game) -> LastRound | None:
    """This round's reveal as the next round retells it (``last_round``): the lowest rank and
    who lost lives, from the public log only. None before a reveal."""
    names = {p.id: p.name for p in game.players}
    lowest: str | None = None
    losers: list[LastRoundLoser] = []
    for event in game.log:
        data = event.data
        if event.kind is EventKind.PLAYER_REMOVED:  # left after the reveal: still named
            names.setdefault(str(data["player"]), str(data["name"]))
        elif event.kind is EventKind.REVEAL:
            lowest = str(data["lowest"])
    for event in game.log:
        if event.kind is EventKind.LIFE_LOST:
            pid = str(event.data["player"])
            lives, lost = event.data["lives"], event.data["lost"]
            assert isinstance(lives, int) and isinstance(lost, int)
            losers.append(
                {"player": pid, "name": names.get(pid, "?"), "lives": lives, "lost": lost}
            )
    if lowest is None:
        return None
    return {"round": game.round, "lowest": lowest, "losers": losers}


def _card_of(player: Player) -> Card:
    """A dealt player's card: every player in the round's order holds one until it ends."""
    assert player.card is not None, f"{player.id} was dealt in but holds no card"
    return player.card


def choose_next_dealer(game: Game) -> str | None:
    """R13: the next active player left of the dealer; H6 keeps an active dealer."""
    assert game.dealer is not None
    if game.options.fixed_dealer and game.player(game.dealer).status == Status.ACTIVE:
        return game.dealer
    # The round's order runs clockwise from the dealer's left and holds every active
    # player, so its first survivor other than the dealer is the dealer's left neighbour.
    for pid in game.order:
        if pid != game.dealer and game.player(pid).status == Status.ACTIVE:
            return pid
    return None


def sudden_death(game: Game, contenders: list[str]) -> tuple[str, list[Event]]:
    """H5: one-card deals among the players eliminated together; highest wins, ties redeal."""
    events: list[Event] = []
    for deal_number in range(1, MAX_SUDDEN_DEATH_DEALS + 1):
        cards = dict(zip(contenders, game.rng.sample(PACK, len(contenders))))
        best = max(card.rank_value for card in cards.values())
        top = [pid for pid, card in cards.items() if card.rank_value == best]
        deal = {pid: str(card) for pid, card in cards.items()}
        game.sudden_death.append(deal)
        winner = top[0] if len(top) == 1 else None
        events.append(public(EventKind.SUDDEN_DEATH, cards=deal, winner=winner, deal=deal_number))
        if winner is not None:
            return winner, events
        contenders = top
    winner = game.rng.choice(contenders)
    events.append(
        public(EventKind.SUDDEN_DEATH, cards={}, winner=winner, deal=MAX_SUDDEN_DEATH_DEALS + 1)
    )
    return winner, events
