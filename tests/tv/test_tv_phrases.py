"""Every phrase the TV shows comes from the ``tv`` catalog, in English, French and Italian."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from host.i18n import LANGUAGES, Catalog, placeholders

TV_SOURCES = sorted((Path(__file__).resolve().parents[2] / "host" / "tv").glob("*.py"))


def literal_keys(expr: ast.expr) -> set[str]:
    """``"key"`` or ``"a" if … else "b"``: the keys a call may ask for."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return {expr.value}
    if isinstance(expr, ast.IfExp):
        return literal_keys(expr.body) | literal_keys(expr.orelse)
    return set()


def keys_used_in_code() -> set[str]:
    """Keys named in the first argument of every ``….t(...)`` call under host/tv."""
    used: set[str] = set()
    for path in TV_SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name != "t":
                continue
            used |= literal_keys(node.args[0])
    return used


def test_every_key_the_tv_uses_exists_in_every_language(catalog: Catalog) -> None:
    used = keys_used_in_code()
    assert len(used) > 40
    for lang in LANGUAGES:
        missing = sorted(k for k in used if f"tv.{k}" not in catalog.keys(lang))
        assert missing == [], (lang, missing)


def test_no_unused_tv_phrases(catalog: Catalog) -> None:
    shipped = {k.removeprefix("tv.") for k in catalog.keys("en") if k.startswith("tv.")}
    assert shipped - keys_used_in_code() == set()


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_translations_have_the_same_placeholders_and_plural_forms(
    catalog: Catalog, lang: str
) -> None:
    for key, english in catalog.domain("en", "tv").items():
        other = catalog.domain(lang, "tv")[key]
        if isinstance(other, dict) and "by" in other:  # elision ("d'Alan"): same placeholders
            assert all(
                placeholders(other[f]) == placeholders(str(english)) for f in ("vowel", "other")
            ), key
        elif isinstance(english, dict):
            assert isinstance(other, dict) and set(other) >= {"one", "other"}, key
            assert all(
                placeholders(v) <= placeholders(english["other"]) | {"count"}
                for v in other.values()
            ), key
        else:
            assert isinstance(other, str), key
            assert placeholders(other) == placeholders(english), key


def test_french_and_italian_are_really_translated(catalog: Catalog) -> None:
    """Guards against copy-pasted English (names and symbols may legitimately stay)."""
    english = catalog.domain("en", "tv")
    for lang in ("fr", "it"):
        same = [
            k
            for k, v in catalog.domain(lang, "tv").items()
            if v == english[k]
            and isinstance(v, str)
            and any(c.isalpha() for c in v)
            and k
            not in {
                "title",
                "vip",
                "dealer_mark",
                "bot",
                "key_help",
                "key_quit",
                "key_fullscreen",  # key names
                "call_cuckoo",
                "call_chase",
            }
        ]  # the calls follow the seeds
        assert same == [], (lang, same)
