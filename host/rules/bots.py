"""Computer players. A bot decides from its own player view only — never the full state.

Strategies:

- ``simple`` — the seed's advice: exchange below 7, keep 7 and up; the dealer cuts with 7 or
  lower; never hand over a King.
- ``smart`` — picks the move with the lower chance of holding the lowest card at the reveal,
  computed from what its player legitimately knows: its card and trades, shown and cut
  Kings, the seats still to play, and the public log (who kept, who exchanged, who was
  blocked) read as ``simple`` players would have played it. A neighbour showing a King is
  never asked; a King is kept; when it knows a lower card is at the table it keeps.
- ``random`` — any legal move; for tests and benchmarks.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from host.rules.cards import Card

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


#: Rank values: 1 for an Ace … 13 for a King (``Card.rank_value``).
KING = 13
RANK_VALUES = range(1, KING + 1)
Survival = list[float]
"""``s[m]`` = P(a card is at least rank ``m``), for m = 0 … 14 (``s[14]`` is always 0)."""


def _survival(counts: list[float], allowed: range | set[int]) -> Survival:
    """P(card >= m) for a card drawn from ``counts`` restricted to the ``allowed`` ranks."""
    total = sum(counts[v] for v in allowed)
    surv = [0.0] * (KING + 2)
    acc = 0.0
    for v in range(KING, 0, -1):
        if v in allowed:
            acc += counts[v]
        surv[v] = acc / total if total > 0 else 1.0
    surv[0] = surv[1]
    return surv


def _exact(value: int) -> Survival:
    """A card this player knows exactly (one it traded away, a shown King)."""
    return [1.0 if m <= value else 0.0 for m in range(KING + 2)]


def _read_table(view: View, kings_block: bool) -> tuple[list[float], list[Survival]]:
    """What this player knows about the round, from its own view only.

    Returns the unknown cards per rank (``counts[v]``, fractional: the expected share taken by
    seats that already played is removed, so the stock and later seats are drawn from what is
    left) and, for every seat whose card is final already (it played before me), the
    distribution of that final card. Opponents are modelled as ``simple``: a seat that kept
    holds 7 or more; a blocked asker is stuck with its low card; a successful asker holds its
    neighbour's untouched dealt card (never a King when Kings block: it would have blocked);
    a seat that kept a card it was handed holds a low card; a time-out says nothing.
    """
    me = view["me"]
    known = {me["card"], *view["shown"].values()}
    if view.get("cut_king"):
        known.add(view["cut_king"])
    my_old: str | None = None
    for event in me.get("history", []):
        known |= {event[k] for k in ("card", "gave", "got", "discarded") if k in event}
        if event["type"] == "swap" and event["target"] == me["id"]:
            my_old = event["got"]
    counts = [0.0] + [4.0] * KING
    for code in known:
        counts[Card.parse(code).rank_value] -= 1
    high, low = range(SEED_THRESHOLD, KING + 1), range(1, SEED_THRESHOLD)
    dealt_any = range(1, KING) if kings_block else range(1, KING + 1)
    kinds: dict[str, Survival | range] = {}
    handed: set[str] = set()
    for event in view["log"]:
        who = event.get("player")
        if who == me["id"]:
            continue
        if event["type"] == "kept":
            if who not in kinds:
                kinds[who] = range(1, KING + 1) if event.get("auto") else (
                    low if who in handed else high)
        elif event["type"] == "exchanged":
            handed.add(event["target"])
            kinds[who] = _exact(Card.parse(my_old).rank_value) if (
                event["target"] == me["id"] and my_old) else dealt_any
        elif event["type"] == "blocked":
            kinds[who] = low
            kinds[event["target"]] = _exact(KING)
    base = list(counts)
    seats: list[Survival] = []
    for kind in kinds.values():
        if isinstance(kind, range):
            total = sum(base[v] for v in kind)
            for v in kind:
                counts[v] -= base[v] / total if total > 0 else 0.0
            seats.append(_survival(base, kind))
        else:
            seats.append(kind)
    return [max(c, 0.0) for c in counts], seats


def _future(m: int, seats: int, p: list[float], king: float) -> list[tuple[float, float, float]]:
    """P(every seat still to play ends with rank >= ``m``) when they all play ``simple``.

    Why a chain: a simple seat passes any card below 7 to its left, where it meets a simple seat
    again, so a low card runs all the way to the dealer, who cuts it away; each seat it passes
    ends with its left neighbour's dealt card. The state is whether a card is being passed in
    (and whether it is >= m); a King on the way blocks it where it stands (``king`` is the
    chance a dealt or cut card blocks, 0 under H2). Returns, for 0 … ``seats`` non-dealer seats
    before the dealer, the triple (nothing passed in, a card >= m passed in, a card < m).
    """
    ge = sum(p[m:])
    through = ge - king  # the card is >= m and does not block
    low, cut_max = SEED_THRESHOLD, SEED_THRESHOLD  # simple passes below 7, the dealer cuts <= 7
    dealer_none = sum(p[max(m, cut_max + 1):]) + king * sum(p[m:cut_max + 1]) + sum(
        p[1:cut_max + 1]) * through
    values = [(dealer_none, king + through * (king + through), through * through)]
    keep_ok = sum(p[max(m, low):])
    pass_ok = sum(p[m:low])
    pass_bad = sum(p[1:low]) - pass_ok
    for _ in range(seats):
        none, ok, bad = values[-1]
        values.append((keep_ok * none + pass_ok * ok + pass_bad * bad,
                       king * none + through * ok, through * bad))
    return values


def smart(view: View, rng: random.Random) -> str:
    """Pick the move with the lower chance of holding the lowest card at the reveal (R11).

    It uses only its own view: its card and trades, shown and cut Kings, and the public log
    read as ``simple`` players would have played it (see ``_read_table``). Why that wins:
    exchanges only move cards around the table, so a card handed over stays there or runs to
    the dealer who cuts it away, and a low card known to sit at an earlier seat makes keeping
    safe. Both chances are computed in closed form (no sampling), so a decision takes well
    under a millisecond. Lives do not change the choice: whatever the lives, losing this round
    costs exactly one, so the smaller chance of losing is always the better move; a tie keeps.
    """
    obvious = _always(view)
    if obvious:
        return obvious
    me = view["me"]
    kings_block = "H2" not in view["house_rules"]
    if Card.parse(me["card"]).is_king:
        return "keep"
    dealer = _is_dealer_turn(view)
    if not dealer:
        target = _left_neighbour(view, me["id"])
        if target is not None and target in view["shown"] and kings_block:
            return "keep"  # asking a shown King is a wasted turn (R7)
    stay, move = lose_chances(view)
    if move < stay - 1e-9:
        return "cut" if dealer else "exchange"
    return "keep"


def lose_chances(view: View) -> tuple[float, float]:
    """(P(lose) if I keep, P(lose) if I exchange or cut), from my view at my turn."""
    me = view["me"]
    r = Card.parse(me["card"]).rank_value
    kings_block = "H2" not in view["house_rules"]
    dealer = _is_dealer_turn(view)
    counts, seats = _read_table(view, kings_block)
    total = sum(counts[1:]) or 1.0
    p = [c / total for c in counts]
    king = p[KING] if kings_block else 0.0

    def fixed(m: int) -> float:
        """P(every seat that already played holds rank >= m)."""
        prob = 1.0
        for surv in seats:
            prob *= surv[m]
        return prob

    order = list(view["order"])
    later = len(order) - 1 - order.index(me["id"])  # seats after me, the dealer included
    if dealer or later == 0:
        stay = fixed(r)
        drawn = sum(p[y] * fixed(y) for y in RANK_VALUES if y < KING or not king)
        cuts = sum(1 for event in view["log"] if event["type"] == "cut")
        if "H3" in view["house_rules"] and cuts == 0:  # H3: a second cut may mend a bad first
            cut = king * min(stay, king * stay + drawn) + sum(
                p[y] * min(fixed(y), king * fixed(y) + drawn)
                for y in RANK_VALUES if y < KING or not king)
        else:
            cut = king * stay + drawn
        return _clamp(stay), _clamp(cut)
    stay = fixed(r) * _future(r, later - 1, p, king)[-1][0]
    blocked = fixed(r) * (_future(r, later - 2, p, king)[-1][0] if later >= 2 else 1.0)
    move = king * blocked  # my neighbour shows a King: I keep my card
    for x in RANK_VALUES:
        if p[x] <= 0 or (x == KING and king):
            continue
        if later == 1:  # my neighbour is the dealer: my card is cut away unless it is high
            through = sum(p[x:]) - king
            rest = king * (r >= x) + through if r <= SEED_THRESHOLD else float(r >= x)
        elif r < SEED_THRESHOLD:  # my card is passed on towards the dealer
            _, ok, bad = _future(x, later - 2, p, king)[-1]
            rest = ok if r >= x else bad
        else:  # my neighbour keeps my card
            rest = float(r >= x) * _future(x, later - 2, p, king)[-1][0]
        move += p[x] * fixed(x) * rest
    return _clamp(stay), _clamp(move)


def _clamp(chance: float) -> float:
    """Sums of products may stray past 0 or 1 by a rounding error."""
    return min(max(chance, 0.0), 1.0)


def _left_neighbour(view: View, player_id: str) -> str | None:
    """The seat an exchange would ask (R7), from the public seating."""
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
