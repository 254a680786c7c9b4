"""The phone page keeps its seat and catches up by itself: refresh, offline, host restart, taps.

Issue 4: refresh mid-turn keeps the seat and the card; offline then back recovers without a
reload; a restarted host resuming the room brings the same seat back; a double tap applies
once; a hostile name is only ever text.
"""

from __future__ import annotations

import time
import unicodedata
from types import SimpleNamespace
from typing import Any

from host.i18n import Catalog
from host.names import MAX_NAME_LENGTH, MAX_NAME_WIDTH, clean_name, display_width
from host.rules import game_moves
from host.tv.shown_names import TvLetters
from host.tv.theme import Theme
from tests.api.cuckoo_http_client import wait_until
from tests.phone.helpers import (
    Phone,
    hold_action_answers,
    is_action_answer,
    seated_phone,
    shown,
    wait_held,
)
from tests.phone.test_phone_game import seat_three

CATALOG = Catalog.load()


def start_game(server: Any, phones: dict[str, Phone]) -> None:
    vip = next(iter(phones.values()))
    vip.tap("start")
    for phone in phones.values():
        phone.wait_step(1)


def actor(session: Any, phones: dict[str, Phone]) -> Phone:
    return next(phones[pid] for pid in phones if game_moves(session.view(pid)["can"]))


def test_refresh_mid_turn_keeps_the_seat_the_card_and_the_buttons(
    live_server: Any, phone_factory: Any
) -> None:
    server = live_server()
    phones = seat_three(server, phone_factory, "en-GB")
    start_game(server, phones)
    mover = actor(server.session, phones)
    card, buttons = mover.card(), mover.buttons()
    assert card and buttons
    mover.page.reload()
    mover.page.wait_for_selector("#game:not([hidden])")
    mover.wait_step(1)
    assert mover.page.is_hidden("#join-form")  # not asked for a name again
    assert mover.card() == card == server.session.view(mover.player_id)["me"]["card"]
    assert mover.buttons() == buttons
    assert shown(card) in mover.text("#actions")  # "Keep your 9♥"
    # A second tab of the same phone (same storage) is the same seat too.
    again = Phone(mover.context, mover.context.new_page())
    again.open(f"{server.url}/?room=TEST")
    again.page.wait_for_selector("#game:not([hidden])")
    assert again.card() == card
    assert again.text("#me-name") == server.session.view(mover.player_id)["me"]["name"]


def test_offline_then_back_recovers_by_itself_and_shows_the_current_state(
    live_server: Any, phone_factory: Any
) -> None:
    server = live_server()
    session = server.session
    phones = seat_three(server, phone_factory, "en-GB")
    start_game(server, phones)
    mover = actor(session, phones)
    sleeper = next(p for p in phones.values() if p is not mover)
    sleeper.context.set_offline(True)
    sleeper.page.wait_for_selector("#banner:not([hidden])")  # "Reconnecting…"
    assert sleeper.text("#banner") == CATALOG.t("en", "phone.reconnecting")
    mover.tap("keep")
    mover.wait_step(2)
    sleeper.context.set_offline(False)
    sleeper.wait_step(2)  # no reload: the page fetched and listened again
    sleeper.page.wait_for_selector("#banner", state="hidden")
    assert sleeper.card() == session.view(sleeper.player_id)["me"]["card"]
    # And it stays live: the next change arrives over the new stream.
    actor(session, phones).tap("keep")
    sleeper.wait_step(3)


def test_a_restarted_host_resuming_the_room_brings_the_same_seat_back(
    make_session: Any, phone_factory: Any
) -> None:
    from host.network import BackgroundServer
    from phone_web import create_app

    first = make_session(saved=True)
    server = BackgroundServer(create_app(first, heartbeat_seconds=1.0), "127.0.0.1", 0).start()
    port = server.port
    resumed_server = None
    try:
        phone = _join_one(phone_factory, f"http://127.0.0.1:{port}", first)
        first.join("Bo", "TEST")
        phone.page.wait_for_function("() => document.querySelectorAll('#players li').length === 2")
        first.close()
        server.stop()
        phone.page.wait_for_selector("#banner:not([hidden])")
        resumed = make_session(saved=True)
        assert resumed.resumed
        resumed.join("Dário", "TEST")  # a change made while the phone was away
        resumed_server = BackgroundServer(
            create_app(resumed, heartbeat_seconds=1.0), "127.0.0.1", port, tries=1
        ).start()
        phone.page.wait_for_function(
            "() => document.querySelectorAll('#players li').length === 3", timeout=15_000
        )
        assert phone.page.is_hidden("#join-form")
        assert phone.text("#me-name") == "Chloé"
        phone.page.wait_for_selector("#banner", state="hidden")
        assert phone.buttons() == ["start"]
    finally:
        if resumed_server is not None:
            resumed_server.stop()
        server.stop()


