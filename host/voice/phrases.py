"""What the host says: public events → whole phrases from the ``voice`` catalog.

Pure and stateless so every line can be checked in tests without a speech engine. The
only cards that may ever be spoken are a King shown to block an exchange (R7), a King cut
by the dealer (R9) and, at the reveal (R11), the lowest rank. Private events (a dealt
card, a swap's cards, the dealer's cut card) are refused outright: the voice fills the
whole room, so hearing it is the same as seeing every hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Protocol

from host.rules import KING, PRIVATE_KINDS, PUBLIC_KINDS, RANKS, SUITS, Call, View
from host.rules.contract import (
    BlockedEvent,
    CutEvent,
    CutKingEvent,
    EliminatedEvent,
    EventDict,
    ExchangedEvent,
    GameOverEvent,
    GameStartedEvent,
    KeepReason,
    KeptEvent,
    LifeLostEvent,
    MisdealEvent,
    PlayerJoinedEvent,
    PlayerRemovedEvent,
    RedealReason,
    RevealEvent,
    RoundDealtEvent,
    SuddenDeathEvent,
    TurnEvent,
)
from host.voice.vip_phrases import rules_in_force, vip_phrases_for

__all__ = [
    "PRIVATE_KINDS",
    "PUBLIC_KINDS",
    "RANKS",
    "HiddenEvent",
    "Moment",
    "Translate",
    "UnknownEvent",
    "phrases_for",
    "player_name",
    "spoken_list",
]


#: Which of an event's lines to say: all of them ("whole"), or, for the one event whose
#: picture comes in two steps (H5's sudden death: the rule, then the verdict once the cards
#: are turned), those of the first step ("begin") or of the second ("verdict"). Why: round
#: 47's play-test heard "Bo takes it!" while the TV still had the cards face down.
Moment = Literal["whole", "begin", "verdict"]


class Translate(Protocol):
    """A translator bound to one language, as ``Catalog.translator(lang)`` returns."""

    def __call__(self, key: str, /, count: int | None = None, **params: object) -> str: ...


class HiddenEvent(ValueError):
    """A private event reached the voice: it must never be spoken (hidden information)."""


class UnknownEvent(ValueError):
    """An event kind the voice does not know (a bug: every public kind has a phrase)."""


def player_name(view: View, player_id: str | None, translate: Translate) -> str:
    """The seated name of ``player_id``; "someone" rather than a raw id if it is unknown."""
    for player in view.get("players") or ():
        if player.get("id") == player_id:
            return str(player.get("name") or translate("voice.someone"))
    return translate("voice.someone")


def spoken_list(names: Sequence[str], translate: Translate) -> str:
    """ "Ana, Bo and Chloé" with the language's own list words (no joined fragments)."""
    if not names:
        return translate("voice.someone")
    if len(names) == 1:
        return names[0]
    if len(names) == 2:
        return translate("voice.list_pair", first=names[0], second=names[1])
    return translate("voice.list_more", first=names[0], rest=spoken_list(names[1:], translate))


def king_name(code: object, translate: Translate) -> str:
    """ "the King of Spades" for ``"KS"``; refuses any card that is not a King."""
    if not isinstance(code, str) or len(code) != 2 or code[0] != KING or code[1] not in SUITS:
        raise HiddenEvent(f"only a shown or cut King may be spoken, not {code!r}")
    return translate(f"voice.king_{code[1]}")


def rank_name(rank: object, translate: Translate) -> str:
    """ "a two" for the reveal's lowest rank."""
    if rank not in RANKS:
        raise UnknownEvent(f"not a rank: {rank!r}")
    return translate(f"voice.rank_{rank}")


def call_key(event: BlockedEvent | CutKingEvent, view: View) -> str:
    """H8 turns the block call "Cuckoo!" into "Chase!"; the event's own ``call`` wins."""
    call = event.get("call")
    if call is None:
        call = Call.CHASE if "H8" in (view.get("house_rules") or ()) else Call.CUCKOO
    return "voice.chase" if call == Call.CHASE else "voice.cuckoo"


def _joined(event: PlayerJoinedEvent, view: View, _: Translate) -> list[str]:
    key = (
        "voice.player_joined_waiting" if event.get("status") == "waiting" else "voice.player_joined"
    )
    return [_(key, name=event.get("name") or _("voice.someone"))]


