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
from collections.abc import Callable

from host.rules.cards import Card
from host.rules.contract import Action, MeView, View

Strategy = Callable[[View, random.Random], Action]
SEED_THRESHOLD = 7


class UnknownStrategy(ValueError):
    """A strategy name that is not in ``STRATEGIES``."""


def _always(view: View) -> Action | None:
    """Moves that need no thinking: the lobby, the next deal, a new game."""
    can = view["can"]
    if not can:
        raise ValueError("this bot has nothing to do now")
    for obvious in (Action.START, Action.DEAL, Action.NEW_GAME):
        if obvious in can:
            return obvious
    if can == [Action.KEEP]:
        return Action.KEEP
    return None


def _is_dealer_turn(view: View) -> bool:
    return Action.CUT in view["can"]


def _me(view: View) -> MeView:
    """The bot's own facts; a decision is only ever asked with a player's view."""
    me = view["me"]
    if me is None:
        raise ValueError("a bot decides from a player's view, not the public one")
    return me


def _my_card(view: View) -> Card:
    code = _me(view)["card"]
    if code is None:
        raise ValueError("this bot holds no card")
    return Card.parse(code)


def simple(view: View, rng: random.Random) -> Action:
    """The seed's advice (see module docstring)."""
    obvious = _always(view)
    if obvious:
        return obvious
    card = _my_card(view)
    if card.is_king:
        return Action.KEEP
    if _is_dealer_turn(view):
        return Action.CUT if card.rank_value <= SEED_THRESHOLD else Action.KEEP
    return Action.EXCHANGE if card.rank_value < SEED_THRESHOLD else Action.KEEP


def random_move(view: View, rng: random.Random) -> Action:
    """Any legal move."""
    return Action(rng.choice(list(view["can"])))


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
    me = _me(view)
    known = {str(_my_card(view)), *view["shown"].values()}
    if view["cut_king"]:
        known.add(view["cut_king"])
    my_old: str | None = None
    for event in me["history"]:
        if event["type"] == "card_dealt":
            known.add(event["card"])
        elif event["type"] == "swap":
            known |= {event["gave"], event["got"]}
            if event["target"] == me["id"]:
                my_old = event["got"]
        elif event["type"] == "cut_card":
            known |= {event["card"], event["discarded"]}
    counts = [0.0] + [4.0] * KING
    for code in known:
        counts[Card.parse(code).rank_value] -= 1
    high, low = range(SEED_THRESHOLD, KING + 1), range(1, SEED_THRESHOLD)
    dealt_any = range(1, KING) if kings_block else range(1, KING + 1)
    kinds: dict[str, Survival | range] = {}
    handed: set[str] = set()
    for event in view["log"]:
        if event["type"] == "kept" and event["player"] != me["id"]:
            who = event["player"]
            if who not in kinds:
                kinds[who] = (
                    range(1, KING + 1) if event["auto"] else (low if who in handed else high)
                )
        elif event["type"] == "exchanged" and event["player"] != me["id"]:
            handed.add(event["target"])
            kinds[event["player"]] = (
                _exact(Card.parse(my_old).rank_value)
                if (event["target"] == me["id"] and my_old)
                else dealt_any
            )
        elif event["type"] == "blocked" and event["player"] != me["id"]:
            kinds[event["player"]] = low
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
    dealer_none = (
        sum(p[max(m, cut_max + 1) :])
        + king * sum(p[m : cut_max + 1])
        + sum(p[1 : cut_max + 1]) * through
    )
    values = [(dealer_none, king + through * (king + through), through * through)]
    keep_ok = sum(p[max(m, low) :])
    pass_ok = sum(p[m:low])
    pass_bad = sum(p[1:low]) - pass_ok
    for _ in range(seats):
        none, ok, bad = values[-1]
        values.append(
            (
                keep_ok * none + pass_ok * ok + pass_bad * bad,
                king * none + through * ok,
                through * bad,
            )
        )
    return values


def smart(view: View, rng: random.Random) -> Action:
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
    me = _me(view)
    kings_block = "H2" not in view["house_rules"]
    if _my_card(view).is_king:
        return Action.KEEP
    dealer = _is_dealer_turn(view)
    if not dealer:
        target = me["target"]
        if target is not None and target in view["shown"] and kings_block:
            return Action.KEEP  # asking a shown King is a wasted turn (R7)
    stay, move = lose_chances(view)
    if move < stay - 1e-9:
        return Action.CUT if dealer else Action.EXCHANGE
    return Action.KEEP


def lose_chances(view: View) -> tuple[float, float]:
    """(P(lose) if I keep, P(lose) if I exchange or cut), from my view at my turn."""
    me = _me(view)
    r = _my_card(view).rank_value
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
                for y in RANK_VALUES
                if y < KING or not king
            )
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


STRATEGIES: dict[str, Strategy] = {"simple": simple, "smart": smart, "random": random_move}


def choose_action(strategy: str, view: View, rng: random.Random | None = None) -> Action:
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
