"""Round 44: during a round, every phone says who lost a life at the last reveal.

Round 44's play-test: a guest sitting behind the TV followed the game on the phone. When a
computer player dealt the next round (``--bot-delay``), the reveal's "You lose a life" stayed
0.4-1.5 s before the new deal wiped it, and the new round's page had no trace of it but a life
dot gone hollow. Now the top of the page says "Last round: …" (the view's ``last_round``)
until the next reveal.
"""

from __future__ import annotations

from typing import Any

import pytest

from host.i18n import Catalog
from tests.phone.helpers import rig_round, seated_phone
from tests.phone.test_phone_screens import in_viewport

CATALOG = Catalog.load()


def t(lang: str, key: str, count: int | None = None, **params: Any) -> str:
    return CATALOG.t(lang, f"phone.{key}", count=count, **params)


def test_round44_after_a_computer_dealt_every_phone_names_the_last_rounds_losers(
    live_server: Any, phone_factory: Any
) -> None:
    """Round 44 / R11, R12: Grace (English) and Sam (French) both hold a 2; Sam was on his
    last life. The computer player deals the next round. Both phones still say, at the top
    of the first screen, what the last reveal did, each from its own seat and in its own
    language; gone at the next reveal, which says it itself."""
    server = live_server()
    session = server.session
    grace = seated_phone(phone_factory, server, "Grace", others=())
    sam = seated_phone(phone_factory, server, "Sam", others=(), locale="fr-FR")
    bot = session.add_bot()
    # Sam deals: the computer player on his left deals the next round (R13), Sam out or not.
    rig_round(
        session,
        {grace.player_id: "2C", bot: "9H", sam.player_id: "2D"},
        lives={sam.player_id: 1},
        dealer=sam.player_id,
    )
    while (table := session.view(None))["phase"] == "turns":
        session.act(table["current"], "keep", table["step"])
    assert table["eliminated"] == [sam.player_id] and table["next_dealer"] == bot
    session.act(bot, "deal", table["step"])  # what the bot runner does after --bot-delay
    dealt = session.view(None)
    assert dealt["phase"] == "turns" and dealt["last_round"]["round"] == dealt["round"] - 1

    for phone, lang, mine, other in (
        (grace, "en", t("en", "you_last_lost", count=2), t("en", "last_out", name="Sam")),
        (sam, "fr", t("fr", "last_lost", count=2, name="Grace"), t("fr", "you_last_out")),
    ):
        phone.wait_step(dealt["step"])
        line = phone.text("#last-game")
        head, tail = t(lang, "last_round", losers="@", rank="2").split("@")
        assert line.startswith(head) and line.endswith(tail), (lang, line)
        assert mine in line and other in line, (lang, line)
        assert in_viewport(phone, "#last-game"), lang

    # The next reveal tells its own outcome: the last round's line goes.
    while (table := session.view(None))["phase"] == "turns":
        session.act(table["current"], "keep", table["step"])
    grace.wait_step(table["step"])
    assert grace.page.locator("#last-game").is_hidden()
    assert grace.page.locator("#outcome").is_visible()


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_round45_the_last_rounds_line_has_no_two_brackets_in_a_row(lang: str) -> None:
    """Round 45's play-test read "Last round: Zoe lost a life (2 left) (lowest card: Ace)":
    a loser's lives left, in brackets, then the lowest card in brackets again."""
    catalog = Catalog.load()
    for key in ("last_lost", "you_last_lost", "last_lost_more", "you_last_lost_more"):
        loser = catalog.t(lang, f"phone.{key}", name="Zoe", count=2, lost=2)
        line = catalog.t(lang, "phone.last_round", losers=loser, rank="A")
        assert ") (" not in line, line


def test_round45_on_a_short_phone_the_line_steps_aside_for_the_rest_of_the_round(
    live_server: Any, phone_factory: Any
) -> None:
    """Round 44 put the last round's line aside on my turn on a short phone (my buttons first);
    round 45's check saw it come back after my move and go again, the card moving 75 px each
    time. Now it stays aside for the rest of the round once my turn came; it shows before."""
    server = live_server()
    session = server.session
    # 320×568: 740 px high or less
    eva = seated_phone(phone_factory, server, "Eva", others=(), device="iPhone SE")
    me = eva.player_id
    ids = [me] + [session.join(name, "TEST").player_id for name in ("Ana", "Bo", "Cy")]
    # Ana deals round 1 and Bo round 2 (R13): Cy, then Eva, plays first in it (R6)
    rig_round(session, dict(zip(ids, ("9H", "2C", "KD", "QS"), strict=True)), dealer=ids[1])
    while (table := session.view(None))["phase"] == "turns":
        session.act(table["current"], "keep", table["step"])
    session.act(table["next_dealer"], "deal", table["step"])
    seen: list[tuple[bool, bool]] = []  # (my turn, the line visible), turn by turn
    while (table := session.view(None))["phase"] == "turns":
        eva.wait_step(table["step"])
        mine = table["current"] == me
        if mine:
            eva.page.wait_for_selector("#actions button")
        seen.append((mine, eva.page.is_visible("#last-game")))
        session.act(table["current"], "keep", table["step"])
    assert len(seen) == 4 and [mine for mine, _ in seen] == [False, True, False, False], seen
    turn = next(index for index, (mine, _) in enumerate(seen) if mine)
    assert all(shown for _, shown in seen[:turn]), seen  # before my turn: there, at the top
    assert not any(shown for _, shown in seen[turn:]), seen  # from my turn on: aside


@pytest.mark.parametrize(("locale", "lang"), [("en-GB", "en"), ("fr-FR", "fr"), ("it-IT", "it")])
def test_round45_a_rounds_top_lines_fit_one_line_on_the_smallest_phone(
    live_server: Any, phone_factory: Any, locale: str, lang: str
) -> None:
    """Round 45's check: on a 320 px phone "À toi — tu es le donneur" took two lines, so the
    card jumped 31 px when "Joué ! Regarde la télé" replaced it. Every line the top line says
    during a round (my turn, as the dealer too, my move made, the deal, someone deciding)
    takes one line there, with a name of five letters."""
    server = live_server()
    phone = seated_phone(
        phone_factory, server, "Theo", others=(), device="iPhone SE", locale=locale
    )
    lines = [
        t(lang, key, name="Theo")
        for key in ("your_turn", "your_turn_dealer", "played", "dealing", "deciding")
    ]
    heights = phone.page.evaluate(
        """lines => { const turn = document.getElementById('turn');
            return lines.map(line => { turn.textContent = line;
                return turn.getBoundingClientRect().height; }); }""",
        [lines[0], *lines],
    )
    one = heights[0]  # "Your turn!", one line
    assert all(abs(height - one) < 1 for height in heights), list(zip(lines, heights[1:]))
