"""Three phones in real Chromium play a whole game by tapping, in English, French and Italian.

Covers issue 4 (join from the QR, my card, my buttons, what happened to me, the reveal, the
winner, each phone seeing only its own card — on screen and on the wire) and issue 8 (each
phone's language from its browser, accented names).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from host.i18n import Catalog
from tests.phone.helpers import Phone, king_seeker, play_until, seated_phone, shown

NAMES = ("Chloé", "Bo", "Dário")
DEVICES = ("Pixel 7", "iPhone 13", "Pixel 7")


def seat_three(server: Any, phone_factory: Any, locale: str) -> dict[str, Phone]:
    """Three handsets open the QR address and join; returns them by player id, VIP first."""
    phones: dict[str, Phone] = {}
    for name, device in zip(NAMES, DEVICES):
        phone = seated_phone(phone_factory, server, name, others=(), device=device, locale=locale)
        phones[phone.player_id] = phone
    return phones


class StoryChecks:
    """After each step, the phones involved tell what happened to them, in their language."""

    def __init__(self, phones: dict[str, Phone], session: Any, lang: str) -> None:
        self.phones, self.session, self.lang = phones, session, lang
        self.catalog = Catalog.load()
        self.names = {p["id"]: p["name"] for p in session.view(None)["players"]}
        self.seen: dict[int, int] = {}
        self.counts: Counter[str] = Counter()
        self.revealed: set[tuple[int, int]] = set()

    def t(self, key: str, **params: Any) -> str:
        return self.catalog.t(self.lang, f"phone.{key}", **params)

    def __call__(self, table: dict[str, Any]) -> None:
        log = table["log"]
        for event in log[self.seen.get(table["round"], 0) :]:
            self.event(event)
        self.seen[table["round"]] = len(log)
        if table["phase"] == "turns":
            self.turn(table)
        elif table["phase"] != "lobby" and (table["round"], table["step"]) not in self.revealed:
            self.revealed.add((table["round"], table["step"]))
            self.reveal(table)

    def story(self, pid: str) -> str:
        return self.phones[pid].text("#story")

    def event(self, event: dict[str, Any]) -> None:
        if event["type"] == "exchanged":
            asker, target = event["player"], event["target"]
            swap = next(
                e
                for e in self.session.view(asker)["me"]["history"]
                if e["type"] == "swap" and e["target"] == target
            )
            gave, got = shown(swap["gave"]), shown(swap["got"])
            assert self.t("you_gave", gave=gave, got=got, name=self.names[target]) in self.story(
                asker
            )
            assert self.t("took_yours", name=self.names[asker], got=got, gave=gave) in self.story(
                target
            )
            self.counts["exchange"] += 1
        elif event["type"] == "blocked":
            asker, target = event["player"], event["target"]
            card = shown(self.session.view(asker)["me"]["card"])
            call = self.t("call_chase" if event["call"] == "chase" else "call_cuckoo")
            assert self.t(
                "you_blocked", name=self.names[target], call=call, card=card
            ) in self.story(asker)
            assert self.t(
                "you_showed", king=shown(event["king"]), name=self.names[asker], call=call
            ) in self.story(target)
            for pid in self.phones:
                if pid not in (asker, target):
                    assert self.t(
                        "log_blocked",
                        target=self.names[target],
                        name=self.names[asker],
                        king=shown(event["king"]),
                        call=call,
                    ) in self.story(pid)
            self.counts["blocked"] += 1
        elif event["type"] == "cut_taken":  # R9: only the dealer learns both cards
            dealer = event["dealer"]
            cut = [
                e for e in self.session.view(dealer)["me"]["history"] if e["type"] == "cut_card"
            ][-1]
            assert self.t(
                "you_cut", card=shown(cut["card"]), discarded=shown(cut["discarded"])
            ) in self.story(dealer)
            for pid in self.phones:
                if pid != dealer:
                    assert self.t("log_cut_taken", name=self.names[dealer]) in self.story(pid)
            self.counts["cut"] += 1
        elif event["type"] == "kept":
            keeper = event["player"]
            card = shown(self.session.view(keeper)["me"]["card"])
            assert self.t("you_kept", card=card) in self.story(keeper)
            self.counts["kept"] += 1

    def turn(self, table: dict[str, Any]) -> None:
        current = table["current"]
        for pid, phone in self.phones.items():
            line = phone.text("#turn")
            if pid == current:
                key = "your_turn_dealer" if pid == table["dealer"] else "your_turn"
                assert line == self.t(key)
                if "exchange" in self.session.view(pid)["can"]:
                    order = table["order"]
                    target = order[order.index(pid) + 1]
                    assert phone.text("#hint-exchange") == self.t(
                        "exchange_hint", name=self.names[target]
                    )
                    assert phone.button_text("exchange") == self.t("exchange")
                    assert phone.button_text("keep") == self.t("keep")
            else:
                assert line == self.t("deciding", name=self.names[current])
        self.counts["turns"] += 1

    def reveal(self, table: dict[str, Any]) -> None:
        """R11/R12/R14: every card on every phone, who lost a life, who is out, the winner."""
        lives = {p["id"]: p["lives"] for p in table["players"]}
        cards = [p["card"] for p in table["players"] if p["card"]]
        assert cards, "the reveal shows every dealt card"
        for pid, phone in self.phones.items():
            players = phone.text("#players")
            for card in cards:
                assert shown(card) in players
            outcome = phone.text("#outcome")
            for loser in table["losers"]:
                if lives[loser]:
                    line = (
                        self.t("you_lost_life", count=lives[loser])
                        if loser == pid
                        else self.t("lost_life", name=self.names[loser], count=lives[loser])
                    )
                    assert line in outcome
            for out in table["eliminated"]:
                assert (
                    self.t("you_out") if out == pid else self.t("is_out", name=self.names[out])
                ) in outcome
            status = self.session.view(pid)["me"]["status"]  # R12: out, watching
            key = f"status_{status}"
            if table["phase"] == "game_over":  # issue 12.7: never "Playing" at the end
                key = "you_win" if pid in table["winners"] else "status_lost"
            elif table["phase"] == "lobby" and status == "active":  # nothing played yet
                key = "status_lobby"
            assert phone.text("#me-status") == self.t(key)
            if table["phase"] == "game_over" and len(table["winners"]) == 1:
                winner = table["winners"][0]
                assert (
                    self.t("you_win")
                    if winner == pid
                    else self.t("winner", name=self.names[winner])
                ) in outcome
        self.counts[table["phase"]] += 1


@pytest.mark.parametrize(("locale", "lang"), [("en-GB", "en"), ("fr-FR", "fr"), ("it-IT", "it")])
def test_r14_three_phones_play_a_whole_game_by_tapping(
    live_server: Any, phone_factory: Any, locale: str, lang: str
) -> None:
    server = live_server()
    session = server.session
    catalog = Catalog.load()
    phones = seat_three(server, phone_factory, locale)
    vip, *others = phones.values()
    for phone in phones.values():
        assert phone.page.get_attribute("html", "lang") == lang  # issue 8: Accept-Language
        phone.wait_step(0)
        phone.page.wait_for_function("() => document.querySelectorAll('#players li').length === 3")
        for name in NAMES:  # accented names exactly as typed
            assert name in phone.text("#players")
    assert vip.buttons() == ["start"]
    assert vip.button_text("start") == catalog.t(lang, "phone.start", count=3)
    for phone in others:
        assert phone.buttons() == []
        assert phone.text("#turn") == catalog.t(lang, "phone.lobby_wait", name=NAMES[0])

    checks = StoryChecks(phones, session, lang)
    taps = play_until(phones, session, lambda table: table["phase"] == "game_over", on_step=checks)
    assert taps > 3
    assert checks.counts["exchange"] >= 1 and checks.counts["turns"] >= 3
    assert checks.counts["kept"] >= 1 and checks.counts["cut"] + checks.counts["kept"] >= 2
    assert checks.counts["reveal"] >= 1 and checks.counts["game_over"] == 1
    table = session.view(None)
    assert table["winners"]
    # The VIP gets New game at the end; it brings everyone back to the lobby with Start.
    assert vip.buttons() == ["new_game"]
    assert vip.button_text("new_game") == catalog.t(lang, "phone.new_game")
    vip.tap("new_game")
    vip.wait_step(table["step"] + 1)
    vip.page.wait_for_selector('#actions button[data-action="start"]')
    for phone in phones.values():
        assert phone.dialogs == []
        assert phone.stream_messages > taps  # every change came over the event stream
        assert all(r.url.startswith(server.url + "/") for r in phone.requests)  # no other host
        assert all(v["me"]["id"] == phone.player_id for v in phone.received_views())


@pytest.mark.parametrize(
    ("locale", "lang", "house_rules", "call"),
    [("en-GB", "en", "", "cuckoo"), ("it-IT", "it", "H8", "chase")],
)
def test_r7_h8_a_shown_king_is_told_on_every_phone(
    live_server: Any,
    make_session: Any,
    phone_factory: Any,
    locale: str,
    lang: str,
    house_rules: str,
    call: str,
) -> None:
    """The asker reads "Chloé showed a King — Cuckoo! You keep your 2♣" ("Caccia!" under H8)."""
    server = live_server(make_session(house_rules))
    phones = seat_three(server, phone_factory, locale)
    checks = StoryChecks(phones, server.session, lang)
    play_until(
        phones,
        server.session,
        lambda table: checks.counts["blocked"] > 0,
        choose=king_seeker(server.session),
        on_step=checks,
    )
    blocked = [e for e in server.session.view(None)["log"] if e["type"] == "blocked"]
    assert blocked and blocked[-1]["call"] == call
    assert phones[blocked[-1]["target"]].card() == blocked[-1]["king"]  # still holding it
    for phone in phones.values():  # R7: the shown King is on the table for everyone
        assert shown(blocked[-1]["king"]) in phone.text("#players")


def test_the_language_switch_changes_only_this_phone_and_keeps_the_seat(
    live_server: Any, phone_factory: Any
) -> None:
    """Issue 8: a small switch on the page, independent of the TV and of the other phones."""
    server = live_server()
    catalog = Catalog.load()
    phones = seat_three(server, phone_factory, "en-GB")
    vip, other, _ = phones.values()
    vip.page.locator('nav a[lang="fr"]').tap()
    vip.page.wait_for_function("() => document.documentElement.lang === 'fr'")
    vip.page.wait_for_selector("#game:not([hidden])")  # same seat, no new join
    assert vip.page.url.endswith("/?room=TEST&lang=fr")
    assert vip.button_text("start") == catalog.t("fr", "phone.start", count=3)
    vip.page.goto(f"{server.url}/?room=TEST")  # remembered on this phone
    vip.page.wait_for_selector("#game:not([hidden])")
    assert vip.page.get_attribute("html", "lang") == "fr"
    assert other.page.get_attribute("html", "lang") == "en"
    assert len(server.session.view(None)["players"]) == 3


def test_h3_a_king_cut_then_a_card_cut_tells_the_card_kept_then(
    make_session: Any, live_server: Any, phone_factory: Any
) -> None:
    """H3: the dealer cuts a King (Cuckoo!, keeps their 4♣), then cuts again and takes the 9♥.
    The first line of the story must still say the 4♣ was kept: it said the card held now."""
    from tests.rules.helpers import rig

    session = make_session("H3")
    server = live_server(session)
    phones = seat_three(server, phone_factory, "en-GB")
    table = session.view(None)
    session.act(table["vip"], "start", table["step"])
    with session._lock:
        game = session._game
        dealer = game.dealer
        cards = dict(zip(game.order, ("5D", "6H", "4C")))
        cards[dealer], cards[game.order[-1]] = "4C", cards[dealer]
        rig(game, dealer, cards, stock=["KS", "9H"])
    for _ in range(3):  # everyone else keeps
        table = session.view(None)
        if table["current"] == dealer:
            break
        assert table["current"] is not None
        session.act(table["current"], "keep", table["step"])
    session.act(dealer, "cut", session.step)
    session.act(dealer, "cut", session.step)
    cuts = [e["type"] for e in session.view(None)["log"] if e["type"] in ("cut_king", "cut_taken")]
    assert cuts == ["cut_king", "cut_taken"]
    phone = phones[dealer]
    phone.wait_step(session.step)
    lines = phone.page.locator("#story li").all_inner_texts()  # newest first
    assert shown("9H") in lines[0] and shown("4C") in lines[0]  # took the 9♥, the 4♣ discarded
    king_line = lines[1]
    assert shown("KS") in king_line and shown("4C") in king_line, king_line
    assert shown("9H") not in king_line