def test_a_restarted_host_with_a_new_game_in_the_same_room_lets_the_guest_join_again(
    make_session: Any, phone_factory: Any
) -> None:
    """The host starts again with a fresh game under the same room code (a fixed --room):
    the phone's seat is gone, it shows the name form, and joining again shows the new table
    (its steps start again at 0; the page used to keep the old game's step and drop every
    view of the new one, the name form staying up)."""
    from host.network import BackgroundServer
    from phone_web import create_app

    first = make_session()
    server = BackgroundServer(create_app(first, heartbeat_seconds=1.0), "127.0.0.1", 0).start()
    port = server.port
    fresh_server = None
    try:
        phone = _join_one(phone_factory, f"http://127.0.0.1:{port}", first)
        for name in ("Bo", "Cy", "Dee"):
            first.join(name, "TEST")
        first.act(phone.player_id, "start", first.step)
        for _ in range(2):  # two keeps: the old game is at step 3
            current = first.view(None)["current"]
            first.act(current, "keep", first.step)
        phone.wait_step(3)
        first.close()
        server.stop()
        fresh = make_session()  # the same room code, a new game at step 0
        fresh_server = BackgroundServer(
            create_app(fresh, heartbeat_seconds=1.0), "127.0.0.1", port, tries=1
        ).start()
        phone.page.wait_for_selector("#join-form:not([hidden])", timeout=15_000)
        phone.join("Chloé")
        phone.wait_step(fresh.step)
        assert phone.text("#me-name") == "Chloé"
        fresh.join("Eve", "TEST")  # and it stays live
        phone.page.wait_for_function("() => document.querySelectorAll('#players li').length === 2")
    finally:
        if fresh_server is not None:
            fresh_server.stop()
        server.stop()


def test_a_host_restarted_one_change_back_lets_its_author_tap_again(
    make_session: Any, phone_factory: Any
) -> None:
    """A power cut between a tap's fan-out and its sync (host/journal.py): the phone saw the
    change, the restarted host does not have it. The new stream's first view is drawn though
    its step is older, so Chloé has her turn back (the page used to keep the lost step and
    drop every view until the table passed it: her turn's buttons never came back)."""
    from host.journal import journal_path
    from host.network import BackgroundServer
    from phone_web import create_app

    first = make_session(saved=True)
    state = first.state_path
    assert state is not None
    server = BackgroundServer(create_app(first, heartbeat_seconds=1.0), "127.0.0.1", 0).start()
    port = server.port
    resumed_server = None
    try:
        phone = _join_one(phone_factory, f"http://127.0.0.1:{port}", first)
        for name in ("Bo", "Cy"):
            first.join(name, "TEST")
        first.act(phone.player_id, "start", first.step)
        while first.view(None)["current"] != phone.player_id:  # bounded: three seats
            first.act(first.view(None)["current"], "keep", first.step)
        phone.wait_step(first.step)
        lost = first.step
        saved = {path: path.read_bytes() for path in (state, journal_path(state))}
        phone.tap("keep")  # the change the power cut will lose
        phone.wait_past(lost)
        assert "keep" not in phone.buttons()
        first.close()
        server.stop()
        for path, data in saved.items():  # the disk as it was before that change's sync
            path.write_bytes(data)
        resumed = make_session(saved=True)
        assert resumed.resumed and resumed.step == lost
        resumed_server = BackgroundServer(
            create_app(resumed, heartbeat_seconds=1.0), "127.0.0.1", port, tries=1
        ).start()
        phone.wait_step(lost)
        assert "keep" in phone.buttons()
        phone.tap("keep")  # and it counts
        phone.wait_past(lost)
        assert resumed.step == lost + 1
    finally:
        if resumed_server is not None:
            resumed_server.stop()
        server.stop()


def _join_one(phone_factory: Any, url: str, session: Any) -> Phone:
    return seated_phone(phone_factory, SimpleNamespace(url=url, session=session), "Chloé", ())


