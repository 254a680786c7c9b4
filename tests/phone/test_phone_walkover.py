"""Round 46: a game that ends because everyone else was removed or left is no win on a phone.

Ana, Bo and Cy play; Dee joins during the game (she waits for the next one). The guests go
home and the VIP's host removes Bo and Cy. R14 still names Ana the winner, but her phone says
"Ana is the last one at the table" and "Game over", with no "You win!" moment, and Dee's
phone says the same in French (every phone in its own language).
"""

from __future__ import annotations

from typing import Any

from host.i18n import Catalog
from tests.phone.helpers import present, seated_phone
from tests.phone.test_phone_moments import RECORDER, recorded

CATALOG = Catalog.load()


def t(lang: str, key: str, **params: Any) -> str:
    return CATALOG.t(lang, f"phone.{key}", **params)


def test_round46_r14_the_last_one_at_the_table_is_not_told_they_won(
    live_server: Any, phone_factory: Any
) -> None:
    server = live_server()
    session = server.session
    ana = seated_phone(phone_factory, server, "Ana", others=(), init_script=RECORDER)
    with present(session, "Bo", "Cy"):
        a, b, c = [p["id"] for p in session.view(None)["players"]]
        session.act(a, "start", session.step)
        # waits: she plays the next game
        dee = seated_phone(phone_factory, server, "Dee", (), locale="fr-FR", init_script=RECORDER)
        ana.wait_step(session.step)
        for pid in (b, c):
            session.kick(pid)  # the host's remove: no step of its own
        table = session.view(None)
        assert table["phase"] == "game_over" and table["winners"] == [a] and table["walkover"]
        mine, theirs = t("en", "last_at_table", name="Ana"), t("fr", "last_at_table", name="Ana")
        ana.page.wait_for_function(
            "line => document.getElementById('outcome-lines').innerText.includes(line)", arg=mine
        )
        dee.page.wait_for_function(
            "line => document.getElementById('outcome-lines').innerText.includes(line)",
            arg=theirs,
        )
    assert t("en", "you_win") not in ana.text("#outcome")
    assert ana.text("#me-status") == t("en", "status_lost")  # "Game over", not "You win!"
    assert t("en", "you_win") not in [m["text"] for m in recorded(ana, "moments")]
    assert t("en", "you_win") not in " ".join(recorded(ana, "said"))
    assert mine in " ".join(recorded(ana, "said"))  # screen readers hear it too
    assert t("fr", "winner", name="Ana") not in dee.text("#outcome")
