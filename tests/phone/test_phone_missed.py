"""Round 47: what a guest missed while away is told when they come back, once.

The play-test: Bo's phone went offline in the last round, the game ended (Bo won), the VIP
started the next game; back, Bo's phone went straight to the new game's card and nothing ever
said he won (the lobby's "won the last game" line is gone once the next game starts). A guest
away a minute in the lobby read "You are no longer at the table" with no reason, and a VIP
away a minute lost the role and its controls without a word. Now the view carries the last
game over into the next game (``last_game``), a 401 says when the seat went for being away
(``away``), and the phone page says what was missed in #missed, once: not again after a reload.
"""

from __future__ import annotations

from typing import Any

from host.i18n import Catalog
from tests.api.cuckoo_http_client import wait_until
from tests.clock import Clock
from tests.phone.helpers import Phone, rigged_reveal
from tests.phone.test_phone_game import seat_three
from tests.phone.test_phone_offline import SET_HIDDEN

CATALOG = Catalog.load()
#: Whether #missed is on screen, and its words.
MISSED = "() => [!document.getElementById('missed').hidden, document.getElementById('missed').textContent]"


def t(lang: str, key: str, count: int | None = None, **params: Any) -> str:
    return CATALOG.t(lang, f"phone.{key}", count=count, **params)


def _missed(phone: Phone) -> tuple[bool, str]:
    """(#missed shown, its text); (False, "") on a page without it (the old page)."""
    found = phone.page.evaluate("() => Boolean(document.getElementById('missed'))")
    if not found:
        return (False, "")
    shown, text = phone.page.evaluate(MISSED)
    return bool(shown), str(text)


def _reload(phone: Phone, step: int) -> None:
    phone.page.reload()
    phone.page.wait_for_selector("#game:not([hidden])")
    phone.wait_step(step)


def test_round47_r14_a_phone_offline_across_the_end_is_told_it_won_in_the_next_game_once(
    live_server: Any, phone_factory: Any
) -> None:
    """R14: Dário is knocked out; Bo's phone goes offline in the last round, which Bo wins;
    the VIP opens the next game and starts it. Back online in the new game, Bo's phone says
    "You won the last game!" (and nothing of it to Dário or Chloé, who saw the end); after a
    reload, not again."""
    server = live_server()
    session = server.session
    phones = seat_three(server, phone_factory, "en-GB")
    chloe, bo, dario = phones
    table = rigged_reveal(session, {chloe: "KH", bo: "QS", dario: "2C"}, lives={dario: 1})
    assert table["eliminated"] == [dario]
    session.act(table["next_dealer"], "deal", table["step"])
    phones[bo].wait_step(session.step)  # it drew the last round
    phones[bo].context.set_offline(True)
    table = rigged_reveal(session, {chloe: "2S", bo: "KH"}, lives={chloe: 1, bo: 1})
    assert table["phase"] == "game_over" and table["winners"] == [bo]
    phones[chloe].wait_step(table["step"])
    session.act(chloe, "new_game", table["step"])
    session.act(chloe, "start", session.step)
    game = session.view(None)
    assert game["phase"] == "turns" and game["last_game"] == {
        "number": 1,
        "winners": [{"player": bo, "name": "Bo"}],
        "walkover": False,
    }
    phones[bo].context.set_offline(False)
    phones[bo].wait_step(game["step"])
    phones[bo].page.wait_for_selector("#missed:not([hidden])")
    assert (
        _missed(phones[bo]) == (True, t("en", "you_won_last")) == (True, "You won the last game!")
    )
    for pid in (chloe, dario):  # they saw the end: nothing missed
        phones[pid].wait_step(game["step"])
        assert _missed(phones[pid]) == (False, "")
    _reload(phones[bo], game["step"])
    assert _missed(phones[bo]) == (False, "")  # told once


