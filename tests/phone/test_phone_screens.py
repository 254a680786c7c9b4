"""Issue 12 items 6–8 on the phone: the screens of a player who is out, lost or won; names of
16 characters; computer players; the TV's four-colour pack and seat colours; the words and the
register shared with the TV; elision in ``t()``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from host.i18n import LANGUAGES, Catalog
from host.palette import SUIT_COLOURS
from host.rules import HouseRules
from host.session import Session
from tests.clock import Clock
from tests.phone.helpers import Phone, rigged_reveal, seated_phone
from tests.phone.test_phone_access import until_my_turn
from tests.phone.test_phone_game import seat_three

CATALOG = Catalog.load()
I18N = Path(__file__).resolve().parents[2] / "assets" / "i18n"
LONG_NAMES = ("Bartholomew-Jone", "Maximilianus-Ott", "Wolfgang-Amadeus")


def t(key: str, lang: str = "en", **params: Any) -> str:
    return CATALOG.t(lang, f"phone.{key}", **params)


def in_viewport(phone: Phone, selector: str) -> bool:
    """Whether the element is on the first screen, without scrolling."""
    return bool(
        phone.page.evaluate(
            """(s) => { scrollTo(0, 0); const r = document.querySelector(s).getBoundingClientRect();
            return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }""",
            selector,
        )
    )


def rgb(colour: tuple[int, ...]) -> str:
    return "rgb({}, {}, {})".format(*colour)


def test_issue12_out_card_lost_life_and_game_over_screens(
    live_server: Any, phone_factory: Any
) -> None:
    server = live_server()
    session = server.session
    phones = seat_three(server, phone_factory, "en-GB")
    chloe, bo, dario = phones
    # Round 1: Bo and Dário hold the lowest card; Dário was on his last life.
    table = rigged_reveal(session, {chloe: "KH", bo: "2S", dario: "2C"}, lives={dario: 1})
    assert table["losers"] == [bo, dario] and table["eliminated"] == [dario]
    for phone in phones.values():
        phone.wait_step(table["step"])
    # "You lose a life" is on Bo's first screen (an iPhone 13), no scrolling needed.
    assert phones[bo].text("#outcome li.mine") == t("you_lost_life", count=2)
    assert in_viewport(phones[bo], "#outcome li.mine")
    assert in_viewport(phones[dario], "#outcome li.mine")

    # Round 2: Dário has no card: his phone says he is out, not "No card yet".
    session.act(table["next_dealer"], "deal", table["step"])
    out = phones[dario]
    out.wait_step(table["step"] + 1)
    assert out.card() == ""
    assert out.text("#card") == t("out_card")
    assert t("no_card") not in out.text()
    assert out.page.get_attribute("#card", "aria-label") == t("out_card")
    assert out.text("#me-status") == t("status_eliminated")

    # Game over: Bo loses his last life, Chloé wins.
    table = rigged_reveal(session, {chloe: "KH", bo: "3S"}, lives={bo: 1})
    assert table["phase"] == "game_over" and table["winners"] == [chloe]
    for phone in phones.values():
        phone.wait_step(table["step"])
    winner = phones[chloe]
    assert winner.text("#me-status") == t("you_win")  # not "Playing"
    assert winner.text("#outcome li.big") == t("you_win")
    assert in_viewport(winner, "#outcome li.big")  # above the fold
    for loser in (phones[bo], phones[dario]):
        assert loser.text("#me-status") == t("status_lost")
        assert "watch" not in loser.text("#outcome").lower()  # no "Stay and watch the end"
        assert t("winner", name="Chloé") in loser.text("#outcome")
    assert phones[bo].text("#outcome li.mine") == t("you_out")


def test_issue12_names_of_16_characters_bots_and_colours(
    live_server: Any, phone_factory: Any
) -> None:
    server = live_server()
    session = server.session
    phone: Phone = phone_factory("Pixel 7", "en-GB")
    phone.open(f"{server.url}/?room=TEST")
    phone.page.fill("#name-input", LONG_NAMES[0] + "s")  # 17 characters
    assert phone.page.input_value("#name-input") == LONG_NAMES[0] + "s"  # not cut silently
    assert phone.text("#join-error") == t("name_too_long", count=16)
    assert phone.page.get_attribute("#name-input", "aria-invalid") == "true"
    phone.page.locator("#join-button").tap()
    phone.page.wait_for_timeout(300)
    assert session.view(None)["players"] == []  # refused before anything was sent
    assert not [r for r in phone.requests if r.url.endswith("/api/join")]
    phone.page.fill("#name-input", LONG_NAMES[0])
    assert phone.text("#join-error") == ""
    phone.join(LONG_NAMES[0])
    for name in LONG_NAMES[1:]:
        session.join(name, "TEST")
    bot = session.add_bot()
    phone.page.wait_for_function("() => document.querySelectorAll('#players li').length === 4")

    # A 16-character name takes one line, two at most, and is never cut.
    lines = phone.page.eval_on_selector_all(
        "#players .name",
        """ns => ns.map(n => [
        Math.round(n.getBoundingClientRect().height / parseFloat(getComputedStyle(n).lineHeight)),
        n.scrollHeight <= n.clientHeight + 1])""",
    )
    assert all(count <= 2 and whole for count, whole in lines), lines
    rows = phone.page.locator("#players li").all_inner_texts()
    bot_name = next(p["name"] for p in session.view(None)["players"] if p["id"] == bot)
    assert [r for r in rows if bot_name in r and t("badge_bot") in r]  # computer marked
    assert not [r for r in rows if LONG_NAMES[1] in r and t("badge_bot") in r]

    # My colour is my seat's colour on the TV; every seat shows its colour.
    players = session.view(None)["players"]
    shown = phone.page.eval_on_selector_all(
        "#players .colour", "cs => cs.map(c => getComputedStyle(c).backgroundColor)"
    )
    wanted = [rgb(tuple(int(p["color"][i : i + 2], 16) for i in (1, 3, 5))) for p in players]
    assert shown == wanted
    mine = phone.page.eval_on_selector("#me-colour", "c => getComputedStyle(c).backgroundColor")
    assert mine == wanted[0]

    # The TV's four-colour pack: spades black, hearts red, diamonds blue, clubs green.
    colours = phone.page.evaluate("""() => ['S', 'H', 'D', 'C'].map((s) => {
        const e = document.createElement('span'); e.className = 'chip suit-' + s;
        document.body.append(e); const c = getComputedStyle(e).color; e.remove(); return c; })""")
    assert colours == [rgb(SUIT_COLOURS[s]) for s in "SHDC"]
    session.act(players[0]["id"], "start", session.step)
    phone.wait_step(1)
    card = session.view(players[0]["id"])["me"]["card"]
    colour = phone.page.eval_on_selector("#card", "c => getComputedStyle(c).color")
    assert colour == rgb(SUIT_COLOURS[card[-1]])


#: BRIEF.md: the words the TV tells people to press are the phone's button labels.
BUTTON_WORDS = {
    "start": ("Start", "Commencer", "Inizia"),
    "deal": ("Deal", "Distribuer", "Distribuisci"),
    "new_game": ("New game", "Nouvelle partie", "Nuova partita"),
    "keep": ("Keep", "Garder", "Tieni"),
    "exchange": ("Exchange", "Échanger", "Scambia"),
    "cut": ("Cut", "Couper", "Taglia"),
}
CALLS = {
    "call_cuckoo": ("Cuckoo!", "Cuckoo\u00a0!", "Cuckoo!"),
    "call_chase": ("Chase!", "Chasse\u00a0!", "Chase!"),
}


def test_issue12_button_words_calls_and_one_register() -> None:
    for key, words in {**BUTTON_WORDS, **CALLS}.items():
        assert tuple(t(key, lang) for lang in ("en", "fr", "it")) == words, key
    french = json.loads((I18N / "fr" / "phone.json").read_text(encoding="utf-8"))
    italian = json.loads((I18N / "it" / "phone.json").read_text(encoding="utf-8"))
    texts = {
        lang: " ".join(json.dumps(m, ensure_ascii=False) for m in messages.values())
        for lang, messages in (("fr", french), ("it", italian))
    }
    for formal in (" vous ", " votre ", " vos ", "Vous "):  # French: "tu" everywhere
        assert formal not in texts["fr"], formal
    for formal in (" Lei ", " Suo ", " Sua "):  # Italian: "tu" everywhere
        assert formal not in texts["it"], formal


def test_issue12_elision_in_the_pages_t(make_session: Any, phone_factory: Any) -> None:
    """BRIEF.md: a message may be {"by", "vowel", "other"}; the vowel form before a e i o u y h."""
    from host.network import BackgroundServer
    from phone_web import create_app

    catalog = Catalog.load()
    for lang in LANGUAGES:
        catalog.messages[lang]["phone.deciding"] = {
            "by": "name",
            "vowel": "Au tour d’{name}…",
            "other": "Au tour de {name}…",
        }
    session = make_session()
    server = BackgroundServer(create_app(session, catalog), "127.0.0.1", 0).start()
    try:
        phone: Phone = phone_factory("Pixel 7", "fr-FR")
        phone.open(f"http://127.0.0.1:{server.port}/?room=TEST")
        said = phone.page.evaluate("""() => ['Alan', 'Émile', 'hugo', 'Yves', 'Bo', '', '7up']
            .map((name) => window.cuckoo.t('deciding', {name}))""")
        assert said == [
            "Au tour d’Alan…",
            "Au tour d’Émile…",
            "Au tour d’hugo…",
            "Au tour d’Yves…",
            "Au tour de Bo…",
            "Au tour de …",
            "Au tour de 7up…",
        ]
        plural = phone.page.evaluate("() => window.cuckoo.t('time_left', {count: 2})")
        assert plural == t("time_left", "fr", count=2)  # plural dicts unchanged
    finally:
        server.stop()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_issue12_phone_catalog_has_no_stay_and_watch_at_game_over(lang: str) -> None:
    """The loser's line at game over is "You're out!" alone (it is also the big moment)."""
    assert t("you_out", lang).endswith("!")
    assert len(t("you_out", lang)) <= 20


