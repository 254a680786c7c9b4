"""Issue 12.2 (big moments) and issue 19 (news spoken once) on two phones through a rigged game.

Ana (VIP, a phone) and Bo (a phone, sound and vibration switched off, reduced motion) sit with
Cy and Dee (the test plays them through the session; each holds an event stream open so they
count as present). The test deals: Cy deals, Dee swaps his Ace with Ana, Ana asks Bo for his
King — "Cuckoo!" — and keeps the Ace, which loses her a life. Then everyone but Ana is on a
last life with a 2: Ana wins, Bo is out.
"""

from __future__ import annotations

import re
from typing import Any

from host.i18n import Catalog
from tests.phone.helpers import Phone, joined_phone, present, rig_round, seated_phone

CATALOG = Catalog.load()

#: Records alerts, screen-reader news and big moments (text, how long each stayed up).
RECORDER = """
window.__alerts = [];
window.__said = [];
window.__moments = [];
navigator.vibrate = () => { window.__alerts.push('vibrate'); return true; };
const RealAudio = window.AudioContext;
window.AudioContext = class extends RealAudio {
  createOscillator() { window.__alerts.push('sound'); return super.createOscillator(); }
};
document.addEventListener('DOMContentLoaded', () => {
  const said = document.getElementById('announcer');
  new MutationObserver(() => window.__said.push(said.textContent))
    .observe(said, {childList: true, characterData: true, subtree: true});
  const moment = document.getElementById('moment');
  let shownAt = 0;
  new MutationObserver(() => {
    if (!moment.hidden) {
      shownAt = performance.now();
      window.__moments.push({text: moment.textContent, ms: null,
        animation: getComputedStyle(document.getElementById('moment-text')).animationName});
    } else if (window.__moments.length) {
      window.__moments[window.__moments.length - 1].ms = performance.now() - shownAt;
    }
  }).observe(moment, {attributes: true, attributeFilter: ['hidden'], subtree: true,
                      childList: true, characterData: true});
});
"""
#: The longest a big moment (1.5–3 s by design, issue 12.2) may be seen up: 3 s and the
#: lateness of a timer on a machine running the whole suite (see its use).
MOMENT_CEILING_MS = 3600
QUIET = (
    "localStorage.setItem('cuckoo:sound', 'off'); localStorage.setItem('cuckoo:vibrate', 'off');"
)


def t(key: str, **params: Any) -> str:
    return CATALOG.t("en", f"phone.{key}", **params)


def card(code: str) -> str:
    """The spoken form, as the live region says it."""
    rank = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack"}.get(code[:-1], code[:-1])
    return t("card_name", rank=rank, suit=CATALOG.t("en", f"common.suit_{code[-1]}"))


def open_phone(
    phone_factory: Any, url: str, name: str, locale: str = "en-GB", **options: Any
) -> Phone:
    """A phone that records its big moments and what it says, joined as ``name``."""
    return joined_phone(phone_factory, url, name, locale=locale, init_script=RECORDER, **options)


def recorded(phone: Phone, name: str) -> list[Any]:
    return list(phone.page.evaluate(f"() => window.__{name}"))


