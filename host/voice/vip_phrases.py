"""What the voice says for the VIP's controls and for presence (issues 13 and 12.3).

Kept apart from ``phrases.py`` so that file's owner and this feature merge cleanly; the events
are the session's (``rules_set``, ``vip_changed``, ``game_ended``, ``player_away`` in
``host.rules.contract``) and the texts are in the ``vip`` domain.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from host.rules import EventDict, View
from host.rules.contract import RulesSetEvent

if TYPE_CHECKING:
    from host.voice.phrases import Translate


def _name(view: View, player_id: str | None, translate: Translate) -> str:
    for player in view.get("players") or ():
        if player.get("id") == player_id:
            return str(player.get("name") or translate("voice.someone"))
    return str(translate("voice.someone"))


def _rules_set(event: RulesSetEvent, _: Translate) -> list[str]:
    """Which rules the VIP switched on and off, by the names the phones show ("House rule on:
    Five lives."); H4 with its new seconds when only those changed. Round 46's play-test read
    only "House rules updated" under the TV. An event of an older save, or one that changed
    nothing shown, keeps that line."""
    from host.rule_names import rule_names
    from host.voice.phrases import spoken_list

    seconds = event.get("rapid_seconds")
    lines = []
    for key, rules in (
        ("vip.rules_on", event.get("added")),
        ("vip.rules_off", event.get("removed")),
    ):
        if rules:
            names = rule_names(_, rules, seconds if key == "vip.rules_on" else None)
            lines.append(_(key, count=len(names), names=spoken_list(names, _)))
    if not lines and "added" in event and "H4" in event["rules"] and seconds is not None:
        lines.append(_("vip.rules_now", names=rule_names(_, ["H4"], seconds)[0]))
    return lines or [_("vip.rules_set")]


def rules_in_force(view: View, _: Translate) -> list[str]:
    """The house rules of a game that starts, named once ("House rules this game: Five lives
    and Chase the Ace call."); nothing under standard rules. Round 46's play-test: no line
    named them, and a guest learnt of H4 by losing a life to the clock."""
    from host.rule_names import rule_names
    from host.voice.phrases import spoken_list

    rules = list(view.get("house_rules") or ())
    if not rules:
        return []
    names = rule_names(_, rules, view.get("rapid_seconds"))
    return [_("vip.rules_game", count=len(names), names=spoken_list(names, _))]


def vip_phrases_for(event: EventDict, view: View, _: Translate) -> list[str] | None:
    """The phrases of a VIP or presence event; None for any other kind."""
    if event["type"] == "rules_set":
        return _rules_set(event, _)
    if event["type"] == "vip_changed":
        return [_("vip.now_vip", name=_name(view, event.get("player"), _))]
    if event["type"] == "game_ended":
        return [_("vip.game_ended")]
    if event["type"] == "player_away":
        name = _name(view, event.get("player"), _)
        key = "vip.player_away_timed_out" if event["timed_out"] else "vip.player_away"
        return [_(key, name=name, seconds=event["seconds"])]
    return None
