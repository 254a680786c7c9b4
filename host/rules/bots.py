"""Computer players. A bot decides from its own player view only — never the full state.

Strategies:

- ``simple`` — the seed's advice: exchange below 7, keep 7 and up; the dealer cuts with 7 or
  lower; never hand over a King.
- ``smart`` — counts what it legitimately knows (its card, the cards it traded, shown and cut
  Kings, how many players are dealt in) and picks the move that minimises its chance of
  holding the lowest card at the reveal. A neighbour showing a King is never asked; when it
  knows a lower card is already out at the table it keeps.
- ``random`` — any legal move; for tests and benchmarks.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from math import comb
from typing import Any

from host.rules.cards import PACK, Card

View = Mapping[str, Any]
Strategy = Callable[[View, random.Random], str]
SEED_THRESHOLD = 7


class UnknownStrategy(ValueError):
    """A strategy name that is not in ``STRATEGIES``."""


def _always(view: View) -> str | None:
    """Moves that need no thinking: the lobby, the next deal, a new game."""
    can = view["can"]
    if not can:
        raise ValueError("this bot has nothing to do now")
    for obvious in ("start", "deal", "new_game"):
        if obvious in can:
            return obvious
    if can == ["keep"]:
        return "keep"
    return None


def _is_dealer_turn(view: View) -> bool:
    return "cut" in view["can"]


def simple(view: View, rng: random.Random) -> str:
    """The seed's advice (see module docstring)."""
    obvious = _always(view)
    if obvious:
        return obvious
    card = Card.parse(view["me"]["card"])
    if card.is_king:
        return "keep"
    if _is_dealer_turn(view):
        return "cut" if card.rank_value <= SEED_THRESHOLD else "keep"
    return "exchange" if card.rank_value < SEED_THRESHOLD else "keep"


def random_move(view: View, rng: random.Random) -> str:
    """Any legal move."""
    return str(rng.choice(list(view["can"])))


def _lose_chance(value: int, unknown: list[int], others: int) -> float:
    """P(no other dealt card is strictly lower than ``value``): ties lose too (R11)."""
    if others <= 0:
        return 1.0
    others = max(0, min(others, len(unknown)))
    if others == 0:
        return 1.0
    not_lower = sum(1 for v in unknown if v >= value)
    return comb(not_lower, others) / comb(len(unknown), others)


def _knowledge(view: View) -> tuple[set[str], list[str]]:
    """Cards out of the unknown pool, and cards known to sit in another player's hand."""
    me = view["me"]
    known = {me["card"]}
    elsewhere: list[str] = []
    known |= {code for code in view["shown"].values()}
    if view.get("cut_king"):
        known.add(view["cut_king"])
    for event in me.get("history", []):
        if event["type"] == "swap":
            mine_was = event["gave"] if event["player"] == me["id"] else event["got"]
            known.add(mine_was)
            elsewhere.append(mine_was)
        elif event["type"] == "cut_card":
            known.add(event["discarded"])
        elif event["type"] == "card_dealt":
            known.add(event["card"])
    holders = {code for code in view["shown"].values()}
    return known, [c for c in elsewhere if c != me["card"] and c not in holders]


def smart(view: View, rng: random.Random) -> str:
    """Minimise the chance of holding the lowest card, using only what this player knows.

    Exchanges only move cards between players, so the card I hand over stays at the table:
    after trading ``r`` for a higher card I cannot be lowest (barring the dealer's cut). Each
    option's chance of losing is counted exactly over the cards I cannot see.
    """
    obvious = _always(view)
    if obvious:
        return obvious
    me = view["me"]
    card = Card.parse(me["card"])
    kings_block = "H2" not in view["house_rules"]
    if card.is_king:
        return "keep"
    known, elsewhere_codes = _knowledge(view)
    elsewhere = [Card.parse(code).rank_value for code in elsewhere_codes]
    unknown = [c.rank_value for c in PACK if str(c) not in known]
    others = max(len(view["order"]) - 1, 1)
    r = card.rank_value

    def lose_with(value: int, table: list[int], hidden: int, pool: list[int]) -> float:
        if any(v < value for v in table):
            return 0.0
        return _lose_chance(value, pool, hidden)

    stay = lose_with(r, elsewhere, others - len(elsewhere), unknown)
    dealer = _is_dealer_turn(view)
    if not dealer:
        target = _left_neighbour(view, me["id"])
        if target is not None and target in view["shown"] and kings_block:
            return "keep"  # asking a shown King is a wasted turn
    outcomes = []
    for index, value in enumerate(unknown):
        if value == 13 and kings_block:
            outcomes.append(stay)  # a King blocks: we keep our card
            continue
        pool = unknown[:index] + unknown[index + 1:]
        if dealer:  # my old card goes to the discard
            outcomes.append(lose_with(value, elsewhere, others - len(elsewhere), pool))
        else:  # my old card goes to my neighbour and stays at the table
            table = elsewhere + [r]
            outcomes.append(lose_with(value, table, others - len(table), pool))
    move = sum(outcomes) / len(outcomes) if outcomes else stay
    last_life = me["lives"] <= 1
    if move < stay - 1e-9 or (last_life and abs(move - stay) <= 1e-9 and stay > 0):
        return "cut" if dealer else "exchange"
    return "keep"


def _left_neighbour(view: View, player_id: str) -> str | None:
    order = [p for p in view["players"] if p["status"] == "active"]
    ids = [p["id"] for p in order]
    if player_id not in ids or len(ids) < 2:
        return None
    return str(ids[(ids.index(player_id) + 1) % len(ids)])


STRATEGIES: dict[str, Strategy] = {"simple": simple, "smart": smart, "random": random_move}


def choose_action(strategy: str, view: View, rng: random.Random | None = None) -> str:
    """The move ``strategy`` makes from this player view (one of ``view["can"]``)."""
    try:
        decide = STRATEGIES[strategy]
    except KeyError:
        raise UnknownStrategy(
            f"unknown strategy {strategy!r}; known: {', '.join(STRATEGIES)}"
        ) from None
    action = decide(view, rng or random.Random())
    assert action in view["can"], (action, view["can"])
    return action
