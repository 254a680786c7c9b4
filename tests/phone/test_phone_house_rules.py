"""Round 42's play-test, on a real phone: every guest is told which house rules are on and what
each means (add-on ``social.js``), in the lobby, in "How to play" opened mid-game, and mid-game
under the table's players.

Before, only the VIP's switches named the rules and their lines; a guest was surprised by a
King that did not block (H2) and lost a life to the clock without knowing why (H4).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from host.i18n import Catalog
from tests.phone.helpers import Phone, is_action_answer, seated_phone


def rule_lines(phone: Phone) -> list[str]:
    """The lines of the phone's house-rules list as shown: the name, a space, its explanation
    (French's no-break spaces kept)."""
    return list(
        phone.page.eval_on_selector_all(
            "#social-rules li", "items => items.map(item => item.innerText.replace(/\\n+/g, ' '))"
        )
    )


def wait_under_the_table(phone: Phone) -> None:
    """Mid-game, outside "How to play": the list is shown right under the table's players."""
    phone.page.wait_for_function(
        """() => {
            const rules = document.getElementById('social-rules');
            const players = document.getElementById('players').parentNode;
            return rules && !rules.hidden && rules.previousElementSibling === players;
        }"""
    )


def expected(catalog: Catalog, lang: str, rules: list[str], seconds: int = 10) -> list[str]:
    lines = []
    for rule in rules:
        key = f"vip.{rule.lower()}"
        name = (
            catalog.t(lang, f"{key}_seconds", seconds=seconds)
            if rule == "H4"
            else catalog.t(lang, f"{key}_name")
        )
        lines.append(f"{name} {catalog.t(lang, f'{key}_text')}")
    return lines


def test_round43_a_guest_sees_the_house_rules_on_in_the_lobby_and_live(
    make_session: Callable[..., Any], live_server: Any, phone_factory: Any
) -> None:
    """Round 43 / H2, H3, H4: a guest's phone (not the VIP's, and in French) lists each house
    rule on with its one-line explanation in the lobby, H4 with its seconds; the list follows
    the VIP's switches at once (H3 switched off on the VIP's phone, H4's seconds changed), and
    under standard rules nothing is shown."""
    session = make_session("H2,H3,H4")
    server = live_server(session)
    catalog = Catalog.load()
    vip = seated_phone(phone_factory, server, "Ana", others=())
    guest = seated_phone(phone_factory, server, "Bea", others=(), locale="fr-FR")
    guest.wait_step(session.step)

    guest.page.wait_for_selector("#social-rules:not([hidden])")
    assert guest.text("#social-rules h2") == catalog.t("fr", "social.rules_tonight")
    assert rule_lines(guest) == expected(catalog, "fr", ["H2", "H3", "H4"])
    assert "10 s" in rule_lines(guest)[2]  # H4 says its seconds
    # Round 43's check: under H2 the How to play card said "A King can't be taken", right
    # above the house rule saying Kings do not block; it now says tonight's rule.
    howto = guest.text("#social-howto")
    assert catalog.t("fr", "social.howto_3_h2") in howto
    assert catalog.t("fr", "social.howto_3") not in howto
    # under the buttons, before the players' list: on a guest's first screen
    assert guest.page.evaluate(
        """() => document.getElementById('social-rules').compareDocumentPosition(
            document.getElementById('players')) & Node.DOCUMENT_POSITION_FOLLOWING"""
    )

    # the VIP switches H3 off on their phone: the guest's list follows
    vip.page.wait_for_selector("#vip-panel:not([hidden])")
    with vip.page.expect_response(is_action_answer):
        vip.page.locator("#vip-rule-H3").uncheck()
    assert session.view(None)["house_rules"] == ["H2", "H4"]
    guest.wait_step(session.step)
    assert rule_lines(guest) == expected(catalog, "fr", ["H2", "H4"])

    # H4's seconds changed: said at once
    vip_id = session.view(None)["vip"]
    session.act(vip_id, "set_rules", session.step, {"rules": ["H4"], "rapid_seconds": 25})
    guest.wait_step(session.step)
    assert rule_lines(guest) == expected(catalog, "fr", ["H4"], seconds=25)
    assert catalog.t("fr", "social.howto_3") in guest.text("#social-howto")  # Kings block again

    # standard rules: nothing at all, on the guest's phone or the VIP's
    session.act(vip_id, "set_rules", session.step, {"rules": []})
    for phone in (guest, vip):
        phone.wait_step(session.step)
        assert phone.page.is_hidden("#social-rules")
    assert catalog.t("fr", "social.rules_tonight") not in guest.text("#game")


def test_round43_how_to_play_mid_game_lists_the_house_rules(
    make_session: Callable[..., Any], live_server: Any, phone_factory: Any
) -> None:
    """Round 43 / H2, H5: a guest who arrives mid-game opens "How to play" and finds the house
    rules on listed in it, each with its line (in Italian here); outside the card, mid-game,
    the list is under the table's players, where a player still in the round can look too."""
    session = make_session("H2,H5")
    server = live_server(session)
    catalog = Catalog.load()
    player = seated_phone(phone_factory, server, "Ana")
    session.act(session.view(None)["vip"], "start", session.step)
    assert session.view(None)["phase"] == "turns"

    late = seated_phone(phone_factory, server, "Eva", others=(), device="iPhone SE", locale="it-IT")
    step = session.step
    for phone in (player, late):
        phone.wait_step(step)
        wait_under_the_table(phone)
    assert rule_lines(player) == expected(catalog, "en", ["H2", "H5"])
    late.page.locator("#social-howto-open").tap()
    late.page.wait_for_selector("#social-howto:not([hidden])")
    late.page.wait_for_selector("#social-howto #social-rules:not([hidden])")
    assert rule_lines(late) == expected(catalog, "it", ["H2", "H5"])
    assert late.text("#social-rules h2") == catalog.t("it", "social.rules_tonight")
    # the card's own button still closes it, under the rules
    assert (
        late.page.evaluate("() => document.querySelector('#social-howto').lastElementChild.tagName")
        == "BUTTON"
    )
    late.page.locator("#social-howto > button").tap()
    late.page.wait_for_selector("#social-howto", state="hidden")
    wait_under_the_table(late)  # back there
    assert session.step == step  # reading changes nothing in the game