def test_a_double_tap_applies_once(live_server: Any, phone_factory: Any) -> None:
    server = live_server()
    session = server.session
    phones = seat_three(server, phone_factory, "en-GB")
    start_game(server, phones)
    mover = actor(session, phones)
    # The mover may be the VIP, whose Start answer can land after the stream drew the table:
    # until then its buttons are disabled, and a script's click on them does nothing.
    mover.page.wait_for_selector('#actions button[data-action="keep"]:not([disabled])')
    mover.wait_calm()  # not in the instant after its own Start (that would be a double tap)
    sent_before = len(mover.requests)
    disabled_at_once = mover.page.evaluate("""() => {
        const b = document.querySelector('#actions button[data-action="keep"]');
        b.click(); b.click();
        return [...document.querySelectorAll('#actions button')].every(x => x.disabled);
    }""")
    assert disabled_at_once
    mover.wait_step(2)
    mover.page.wait_for_timeout(300)  # a second request, had one gone out, would be in by now
    assert session.step == 2
    kept = [e for e in session.view(None)["log"] if e["type"] == "kept"]
    assert [e["player"] for e in kept] == [mover.player_id]
    posts = [r for r in mover.requests[sent_before:] if r.url.endswith("/api/action")]
    assert len(posts) == 1
    # Even two requests racing with the same step: one applies, the other is stale.
    nxt = actor(session, phones)
    statuses = nxt.page.evaluate(
        """async (step) => {
        const token = localStorage.getItem('cuckoo:token:TEST');
        const send = () => fetch('/api/action', {method: 'POST', headers: {
            'Content-Type': 'application/json', Authorization: 'Bearer ' + token},
            body: JSON.stringify({action: 'keep', step})}).then(r => r.status);
        return Promise.all([send(), send()]);
    }""",
        2,
    )
    assert sorted(statuses) == [200, 409]
    assert session.step == 3


def test_a_hostile_name_shows_as_text_everywhere(live_server: Any, phone_factory: Any) -> None:
    server = live_server()
    hostile = "<img src=x>&amp;"  # 16 characters: longer names are refused (issue 12.6)
    phones = []
    for name in ("Ana", hostile, "Bo"):
        phone = seated_phone(phone_factory, server, name, others=(), device="iPhone 13")
        phones.append(phone)
    typed = server.session.view(None)["players"][1]["name"]
    assert typed == hostile
    for phone in phones:
        phone.page.wait_for_function("() => document.querySelectorAll('#players li').length === 3")
        assert typed in phone.text("#players")
        assert phone.page.locator("img").count() == 0
        assert phone.dialogs == []
    assert phones[1].text("#me-name") == typed


def test_join_errors_are_clear_and_change_nothing(live_server: Any, phone_factory: Any) -> None:
    server = live_server()
    session = server.session
    phone = phone_factory("Pixel 7", "en-GB")

    def try_join(url: str, name: str, said: str) -> None:
        phone.open(url)
        phone.page.fill("#name-input", name)
        phone.page.locator("#join-button").tap()
        phone.page.wait_for_function(
            "e => document.getElementById('join-error').textContent === e",
            arg=CATALOG.t("en", f"phone.{said}"),
        )
        assert phone.page.is_hidden("#game")

    session.join("Bo", "TEST")
    try_join(f"{server.url}/?room=TEST", "Bo", "err_name_taken")
    try_join(f"{server.url}/?room=TEST", "   ", "name_empty")  # round 41: said, not sent
    try_join(f"{server.url}/?room=TEST", "Ana\u0000", "err_bad_name")
    for number in range(9):
        session.join(f"P{number}", "TEST")
    # round 41: a full table is asked again until a seat frees; none does here
    try_join(f"{server.url}/?room=TEST", "Ana", "table_full_waiting")
    assert len(session.view(None)["players"]) == 10
    assert phone.page.evaluate("() => localStorage.length") == 0


def test_round43_a_dead_phones_guest_is_told_how_to_get_their_seat_back(
    make_session: Any, live_server: Any, phone_factory: Any
) -> None:
    """Presence. Round 43's play-test: José's phone died (its page closed) and from a new
    phone "José" read only "This name is already taken at the table. Choose another one.";
    he became "José2". Now the phone says the seat waits for its phone and how to get it
    back; nothing changes at the table."""
    server = live_server(make_session(presence=True))
    old = seated_phone(phone_factory, server, "José", others=(), locale="fr-FR")
    old.close()  # the phone died: its stream is gone
    assert wait_until(lambda: not server.session.view(None)["players"][0]["connected"], 10.0)
    new = phone_factory("iPhone SE", "fr-FR")
    new.open(f"{server.url}/?room=TEST")
    new.page.fill("#name-input", "José")
    new.page.locator("#join-button").tap()
    new.page.wait_for_function(
        "e => document.getElementById('join-error').textContent === e",
        arg=CATALOG.t("fr", "phone.err_name_taken_away"),
    )
    assert new.page.is_hidden("#game")
    assert [p["name"] for p in server.session.view(None)["players"]] == ["José"]


