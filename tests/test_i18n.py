"""Every translation key exists in en, fr and it, with the same placeholders and plural forms."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from host.i18n import (
    LANGUAGES,
    NO_BREAK_SPACE,
    Catalog,
    MissingTranslation,
    best_language,
    is_elision,
    normalize_language,
    placeholders,
    plural_form,
    starts_with_vowel,
    typeset,
)

I18N_ROOT = Path(__file__).resolve().parents[1] / "assets" / "i18n"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.load()


def forms(message: str | dict[str, str]) -> dict[str, str]:
    """The texts of a message by form (an elision dict's "by" names a placeholder, no text)."""
    if isinstance(message, dict):
        return {form: text for form, text in message.items() if form != "by"}
    return {"other": message}


def test_every_key_in_every_language(catalog: Catalog) -> None:
    english = catalog.keys("en")
    assert len(english) > 50
    for lang in LANGUAGES:
        assert catalog.keys(lang) == english, (
            lang,
            sorted(english - catalog.keys(lang)),
            sorted(catalog.keys(lang) - english),
        )


def test_same_placeholders_in_every_language(catalog: Catalog) -> None:
    for key in catalog.keys("en"):
        reference = {
            name
            for text in forms(catalog.messages["en"][key]).values()
            for name in placeholders(text)
        }
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
        plural = isinstance(message, dict) and not is_elision(message)
        for lang in LANGUAGES:
            other = catalog.messages[lang][key]
            assert (isinstance(other, dict) and not is_elision(other)) == plural, (lang, key)
            if plural:
                assert set(other) == {"one", "other"}, (lang, key)


def test_issue12_elision_dicts_name_a_placeholder_of_both_forms(catalog: Catalog) -> None:
    """BRIEF: {"by": "name", "vowel": ..., "other": ...} — "by" is a placeholder of each form."""
    found = 0
    for lang in LANGUAGES:
        for key, message in catalog.messages[lang].items():
            if is_elision(message):
                assert isinstance(message, dict)
                found += 1
                assert set(message) == {"by", "vowel", "other"}, (lang, key)
                for form in ("vowel", "other"):
                    assert message["by"] in placeholders(message[form]), (lang, key, form)
    assert found  # French elides at least "Au tour d'Alan"


def test_issue12_elision_follows_the_names_first_sound(catalog: Catalog) -> None:
    assert catalog.t("fr", "tv.turn_of", name="Alan") == "Au tour d’Alan"
    assert catalog.t("fr", "tv.turn_of", name="Éva") == "Au tour d’Éva"
    assert catalog.t("fr", "tv.turn_of", name="Hugo") == "Au tour d’Hugo"
    assert catalog.t("fr", "tv.turn_of", name="Zoë") == "Au tour de Zoë"
    assert catalog.t("fr", "tv.turn_of", name="🎉 Zed") == "Au tour de 🎉 Zed"
    assert starts_with_vowel("Ymir") and not starts_with_vowel("") and not starts_with_vowel("Bo")


def test_italian_takes_the_euphonic_d_before_a_vowel(catalog: Catalog) -> None:
    """Italian says "Tocca ad Ana", not "Tocca a Ana": every "a {name}" is an elision dict."""
    assert catalog.t("it", "tv.turn_of", name="Ana") == "Tocca ad Ana"
    assert catalog.t("it", "tv.turn_of", name="Bea") == "Tocca a Bea"
    assert catalog.t("it", "vip.make_vip_confirm", name="Ugo") == "Passare il ruolo di VIP ad Ugo?"
    assert catalog.t("it", "trail.blocked", target="Bea", player="Ivo") == (
        "Bea ha mostrato un re ad Ivo"
    )
    for key, message in catalog.messages["it"].items():
        forms = [message] if isinstance(message, str) else list(message.values())
        for form in forms:  # a placeholder after a bare "a" would read "a Ana"
            bare_a = re.search(r"(^|\s)a \{(name|player)\}", str(form))
            assert not bare_a or is_elision(message), key


def test_round46_french_elides_que_before_a_vowel(catalog: Catalog) -> None:
    """French says "Il ne reste qu’Ana à la table", not "que Ana" (round 46's walkover line,
    seen on a phone): every "que {name}" is an elision dict (the voice's line, whose catalog
    has no elision dicts, says it without "que")."""
    assert catalog.t("fr", "phone.last_at_table", name="Ana") == "Il ne reste qu’Ana à la table"
    assert catalog.t("fr", "tv.last_at_table", name="Bo") == "Il ne reste que Bo à la table"
    assert "que Ana" not in catalog.t("fr", "voice.game_over_walkover", name="Ana")
    for key, message in catalog.messages["fr"].items():
        forms = [message] if isinstance(message, str) else list(message.values())
        for form in forms:
            bare_que = re.search(r"\bque \{(name|player|target)\}", str(form))
            assert not bare_que or is_elision(message), key


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_round47_french_and_italian_write_one_apostrophe(catalog: Catalog, lang: str) -> None:
    """One screen, one apostrophe: round 47's play-test saw an Italian phone show "l’ultima
    partita" beside "l'asso" (the rules' line). Every elided word in French and Italian takes
    the typographic apostrophe (’), on the TV, the phones, the captions and the console."""
    straight = [
        key
        for key, message in catalog.messages[lang].items()
        for text in forms(message).values()
        if re.search(r"\w'\w", text)
    ]
    assert straight == []
    assert "l’asso" in catalog.t("it", "social.howto_1")


def test_issue12_calls_follow_the_seeds(catalog: Catalog) -> None:
    assert (
        catalog.t("fr", "voice.cuckoo") == f"Cuckoo{NO_BREAK_SPACE}!"
        and catalog.t("fr", "voice.chase") == f"Chasse{NO_BREAK_SPACE}!"
    )
    assert (
        catalog.t("it", "voice.cuckoo") == "Cuckoo!" and catalog.t("it", "voice.chase") == "Chase!"
    )
    assert (
        catalog.t("fr", "tv.call_cuckoo") == f"CUCKOO{NO_BREAK_SPACE}!"
        and catalog.t("it", "tv.call_chase") == "CHASE!"
    )
    for lang in ("fr", "it"):
        for key, message in catalog.messages[lang].items():
            if key.startswith(("voice.cuckoo", "voice.chase", "voice.cut_king", "tv.call_")):
                for text in forms(message).values():
                    assert not {"Coucou", "COUCOU", "Cucù", "CUCÙ", "Caccia", "CACCIA"} & set(
                        text.replace("!", " ").replace(",", " ").split()
                    ), (lang, key)


def test_issue12_tv_speaks_tu_and_names_the_phone_buttons(catalog: Catalog) -> None:
    for key, message in catalog.messages["fr"].items():
        if key.startswith(("tv.", "trail.", "voice.")):
            for text in forms(message).values():
                for formal in (
                    "Appuyez",
                    "appuyez",
                    "Scannez",
                    "scannez",
                    "ouvrez",
                    " vous ",
                    "installez",
                    "Essayez",
                ):
                    assert formal not in text, (key, text)
    assert "Commencer" in catalog.t("fr", "tv.next_vip", name="Ana")
    assert "Inizia" in catalog.t("it", "tv.next_vip", name="Ana")
    assert "Distribuer" in catalog.t("fr", "tv.next_deal_hint", name="Ana")
    assert "Distribuisci" in catalog.t("it", "tv.next_deal_hint", name="Ana")
    assert "Deal" in catalog.t("en", "tv.next_deal_hint", name="Ana")
    assert "Nouvelle partie" in catalog.t("fr", "tv.new_game_hint")
    assert "Nuova partita" in catalog.t("it", "tv.new_game_hint")


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


def test_french_marks_keep_to_their_word(catalog: Catalog) -> None:
    """French spaces its "! ? : ; »" and "«" off their words, and no phone or TV may break a
    line there ("Coucou" / "!"): every loaded French message holds that space unbreakable."""
    typeset_spaces = 0
    for key, message in catalog.messages["fr"].items():
        for form, text in forms(message).items():
            assert not re.search(r"\s(?=[!?:;»])|(?<=«)\s", text.replace(NO_BREAK_SPACE, "")), (
                key,
                form,
                text,
            )
            typeset_spaces += text.count(NO_BREAK_SPACE)
    assert typeset_spaces > 100  # the catalogs write plain spaces; loading typesets ~150 of them
    assert catalog.t("fr", "phone.you_out") == f"Tu es hors jeu{NO_BREAK_SPACE}!"
    assert catalog.t("fr", "tv.turn_of", name="Alan") == "Au tour d’Alan"  # elision intact
    raw = json.loads((Path(I18N_ROOT) / "fr" / "phone.json").read_text(encoding="utf-8"))
    assert raw["you_out"] == "Tu es hors jeu !"  # translators type a plain space


def test_typeset_changes_only_french_spaces_before_the_marks() -> None:
    nbsp = NO_BREAK_SPACE
    assert typeset("fr", "Annonce « Chasse ! »") == f"Annonce «{nbsp}Chasse{nbsp}!{nbsp}»"
    assert typeset("fr", "Linux : sudo ; ok ? oui") == f"Linux{nbsp}: sudo{nbsp}; ok{nbsp}? oui"
    assert typeset("fr", "10:30, http://x.fr/?a=1 !!") == f"10:30, http://x.fr/?a=1{nbsp}!!"
    for lang in ("en", "it"):
        assert typeset(lang, "Cuckoo ! : « x »") == "Cuckoo ! : « x »"


def test_the_rounds_story_tells_every_move_in_the_past(catalog: Catalog) -> None:
    """The phone's "This round" lists what happened (R5–R9): every line in one tense. French
    and Italian said "Ada garde sa carte" / "tiene" under "Edsger a coupé" / "ha tagliato",
    and English "ran out of time and keeps"."""
    past = {
        "en": re.compile(r"\b(kept|swapped|showed|cut|ran)\b"),
        "fr": re.compile(r"(^|\s|’)(a|n’a) "),
        "it": re.compile(r"\bha "),
    }
    present = {
        "en": r"\b(keeps|swaps|shows|cuts)\b",
        "fr": r"\b(garde|échange|coupe)\b",
        "it": r"\b(tiene|scambia|taglia)\b",
    }
    lines = [key for key in catalog.keys("en") if key.startswith("phone.log_")]
    assert len(lines) >= 6
    for lang, tense in past.items():
        for key in lines:
            for text in forms(catalog.messages[lang][key]).values():
                assert tense.search(text), (lang, key, text)
                assert not re.search(present[lang], text), (lang, key, text)


def test_a_king_in_french_and_italian_prose_is_lowercase_as_its_spoken_name(
    catalog: Catalog,
) -> None:
    """The TV said "montre un Roi" while the tutorial said "a un roi" and the voice "le roi de
    cœur": in French and Italian prose a king is a common noun, lowercase everywhere a guest
    reads it (a rank's label, "R" / "Re", and a title such as "Roi du coucou" stay)."""
    article = re.compile(r"\b(un|Un|ton|Ton|tuo|Tuo) (Roi|Re)\b")
    for lang in ("fr", "it"):
        for key, message in catalog.messages[lang].items():
            forms = [message] if isinstance(message, str) else list(message.values())
            for form in forms:
                assert not article.search(str(form)), (lang, key, form)
    assert catalog.t("fr", "tv.blocked_by", target="Ana", player="Bo").startswith(
        "Ana montre un roi"
    )


#: Play-test, "one word for one thing": guests read the TV and their phones side by side, and
#: the stock (RULES.md R5: the face-down pile a dealer cuts from, R9) was "Stock / Pioche /
#: Mazzo" on the TV but "deck / paquet / mazzo" on the phones. One word per language: the
#: rulebook's (RULES.md and the French profile say "stock" / "pioche") and the TV's big label;
#: in Italian the TV's "mazzo", which every other Italian line already used.
STOCK_WORD = {"en": "stock", "fr": "pioche", "it": "mazzo"}
#: The words it must not be called, anywhere a guest reads or hears it.
OTHER_STOCK_WORDS = {"en": ("deck",), "fr": ("paquet", "talon"), "it": ("tallone",)}
#: Every message that names the stock: the TV, the phones, the voice, the tutorial, the howto.
STOCK_KEYS = (
    "tv.stock",
    "tv.cuts",
    "tv.cut_king",
    "phone.cut_hint",
    "phone.cut_again_hint",
    "phone.log_cut_taken",
    "voice.cut",
    "evening.tutorial_cut",
    "social.howto_4",
)
#: The room code: "Code de la salle" on the TV, "Partie CAKE" on the phone's badge (and "partie"
#: is a game in French: a room sees many). The TV's big label's word, in every message of it.
ROOM_WORD = {"en": "room", "fr": "salle", "it": "stanza"}
ROOM_KEYS = ("tv.room_code", "phone.room_label", "phone.room_badge", "phone.err_bad_room")
#: Where guests read or hear the game's words (``cli``, ``help`` and ``logs`` are the host's).
GUEST_DOMAINS = ("tv.", "phone.", "voice.", "trail.", "vip.", "evening.", "social.", "common.")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_playtest_the_tv_and_the_phones_use_one_word_for_the_stock_and_the_room(
    catalog: Catalog, lang: str
) -> None:
    for key in STOCK_KEYS:
        said = catalog.t(lang, key, name="Ana", dealer="Ana", a="A", b="B", c="C", d="Dario")
        assert STOCK_WORD[lang] in said.lower(), key
    for key in ROOM_KEYS:
        assert ROOM_WORD[lang] in catalog.t(lang, key, room="CAKE").lower(), key
    other = re.compile(r"\b(" + "|".join(OTHER_STOCK_WORDS[lang]) + r")\b", re.IGNORECASE)
    for key, message in catalog.messages[lang].items():
        if key.startswith(GUEST_DOMAINS):
            for text in forms(message).values():
                assert not other.search(text), (lang, key, text)


#: "-ez" words that are no imperative of "vous".
NOT_FORMAL = frozenset({"chez", "assez", "nez"})


def test_playtest_french_says_tu_everywhere_the_console_and_the_phones_too(
    catalog: Catalog,
) -> None:
    """Round 37's play-test: the TV, the phones and the doctor said "tu", but the console
    ("Lancez avec --fresh", "continuez avec celui-ci") and two phone lines ("Votre pronostic",
    "Encouragez depuis le banc") said "vous". Guests and hosts are one crowd: "tu" throughout."""
    formal = re.compile(r"\b(vous|votre|vos|\w+ez)\b", re.IGNORECASE)
    for key, message in catalog.messages["fr"].items():
        for text in forms(message).values():
            found = [word for word in formal.findall(text) if word.lower() not in NOT_FORMAL]
            assert not found, (key, text)


#: The Ace's and the King's names in each language, as whole words.
ACE_AND_KING = {"en": ("ace", "king"), "fr": ("as", "roi"), "it": ("asso", "re")}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_round42_r2_how_to_play_says_the_ace_is_lowest_and_the_king_highest(
    catalog: Catalog, lang: str
) -> None:
    """R2 (ranks K high … A low). Round 42's play-test: neither the phone's "How to play" nor
    the TV's lesson said the order, and guests who play Aces high were surprised by "Lowest
    card: Ace". Both now say it."""
    for key in ("social.howto_1", "evening.tutorial_reveal"):
        words = set(re.findall(r"\w+", catalog.t(lang, key).lower()))
        assert set(ACE_AND_KING[lang]) <= words, (lang, key)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_round42_the_vips_phone_tells_them_they_are_the_vip(catalog: Catalog, lang: str) -> None:
    """Round 42's play-test: the VIP's phone said "Host controls", and the only "VIP" on it
    was in the other guests' "Make VIP" buttons: nothing told Ann she was the VIP. The panel's
    title now says so, in the word the TV uses ("Ann (VIP) can press Start")."""
    assert catalog.t(lang, "tv.vip") in catalog.t(lang, "vip.panel_title")
    assert catalog.t(lang, "vip.panel_title").startswith(("You", "Tu", "Sei"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_round42_h5_the_sudden_death_banner_says_the_highest_card_wins(
    catalog: Catalog, lang: str
) -> None:
    """H5. Round 42's play-test: "Sudden death!" came between two guests with no word of what
    it was, and "the duel seems to come from nowhere". The banner now says how it is won."""
    card, highest = {"en": ("card", "highest"), "fr": ("carte", "forte"), "it": ("carta", "alta")}[
        lang
    ]
    words = set(re.findall(r"\w+", catalog.t(lang, "tv.sudden_death").lower()))
    assert {card, highest} <= words


def test_round45_the_game_has_one_name_in_every_language(catalog: Catalog) -> None:
    """The seeds call the game "Cuckoo" in French and Italian too (its French ancestor is the
    Coucou); the calls follow them (above). Round 45's play-test of an Italian evening read
    "CUCKOO!" on the banner beside "Il gioco del Cucù" and "Re del cucù": one name now."""
    for lang in ("fr", "it"):
        for key, message in catalog.messages[lang].items():
            for text in forms(message).values():
                assert not re.search(r"(?i)\b(coucou|cucù)", text), (lang, key, text)
