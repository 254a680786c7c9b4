"""Issue 14 on the phone (add-on ``social.js``): "How to play" for a first-time guest in the
lobby, tonight's standings with my own line highlighted, and — for a guest not in the round —
reactions and a prediction, which never change the game's step. Real Chromium."""

from __future__ import annotations

from typing import Any

from host.i18n import Catalog
from host.rules import game_moves
from host.social import ReactionDesk
from tests.phone.helpers import hold_action_answers, seated_phone, simple_choice, wait_held


def _play_to_the_end(session: Any) -> None:
    """Whoever may act makes a simple move until the game is over (in the session: fast)."""
    for _ in range(400):  # a three-player game ends well within this
        table = session.view(None)
        if table["phase"] == "game_over":
            break
        actor = next(p["id"] for p in table["players"] if game_moves(session.view(p["id"])["can"]))
        session.act(actor, simple_choice(session.view(actor)), table["step"])
    assert session.view(None)["phase"] == "game_over"


def test_issue14_phone_howto_standings_reactions_and_prediction(
    live_server: Any, phone_factory: Any
) -> None:
    server = live_server()
    session = server.session
    catalog = Catalog.load()
    for name in ("Ana", "Bo", "Cy"):
        session.join(name, "TEST")
    first = seated_phone(phone_factory, server, "Dee", others=())
    first.page.wait_for_selector("#social-howto:not([hidden])")
    assert catalog.t("en", "social.howto_2") in first.text("#social-howto")
    assert first.page.is_hidden("#social-standings")
    first.page.locator("#social-howto button").tap()
    first.page.wait_for_selector("#social-howto", state="hidden")
    first.page.reload()  # remembered on this phone
    first.page.wait_for_selector("#game:not([hidden])")
    assert first.page.is_hidden("#social-howto")

    session.act("p1", "start", session.step)  # Dee (p4) is dealt in: no reactions, no guess
    first.wait_step(session.step)
    first.page.wait_for_selector("#social-standings li.me")
    assert first.page.get_attribute("#social-standings li.me", "aria-current") == "true"
    assert "Dee" in first.text("#social-standings li.me")
    # round 43's play-test: the tie-break after wins, rounds survived, is shown too
    row = next(r for r in session.view(None)["standings"] if r["name"] == "Dee")
    assert first.text("#social-standings li.me .details") == " · ".join(
        f"{catalog.t('en', f'social.{key}')} {row[key]}" for key in ("wins", "games", "survived")
    )
    assert first.page.is_hidden("#social-react") and first.page.is_hidden("#social-predict")

    # arrives mid-game: waiting, so may guess
    late = seated_phone(phone_factory, server, "Eva", others=(), device="iPhone 13", locale="it-IT")
    late.page.wait_for_selector("#social-predict:not([hidden]) button")
    assert late.page.is_hidden("#social-howto")  # not in the lobby
    assert catalog.t("it", "social.predict") in late.text("#social-predict")
    step = session.step
    target = session.view(None)["order"][1]
    name = next(p["name"] for p in session.view(None)["players"] if p["id"] == target)
    late.page.locator("#social-predict button", has_text=name).tap()
    late.page.wait_for_selector("#social-predict [aria-pressed=true]")
    assert catalog.t("it", "social.predict_mine", name=name) in late.text("#social-predict")
    session.reactions = ReactionDesk(clock=lambda: 100.0)  # still on screen however slow the tap
    # Wait for the server's answer: the note under the panel exists from the first render on.
    with late.page.expect_response(lambda r: r.url.endswith("/api/social")) as answer:
        late.page.locator("#social-react button").first.tap()
    assert answer.value.ok
    assert [r.player for r in session.reactions.on_screen()] == ["p5"]
    assert session.step == step and late.step() == step  # never a game action