def test_issue12_this_round_heading_only_over_lines(live_server: Any, phone_factory: Any) -> None:
    """ "This round" shows once there is something to tell: not in the lobby, nor on a round's
    first turn (a heading over nothing, right above "At the table")."""
    server = live_server()
    session = server.session
    phones = seat_three(server, phone_factory, "en-GB")
    phone = next(iter(phones.values()))
    phone.wait_step(session.step)
    assert phone.page.is_hidden("#story-part")  # the lobby
    session.act(phone.player_id, "start", session.step)
    first = session.view(None)["current"]
    phone.wait_step(session.step)
    assert phone.page.is_hidden("#story-part")  # dealt, nobody has moved yet
    session.act(first, "keep", session.step)
    phone.wait_step(session.step)
    assert phone.page.is_visible("#story-part")
    assert phone.page.locator("#story li").count() >= 1


@pytest.mark.parametrize(("locale", "lang"), [("en-GB", "en"), ("fr-FR", "fr")])
def test_issue12_lobby_status_is_in_the_game_not_playing(
    live_server: Any, phone_factory: Any, locale: str, lang: str
) -> None:
    """Before the first deal a seated guest reads "In the game", not "Playing" (nothing is
    being played yet); once dealt in, "Playing"."""
    server = live_server()
    session = server.session
    phones = seat_three(server, phone_factory, locale)
    phone = next(iter(phones.values()))
    phone.wait_step(session.step)
    assert phone.text("#me-status") == t("status_lobby", lang)
    session.act(phone.player_id, "start", session.step)
    phone.wait_step(session.step)
    assert phone.text("#me-status") == t("status_active", lang)