def test_playtest_cjk_a_name_the_tv_cannot_show_is_said_on_the_phone(
    live_server: Any, phone_factory: Any
) -> None:
    """Play-test finding: "李小龍" joined and the TV drew boxes. With the TV's check, the phone
    says which letters the TV cannot show and what to do, where it says other join errors, in
    its language; no seat is taken and the name stays typed, to be changed."""
    server = live_server()
    server.session.check_names_with(TvLetters(Theme()))
    phone = phone_factory("Pixel 7", "fr-FR")
    phone.open(f"{server.url}/?room=TEST")
    phone.page.fill("#name-input", "李小龍")
    phone.page.locator("#join-button").tap()
    said = CATALOG.t("fr", "phone.err_name_not_shown", letters="\u2068李小龍\u2069")
    phone.page.wait_for_function(
        "e => document.getElementById('join-error').textContent === e", arg=said
    )
    assert phone.page.is_hidden("#game")
    assert phone.page.input_value("#name-input") == "李小龍"
    assert server.session.view(None)["players"] == []
    assert phone.page.evaluate("() => localStorage.length") == 0
    # Round 45's play-test: an emoji the TV cannot show was told to write "Latin letters"
    phone.page.fill("#name-input", "\U0001f99c")  # a parrot: no glyph in the TV's fonts
    phone.page.locator("#join-button").tap()
    said = CATALOG.t("fr", "phone.err_emoji_not_shown", letters="\u2068\U0001f99c\u2069")
    phone.page.wait_for_function(
        "e => document.getElementById('join-error').textContent === e", arg=said
    )
    assert server.session.view(None)["players"] == []


#: Names at the edge of the host's 16 columns (``host/names.py``): emoji and wide characters
#: take two, marks and joiners none, fullwidth letters are plain ones after NFKC.
EDGE_NAMES = (
    "Marie-Éléonore ✨",  # 16 characters, 17 columns: the play-test's refused name
    "Éléonore✨",
    "🎉 Zed",
    "李小龍李小龍李小",  # 8 wide characters: 16 columns
    "李小龍李小龍李小龍",  # 9: 18 columns
    "Zoe\u0308 Zoe\u0308 Zoe\u0308 Zoe\u0308",  # marks take no column
    "👨\u200d👩\u200d👧\u200d👦 Fam",
    "ＡＢＣＤＥＦＧＨＩＪＫＬＭＮＯＰ",  # fullwidth: 16 plain letters after NFKC
    "©©©©©©©©©©©©©©©©",  # emoji, but not shown as one by default: one column each
    "🎉🎉🎉🎉🎉🎉🎉🎉🎉",
    "김민준김민준김민준",  # Hangul: wide
    "さくらサクラさくらサクラ",  # kana: wide
    "Ελένη-Αικατερίνη",  # Greek: one column each
)


def test_a_name_too_wide_for_the_tv_is_said_too_long_as_the_host_counts_it(
    live_server: Any, phone_factory: Any
) -> None:
    """Issue 12.6 said a name too long before sending it, counting characters; the host counts
    columns (an emoji takes two), so "Marie-Éléonore ✨" was refused by the host "without
    special characters". The page now counts as the host does: for each name at the edge, it
    says "too long" exactly when the host would refuse it for its width or length."""
    server = live_server()
    phone = phone_factory("Pixel 7", "en-GB")
    phone.open(f"{server.url}/?room=TEST")
    for name in EDGE_NAMES:
        plain = unicodedata.normalize("NFKC", name)
        refused = len(name) > MAX_NAME_LENGTH or display_width(plain) > MAX_NAME_WIDTH
        phone.page.fill("#name-input", name)
        said = phone.page.get_attribute("#name-input", "aria-invalid") == "true"
        assert said == refused, (name, display_width(plain))
        if refused:
            assert phone.text("#join-error") == CATALOG.t(
                "en", "phone.name_too_long", count=MAX_NAME_LENGTH
            )
        else:  # and the host takes it
            assert clean_name(name)
    assert not server.session.view(None)["players"]


def _refused_join(phone: Any, url: str, name: str) -> str:
    """Open the room's page, tap Join with ``name``, and return what the page says under it."""
    phone.open(f"{url}/?room=TEST")
    phone.page.fill("#name-input", name)
    phone.page.locator("#join-button").tap()
    phone.page.wait_for_function("() => document.getElementById('join-error').textContent")
    return str(phone.text("#join-error"))


def test_a_name_of_only_spaces_is_said_to_be_missing(live_server: Any, phone_factory: Any) -> None:
    """Round 41's play-test: a name of spaces was refused "without special characters", which
    did not tell the guest their name was blank. The page says to type a name first."""
    server = live_server()
    phone = phone_factory("Pixel 7", "fr-FR")
    assert _refused_join(phone, server.url, "   ") == CATALOG.t("fr", "phone.name_empty")
    assert not server.session.view(None)["players"]