def test_a_refused_reaction_is_told_in_the_pages_language_and_then_goes(
    live_server: Any, phone_factory: Any
) -> None:
    """Two reactions within a second: the second is refused, said in the language the guest
    chose on the page (not the browser's), and the note goes after a few seconds instead of
    staying all evening."""
    server = live_server()
    session = server.session
    catalog = Catalog.load()
    for name in ("Ana", "Bo", "Cy"):
        session.join(name, "TEST")
    session.act("p1", "start", session.step)
    # the browser asks for English, the guest chose French; arrives mid-game: waiting, so may
    # react
    phone = seated_phone(phone_factory, server, "Eva", others=(), lang="fr")
    phone.page.wait_for_selector("#social-react:not([hidden]) button")
    session.reactions = ReactionDesk(clock=lambda: 100.0)  # both taps in the same second
    for expected_ok in (True, False):
        with phone.page.expect_response(lambda r: r.url.endswith("/api/social")) as answer:
            phone.page.locator("#social-react button").first.tap()
        assert answer.value.ok is expected_ok
    # (the answer's body is read after its headers: the note follows a moment later)
    phone.page.wait_for_function(
        "(text) => document.getElementById('social-note').textContent === text",
        arg=catalog.t("fr", "social.error_too_fast"),
    )
    phone.page.wait_for_function(
        "() => document.getElementById('social-note').textContent === ''", timeout=10_000
    )


def test_a_guess_answered_after_its_round_ended_is_not_shown_as_the_new_rounds(
    live_server: Any, phone_factory: Any
) -> None:
    """A waiting guest guesses on slow Wi-Fi; the round ends and the next is dealt before the
    answer lands. The new round's guess buttons stay unpressed: that guess was for the last
    round (the host keeps it there)."""
    server = live_server()
    session = server.session
    for name in ("Ana", "Bo", "Cy"):
        session.join(name, "TEST")
    session.act("p1", "start", session.step)
    # arrives mid-game: waiting for the next game, so guesses every round
    phone = seated_phone(phone_factory, server, "Eva", others=())
    phone.page.wait_for_selector("#social-predict:not([hidden]) button")
    held = hold_action_answers(phone.page, path="/api/social")
    first_round = session.view(None)["round"]
    phone.page.locator("#social-predict button").first.tap()
    wait_held(phone.page, held)
    for _ in range(20):  # bounded: everyone keeps, then the next round is dealt
        view = session.view(None)
        if view["round"] != first_round and view["phase"] == "turns":
            break
        if view["current"] is not None:
            session.act(view["current"], "keep", session.step)
        else:
            session.host_next()
    assert session.view(None)["round"] == first_round + 1
    phone.wait_step(session.step)
    route, response = held[0]
    with phone.page.expect_response(lambda r: r.url.endswith("/api/social")) as answer:
        route.fulfill(response=response)
    assert answer.value.ok
    phone.page.wait_for_timeout(300)  # the answer's body is read, and would be drawn, by now
    assert phone.page.locator("#social-predict [aria-pressed=true]").count() == 0
    assert phone.page.locator("#social-predict button").count() == 3  # this round's guesses


def test_issue14_phone_standings_line_up_with_places_and_title_badges(
    live_server: Any, phone_factory: Any
) -> None:
    """After a game, tonight's standings on a phone: not indented past the other lists, each
    line's place, "you" as a badge on my line, and every fun title as its own badge."""
    server = live_server()
    session = server.session
    catalog = Catalog.load()
    for name in ("Ana", "Bo"):
        session.join(name, "TEST")
    phone = seated_phone(phone_factory, server, "Dee", others=())
    session.act("p1", "start", session.step)
    _play_to_the_end(session)
    phone.wait_step(session.step)
    rows = session.view(None)["standings"]
    assert any(row["titles"] for row in rows)  # a finished game hands out titles
    page = phone.page
    page.wait_for_selector("#social-standings .titles .title")
    heading = page.locator("#social-standings h2").bounding_box()
    lines = page.locator("#social-standings li")
    assert lines.count() == len(rows)
    for index, row in enumerate(rows):
        line = lines.nth(index)
        box = line.bounding_box()
        assert heading is not None and box is not None
        assert abs(box["x"] - heading["x"]) < 1  # the list is not indented
        assert line.locator(".rank").inner_text() == str(row["rank"])
        titles = line.locator(".titles .title").all_inner_texts()
        assert titles == [catalog.t("en", f"social.title_{title}") for title in row["titles"]]
    you = page.locator("#social-standings .badge", has_text=catalog.t("en", "social.you"))
    assert you.count() == 1 and you.locator("xpath=ancestor::li").get_attribute("class") == "row me"


