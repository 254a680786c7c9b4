"""Round 42: a phone that slept through the end of a game learns who won it in the next lobby.

Round 41's play-test: a knocked-out guest put the phone down (the page hidden: it lets go of
its event stream), the game ended, the VIP opened the next game's lobby; looked at again, the
phone showed the lobby with no word of the last game's winner — even when the sleeper was the
winner. Now the top of every phone in the next game's lobby says who won the last game (the
view's ``last_winners``; R14: joint winners all named), until the next game starts.
"""

from __future__ import annotations

from typing import Any

from host.i18n import Catalog
from tests.phone.helpers import Phone, rigged_reveal
from tests.phone.test_phone_game import seat_three
from tests.phone.test_phone_offline import SET_HIDDEN
from tests.phone.test_phone_screens import in_viewport

CATALOG = Catalog.load()


def t(lang: str, key: str, count: int | None = None, **params: Any) -> str:
    return CATALOG.t(lang, f"phone.{key}", count=count, **params)


def _knock_out_then_end(
    session: Any, phones: dict[str, Phone], sleepers: list[str], last_round: dict[str, str]
) -> None:
    """Round 1 knocks Dário out; ``sleepers`` put their phones down (the page hidden); the
    last round, every other player on their last life, ends the game."""
    chloe, bo, dario = phones
    table = rigged_reveal(session, {chloe: "KH", bo: "QS", dario: "2C"}, lives={dario: 1})
    assert table["eliminated"] == [dario]
    for pid in sleepers:
        phones[pid].wait_step(table["step"])
        phones[pid].page.evaluate(SET_HIDDEN, True)
    session.act(table["next_dealer"], "deal", table["step"])
    table = rigged_reveal(session, last_round, lives={chloe: 1, bo: 1})
    assert table["phase"] == "game_over"


def _wake(phone: Phone, step: int) -> None:
    """The guest looks at the phone again: it catches up with the table as it is now."""
    phone.page.evaluate(SET_HIDDEN, False)
    phone.wait_step(step)


def test_round42_r14_a_phone_asleep_at_the_end_is_told_the_winner_in_the_next_lobby(
    live_server: Any, phone_factory: Any
) -> None:
    """Round 42 / R14: Dário (knocked out) and Bo (who then wins) put their phones down; the
    VIP taps New game. Looked at again, Dário's phone says at the top "Bo won the last game"
    and Bo's "You won the last game!", as the VIP's does; gone once the next game starts."""
    server = live_server()
    session = server.session
    phones = seat_three(server, phone_factory, "en-GB")
    chloe, bo, dario = phones
    _knock_out_then_end(session, phones, [dario, bo], {chloe: "2S", bo: "KH"})
    assert session.view(None)["winners"] == [bo]
    vip = phones[chloe]
    ended = session.step
    vip.wait_step(ended)
    vip.tap("new_game")  # the VIP opens the next game's lobby
    vip.wait_past(ended)  # read after the tap, session.step raced it (a CI run failed so)
    lobby = session.view(None)
    assert lobby["phase"] == "lobby"
    for pid in (dario, bo):
        _wake(phones[pid], lobby["step"])
        assert not [v for v in phones[pid].received_views() if v.get("phase") == "game_over"]
    assert phones[dario].text("#last-game") == t("en", "last_winners", count=1, names="Bo")
    assert phones[dario].text("#last-game") == "Bo won the last game"
    assert phones[bo].text("#last-game") == t("en", "you_won_last") == "You won the last game!"
    vip.page.wait_for_selector("#last-game:not([hidden])")
    assert vip.text("#last-game") == "Bo won the last game"
    for phone in phones.values():
        assert in_viewport(phone, "#last-game")  # at the top, no scrolling
    vip.tap("start")
    for phone in phones.values():
        phone.wait_step(lobby["step"] + 1)
        assert phone.page.is_hidden("#last-game")
        assert phone.text("#last-game") == ""


def test_round42_r14_joint_winners_are_named_together_in_french(
    live_server: Any, phone_factory: Any
) -> None:
    """Round 42 / R14: Chloé and Bo lose their last lives together: joint winners. Dário,
    knocked out and asleep, reads "Bo et Chloé ont gagné la dernière partie" (the list
    in the page's words, the verb in the plural); Chloé reads that she won, with Bo."""
    server = live_server()
    session = server.session
    phones = seat_three(server, phone_factory, "fr-FR")
    chloe, bo, dario = phones
    _knock_out_then_end(session, phones, [dario], {chloe: "5S", bo: "5H"})
    winners = session.view(None)["winners"]
    assert sorted(winners) == sorted([chloe, bo])
    both = " et ".join({chloe: "Chloé", bo: "Bo"}[pid] for pid in winners)  # the engine's order
    session.host_next()  # the TV's key opens the next game's lobby
    lobby = session.view(None)
    _wake(phones[dario], lobby["step"])
    assert phones[dario].text("#last-game") == f"{both} ont gagné la dernière partie"
    assert phones[dario].text("#last-game") == t("fr", "last_winners", count=2, names=both)
    phones[chloe].wait_step(lobby["step"])
    assert phones[chloe].text("#last-game") == t("fr", "you_won_last_with", names="Bo")
    phones[bo].wait_step(lobby["step"])
    assert phones[bo].text("#last-game") == t("fr", "you_won_last_with", names="Chloé")