def _removed(event: PlayerRemovedEvent, view: View, _: Translate) -> list[str]:
    name = event.get("name") or player_name(view, event.get("player"), _)
    return [_("voice.player_removed", name=name)]


def _game_started(event: GameStartedEvent, view: View, _: Translate) -> list[str]:
    """Who deals first, then the house rules in force, once a game (``rules_in_force``)."""
    dealer = _("voice.game_started", dealer=player_name(view, event.get("dealer"), _))
    return [dealer, *rules_in_force(view, _)]


def _round_dealt(event: RoundDealtEvent, view: View, _: Translate) -> list[str]:
    dealer = player_name(view, event.get("dealer"), _)
    return [_("voice.round_dealt", round=event.get("round"), dealer=dealer)]


def _turn(event: TurnEvent, view: View, _: Translate) -> list[str]:
    pid = event.get("player")
    key = "voice.turn_dealer" if pid is not None and pid == view.get("dealer") else "voice.turn"
    return [_(key, name=player_name(view, pid, _))]


#: A keep's line by its reason, and under H4 by its penalty (round 40: a VIP's skip was said
#: as an away player's keep, an away keep as a time-out).
KEPT_LINES: dict[tuple[str, bool], str] = {
    (KeepReason.CHOSEN, False): "voice.kept",
    (KeepReason.TIME, False): "voice.kept_auto",
    (KeepReason.TIME, True): "voice.kept_timed_out",
    (KeepReason.AWAY, False): "voice.kept_away",
    (KeepReason.AWAY, True): "voice.kept_away_timed_out",
    (KeepReason.SKIPPED, False): "voice.kept_skipped",
    (KeepReason.SKIPPED, True): "voice.kept_skipped_timed_out",
}


def _kept(event: KeptEvent, view: View, _: Translate) -> list[str]:
    timed_out = bool(event.get("timed_out"))
    auto = timed_out or bool(event.get("auto"))
    reason = str(event.get("reason") or (KeepReason.TIME if auto else KeepReason.CHOSEN))
    key = KEPT_LINES.get((reason, timed_out), "voice.kept")
    return [_(key, name=player_name(view, event.get("player"), _))]


def _exchanged(event: ExchangedEvent, view: View, _: Translate) -> list[str]:
    return [
        _(
            "voice.exchanged",
            name=player_name(view, event.get("player"), _),
            target=player_name(view, event.get("target"), _),
        )
    ]


def _blocked(event: BlockedEvent, view: View, _: Translate) -> list[str]:
    king = king_name(event.get("king"), _)
    return [
        _(call_key(event, view)),
        _(
            "voice.blocked",
            target=player_name(view, event.get("target"), _),
            king=king,
            name=player_name(view, event.get("player"), _),
        ),
    ]


def _cut(event: CutEvent, view: View, _: Translate) -> list[str]:
    key = "voice.cut_again" if (event.get("attempt") or 1) > 1 else "voice.cut"
    return [_(key, dealer=player_name(view, event.get("dealer"), _))]


def _cut_taken(event: object, view: View, _: Translate) -> list[str]:
    return [_("voice.cut_taken")]


def _cut_king(event: CutKingEvent, view: View, _: Translate) -> list[str]:
    key = (
        "voice.cut_king_chase"
        if call_key(event, view) == "voice.chase"
        else "voice.cut_king_cuckoo"
    )
    return [_(key, king=king_name(event.get("king"), _))]


def _reveal(event: RevealEvent, view: View, _: Translate) -> list[str]:
    # Only the lowest rank: the other cards are on the TV, the voice keeps it short.
    return [_("voice.reveal", rank=rank_name(event.get("lowest"), _))]


def _life_lost(event: LifeLostEvent, view: View, _: Translate) -> list[str]:
    name = player_name(view, event.get("player"), _)
    lives = int(event.get("lives") or 0)
    if lives <= 0:
        return [_("voice.life_lost_last", name=name)]
    if event.get("lost", 1) >= 2:  # H4: the lowest card and a time-out (round 42's play-test)
        return [_("voice.life_lost_both", count=lives, lost=event["lost"], name=name)]
    key = "voice.life_lost_timed_out" if event.get("timed_out") else "voice.life_lost"
    return [_(key, count=lives, name=name)]