def test_a_guest_turned_away_by_a_full_table_takes_the_first_seat_that_frees(
    live_server: Any, phone_factory: Any
) -> None:
    """Round 41's play-test: a full table turned Ivy away ("ask whoever runs the party to make
    room") while a seat was about to free up, and her page never asked again. Now it says it
    will take the first free seat, and does, once one frees (here the host removes a guest)."""
    server = live_server()
    session = server.session
    seated = [
        session.join(f"Guest {i}", "TEST").player_id
        for i in range(session.view(None)["max_players"])
    ]
    phone = phone_factory("Pixel 7", "en-GB")
    refusal = _refused_join(phone, server.url, "Ivy")
    assert refusal == CATALOG.t("en", "phone.table_full_waiting")
    assert "Ivy" not in [p["name"] for p in session.view(None)["players"]]
    # Round 46: the note sits in a role=alert line; each 5 s retry wiped and wrote it again,
    # so a screen reader read it out again every 5 s. A retry leaves it as it is.
    phone.page.evaluate(
        """() => { window.__noteChanges = 0;
        new MutationObserver((m) => { window.__noteChanges += m.length; }).observe(
          document.getElementById('join-error'),
          {childList: true, characterData: true, subtree: true}); }"""
    )

    def joins() -> int:
        return len([r for r in phone.requests if r.url.endswith("/api/join")])

    asked = joins()
    phone.page.wait_for_timeout(100)
    deadline = time.monotonic() + 12
    while joins() < asked + 1 and time.monotonic() < deadline:
        phone.page.wait_for_timeout(200)
    phone.page.wait_for_timeout(500)  # its answer is in
    assert joins() > asked  # it asked again …
    assert phone.page.evaluate("() => window.__noteChanges") == 0  # … and the note stood still
    assert phone.text("#join-error") == refusal
    session.kick(seated[3])
    phone.page.wait_for_selector("#game:not([hidden])", timeout=15_000)
    assert [p["name"] for p in session.view(None)["players"]][-1] == "Ivy"


#: The colour of the line under the join form, as the phone draws it.
JOIN_LINE_COLOUR = "() => getComputedStyle(document.getElementById('join-error')).color"


def test_round46_a_full_tables_wait_is_a_calm_note_and_errors_stay_red(
    live_server: Any, phone_factory: Any
) -> None:
    """Round 46: the 21st guest read "The table is full: this phone will take the first free
    seat." in the red of an error, though it is good news (the page asks again until a seat
    frees). Now it is a calm note in the muted colour of the form's hints; a true error (a name
    taken, a name too long typed while it waits) stays red."""
    server = live_server()
    session = server.session
    session.join("Bo", "TEST")
    phone = phone_factory("Pixel 7", "en-GB")
    assert _refused_join(phone, server.url, "Bo") == CATALOG.t("en", "phone.err_name_taken")
    red = phone.page.evaluate(JOIN_LINE_COLOUR)
    calm = phone.page.evaluate("() => getComputedStyle(document.getElementById('name-hint')).color")
    assert red != calm
    for number in range(session.view(None)["max_players"] - 1):
        session.join(f"Guest {number}", "TEST")
    full = _refused_join(phone, server.url, "Ivy")
    assert full == CATALOG.t("en", "phone.table_full_waiting")
    assert phone.page.evaluate(JOIN_LINE_COLOUR) == calm
    phone.page.fill("#name-input", "x" * (MAX_NAME_LENGTH + 1))  # an error again: red
    assert phone.text("#join-error") == CATALOG.t(
        "en", "phone.name_too_long", count=MAX_NAME_LENGTH
    )
    assert phone.page.evaluate(JOIN_LINE_COLOUR) == red


def test_a_wrong_room_code_asks_for_the_code_on_the_tv_and_keeps_the_name(
    live_server: Any, phone_factory: Any
) -> None:
    """Last week's QR (or a code misread) used to end on the name form with an error and no
    way to type the right code: the guest had to find the QR again. Now the page asks for the
    code, keeps the name typed, and joins with the right one."""
    server = live_server()
    phone = phone_factory("Pixel 7", "fr-FR")
    phone.open(f"{server.url}/?room=WXYZ&lang=fr")
    phone.page.fill("#name-input", "Zoë")
    phone.page.locator("#join-button").tap()
    phone.page.wait_for_selector("#room-form:not([hidden])")
    assert phone.text("#room-error") == CATALOG.t("fr", "phone.err_bad_room")
    assert phone.page.is_hidden("#join-form") and phone.page.is_hidden("#room-badge")
    assert phone.page.evaluate("() => document.activeElement.id") == "room-input"
    assert server.session.view(None)["players"] == []  # nothing changed at the table
    assert phone.page.evaluate("() => localStorage.length") == 0
    phone.page.fill("#room-input", "test")
    phone.page.locator("#room-form button").tap()
    phone.page.wait_for_selector("#join-form:not([hidden])")
    assert phone.page.input_value("#name-input") == "Zoë"
    assert phone.text("#room-badge") == CATALOG.t("fr", "phone.room_badge", room="TEST")
    phone.page.locator("#join-button").tap()
    phone.page.wait_for_selector("#game:not([hidden])")
    assert [p["name"] for p in server.session.view(None)["players"]] == ["Zoë"]


