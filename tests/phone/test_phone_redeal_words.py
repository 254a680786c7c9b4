"""Round 40's play-test on real phones (Chromium): the words of a redeal and of a VIP's skip.

Bruno's card changed from 9♦ to 3♠ with no word, and the screen-reader line still read
"Ta carte : 9 de Carreau"; after his removal it still read "Ta carte : 4 de Pique"; his skip
read "Temps écoulé" (time's up). Here Bea's page is French, Ana (the VIP) and Cal English.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.api.cuckoo_http_client import wait_until
from tests.phone.helpers import Phone, seated_phone


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _announced(phone: Phone) -> str:
    return str(phone.page.text_content("#announcer") or "")


def _card_label(phone: Phone) -> str:
    return str(phone.page.get_attribute("#card", "aria-label") or "")


def _control(session: Any, vip: str, action: str, **extra: Any) -> None:
    session.act(vip, action, session.step, extra or None)


def _keep_until_the_turn_of(session: Any, player: str) -> None:
    """Everyone before ``player`` keeps (at most a round's worth of turns)."""
    for _ in range(10):
        table = session.view(None)
        if table["current"] == player:
            break
        session.act(table["current"], "keep", table["step"])


@pytest.mark.browser
def test_round40_the_phones_say_why_a_round_is_dealt_again_and_why_a_card_was_kept(
    make_session: Callable[..., Any], live_server: Any, phone_factory: Any
) -> None:
    clock = Clock()
    session = make_session(presence=True, clock=clock)
    server = live_server(session)
    ana = seated_phone(phone_factory, server, "Ana", others=(), lang="en")
    bea = seated_phone(phone_factory, server, "Bea", others=(), lang="fr")
    cal = seated_phone(phone_factory, server, "Cal", others=(), lang="en")
    dan = seated_phone(phone_factory, server, "Dan", others=(), lang="en")
    vip = ana.player_id
    assert wait_until(lambda: all(p["connected"] for p in session.view(None)["players"]), 10)
    session.act(vip, "start", session.step)
    bea.wait_step(session.step)

    # R16: a called misdeal: Bea's page says so, and its live region tells her new card
    _control(session, vip, "misdeal")
    bea.wait_step(session.step)
    assert "Maldonne\u00a0: la manche est redistribuée" in bea.text("#story")
    assert _card_label(bea).startswith("Ta carte")
    assert _card_label(bea) in _announced(bea)
    assert "Maldonne" in _announced(bea)

    # the VIP skips Bea while she is at the table: not "time's up", and the others read it too
    _keep_until_the_turn_of(session, bea.player_id)
    assert session.view(None)["current"] == bea.player_id
    clock.now += 10.5
    session.presence_tick()
    _control(session, vip, "skip")
    bea.wait_step(session.step)
    cal.wait_step(session.step)
    assert "Ton tour a été passé\u00a0: tu gardes ton" in bea.text("#story")
    assert "Temps écoulé" not in bea.text("#story")
    assert "Bea was skipped and kept their card" in cal.text("#story")

    # a kick mid-round: "Dan left the table", the new card told; Dan's live region no
    # longer tells a card he no longer holds
    table = session.view(None)
    assert table["phase"] == "turns" and dan.player_id in table["order"]
    _control(session, vip, "kick", player=dan.player_id)
    cal.wait_step(session.step)
    assert "Dan left the table: the round is dealt again" in cal.text("#story")
    assert _card_label(cal) in _announced(cal) and "Dan left" in _announced(cal)
    dan.page.wait_for_selector("#join-form:not([hidden])")
    assert "Your card" not in _announced(dan)
    assert "no longer at the table" in _announced(dan)


@pytest.mark.browser
def test_h4_a_vip_skip_is_told_as_costing_a_life_and_the_reveal_says_why(
    make_session: Callable[..., Any], live_server: Any, phone_factory: Any
) -> None:
    """Under H4 a skip is a time-out (RULES.md H4, PHONE_API.md ``skip``): it costs a life at
    the reveal, and the phones say it was the VIP's skip, not "you ran out of time"."""
    clock = Clock()
    session = make_session("H4", presence=True, clock=clock)
    server = live_server(session)
    ana = seated_phone(phone_factory, server, "Ana", others=(), lang="en")
    bea = seated_phone(phone_factory, server, "Bea", others=(), lang="fr")
    cal = seated_phone(phone_factory, server, "Cal", others=(), lang="it")
    vip = ana.player_id
    assert wait_until(lambda: all(p["connected"] for p in session.view(None)["players"]), 10)
    session.act(vip, "start", session.step)
    _keep_until_the_turn_of(session, bea.player_id)
    clock.now += 10.5
    session.presence_tick()
    _control(session, vip, "skip")
    bea.wait_step(session.step)
    cal.wait_step(session.step)
    assert "et ça te coûte une vie à la révélation" in bea.text("#story")
    assert "Il turno di Bea è stato saltato: ha tenuto la sua carta" in cal.text("#story")
    for _ in range(10):  # the others keep: the reveal
        table = session.view(None)
        if table["phase"] != "turns":
            break
        session.act(table["current"], "keep", table["step"])
    bea.wait_step(session.step)
    cal.wait_step(session.step)
    assert "Ton tour a été passé cette manche\u00a0: ça coûte une vie." in bea.text("#outcome")
    assert "Il turno di Bea è stato saltato in questa mano: costa una vita." in cal.text("#outcome")
    assert "sforato" not in cal.text("#outcome")