def test_issue14_howto_picture_is_one_row_on_the_smallest_phone(
    live_server: Any, phone_factory: Any
) -> None:
    """ "How to play"'s picture (2♣ ⇄ 9♥ · K♠) on a 320 px wide phone: one row, so the King
    is not left alone on a line under the swap."""
    server = live_server()
    phone = seated_phone(
        phone_factory, server, "Dee", others=(), device="iPhone SE", locale="fr-FR"
    )
    phone.page.wait_for_selector("#social-howto:not([hidden])")
    assert phone.page.evaluate("innerWidth") <= 320
    tops = phone.page.eval_on_selector_all(
        ".howto-cards span", "spans => spans.map(s => Math.round(s.getBoundingClientRect().top))"
    )
    assert len(tops) == 5 and len(set(tops)) == 1, tops


def test_round42_how_to_play_for_a_guest_waiting_for_the_next_game_or_knocked_out(
    live_server: Any, phone_factory: Any
) -> None:
    """Round 42's play-test: "How to play" went from phones once a game started, so a guest who
    arrived mid-game saw "You play from the next game" with nothing to read while waiting. A
    guest waiting for the next game and a knocked-out guest may open it (under the card, on the
    first screen of a 320×568 phone) and close it again; a player still in the game is never
    offered it."""
    from tests.phone.helpers import rigged_reveal

    server = live_server()
    session = server.session
    catalog = Catalog.load()
    phones = {}
    for name, device in (("Ana", "Pixel 7"), ("Dee", "Pixel 7")):
        phones[name] = phone_factory(device, "en-GB")
        phones[name].open(f"{server.url}/?room=TEST")
        phones[name].join(name)
        phones[name].page.locator("#social-howto button").tap()  # read in the lobby: "Got it"
    ids = {p["name"]: p["id"] for p in session.view(None)["players"]}
    for name in ("Bo", "Cy"):
        ids[name] = session.join(name, "TEST").player_id
    table = rigged_reveal(
        session,
        {ids["Ana"]: "9H", ids["Bo"]: "KD", ids["Cy"]: "QC", ids["Dee"]: "2S"},
        lives={ids["Dee"]: 1},
    )
    assert table["eliminated"] == [ids["Dee"]]
    dealer = next(pid for pid in ids.values() if "deal" in session.view(pid)["can"])
    session.act(dealer, "deal", session.step)
    assert session.view(None)["phase"] == "turns"

    # 320×568, and French
    late = seated_phone(phone_factory, server, "Eva", others=(), device="iPhone SE", locale="fr-FR")
    assert session.view(None)["players"][-1]["status"] == "waiting"
    step = session.step
    for phone in (*phones.values(), late):
        phone.wait_step(step)
    ana, dee = phones["Ana"], phones["Dee"]
    assert ana.page.is_hidden("#social-howto-open") and ana.page.is_hidden("#social-howto")
    dee.page.wait_for_selector("#social-howto-open:not([hidden])")  # out: may read it again
    opener = late.page.locator("#social-howto-open")
    assert opener.inner_text() == catalog.t("fr", "social.howto")
    assert late.page.is_hidden("#social-howto")  # closed until asked for
    assert late.page.evaluate(
        """() => { scrollTo(0, 0); const r = document.getElementById('social-howto-open')
            .getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }"""
    ), "the button is under the card, on the first screen"
    opener.tap()
    late.page.wait_for_selector("#social-howto:not([hidden])")
    assert catalog.t("fr", "social.howto_2") in late.text("#social-howto")
    assert late.page.evaluate("() => document.activeElement.closest('#social-howto') !== null")
    assert late.page.is_hidden("#social-howto-open")
    late.page.locator("#social-howto button").tap()  # "Compris"
    late.page.wait_for_selector("#social-howto", state="hidden")
    assert late.page.evaluate("() => document.activeElement.id") == "social-howto-open"
    dee.page.locator("#social-howto-open").tap()
    dee.page.wait_for_selector("#social-howto:not([hidden])")
    assert late.step() == step and session.step == step  # reading changes nothing in the game


