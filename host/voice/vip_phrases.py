"""What the voice says for the VIP's controls and for presence (issues 13 and 12.3).

Kept apart from ``phrases.py`` so that file's owner and this feature merge cleanly; the events
are the session's (``rules_set``, ``vip_changed``, ``game_ended``, ``player_away`` in
``host.rules.contract``) and the texts are in the ``vip`` domain.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from host.rules import EventDict, View

if TYPE_CHECKING:
    from host.voice.phrases import Translate


def _name(view: View, player_id: str | None, translate: Translate) -> str:
    for player in view.get("players") or ():
        if player.get("id") == player_id:
            return str(player.get("name") or translate("voice.someone"))
    return str(translate("voice.someone"))


def vip_phrases_for(event: EventDict, view: View, _: Translate) -> list[str] | None:
    """The phrases of a VIP or presence event; None for any other kind."""
    if event["type"] == "rules_set":
        return [_("vip.rules_set")]
    if event["type"] == "vip_changed":
        return [_("vip.now_vip", name=_name(view, event.get("player"), _))]
    if event["type"] == "game_ended":
        return [_("vip.game_ended")]
    if event["type"] == "player_away":
        name = _name(view, event.get("player"), _)
        key = "vip.player_away_timed_out" if event["timed_out"] else "vip.player_away"
        return [_(key, name=name, seconds=event["seconds"])]
    return None