#: In the page: at each width from the text's own down to that of its last word and mark (below
#: which the page's ``overflow-wrap`` breaks inside words), is the text broken onto two lines,
#: and is its last character (the mark) on another line than the word before its space?
LONE_MARK_JS = """(text) => {
    const box = document.createElement('div');
    box.style.cssText = 'position:absolute;left:0;top:0;font-size:32px;font-weight:700';
    box.textContent = text;
    document.body.append(box);
    const node = box.firstChild;
    const top = (i) => {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        return range.getBoundingClientRect().top;
    };
    const mark = text.length - 1, word = text.length - 3;
    box.style.width = 'max-content';
    const full = Math.ceil(box.getBoundingClientRect().width);
    const last = document.createRange();
    last.setStart(node, text.lastIndexOf(' ', word - 1) + 1);
    last.setEnd(node, text.length);
    const least = Math.ceil(last.getBoundingClientRect().width) + 4;
    let broken = 0, lone = 0;
    for (let w = full; w >= least; w -= 4) {
        box.style.width = w + 'px';
        if (top(0) !== top(mark)) broken++;
        if (top(word) !== top(mark)) lone++;
    }
    box.remove();
    return [broken, lone];
}"""


def test_french_marks_never_start_a_line_on_the_phone(live_server: Any, phone_factory: Any) -> None:
    """French writes "À toi de jouer !": the page's catalog holds that space unbreakable
    (``host.i18n.typeset``), so a narrow phone never shows a "!" alone on a line."""
    server = live_server()
    phone: Phone = phone_factory("iPhone SE", "fr-FR")
    phone.open(f"{server.url}/?room=TEST")
    text = phone.page.evaluate("() => window.cuckoo.t('your_turn')")
    assert text == t("your_turn", "fr") and text.endswith("\u00a0!")
    broken, lone = phone.page.evaluate(LONE_MARK_JS, text)
    assert broken > 0 and lone == 0
    # The same words with a plain space: the browser does leave the "!" alone, so the check
    # above can fail.
    broken, lone = phone.page.evaluate(LONE_MARK_JS, text.replace("\u00a0", " "))
    assert lone > 0


