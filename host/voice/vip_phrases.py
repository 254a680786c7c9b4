"""What the voice says for the VIP's controls and for presence (issues 13 and 12.3).

Kept apart from ``phrases.py`` so that file's owner and this feature merge cleanly; the makers
have the same shape and are joined into ``PHRASE_MAKERS``. The texts are in the ``vip`` domain.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Event = Mapping[str, Any]
View = Mapping[str, Any]


def _name(view: View, player_id: object, translate: Callable[..., str]) -> str:
    for player in view.get("players") or ():
        if player.get("id") == player_id:
            return str(player.get("name") or translate("voice.someone"))
    return str(translate("voice.someone"))


def _rules_set(event: Event, view: View, _: Callable[..., str]) -> list[str]:
    return [_("vip.rules_set")]


def _vip_changed(event: Event, view: View, _: Callable[..., str]) -> list[str]:
    return [_("vip.now_vip", name=_name(view, event.get("player"), _))]


def _game_ended(event: Event, view: View, _: Callable[..., str]) -> list[str]:
    return [_("vip.game_ended")]


def _player_away(event: Event, view: View, _: Callable[..., str]) -> list[str]:
    return [
        _(
            "vip.player_away",
            name=_name(view, event.get("player"), _),
            seconds=event.get("seconds", 15),
        )
    ]


VIP_PHRASE_MAKERS: Mapping[str, Callable[[Event, View, Any], list[str]]] = {
    "rules_set": _rules_set,
    "vip_changed": _vip_changed,
    "game_ended": _game_ended,
    "player_away": _player_away,
}
