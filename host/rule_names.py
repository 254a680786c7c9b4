"""The one name of each house rule (H1–H8), for the TV, the voice and the phones.

Why one place: round 46's play-test found H8 called "Chase the Ace call" on the TV and "Chase
call" on the phones ("Annonce « Chasse ! »" and "Appel « Chasse »" in French), from two keys
that had drifted apart. Every name now comes from the phones' own key, ``vip.h8_name``, which
the page ships (``phone_web/page.py``); the TV and the voice read it through here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

#: A translator bound to one language (``Catalog.translator``).
Translate = Callable[..., str]


def rule_name_key(rule: str) -> str:
    """The catalog key of a house rule's name: ``"H8"`` → ``"vip.h8_name"``."""
    return f"vip.{rule.lower()}_name"


def rule_name(translate: Translate, rule: str, seconds: int | None = None) -> str:
    """A house rule's name; H4's with its seconds when known ("Rapid (10 s)"), since the
    time limit is what a guest needs to know of it."""
    name = translate(rule_name_key(rule))
    if rule == "H4" and seconds is not None:
        return translate("vip.rule_seconds", name=name, seconds=seconds)
    return name


def rule_names(translate: Translate, rules: Iterable[str], seconds: int | None = None) -> list[str]:
    """The names of ``rules`` in their order (see ``rule_name``)."""
    return [rule_name(translate, rule, seconds) for rule in rules]