#: Where the card and the action buttons are, as the guest first sees the page (not scrolled).
CARD_AND_BUTTONS_JS = """() => {
    scrollTo(0, 0);
    const box = (e) => { const r = e.getBoundingClientRect();
        return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
    return {height: innerHeight, card: box(document.getElementById('card')),
            buttons: [...document.querySelectorAll('#actions button')].map(box)};
}"""


@pytest.mark.parametrize(
    "device", ["Pixel 7 landscape", "iPhone 13 landscape", "iPhone SE landscape", "Pixel 7"]
)
def test_my_turns_buttons_are_on_the_first_screen_held_either_way(
    live_server: Any, phone_factory: Any, device: str
) -> None:
    """R5: on my turn "Keep" and "Exchange" (or "Cut") are on the first screen. A phone held
    sideways is short, so there the card stands beside the buttons (below it, they were off
    the screen); upright, it stays above them."""
    server = live_server()
    session = server.session
    phone = seated_phone(phone_factory, server, "Chloé", others=(), device=device)
    others = [session.join(name, "TEST").player_id for name in ("Bo", "Dário")]
    me = phone.player_id
    session.act(me, "start", session.step)
    for _ in range(12):  # the others keep until it is my turn (at most one round around)
        table = session.view(None)
        if table["current"] == me:
            break
        if table["phase"] == "reveal":
            session.act(
                next(p for p in [me, *others] if "deal" in session.view(p)["can"]),
                "deal",
                session.step,
            )
        else:
            session.act(table["current"], "keep", session.step)
    assert session.view(None)["current"] == me
    phone.wait_step(session.step)
    phone.page.wait_for_selector("#moment", state="hidden")
    seen = phone.page.evaluate(CARD_AND_BUTTONS_JS)
    card, buttons = seen["card"], seen["buttons"]
    assert len(buttons) == 2
    for button in buttons:
        assert 0 <= button["top"] and button["bottom"] <= seen["height"], (device, seen)
    if "landscape" in device:
        assert card["right"] <= min(button["left"] for button in buttons)
        assert card["top"] < seen["height"] / 2
    else:
        assert card["bottom"] <= buttons[0]["top"]