def test_round47_r14_a_phone_asleep_across_the_end_names_the_winner_in_italian(
    live_server: Any, phone_factory: Any
) -> None:
    """R14: Dário's phone sleeps (hidden) through the last round and the VIP's next game; the
    TV's key moves on. Woken in the new game, it names the winner in its language."""
    server = live_server()
    session = server.session
    phones = seat_three(server, phone_factory, "it-IT")
    chloe, bo, dario = phones
    table = rigged_reveal(session, {chloe: "KH", bo: "2C", dario: "QS"}, lives={bo: 1})
    assert table["eliminated"] == [bo]
    session.act(table["next_dealer"], "deal", table["step"])
    phones[dario].wait_step(session.step)
    phones[dario].page.evaluate(SET_HIDDEN, True)
    table = rigged_reveal(session, {chloe: "KD", dario: "2H"}, lives={dario: 1})
    assert table["winners"] == [chloe]
    session.host_next()  # the TV's key: the next game's lobby
    session.host_next()  # and its first deal
    game = session.view(None)
    assert game["phase"] == "turns"
    phones[dario].page.evaluate(SET_HIDDEN, False)
    phones[dario].wait_step(game["step"])
    phones[dario].page.wait_for_selector("#missed:not([hidden])")
    said = t("it", "last_winners", count=1, names="Chloé")
    assert _missed(phones[dario]) == (True, said) == (True, "Chloé ha vinto l’ultima partita")


def test_round47_a_guest_away_a_minute_in_the_lobby_is_told_why_the_seat_went(
    make_session: Any, live_server: Any, phone_factory: Any
) -> None:
    """The lobby's minute away frees Dário's seat; back online, his phone says he was away
    more than a minute, not only that the seat is gone. A guest removed by the VIP keeps
    the general line: the phone claims no reason it cannot know."""
    clock = Clock()
    session = make_session(presence=True, clock=clock)
    server = live_server(session)
    phones = seat_three(server, phone_factory, "en-GB")
    chloe, bo, dario = phones
    phones[dario].context.set_offline(True)
    assert wait_until(lambda: not _player(session, dario)["connected"], 10)
    clock.now += 61
    assert session.presence_tick() == [f"leave:{dario}"]
    phones[dario].context.set_offline(False)
    phones[dario].page.wait_for_selector("#join-form:not([hidden])")
    assert phones[dario].text("#join-error") == t("en", "seat_gone_away")
    assert phones[dario].text("#join-error") == (
        "You were away more than a minute, so your seat was freed. Tap Join to sit down again."
    )
    session.kick(bo)  # the VIP's remove: no word of being away
    phones[bo].page.wait_for_selector("#join-form:not([hidden])")
    assert phones[bo].text("#join-error") == t("en", "seat_gone")
    assert chloe in [p["id"] for p in session.view(None)["players"]]


def _player(session: Any, pid: str) -> dict[str, Any]:
    return dict(next(p for p in session.view(None)["players"] if p["id"] == pid))