#: In document order on a phone: each must come before the next (``-1`` when not on the page).
ORDER_SCRIPT = """selectors => selectors.map(s => {
    const all = [...document.querySelectorAll('#main *')];
    return all.indexOf(document.querySelector(s));
})"""


def test_round45_standings_come_up_under_new_game_at_a_games_end_on_the_vips_phone(
    live_server: Any, phone_factory: Any
) -> None:
    """Round 45's check: at a game's end the VIP's phone had tonight's standings four screens
    down, under the story, the table, the alerts, the host controls and the cheers. They come
    up under New game (before "This round" and the host controls), and go back to the foot of
    the page once the next game's lobby opens."""
    server = live_server()
    session = server.session
    phone = seated_phone(phone_factory, server, "Vi", others=())
    phone.page.wait_for_selector("#vip-panel:not([hidden])")
    for name in ("Ana", "Bo"):
        session.join(name, "TEST")
    vip = session.view(None)["vip"]
    session.act(vip, "start", session.step)
    _play_to_the_end(session)
    phone.wait_step(session.step)
    page = phone.page
    page.wait_for_selector("#social-standings li")
    page.wait_for_selector('#actions button[data-action="new_game"]')
    order = page.evaluate(
        ORDER_SCRIPT,
        ["#actions", "#social-standings", "#story-part", "#players", "#vip-panel", "#social-react"],
    )
    assert -1 not in order and order == sorted(order), order
    assert page.evaluate(
        """() => { scrollTo(0, 0); const r = document.querySelector('#social-standings h2')
            .getBoundingClientRect(); return r.top < 2 * innerHeight; }"""
    ), "the standings' heading is within the first two screens"

    step = session.step
    phone.tap("new_game")
    phone.wait_step(step + 1)  # not ``session.step``, read maybe before the tap arrived
    assert session.view(None)["phase"] == "lobby"
    page.wait_for_function(
        "() => document.getElementById('social-standings').parentNode.id === 'social-panel'"
    )
    order = page.evaluate(ORDER_SCRIPT, ["#players", "#vip-panel", "#social-standings"])
    assert -1 not in order and order == sorted(order), order


def test_round45_a_shared_win_says_so_on_the_phone(live_server: Any, phone_factory: Any) -> None:
    """R14: all three lose their last life at one reveal and win together. Each line of
    tonight's standings on a French phone says the win was shared ("Victoires 1 (dont 1
    partagée)"): round 44's play-test saw three "1"s and nothing said why."""
    from tests.phone.helpers import rigged_reveal

    server = live_server()
    session = server.session
    catalog = Catalog.load()
    phone = seated_phone(phone_factory, server, "Dee", others=(), locale="fr-FR")
    ids = [p["id"] for p in session.view(None)["players"]]
    ids += [session.join(name, "TEST").player_id for name in ("Ana", "Bo")]
    table = rigged_reveal(
        session, dict(zip(ids, ("4C", "4H", "4D"), strict=True)), lives=dict.fromkeys(ids, 1)
    )
    assert table["phase"] == "game_over" and sorted(table["winners"]) == sorted(ids)
    phone.wait_step(session.step)
    phone.page.wait_for_selector("#social-standings li.me")
    shared = catalog.t("fr", "social.wins_shared", count=1)
    wins = catalog.t("fr", "social.wins") + " 1 " + shared
    lines = phone.page.locator("#social-standings li .details").all_inner_texts()
    assert len(lines) == 3 and all(line.startswith(wins) for line in lines), (wins, lines)