#: Where my action buttons are as my turn comes: where the page stands (it does not scroll by
#: itself on my turn; the guest has not scrolled), and at its top.
BUTTONS_ON_SCREEN_JS = """() => {
    const seen = () => [...document.querySelectorAll('#actions button')].map((b) => {
        const r = b.getBoundingClientRect();
        return {action: b.dataset.action, top: r.top, bottom: r.bottom, height: innerHeight}; });
    const asLeft = seen();
    scrollTo(0, 0);
    return {asLeft, atTop: seen(), card: document.getElementById('card').offsetHeight};
}"""


def _both_buttons_on_screen(phone: Phone, actions: set[str], where: str) -> int:
    """Both of my turn's buttons whole on the screen, without scrolling; the card's height."""
    phone.page.wait_for_function(
        "n => document.querySelectorAll('#actions button').length === n", arg=len(actions)
    )
    phone.page.wait_for_selector("#moment", state="hidden", timeout=5000)
    seen = phone.page.evaluate(BUTTONS_ON_SCREEN_JS)
    for place in ("asLeft", "atTop"):
        assert {button["action"] for button in seen[place]} == actions, (where, seen)
        for button in seen[place]:
            assert 0 <= button["top"] and button["bottom"] <= button["height"], (where, seen)
    return int(seen["card"])


@pytest.mark.parametrize(
    ("width", "height", "locale"),
    [(320, 568, "en-GB"), (320, 568, "fr-FR"), (360, 640, "en-GB"), (375, 667, "it-IT")],
)
def test_round42_small_phone_both_buttons_on_screen_on_my_turn(
    live_server: Any, phone_factory: Any, width: int, height: int, locale: str
) -> None:
    """Round 42's play-test: on an iPhone SE (1st gen, 320×568) "Your turn!" showed the card and
    half of Keep; Exchange (the dealer's Cut) was below the fold, so a first-timer saw one
    button and kept, and under H4 scrolling cost the turn. On 320×568, 360×640 and 375×667
    both buttons are whole on the screen on my turn: Keep and Exchange, the dealer's Keep and
    Cut, and H3's second cut, with H4's countdown shown too; the card stays above them."""
    rules = HouseRules.parse("H3,H4", rapid_seconds=60)
    session = Session(rules, room="TEST", seed=42, clock=Clock())  # a stopped clock: no time-out
    server = live_server(session)
    phone = seated_phone(
        phone_factory,
        server,
        "Chloé",
        others=("Bo", "Dário"),
        device="iPhone SE",
        locale=locale,
        viewport={"width": width, "height": height},
    )
    me = phone.player_id
    session.act(me, "start", session.step)
    seen: set[str] = set()
    for _ in range(4):  # rounds, until I have played as a player and cut twice as the dealer
        until_my_turn(session, me)
        phone.wait_step(session.step)
        dealer = session.view(None)["dealer"] == me
        actions = {"keep", "cut"} if dealer else {"keep", "exchange"}
        card = _both_buttons_on_screen(phone, actions, f"{width}×{height} dealer={dealer}")
        assert card >= 120, card  # the card is still a card, not a stamp
        if not dealer:
            seen.add("player")
            session.act(me, "keep", session.step)
            continue
        before = session.step
        phone.tap("cut")  # H3: the dealer may cut once more
        phone.wait_past(before)
        phone.wait_step(session.step)
        if "cut" in session.view(me)["can"]:
            _both_buttons_on_screen(phone, {"keep", "cut"}, f"{width}×{height} second cut")
            seen.add("second cut")
        seen.add("dealer")
        if seen >= {"player", "dealer", "second cut"}:
            break
    assert seen >= {"player", "dealer", "second cut"}, seen
