"""Per-recipient views: the ONLY place where secrets are filtered (RULES.md, Hidden information).

Like boardgame.io's ``playerView``, a view is computed from the state for one receiver and holds
only what that receiver may see: their own card, Kings shown to block (R7) or cut (R9), their own
trades and cut, and — from the reveal on — every dealt player's final card. The dealer's
discarded card is never in anybody's view but the dealer's own history. ``may_see`` states the
same rule independently so tests can check every view, response and stream against it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, cast

from host.rules.cards import Card
from host.rules.contract import Action, MeView, Phase, SeatView, View
from host.rules.events import EventKind
from host.rules.options import MIN_PLAYERS

if TYPE_CHECKING:
    from host.rules.game import Game


def cards_revealed(game: Game) -> bool:
    """Whether this round's dealt cards are face up (R10): at the reveal, and at a game's end
    that came from one. A walkover mid-round (everyone else left) ends with no reveal, so the
    last one's card stays theirs alone (round 46)."""
    if game.phase == Phase.REVEAL:
        return True
    return game.phase == Phase.GAME_OVER and any(e.kind is EventKind.REVEAL for e in game.log)


def _public_card(game: Game, player_id: str, card: Card | None, revealed: bool) -> str | None:
    """A card everyone may see on a seat: a shown King, or any dealt card once ``revealed``
    (``cards_revealed``, asked once per view: it reads the round's log)."""
    if card is None:
        return None
    if player_id in game.order and revealed:
        return str(card)
    if game.phase == Phase.TURNS and card in game.shown:
        return str(card)
    return None


def build_view(game: Game, player_id: str | None) -> View:
    """The PHONE_API.md view for ``player_id`` (``None``: the public table view)."""
    base = public_view(game)
    return base if player_id is None else player_view(game, base, player_id)


def build_views(game: Game, player_ids: Iterable[str | None]) -> dict[str | None, View]:
    """The views of several receivers at once, the public part built only once (issue 18.1).

    Each equals ``build_view(game, pid)``; they share the public part's lists and dicts, so
    a receiver must treat its view as read-only (copy before changing, as ``pacing`` does).
    """
    base = public_view(game)
    return {pid: base if pid is None else player_view(game, base, pid) for pid in player_ids}


def player_view(game: Game, base: View, player_id: str) -> View:
    """``player_id``'s view: the public ``base`` (``public_view`` of the same state) with their
    own ``me`` and ``can``. Only the top level is new: the rest is shared with ``base``.

    Why this is enough: nothing in the public part depends on who looks; the only private
    facts (own card, own trades and cut, own moves) live in ``me`` and ``can``.
    """
    p = game.player(player_id)
    dealt_in = game.phase != Phase.LOBBY and player_id in game.order
    me: MeView = {
        "id": p.id,
        "name": p.name,
        "lives": p.lives,
        "status": p.status,
        "is_vip": p.id == game.vip,
        "card": str(p.card) if dealt_in and p.card is not None else None,
        "history": [event.to_dict() for event in game.history.get(player_id, [])],
        "target": _exchange_target(game, player_id),
    }
    view = cast(View, dict(base))  # same keys in the same order: "me" and "can" replaced
    view["me"] = me
    view["can"] = list(game.legal_actions(player_id))
    return view


def public_view(game: Game) -> View:
    """The public table view (``me`` None, ``can`` empty): what anyone may see."""
    revealed = cards_revealed(game)
    players: list[SeatView] = [
        {
            "id": p.id,
            "name": p.name,
            "seat": seat,
            "lives": p.lives,
            "status": p.status,
            "bot": p.bot,
            "card": _public_card(game, p.id, p.card, revealed),
            "out_round": p.out_round,
        }
        for seat, p in enumerate(game.players)
    ]
    return {
        "room": None,
        "phase": game.phase,
        "step": game.step,
        "round": game.round,
        "me": None,
        "can": [],
        "players": players,
        "dealer": game.dealer if game.phase != Phase.LOBBY else None,
        "current": game.current,
        "cut_king": str(game.cut_king) if game.cut_king and game.phase != Phase.LOBBY else None,
        "losers": list(game.losers) if revealed else [],
        "eliminated": list(game.eliminated) if revealed else [],
        "winners": list(game.winners) if game.phase == Phase.GAME_OVER else [],
        # Added fields (docs/architecture.md):
        "vip": game.vip,
        "next_dealer": game.next_dealer if game.phase == Phase.REVEAL else None,
        "order": list(game.order) if game.phase != Phase.LOBBY else [],
        "shown": {
            seat["id"]: seat["card"]
            for seat in players
            if seat["card"] is not None and game.phase == Phase.TURNS
        },
        "log": [event.to_dict() for event in game.log],
        "sudden_death": [dict(deal) for deal in game.sudden_death],
        "house_rules": game.options.ids(),
        "rapid_seconds": game.options.rapid_seconds if game.options.rapid else None,
        "stock_count": len(game.stock) if game.phase != Phase.LOBBY else 0,
        "discard_count": len(game.discard),
        # Rule facts, so no front-end restates a rule (issue 16):
        "min_players": MIN_PLAYERS,
        "max_players": game.options.max_players,
        "max_lives": game.options.starting_lives,
        "cuts_left": _cuts_left(game),
        "lowest": _lowest_rank(game) if revealed else None,
        "last_round": game.last_round if game.phase == Phase.TURNS else None,
        "walkover": game.walkover and game.phase == Phase.GAME_OVER,
    }


def _exchange_target(game: Game, player_id: str) -> str | None:
    """Whom ``player_id``'s exchange would go to now (R7): only while it is a legal move."""
    if Action.EXCHANGE not in game.legal_actions(player_id):
        return None
    return game.left_of(player_id)


def _cuts_left(game: Game) -> int:
    """How many cuts the dealer may still try this round (R9; two under H3)."""
    if game.phase != Phase.TURNS or game.dealer is None:
        return 0
    return max(0, game.options.max_cuts - game.cuts_made)


def _lowest_rank(game: Game) -> str | None:
    """The rank that lost at this round's reveal (R11), from the reveal event."""
    for event in game.log:
        if event.kind is EventKind.REVEAL:
            return str(event.data["lowest"])
    return None


def may_see(game: Game, player_id: str | None) -> set[str]:
    """Every card code ``player_id`` may legitimately see now (``None``: the public).

    Stated from the rules, not from ``build_view``, so tests can hold the two against each
    other: Kings shown or cut this round, from the reveal on every dealt final card and the
    sudden-death deals; for a player also their own card and the cards of their own trades
    and cut (they held or received them).
    """
    allowed = {str(card) for card in game.kings_seen}
    if cards_revealed(game):
        allowed |= {str(game.player(pid).card) for pid in game.order if game.has_player(pid)}
        allowed |= {code for deal in game.sudden_death for code in deal.values()}
        for logged in game.log:  # a player kicked after the reveal was still revealed
            event = logged.to_dict()
            if event["type"] == "reveal":
                allowed |= set(event["cards"].values())
    if player_id is not None and game.has_player(player_id):
        me = game.player(player_id)
        if me.card is not None and player_id in game.order:
            allowed.add(str(me.card))
        for private in game.history.get(player_id, []):
            allowed |= {
                str(private.data[k])
                for k in ("card", "gave", "got", "discarded")
                if k in private.data
            }
    return allowed
