"""The reveal (R11–R15) and what follows it: lives lost, eliminations, the end or the next dealer.

Kept apart from ``game.py`` because it is the one place where a round's outcome is decided:
every card turned up together, the lowest rank (ties included) losing a life, H4's pending
penalties applied with them, H5's sudden death instead of joint winners, and R13's next dealer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from host.rules.cards import KING_VALUE, PACK, RANKS, Card
from host.rules.events import Event, EventKind, new_event, public
from host.rules.player import ACTIVE, ELIMINATED, Player

if TYPE_CHECKING:
    from host.rules.game import Game

#: H5 sudden death re-deals on a tie for highest; this bounds the loop (a tie 100 times in a
#: row is astronomically unlikely) after which the lot decides among the tied players.
MAX_SUDDEN_DEATH_DEALS = 100


def reveal_round(game: Game) -> list[Event]:
    """R11–R15: all cards shown together; lowest rank loses a life; eliminations; the end."""
    game.phase = "reveal"
    by_id = game._by_id
    order = game.order
    cards: dict[str, str] = {}
    lowest = KING_VALUE + 1
    losers: list[Player] = []
    for pid in order:  # one pass: every card up, and who holds the lowest rank (R11)
        p = by_id[pid]
        card: Card = p.card  # type: ignore[assignment]  # every dealt player holds one
        cards[pid] = card._code
        if card.rank_value <= lowest:
            if card.rank_value < lowest:
                lowest, losers = card.rank_value, []
            losers.append(p)
    losses = {p.id: 1 for p in losers}  # lives each loser loses
    penalties = game.penalties
    if penalties:  # H4: pending time-out penalties are lost with the lowest card's life
        for pid, penalty in penalties.items():
            losses[pid] = losses.get(pid, 0) + penalty
        losers = [by_id[pid] for pid in order if pid in losses]
    doomed = [p for p in losers if p.lives <= losses[p.id]]
    events = [new_event(Event, (EventKind.REVEAL, {
        "cards": cards, "lowest": RANKS[lowest - 1], "losers": [p.id for p in losers]}, None))]
    spared = None
    if len(doomed) == len(order) >= 2 and game.options.sudden_death:
        spared, duel = sudden_death(game, [p.id for p in doomed])
        events += duel
    for p in losers:
        new_lives = max(p.lives - losses[p.id], 1 if p.id == spared else 0)
        if new_lives < p.lives:
            game.losers.append(p.id)
            events.append(new_event(Event, (EventKind.LIFE_LOST, {
                "player": p.id, "lives": new_lives, "timed_out": p.id in penalties}, None)))
        p.lives = new_lives
    for p in losers:
        if p.lives == 0:
            p.status = ELIMINATED
            game.eliminated.append(p.id)
            events.append(public(EventKind.ELIMINATED, player=p.id))
    game.log.extend(events)
    if game.eliminated:  # Every active player was dealt in (joiners wait): all are in order.
        remaining = [pid for pid in order if by_id[pid].status == ACTIVE]
        if len(remaining) == 1:
            return events + game._finish_game(remaining, joint=False)
        if not remaining:
            return events + game._finish_game([p.id for p in doomed], joint=True)
    game.next_dealer = choose_next_dealer(game)
    return events

def choose_next_dealer(game: Game) -> str | None:
    """R13: the next active player left of the dealer; H6 keeps an active dealer."""
    assert game.dealer is not None
    by_id = game._by_id
    if game.options.fixed_dealer and by_id[game.dealer].status == ACTIVE:
        return game.dealer
    # The round's order runs clockwise from the dealer's left and holds every active
    # player, so its first survivor other than the dealer is the dealer's left neighbour.
    for pid in game.order:
        if pid != game.dealer and by_id[pid].status == ACTIVE:
            return pid
    return None

def sudden_death(game: Game, contenders: list[str]) -> tuple[str, list[Event]]:
    """H5: one-card deals among the players eliminated together; highest wins, ties redeal."""
    events: list[Event] = []
    for _ in range(MAX_SUDDEN_DEATH_DEALS):
        cards = dict(zip(contenders, game.rng.sample(PACK, len(contenders))))
        best = max(card.rank_value for card in cards.values())
        top = [pid for pid, card in cards.items() if card.rank_value == best]
        deal = {pid: str(card) for pid, card in cards.items()}
        game.sudden_death.append(deal)
        winner = top[0] if len(top) == 1 else None
        events.append(public(EventKind.SUDDEN_DEATH, cards=deal, winner=winner))
        if winner is not None:
            return winner, events
        contenders = top
    winner = game.rng.choice(contenders)
    events.append(public(EventKind.SUDDEN_DEATH, cards={}, winner=winner))
    return winner, events