def test_a_typed_address_asks_for_the_room_code(live_server: Any, phone_factory: Any) -> None:
    server = live_server()
    phone = phone_factory("Pixel 7", "en-GB")
    phone.open(f"{server.url}/")
    assert phone.page.is_visible("#room-form") and phone.page.is_hidden("#join-form")
    assert phone.page.evaluate("() => document.activeElement.id") == "room-input"
    phone.page.fill("#room-input", "test")
    phone.page.locator("#room-form button").tap()
    phone.page.wait_for_selector("#join-form:not([hidden])")
    assert phone.page.url.endswith("/?room=TEST")
    assert phone.page.evaluate("() => document.activeElement.id") == "name-input"
    phone.join("Zoë")
    assert server.session.view(None)["players"][0]["name"] == "Zoë"
    phone.wait_step(0)  # the VIP alone: no Start yet, and why
    assert phone.buttons() == []
    assert phone.text("#turn") == CATALOG.t("en", "phone.need_players", count=2)


def test_a_late_joiner_waits_for_the_next_game(live_server: Any, phone_factory: Any) -> None:
    server = live_server()
    phones = seat_three(server, phone_factory, "en-GB")
    start_game(server, phones)
    late = seated_phone(phone_factory, server, "Zoë", others=(), device="iPhone 13")
    late.wait_step(1)
    assert late.text("#me-status") == CATALOG.t("en", "phone.status_waiting")
    current = server.session.view(None)["current"]
    assert late.text("#turn") == CATALOG.t(
        "en", "phone.deciding", name=phones[current].text("#me-name")
    )  # watching the game it will join
    assert late.card() == "" and late.buttons() == []
    for phone in phones.values():  # the others see the newcomer waiting
        phone.page.wait_for_function("() => document.querySelectorAll('#players li').length === 4")
        assert CATALOG.t("en", "phone.badge_waiting") in phone.text("#players")


def test_waking_up_refetches_the_state_and_listens_anew(
    live_server: Any, phone_factory: Any
) -> None:
    """Back from sleep the stream may be silently dead: the page fetches and reconnects."""
    server = live_server()
    phone = seated_phone(phone_factory, server, "Ana", others=(), device="iPhone 13")
    phone.wait_step(0)
    before = len(phone.requests)
    with phone.page.expect_request(lambda r: "/api/events" in r.url):
        phone.page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    urls = [r.url[len(server.url) :].split("?")[0] for r in phone.requests[before:]]
    assert urls == ["/api/state", "/api/events"]
    server.session.join("Bo", "TEST")  # the new stream is live
    phone.page.wait_for_function("() => document.querySelectorAll('#players li').length === 2")


def test_a_slow_answer_overtaken_by_the_stream_leaves_the_buttons_usable(
    live_server: Any, phone_factory: Any
) -> None:
    """Bad Wi-Fi: a phone's tap is answered late, after its stream already brought newer
    tables. When its turn comes round before the old answer lands, its buttons must work once
    the answer is in (it used to leave them disabled: the old answer was not drawn, and nothing
    else turned "busy" off)."""
    server = live_server()
    session = server.session
    phones = seat_three(server, phone_factory, "en-GB")
    start_game(server, phones)
    mover = actor(session, phones)
    held = hold_action_answers(mover.page)  # the server has the tap; the phone waits
    mover.tap(game_moves(session.view(mover.player_id)["can"])[0])
    mover.wait_step(2)  # the stream told it (the buttons are still busy)
    for _ in range(12):  # the others play until it is the mover's turn again
        current = session.view(None)["current"]
        if current == mover.player_id:
            break
        if current is None:
            session.host_next()
        else:
            session.act(current, game_moves(session.view(current)["can"])[0], session.step)
    assert session.view(None)["current"] == mover.player_id
    mover.wait_step(session.step)
    wait_held(mover.page, held)  # held once the route's fetch returns, after the host acted
    assert len(held) == 1
    route, response = held[0]
    route.fulfill(response=response)  # the old answer lands at last
    mover.page.wait_for_selector("#actions button:not([disabled])", timeout=5000)
    buttons = mover.page.locator("#actions button")
    assert buttons.count() >= 1 and all(b.is_enabled() for b in buttons.all())
    assert sorted(mover.buttons()) == sorted(game_moves(session.view(mover.player_id)["can"]))


