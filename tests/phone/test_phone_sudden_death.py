"""H5 on the phone: when every remaining player is out together, the sudden-death deals show.

The test is the dealer: through the session's game (under its lock) it puts all three players on
their last life holding a 2, so the reveal eliminates everyone at once and H5 deals one card each
until a single highest card wins. Each phone, in its own language, then lists every deal —
"Sudden death: Ana 9♥, Bo 4♣ — Ana wins" — the ties first.
"""

from __future__ import annotations

from typing import Any

import pytest

from host.i18n import Catalog
from tests.phone.helpers import shown
from tests.phone.test_phone_game import seat_three
from tests.rules.helpers import rig

MAX_TURNS = 10


def lines_for(catalog: Catalog, lang: str, key: str, **params: Any) -> tuple[str, str]:
    """The text before and after ``{cards}`` (the list itself is the browser's ListFormat)."""
    before, _, after = catalog.t(lang, f"phone.{key}", None, cards="\x00", **params).partition(
        "\x00"
    )
    return before, after


def outs(catalog: Catalog, lang: str, names: dict[str, str], me: str, winner: str) -> set[str]:
    """The lines saying who is out, as ``me``'s phone words them (everyone but the winner)."""
    return {
        catalog.t(lang, "phone.you_out")
        if pid == me
        else catalog.t(lang, "phone.is_out", name=name)
        for pid, name in names.items()
        if pid != winner
    }


def _all_out_together(session: Any, ids: list[str]) -> None:
    """Start, and put all three players on their last life holding a 2, so the reveal puts
    them all out together; everyone keeps until it."""
    session.act(ids[0], "start", session.step)
    with session._lock:  # the test is the dealer, through the game, under the session's lock
        game = session._game
        for pid in ids:
            game.player(pid).lives = 1
        rig(game, game.dealer, dict(zip(ids, ("2H", "2S", "2C"), strict=True)))
    for _ in range(MAX_TURNS):
        table = session.view(None)
        if table["phase"] != "turns":
            break
        session.act(table["current"], "keep", table["step"])


@pytest.mark.parametrize(("locale", "lang"), [("en-GB", "en"), ("fr-FR", "fr"), ("it-IT", "it")])
def test_h5_sudden_death_deals_are_shown_at_game_over(
    make_session: Any, live_server: Any, phone_factory: Any, locale: str, lang: str
) -> None:
    session = make_session(house_rules="H5")
    server = live_server(session)
    phones = seat_three(server, phone_factory, locale)
    _all_out_together(session, list(phones))
    table = session.view(None)
    deals, names = table["sudden_death"], {p["id"]: p["name"] for p in table["players"]}
    assert table["phase"] == "game_over" and len(table["winners"]) == 1 and deals
    winner = table["winners"][0]
    assert deals[-1][winner] == max(
        deals[-1].values(), key=lambda c: "A2345678910JQK".index(c[:-1])
    )
    catalog = Catalog.load()
    for pid, phone in phones.items():
        phone.wait_step(table["step"])
        lines = phone.page.locator("#outcome-lines li").all_inner_texts()
        told = [
            line
            for line in lines
            if any(all(shown(c) in line for c in deal.values()) for deal in deals)
        ]
        assert len(told) == len(deals), (pid, lines)
        for line, deal in zip(told, deals):
            for who, card in deal.items():
                assert (
                    catalog.t(lang, "phone.sudden_card", name=names[who], card=shown(card)) in line
                )
        for line in told[:-1]:
            before, after = lines_for(catalog, lang, "sudden_tie")
            assert line.startswith(before) and line.endswith(after), line
        before, after = lines_for(catalog, lang, "sudden_won", name=names[winner])
        assert told[-1].startswith(before) and told[-1].endswith(after), told[-1]
        big = (
            catalog.t(lang, "phone.you_win")
            if pid == winner
            else catalog.t(lang, "phone.winner", name=names[winner])
        )
        assert lines[0] == big
        # Round 43: why a sudden death, and its deals before who is out (they decide it).
        start = lines.index(catalog.t(lang, "phone.sudden_start"))
        assert lines[start - 1] == catalog.t(lang, "phone.lowest", rank=table["lowest"])
        assert lines[start + 1 : start + 1 + len(deals)] == told
        out = [line for line in lines if line in outs(catalog, lang, names, pid, winner)]
        assert len(out) == 2 and all(lines.index(line) > start + len(deals) for line in out)


def test_r14_joint_winners_phones_say_they_won_not_that_they_are_out(
    make_session: Any, live_server: Any, phone_factory: Any
) -> None:
    """R14 without H5: everyone still in loses their last life at one reveal and they are
    joint winners. Round 41's play-test: the winner's phone read "Joint winners" and, in the
    same box, "You're out!"."""
    session = make_session()
    server = live_server(session)
    phones = seat_three(server, phone_factory, "en-GB")
    ids = list(phones)
    _all_out_together(session, ids)
    table = session.view(None)
    assert table["phase"] == "game_over" and sorted(table["winners"]) == sorted(ids)
    catalog = Catalog.load()
    for phone in phones.values():
        phone.wait_step(table["step"])
        lines = phone.page.locator("#outcome-lines li").all_inner_texts()
        assert lines[0].startswith("Joint winners"), lines
        assert phone.text("#outcome h2") == catalog.t("en", "phone.status_lost")  # "Game over"
        assert catalog.t("en", "phone.you_out") not in lines, lines
        assert phone.text("#me-status") == catalog.t("en", "phone.you_win")