def test_round47_a_vip_away_a_minute_is_told_who_became_the_vip_once(
    make_session: Any, live_server: Any, phone_factory: Any
) -> None:
    """The VIP's phone sleeps mid-game for a minute: the role goes to Bo, whose own phone
    says "You are now the VIP." (not "Bo is now the VIP."), Dário's "Bo is now the VIP.".
    Woken, Chloé's phone says once "While you were away, Bo became the VIP." (in French
    here), not again after a reload; a VIP who hands the role on herself is told nothing."""
    clock = Clock()
    session = make_session(presence=True, clock=clock)
    server = live_server(session)
    phones = seat_three(server, phone_factory, "fr-FR")
    chloe, bo, dario = phones
    assert wait_until(lambda: all(p["connected"] for p in session.view(None)["players"]), 10)
    session.act(chloe, "start", session.step)
    for phone in phones.values():
        phone.wait_step(session.step)
    phones[chloe].page.evaluate(SET_HIDDEN, True)
    assert wait_until(lambda: not _player(session, chloe)["connected"], 10)
    clock.now += 61
    assert f"vip:{bo}" in session.presence_tick()
    phones[bo].page.wait_for_function(
        "() => document.getElementById('vip-news')?.textContent === 'Tu es maintenant le VIP.'"
    )
    phones[dario].page.wait_for_function(
        "() => document.getElementById('vip-news')?.textContent === 'Bo est maintenant le VIP.'"
    )
    step = session.step
    phones[chloe].page.evaluate(SET_HIDDEN, False)
    phones[chloe].wait_step(step)
    phones[chloe].page.wait_for_selector("#missed:not([hidden])")
    said = t("fr", "missed_vip", name="Bo")
    assert (
        _missed(phones[chloe])
        == (True, said)
        == (True, "Pendant ton absence, Bo est devenu le VIP.")
    )
    assert (
        phones[chloe].page.evaluate("() => document.getElementById('vip-news').textContent") == ""
    )
    for pid in (bo, dario):
        assert _missed(phones[pid]) == (False, "")
    _reload(phones[chloe], step)
    assert _missed(phones[chloe]) == (False, "")
    # Bo hands the role back himself: his phone does not say he lost it while away
    page = phones[bo].page
    page.wait_for_selector("#vip-panel:not([hidden])")
    assert wait_until(lambda: _player(session, chloe)["connected"], 10)
    phones[bo].wait_step(session.step)
    page.wait_for_selector(f'.vip-player[data-player="{chloe}"]:not(:has(.vip-away))')
    page.wait_for_selector("#moment", state="hidden")  # his "Your turn!" covers the screen
    page.locator(f'.vip-player[data-player="{chloe}"] .vip-make').tap()
    page.locator("#vip-yes").tap()
    assert wait_until(lambda: session.view(None)["vip"] == chloe, 10)
    phones[bo].wait_step(session.step)
    assert _missed(phones[bo]) == (False, "")


def _said(phone: Phone, words: str) -> int:
    """How many times ``words`` stand in the page's visible text (case ignored)."""
    return int(
        phone.page.evaluate(
            "w => document.body.innerText.toLowerCase().split(w).length - 1", words.lower()
        )
    )


def test_round47_a_knocked_out_guest_reads_game_over_at_most_twice(
    live_server: Any, phone_factory: Any
) -> None:
    """At game over a knocked-out guest's phone said "Game over" three times (its line, the
    outcome box's title, the card); now at most twice, the card labelled for screen readers."""
    server = live_server()
    session = server.session
    phones = seat_three(server, phone_factory, "en-GB")
    chloe, bo, dario = phones
    rigged_reveal(session, {chloe: "KH", bo: "QS", dario: "2C"}, lives={dario: 1})
    session.act(session.view(None)["next_dealer"], "deal", session.step)
    end = rigged_reveal(session, {chloe: "2S", bo: "KH"}, lives={chloe: 1})
    assert end["phase"] == "game_over"
    out = phones[dario]
    out.wait_step(end["step"])
    assert 1 <= _said(out, t("en", "status_lost")) <= 2
    assert out.page.get_attribute("#card", "aria-label") == "Game over"


def test_round47_a_guest_joining_during_a_reveal_reads_next_game_at_most_twice(
    live_server: Any, phone_factory: Any
) -> None:
    """A guest joining during a reveal read "next game" four times (line, headline, card, own
    tag); now at most twice, and the others' rows still tag the newcomer."""
    server = live_server()
    session = server.session
    phones = seat_three(server, phone_factory, "en-GB")
    chloe, bo, dario = phones
    table = rigged_reveal(session, {chloe: "KH", bo: "QS", dario: "2C"})
    assert table["phase"] == "reveal"
    late = phone_factory("iPhone 13", "en-GB")
    late.open(f"{server.url}/?room=TEST")
    late.join("Zoë")
    late.wait_step(table["step"])
    assert late.text("#turn") == t("en", "waiting_note")
    assert 1 <= _said(late, "next game") <= 2
    phones[chloe].page.wait_for_function(
        "() => document.querySelectorAll('#players li').length === 4"
    )
    assert t("en", "badge_waiting") in phones[chloe].text("#players")
