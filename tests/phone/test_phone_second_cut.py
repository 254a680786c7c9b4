"""Round 43 / H3 (double cut) on real phones (Chromium): the dealer's second cut read on every
other phone as the same log line twice ("Dan cut the stock and took the card"), with no word
that it was a second cut; the voice already said "cuts again". Now the second line says it,
in each phone's language; the dealer's own lines (their cards) are as before."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from host.i18n import Catalog
from tests.api.cuckoo_http_client import wait_until
from tests.phone.helpers import Phone, seated_phone

LANGS = {"Ana": "en", "Bea": "fr", "Cal": "it", "Dan": "en"}


def _line(catalog: Catalog, lang: str, key: str, name: str) -> str:
    """A story line as the page writes it, up to the King it names (a King's card and call
    follow): what the test can say without the page's card words."""
    text = catalog.t(lang, f"phone.{key}", name=name, king="\x00", call="")
    return text.split("\x00")[0].strip()


#: Seeds whose dealer's two cuts end so: a card and a card, a card and a King, two Kings.
CUTS = {3: ("cut_taken", "cut_taken"), 26: ("cut_taken", "cut_king"), 154: ("cut_king", "cut_king")}


@pytest.mark.browser
@pytest.mark.parametrize("seed", sorted(CUTS))
def test_round43_h3_phones_tell_the_second_cut_as_a_second_cut(
    make_session: Callable[..., Any], live_server: Any, phone_factory: Any, seed: int
) -> None:
    catalog = Catalog.load()
    session = make_session("H3", seed=seed)
    server = live_server(session)
    phones: dict[str, Phone] = {}
    for name, lang in LANGS.items():
        phones[name] = seated_phone(phone_factory, server, name, others=(), lang=lang)
    assert wait_until(lambda: all(p["connected"] for p in session.view(None)["players"]), 10)
    session.act(session.view(None)["vip"], "start", session.step)
    for _ in range(10):  # everyone keeps up to the dealer, who cuts twice
        table = session.view(None)
        if table["current"] == table["dealer"]:
            break
        session.act(table["current"], "keep", table["step"])
    dealer = session.view(None)["dealer"]
    session.act(dealer, "cut", session.step)
    session.act(dealer, "cut", session.step)
    log = session.view(None)["log"]
    assert [e.get("attempt") for e in log if e["type"] == "cut"] == [1, 2]
    first, second = [e["type"] for e in log if e["type"] in ("cut_taken", "cut_king")]
    assert (first, second) == CUTS[seed]
    dealer_name = next(n for n, p in phones.items() if p.player_id == dealer)
    for name, phone in phones.items():
        phone.wait_step(session.step)
        lines = phone.text("#story").splitlines()
        lang = LANGS[name]
        once = _line(catalog, lang, f"log_{first}", dealer_name)
        again = _line(catalog, lang, f"log_{second}_again", dealer_name)
        assert again != _line(catalog, lang, f"log_{second}", dealer_name)
        told_again = [line for line in lines if line.startswith(again)]
        told_once = [line for line in lines if line.startswith(once) and line not in told_again]
        if name == dealer_name:  # the dealer's own lines name their cards, as before
            assert not told_again and not told_once, lines
        else:
            assert len(told_once) == 1 and len(told_again) == 1, (name, first, second, lines)
            assert lines.index(told_once[0]) > lines.index(told_again[0])  # newest first
