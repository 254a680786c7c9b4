"""The one translation function of Cuckoo Party.

Every user-facing string (TV, phone page, voice, CLI) is looked up here by key.
Catalogs live in ``assets/i18n/<lang>/<domain>.json``; a key is ``<domain>.<name>``
(e.g. ``voice.cuckoo``). A value is either a string with ``{placeholders}``, or, for
counted phrases, a dict of plural forms ``{"one": ..., "other": ...}`` chosen by the
``count`` parameter, or, for elision (French "d'Alan" / "de Zoë"), a dict
``{"by": "name", "vowel": ..., "other": ...}`` whose "vowel" form is used when the value of
the placeholder named by "by" starts with a vowel sound (``starts_with_vowel``). Nothing is
built by concatenation: whole phrases only.

Why one place: a missing or mistyped key must fail loudly in tests, and adding a
language must mean adding files, not code. French typography is applied here too
(``typeset``): the catalogs are written with plain spaces, and a loaded French message never
breaks a line before its "!" or ":".
"""

from __future__ import annotations

import json
import re
import string
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

LANGUAGES: tuple[str, ...] = ("en", "fr", "it")
DEFAULT_LANGUAGE = "en"

#: Language names shown in language switches, in their own language.
LANGUAGE_NAMES: Mapping[str, str] = {"en": "English", "fr": "Français", "it": "Italiano"}

Message = str | dict[str, str]

NO_BREAK_SPACE = "\u00a0"
"""French puts a space before ``! ? : ; »`` and after ``«``, and that space must not break a
line: on a narrow phone "Coucou !" would otherwise end one line with "Coucou" and start the
next with a lone "!". The ordinary no-break space (U+00A0), not the narrow one (U+202F):
every font and every console code page has it, and it is as wide as the space it replaces, so
no layout moves."""

_FRENCH_SPACES = re.compile(r" (?=[!?:;»])|(?<=«) ")


def typeset(lang: str, text: str) -> str:
    """``text`` with its language's typographic spaces: French's ``Coucou !`` keeps its
    ``!`` on the line of ``Coucou`` (``NO_BREAK_SPACE``). Other languages are left as written."""
    if lang != "fr":
        return text
    return _FRENCH_SPACES.sub(NO_BREAK_SPACE, text)


def _typeset_message(lang: str, message: Message) -> Message:
    if isinstance(message, dict):  # plural forms, or an elision whose "by" names a placeholder
        return {
            form: text if form == "by" else typeset(lang, text) for form, text in message.items()
        }
    return typeset(lang, message)


class MissingTranslation(KeyError):
    """A key is absent from a catalog (a bug: every key exists in every language)."""


def plural_form(lang: str, count: int) -> str:
    """CLDR plural category for the languages we ship ("one" or "other")."""
    if lang == "fr":
        return "one" if count in (0, 1) else "other"
    return "one" if count == 1 else "other"


#: First letters (accents removed, lower case) that take the elided form: "d'Alan", "l'Hôte".
VOWEL_SOUNDS = frozenset("aeiouyh")


def starts_with_vowel(value: str) -> bool:
    """Does ``value`` start with a vowel sound for elision ("Éva" and "Hugo" do, "Zoë" not)?"""
    stripped = value.strip()
    if not stripped:
        return False
    first = unicodedata.normalize("NFD", stripped[0])[0].lower()
    return first in VOWEL_SOUNDS


def is_elision(message: Message) -> bool:
    """A message chosen by a name's first sound (``{"by", "vowel", "other"}``)."""
    return isinstance(message, dict) and "by" in message


def placeholders(text: str) -> frozenset[str]:
    """The ``{names}`` a message uses, so tests can compare languages."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)


def normalize_language(value: str | None) -> str:
    """Map ``fr-FR``, ``it_IT.UTF-8``, ``EN`` … to a shipped language, else English."""
    if not value:
        return DEFAULT_LANGUAGE
    code = value.strip().lower().replace("_", "-").split("-")[0].split(".")[0]
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


def best_language(accept_language: str | None) -> str:
    """Pick the shipped language a browser prefers most (``Accept-Language`` header)."""
    if not accept_language:
        return DEFAULT_LANGUAGE
    choices: list[tuple[float, int, str]] = []
    for index, part in enumerate(accept_language.split(",")):
        pieces = part.strip().split(";")
        code = pieces[0].strip().lower().split("-")[0]
        quality = 1.0
        for param in pieces[1:]:
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if code in LANGUAGES and quality > 0:
            choices.append((-quality, index, code))
    return min(choices)[2] if choices else DEFAULT_LANGUAGE


def _default_root() -> Path:
    return Path(str(resources.files("assets") / "i18n"))


@dataclass
class Catalog:
    """All messages of all languages, loaded once at start-up and then read-only.

    ``load`` typesets each message as it reads it (``typeset``), so every use of a message
    (the TV, the phones' page, the voice's captions, the CLI) gets the same text."""

    messages: dict[str, dict[str, Message]] = field(default_factory=dict)

    @classmethod
    def load(cls, root: Path | None = None) -> Catalog:
        root = root or _default_root()
        messages: dict[str, dict[str, Message]] = {}
        for lang in LANGUAGES:
            table: dict[str, Message] = {}
            for path in sorted((root / lang).glob("*.json")):
                domain = path.stem
                data = json.loads(path.read_text(encoding="utf-8"))
                for name, value in data.items():
                    table[f"{domain}.{name}"] = _typeset_message(lang, value)
            messages[lang] = table
        return cls(messages)

    def keys(self, lang: str) -> set[str]:
        return set(self.messages.get(lang, {}))

    def domain(self, lang: str, domain: str) -> dict[str, Message]:
        """Every message of one domain (e.g. ``phone``) for shipping to a browser."""
        prefix = domain + "."
        return {
            key[len(prefix) :]: value
            for key, value in self.messages[normalize_language(lang)].items()
            if key.startswith(prefix)
        }

    def t(self, lang: str, key: str, /, count: int | None = None, **params: Any) -> str:
        """Translate ``key`` into ``lang``; ``count`` picks a plural form and is a parameter too."""
        table = self.messages.get(normalize_language(lang), {})
        try:
            message = table[key]
        except KeyError:
            raise MissingTranslation(f"{key!r} missing in {lang!r}") from None
        if isinstance(message, dict) and "by" in message:
            chosen = str(params.get(message["by"], ""))
            message = message["vowel"] if starts_with_vowel(chosen) else message["other"]
        elif isinstance(message, dict):
            form = plural_form(lang, count if count is not None else 1)
            message = message.get(form) or message["other"]
        if count is not None:
            params.setdefault("count", count)
        return message.format(**params)

    def translator(self, lang: str) -> Callable[..., str]:
        """A ``_(key, **params)`` bound to one language."""

        def _(key: str, /, count: int | None = None, **params: Any) -> str:
            return self.t(lang, key, count=count, **params)

        return _