def test_issue12_big_moments_and_issue19_news_told_once(
    live_server: Any, phone_factory: Any
) -> None:
    server = live_server()
    session = server.session
    url = f"{server.url}/?room=TEST"
    ana = open_phone(phone_factory, url, "Ana")
    bo = open_phone(phone_factory, url, "Bo", reduced_motion="reduce")
    bo.page.evaluate(QUIET)
    ids = [p["id"] for p in session.view(None)["players"]]
    with present(session, "Cy", "Dee"):
        a, b, c, d = [p["id"] for p in session.view(None)["players"]]
        assert [a, b] == ids
        # Issue 19: the VIP hears once that Start is possible now (the count is of the
        # players present then: the session decides when Start becomes possible).
        ana.page.wait_for_function("() => window.__said.length > 0")
        ana.page.wait_for_function("() => document.querySelectorAll('#players .badge').length >= 1")
        ready = re.compile(re.escape(t("start_ready", count=99)).replace("99", r"\d"))
        assert [line for line in recorded(ana, "said") if ready.fullmatch(line)] == recorded(
            ana, "said"
        )
        assert len(recorded(ana, "said")) == 1

        rig_round(session, {a: "5H", b: "KS", c: "QD", d: "AC"}, dealer=c)
        table = session.view(None)
        assert table["order"] == [d, a, b, c] and table["current"] == d
        session.act(d, "exchange", table["step"])  # Dee takes Ana's 5♥, gives his A♣
        ana.wait_step(table["step"] + 1)
        ana.page.wait_for_function("() => window.__moments.length === 1")
        ana.tap("exchange")  # into Bo's King: blocked
        for phone in (ana, bo):
            phone.wait_step(table["step"] + 2)
        table = session.view(None)
        session.act(b, "keep", table["step"])
        session.act(c, "keep", table["step"] + 1)
        table = session.view(None)
        assert table["phase"] == "reveal" and table["losers"] == [a]
        ana.wait_step(table["step"])
        ana.page.wait_for_function(
            "() => window.__moments.length === 2 && window.__moments[1].ms !== null"
        )

        # Game over: Cy, Dee and Bo on their last life with a 2; Ana wins.
        rig_round(session, {a: "KH", b: "2S", c: "2C", d: "2D"}, lives={b: 1, c: 1, d: 1}, dealer=a)
        for pid in (b, c, d):
            table = session.view(None)
            session.act(pid, "keep", table["step"])
        ana.wait_step(table["step"] + 1)
        ana.page.wait_for_function(
            "() => window.__moments.length === 3 && window.__moments[2].ms !== null"
        )
        ana.tap("keep")  # the dealer's turn, the last one
        ana.wait_step(table["step"] + 2)
        table = session.view(None)
        assert table["phase"] == "game_over" and table["winners"] == [a]
        for phone in (ana, bo):
            phone.wait_step(table["step"])
        ana.page.wait_for_function("() => window.__moments.length === 4")
        bo.page.wait_for_function("() => window.__moments.length >= 2")
        ana.page.wait_for_function("() => window.__moments.every((m) => m.ms !== null)")
        bo.page.wait_for_function("() => window.__moments.every((m) => m.ms !== null)")

    # Issue 12.2: the big moments, each 1.5–3 s, then back to the card.
    moments = recorded(ana, "moments")
    assert [m["text"] for m in moments] == [
        t("your_turn"),
        t("you_lost_life", count=2),
        t("your_turn"),
        t("you_win"),
    ]
    # Each goes by itself, not cut short. The ceiling has room for a timer held up by a loaded
    # machine: in round 47's two clean-clone runs of the whole suite the first cover (2.2 s)
    # was seen gone after 3.17 and 3.35 s, every other one after 2.2 s; alone, beside the
    # other phone tests at four workers, and with the CPU busy, none of 11 runs went past 3 s.
    assert all(1500 <= m["ms"] <= MOMENT_CEILING_MS for m in moments), moments
    assert all(m["animation"] == "grow" for m in moments)
    assert ana.page.is_hidden("#moment") and ana.page.is_visible("#card")
    theirs = recorded(bo, "moments")
    assert [m["text"] for m in theirs][-2:] == [
        t("moment_blocked", call=t("call_cuckoo"), name="Ana"),
        t("you_out"),
    ]
    assert all(m["animation"] == "none" for m in theirs)  # prefers-reduced-motion honoured
    # Vibration and sound where allowed, none where the player switched them off.
    assert "vibrate" in recorded(ana, "alerts") and "sound" in recorded(ana, "alerts")
    assert recorded(bo, "alerts") == []

    # Issue 19: each piece of news once, cards by name: my card changing and why, my turn, the
    # King shown against me, the reveal, my lost life, the winner.
    said = recorded(ana, "said")
    assert len(said) == len(set(said)), said  # nothing repeated
    everything = " ".join(said)
    for line in (
        t("your_card", card=card("5H")),
        t("took_yours", name="Dee", got=card("5H"), gave=card("AC")),
        t("your_turn"),
        t("you_blocked", name="Bo", call=t("call_cuckoo"), card=card("AC")),
        t("lowest", rank="Ace"),
        t("you_lost_life", count=2),
        t("you_win"),
    ):
        assert everything.count(line) == 1, (line, said)
    bo_said = " ".join(recorded(bo, "said"))
    assert t("you_showed", king=card("KS"), name="Ana", call=t("call_cuckoo")) in bo_said
    assert t("you_out") in bo_said and t("winner", name="Ana") in bo_said


def test_h4_your_turn_covers_the_buttons_under_a_second_of_the_ten(
    make_session: Any, live_server: Any, phone_factory: Any
) -> None:
    """H4 gives a turn ten seconds; its "Your turn!" covered the buttons for 2.2 of them
    (round 36's play-test). Under H4 it goes within a second; without H4 it stays 1.5–3 s
    (issue 12.2, the test above)."""
    session = make_session("H4")
    server = live_server(session)
    phones = [open_phone(phone_factory, f"{server.url}/?room=TEST", n) for n in ("Ana", "Bo", "Cy")]
    ids = [p["id"] for p in session.view(None)["players"]]
    session.act(ids[0], "start", session.step)
    first = phones[ids.index(session.view(None)["current"])]
    first.page.wait_for_function("() => window.__moments.length === 1 && window.__moments[0].ms")
    (moment,) = recorded(first, "moments")
    assert moment["text"] == t("your_turn")
    assert 600 <= moment["ms"] <= 1300, moment


def test_round46_your_turn_is_told_once_a_turn_not_again_by_a_reload(
    make_session: Any, live_server: Any, phone_factory: Any
) -> None:
    """Issue 12.2, round 46: a guest whose turn it was reloaded the page (or the phone woke from
    sleep and reloaded it), and the big "Your turn!" played again, with its tone and buzz, as if
    a new turn began. Now a turn is told once; a new turn still is, even one of a new game with
    the same round, dealer and order (seed 48) reached while the phone was offline (R4, R6)."""
    server = live_server(make_session(seed=48))
    session = server.session
    ana = seated_phone(phone_factory, server, "Ana", init_script=RECORDER)
    me = ana.player_id
    session.act(me, "start", session.step)
    first = session.view(None)
    assert first["current"] == me  # Ana plays first: the turn is hers at once
    ana.wait_step(first["step"])
    ana.page.wait_for_function("() => window.__moments.length === 1")
    assert recorded(ana, "moments")[0]["text"] == t("your_turn")

    ana.page.reload()  # the same turn: drawn, not told again
    ana.wait_step(first["step"])
    assert ana.text("#turn") == t("your_turn")
    assert ana.page.is_hidden("#moment") and recorded(ana, "moments") == []
    assert not [line for line in recorded(ana, "said") if t("your_turn") in line]

    ana.context.set_offline(True)  # asleep: it sees nothing of what follows
    ana.page.wait_for_selector("#banner:not([hidden])")
    session.act(me, "keep", session.step)
    session.act(me, "end_game", session.step)
    session.act(me, "start", session.step)
    second = session.view(None)
    assert second["current"] == me and second["log"][0] == first["log"][0]
    ana.context.set_offline(False)  # back: the new game's first turn is a new turn
    ana.wait_step(second["step"])
    ana.page.wait_for_function("() => window.__moments.length === 1")
    assert recorded(ana, "moments")[0]["text"] == t("your_turn")
