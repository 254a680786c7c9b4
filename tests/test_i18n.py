"""Every translation key exists in en, fr and it, with the same placeholders and plural forms."""

from __future__ import annotations

import pytest

from host.i18n import (
    LANGUAGES,
    Catalog,
    MissingTranslation,
    best_language,
    normalize_language,
    placeholders,
    plural_form,
)


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.load()


def forms(message: str | dict[str, str]) -> dict[str, str]:
    return message if isinstance(message, dict) else {"other": message}


def test_every_key_in_every_language(catalog: Catalog) -> None:
    english = catalog.keys("en")
    assert len(english) > 50
    for lang in LANGUAGES:
        assert catalog.keys(lang) == english, (
            lang, sorted(english - catalog.keys(lang)), sorted(catalog.keys(lang) - english))


def test_same_placeholders_in_every_language(catalog: Catalog) -> None:
    for key in catalog.keys("en"):
        reference = {name for text in forms(catalog.messages["en"][key]).values()
                     for name in placeholders(text)}
        for lang in LANGUAGES:
            message = catalog.messages[lang][key]
            for form, text in forms(message).items():
                assert text.strip(), (lang, key, form)
                found = placeholders(text)
                # A singular form may spell out the number ("une vie") instead of {count}.
                expected = reference - {"count"} if form == "one" else reference
                assert expected <= found <= reference, (lang, key, form, found, reference)


def test_plural_messages_have_both_forms(catalog: Catalog) -> None:
    for key, message in catalog.messages["en"].items():
        for lang in LANGUAGES:
            other = catalog.messages[lang][key]
            assert isinstance(other, dict) == isinstance(message, dict), (lang, key)
            if isinstance(other, dict):
                assert set(other) == {"one", "other"}, (lang, key)


def test_plural_forms_per_language(catalog: Catalog) -> None:
    assert catalog.t("en", "common.lives", count=1) == "1 life"
    assert catalog.t("en", "common.lives", count=2) == "2 lives"
    assert catalog.t("fr", "common.lives", count=1) == "1 vie"
    assert catalog.t("fr", "common.lives", count=0) == "0 vie"  # French: 0 is singular
    assert catalog.t("fr", "common.lives", count=2) == "2 vies"
    assert catalog.t("it", "common.lives", count=1) == "1 vita"
    assert catalog.t("it", "common.lives", count=3) == "3 vite"
    assert plural_form("en", 0) == "other" and plural_form("fr", 0) == "one"


def test_missing_key_fails_loudly(catalog: Catalog) -> None:
    with pytest.raises(MissingTranslation):
        catalog.t("en", "common.no_such_key")


def test_language_choice() -> None:
    assert best_language("fr-FR,fr;q=0.9,en;q=0.8") == "fr"
    assert best_language("de-DE,it;q=0.5,en;q=0.4") == "it"
    assert best_language("de-DE") == "en" and best_language(None) == "en"
    assert best_language("en;q=0,fr;q=0.1") == "fr"
    assert normalize_language("it_IT.UTF-8") == "it" and normalize_language("xx") == "en"


def test_accented_names_pass_through_unchanged(catalog: Catalog) -> None:
    for lang in LANGUAGES:
        text = catalog.t(lang, "sim.verdict_stronger", stronger="Chloé", weaker="Niccolò")
        assert "Chloé" in text and "Niccolò" in text