def test_a_late_answer_does_not_hide_what_the_stream_told_since(
    make_session: Any, live_server: Any, phone_factory: Any
) -> None:
    """Bad Wi-Fi again: the VIP's setting is answered late; meanwhile Bo closed his tab and the
    stream said so (same step: presence does not move the game). The late answer, written
    before Bo left, must not draw him back as present: the VIP would wait for a player who is
    gone (PHONE_API.md, Presence)."""
    server = live_server(make_session(presence=True))
    session = server.session
    phones = seat_three(server, phone_factory, "en-GB")
    vip, bo = list(phones.values())[:2]
    held = hold_action_answers(vip.page)  # the host has the setting; the phone waits
    vip.page.evaluate("() => { window.cuckoo.send('set_tv', { voice_muted: true }); }")
    wait_held(vip.page, held)
    assert session.tv.voice_muted is True
    name = next(p["name"] for p in session.view(None)["players"] if p["id"] == bo.player_id)
    bo.close()
    bo_away = f"""() => [...document.querySelectorAll('#players li')].some((row) =>
        row.textContent.includes('{name}') && row.textContent.includes('away'))"""
    vip.page.wait_for_function(bo_away)  # the stream told the VIP
    route, response = held[0]
    with vip.page.expect_response(is_action_answer):
        route.fulfill(response=response)  # the old answer lands at last
    vip.page.wait_for_timeout(300)  # the page has handled it
    assert vip.page.evaluate(bo_away)


def test_a_host_gone_silent_then_restarted_is_found_again_by_a_phone_that_heard_nothing(
    make_session: Any, phone_factory: Any
) -> None:
    """A power cut, not a crash: the phone's stream gets no FIN, so EventSource stays "open"
    and the page used to show the old table for good, its player counted away by the
    restarted host (their turns kept for them). Now a stream quiet for four heartbeats is
    checked with the host, and the phone listens to the restarted host by itself."""
    from host.network import BackgroundServer
    from phone_web import create_app
    from tests.phone.helpers import SilentRelay

    first = make_session(saved=True)
    server = BackgroundServer(create_app(first, heartbeat_seconds=1.0), "127.0.0.1", 0).start()
    relay = SilentRelay(server.port)
    resumed_server = None
    try:
        phone = _join_one(phone_factory, f"http://127.0.0.1:{relay.port}", first)
        first.join("Bo", "TEST")
        phone.page.wait_for_function("() => document.querySelectorAll('#players li').length === 2")
        relay.cut()  # the power goes: not a word to the phone
        first.close()
        server.stop()
        resumed = make_session(saved=True)
        assert resumed.resumed
        resumed.join("Dário", "TEST")  # a change made after the restart
        resumed_server = BackgroundServer(
            create_app(resumed, heartbeat_seconds=1.0), "127.0.0.1", 0
        ).start()
        relay.backend = resumed_server.port
        phone.page.wait_for_function(
            "() => document.querySelectorAll('#players li').length === 3", timeout=45_000
        )
        assert phone.text("#me-name") == "Chloé" and phone.page.is_hidden("#join-form")
        # The restarted host counts her as here (her turns wait for her) once the page has
        # opened its new stream, which it does just after drawing the table it fetched.
        assert wait_until(
            lambda: any(
                p["id"] == phone.player_id and p["connected"] for p in resumed.view(None)["players"]
            ),
            5.0,
        )
        resumed.join("Eve", "TEST")  # and the new stream stays live
        phone.page.wait_for_function("() => document.querySelectorAll('#players li').length === 4")
        phone.page.wait_for_selector("#banner", state="hidden")
    finally:
        if resumed_server is not None:
            resumed_server.stop()
        server.stop()
        relay.close()


def test_a_quiet_stream_the_host_still_counts_is_left_alone(
    live_server: Any, phone_factory: Any
) -> None:
    """The check of a quiet stream (four heartbeats without a message) asks the host, and a
    stream the host still counts is kept: no new stream (which would flash the player away on
    the TV), no banner."""
    server = live_server()  # heartbeats every second: checked after 4 s of quiet
    phone = _join_one(phone_factory, server.url, server.session)
    asked: list[str] = []
    phone.page.on("request", lambda request: asked.append(request.url))
    phone.page.wait_for_timeout(10_000)  # nobody else at the table: nothing happens
    checks = [url for url in asked if url.endswith("/api/state")]
    assert len(checks) >= 2  # it did ask, about every 4 s
    assert not [url for url in asked if "/api/events" in url]  # and kept its stream
    assert phone.page.is_hidden("#banner")
    me = server.session.view(None)["players"][0]
    assert me["connected"]