def _eliminated(event: EliminatedEvent, view: View, _: Translate) -> list[str]:
    return [_("voice.eliminated", name=player_name(view, event.get("player"), _))]


def _sudden_death(event: SuddenDeathEvent, view: View, _: Translate, moment: Moment) -> list[str]:
    # The first deal says why (round 42's play-test: "Bruno takes it!" came from nowhere).
    why = [_("voice.sudden_death_start")] if event.get("deal", 1) == 1 else []
    winner = event.get("winner")
    if winner is None:
        verdict = [_("voice.sudden_death_tie")]
    else:
        verdict = [_("voice.sudden_death_winner", name=player_name(view, winner, _))]
    if moment == "begin":
        return why
    return verdict if moment == "verdict" else [*why, *verdict]


def _game_over(event: GameOverEvent, view: View, _: Translate) -> list[str]:
    names = [player_name(view, pid, _) for pid in event.get("winners") or ()]
    if event.get("walkover") and len(names) == 1:
        # Round 46: the others went home; R14's winner, but nobody won anything to cheer.
        return [_("voice.game_over_walkover", name=names[0])]
    if len(names) == 1:
        return [_("voice.game_over_winner", name=names[0])]
    return [_("voice.game_over_joint", names=spoken_list(names, _))]


def _misdeal(event: MisdealEvent, view: View, _: Translate) -> list[str]:
    dealer = player_name(view, event.get("dealer"), _)
    if event.get("reason") == RedealReason.PLAYER_LEFT:
        # Round 40: "Misdeal!" after a kick read as a faulty deal; it is dealt again without them.
        name = event.get("name") or _("voice.someone")
        return [_("voice.misdeal_left", dealer=dealer, round=event.get("round"), name=name)]
    return [_("voice.misdeal", dealer=dealer, round=event.get("round"))]


def _new_game(event: object, view: View, _: Translate) -> list[str]:
    return [_("voice.new_game")]


def phrases_for(
    event: EventDict, view: View, translate: Translate, moment: Moment = "whole"
) -> list[str]:
    """The whole phrases to say for one public event, in order (possibly none); ``moment``
    picks a sudden death's rule or verdict (the TV shows them apart), other events ignore it.

    Raises ``HiddenEvent`` for a private event or a non-King card where a King belongs,
    and ``UnknownEvent`` for a kind that is not in the architecture's list.
    """
    kind = event["type"]
    if kind in PRIVATE_KINDS:
        raise HiddenEvent(f"private event {kind!r} must never be spoken")
    _ = translate
    if event["type"] == "player_joined":
        return _joined(event, view, _)
    if event["type"] == "player_removed":
        return _removed(event, view, _)
    if event["type"] == "game_started":
        return _game_started(event, view, _)
    if event["type"] == "round_dealt":
        return _round_dealt(event, view, _)
    if event["type"] == "turn":
        return _turn(event, view, _)
    if event["type"] == "kept":
        return _kept(event, view, _)
    if event["type"] == "exchanged":
        return _exchanged(event, view, _)
    if event["type"] == "blocked":
        return _blocked(event, view, _)
    if event["type"] == "cut":
        return _cut(event, view, _)
    if event["type"] == "cut_taken":
        return _cut_taken(event, view, _)
    if event["type"] == "cut_king":
        return _cut_king(event, view, _)
    if event["type"] == "reveal":
        return _reveal(event, view, _)
    if event["type"] == "life_lost":
        return _life_lost(event, view, _)
    if event["type"] == "eliminated":
        return _eliminated(event, view, _)
    if event["type"] == "sudden_death":
        return _sudden_death(event, view, _, moment)
    if event["type"] == "game_over":
        return _game_over(event, view, _)
    if event["type"] == "misdeal":
        return _misdeal(event, view, _)
    if event["type"] == "new_game":
        return _new_game(event, view, _)
    vip = vip_phrases_for(event, view, _)  # the VIP's controls and presence (issues 13, 12.3)
    if vip is not None:
        return vip
    raise UnknownEvent(f"no phrase for event kind {kind!r}")