def test_a_turn_with_nobody_announced_yet_names_nobody(
    live_server: Any, phone_factory: Any
) -> None:
    """Round 38's play-test: "? réfléchit…" for a second and a half after a freeze. With a TV,
    a view is the table as the TV has shown it (host/pacing.py), and while the TV still deals
    a round no turn is announced yet: ``current`` is null in phase ``turns``. The headline then
    names nobody, rather than a "?"."""
    server = live_server()
    session = server.session
    phone = seated_phone(phone_factory, server, "Ana", locale="fr-FR", lang="fr")
    phone.page.wait_for_selector('#actions button[data-action="start"]')
    me = phone.player_id
    session.act(me, "start", session.step)
    if session.view(None)["current"] == me:  # her turn: move on to someone else's
        session.act(me, "keep", session.step)
    phone.wait_step(session.step)
    assert "réfléchit" in phone.text("#turn")  # someone else's turn, named

    def dealing(route: Any) -> None:
        answer = route.fetch()
        shown = answer.json()
        shown["current"] = None  # as a paced view while the TV deals
        route.fulfill(response=answer, json=shown)

    phone.page.route("**/api/state", dealing)
    phone.page.route("**/api/events*", lambda route: route.abort())
    with phone.page.expect_response(lambda r: "/api/state" in r.url):
        phone.page.reload()
    phone.page.wait_for_function("() => document.getElementById('main').dataset.phase")
    assert phone.page.evaluate("() => document.getElementById('main').dataset.phase") == "turns"
    assert "?" not in phone.text("#turn")
    # round 45: says the cards are being dealt, not a blank line (round 44's check)
    assert phone.text("#turn") == CATALOG.t("fr", "phone.dealing")


def test_a_seat_lost_is_said_and_the_name_is_ready_to_send_again(
    live_server: Any, phone_factory: Any
) -> None:
    """Round 38's play-test: a guest away a minute in the lobby leaves the table (PHONE_API.md
    "Presence"), and her phone, woken, showed an empty name form with no word of why. Now it
    says she is no longer at the table, her name is ready, and one tap seats her again. Here
    the host removes her (the same answer, 401, as a seat lost to the minute away)."""
    server = live_server(heartbeat_seconds=1.0)
    session = server.session
    phone = seated_phone(phone_factory, server, "Zoé", others=("Bo",), locale="fr-FR", lang="fr")
    pid = phone.player_id
    phone.page.wait_for_function("() => document.querySelectorAll('#players li').length === 2")
    phone.page.wait_for_selector("#social-panel")  # tonight's add-on: how to play, standings
    session.kick(pid)
    phone.page.wait_for_selector("#join-form:not([hidden])", timeout=15_000)
    assert phone.text("#join-error") == CATALOG.t("fr", "phone.seat_gone")
    assert phone.page.input_value("#name-input") == "Zoé"
    # round 41's play-test: the join form alone, not the old table's cheers, guesses and
    # standings under it, dead to taps
    assert phone.page.locator("#social-panel").is_hidden()
    phone.page.locator("#join-button").tap()
    phone.page.wait_for_selector("#game:not([hidden])")
    phone.page.wait_for_selector("#social-panel", state="visible")
    assert [p["name"] for p in session.view(None)["players"]] == ["Bo", "Zoé"]


def test_round46_back_on_my_card_keeps_my_seat_and_says_a_second_back_leaves(
    live_server: Any, phone_factory: Any
) -> None:
    """Round 46's brief: the phone's Back on the card went back to what came before the page
    (here a page of the host, as the QR scanner or an empty tab would be): the stream closed
    and the guest was away without a word. Now Back stays on the card, still connected, and
    says a second Back leaves; it does. A tap on the page makes Back caught again."""
    server = live_server()
    session = server.session
    phone = phone_factory("Pixel 7", "it-IT")
    page = phone.page
    page.goto(f"{server.url}/healthz")  # what the guest came from
    phone.open(f"{server.url}/?room=TEST")
    phone.join("Ana")
    room_page = page.url
    page.evaluate("() => { window.sameDocument = true; }")  # gone if the page is left

    for _ in range(2):  # caught, then caught again after a tap on the page
        page.go_back()
        assert page.url == room_page and page.evaluate("() => window.sameDocument") is True
        page.wait_for_selector("#back-note:not([hidden])")
        assert page.is_visible("#card") and page.is_hidden("#join-form")
        assert phone.text("#back-note") == CATALOG.t("it", "phone.back_again")
        assert session.view(None)["players"][0]["connected"] is True
        page.locator("#card").tap()
        page.wait_for_selector("#back-note", state="hidden")

    page.go_back()
    page.wait_for_selector("#back-note:not([hidden])")
    page.go_back()  # the second Back leaves
    page.wait_for_url(f"{server.url}/healthz")
