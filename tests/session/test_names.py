"""Issue 15 finding 6 (and 1): names are NFKC-normalised, hold a visible character, fit the TV,
and a name that looks like a seated one is ``409 name_taken``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from host import names
from host.session import SessionError
from phone_web import create_app

from ..odd_names import BLANK, ZERO_WIDTH

#: Every class of character that draws as nothing (the 25 that killed the TV, and their kin).
INVISIBLE = [
    *ZERO_WIDTH,
    *BLANK,
    "\u2800 \u2800",
    "\u3164\u3164",
    "\U000e0100",
    "\u3000",
    "\u0301\u0308",
]


@pytest.mark.parametrize("raw", INVISIBLE, ids=lambda s: "+".join(f"U{ord(c):04X}" for c in s))
def test_issue15_names_that_draw_as_nothing_are_refused(session: Any, raw: str) -> None:
    with pytest.raises(SessionError) as refusal:
        session.join(raw, "TEST")
    assert refusal.value.code == "bad_name"
    with pytest.raises(SessionError):
        session.join(f"\u200d{raw}\u200d", "TEST")
    assert session.view(None)["players"] == []


@pytest.mark.parametrize(
    "look_alike",
    [
        "Ana\u200d",
        "\u200dAna",
        "\u0410na",
        "\uff21\uff4e\uff41",
        "ANA",
        "ana",
        " Ana ",
        "A\u200cna",
        "Ana\ufe0f",
        "\U0001d400na",
    ],
)
def test_issue15_a_name_that_looks_like_a_seated_one_is_taken(
    session: Any, look_alike: str
) -> None:
    session.join("Ana", "TEST")
    with pytest.raises(SessionError) as refusal:
        session.join(look_alike, "TEST")
    assert refusal.value.code == "name_taken"
    assert [p["name"] for p in session.view(None)["players"]] == ["Ana"]


def test_issue15_the_seated_look_alike_blocks_the_plain_name_too(session: Any) -> None:
    session.join("\u0410na", "TEST")  # Cyrillic А first
    with pytest.raises(SessionError) as refusal:
        session.join("Ana", "TEST")
    assert refusal.value.code == "name_taken"
    session.join("Anna", "TEST")  # a different name is fine


def test_issue15_names_are_nfkc_and_spaces_are_tidied() -> None:
    assert names.clean_name("\uff21\uff4e\uff41") == "Ana"
    assert names.clean_name("  Ana \u3000  B ") == "Ana B"
    assert names.clean_name("Ana\u200d") == "Ana"
    assert names.clean_name("\u2764\ufe0f Bo") == "\u2764\ufe0f Bo"  # emoji with its selector
    assert names.clean_name("\U0001f469\u200d\U0001f680 Sam") == "\U0001f469\u200d\U0001f680 Sam"


def test_issue15_name_width_is_bounded_for_the_tv() -> None:
    assert names.clean_name("\u5b57" * 8) == "\u5b57" * 8
    with pytest.raises(names.NameRefused):
        names.clean_name("\u5b57" * 16)  # 32 columns: would overflow the lobby badges
    with pytest.raises(names.NameRefused):
        names.clean_name("\U0001f600" * 9)
    assert names.display_width("W" * 16) == 16


def test_issue15_bots_never_take_a_look_alike_of_a_seated_name(make_session: Any) -> None:
    session = make_session()
    session.join("\u0410da", "TEST")  # looks like the first bot name, Ada
    session.add_bot()
    session.add_bot()
    shown = [p["name"] for p in session.view(None)["players"]]
    assert len(shown) == 3 and "Ada" not in shown


def test_round43_a_person_never_takes_a_look_alike_of_a_seated_bot(make_session: Any) -> None:
    """round 43 / issue 15: ``--bots`` sit down first, so the look-alike check meets them."""
    session = make_session(bots=1)  # Ada
    with pytest.raises(SessionError) as refusal:
        session.join("\u0410da", "TEST")
    assert refusal.value.code == "name_taken"


def test_issue15_api_answers_409_name_taken_for_a_look_alike(session: Any) -> None:
    client = create_app(session).test_client()
    assert client.post("/api/join", json={"name": "Ana", "room": "TEST"}).status_code == 201
    answer = client.post("/api/join", json={"name": "\u0410na", "room": "TEST"})
    assert answer.status_code == 409 and json.loads(answer.data)["error"] == "name_taken"
    answer = client.post("/api/join", json={"name": "\u200d", "room": "TEST"})
    assert answer.status_code == 400 and json.loads(answer.data)["error"] == "bad_name"


def test_round43_a_name_whose_seat_waits_for_an_away_phone_says_so(make_session: Any) -> None:
    """Presence. Round 43's play-test: José's phone died; from another phone "José" got only
    "this name is taken, choose another", and he became "José2" with half his evening. The
    refusal stays ``name_taken`` (nothing changes at the table) but, when the seat's phone
    is away, says so (``"away": true``) and how to get the seat back; a name held by a
    present person, or by a computer player, is refused as before."""
    session = make_session(presence=True, bots=1)  # Ada, a computer player
    client = create_app(session).test_client()
    jose = session.join("José", "TEST").player_id
    before = session.view(None)
    answer = client.post(
        "/api/join", json={"name": "JOSÉ", "room": "TEST"}, headers={"Accept-Language": "fr"}
    )
    body = json.loads(answer.data)
    assert answer.status_code == 409 and body["error"] == "name_taken" and body["away"] is True
    assert body["message"].startswith("Quelqu’un à la table a ce nom et son téléphone")
    assert session.view(None) == before  # refused: nothing changed

    stream = session.subscribe(jose)  # José's phone is back: the name is simply taken
    try:
        answer = client.post("/api/join", json={"name": "José", "room": "TEST"})
        assert answer.status_code == 409 and "away" not in json.loads(answer.data)
    finally:
        stream.close()
    answer = client.post("/api/join", json={"name": "Ada", "room": "TEST"})
    assert answer.status_code == 409 and "away" not in json.loads(answer.data)


def test_round45_the_vip_opens_an_away_guests_seat_for_her_new_phone(make_session: Any) -> None:
    """Presence. Round 45's play-test: Ana's phone died mid-game and she borrowed a friend's;
    "Ana" was refused (the seat waits for its phone) and the only way back was to be removed
    and sit out the game. The VIP may now open an away guest's seat (``new_phone``, one step);
    the next phone joining as "Ana" takes that seat with its card, and the old phone's token
    stops working (saved: a restart keeps it so). A present guest's seat cannot be opened, and
    an open seat closes again when the old phone comes back."""
    from host.rules import HouseRules
    from host.session import Session

    session = make_session(presence=True, saved=True)
    first = session.join("Vic", "TEST")
    vic, vic_token = first.player_id, first.token
    dead = session.join("Ana", "TEST")
    ana, old_token = dead.player_id, dead.token
    ben = session.join("Ben", "TEST").player_id
    streams = [session.subscribe(vic), session.subscribe(ben)]
    try:
        phone = session.subscribe(ana)
        session.act(vic, "start", session.step)
        phone.close()  # her phone dies
        card = session.view(ana)["me"]["card"]
        assert card and "new_phone" in session.view(vic)["can"]
        with pytest.raises(SessionError) as refusal:
            session.join("Ana", "TEST")
        assert refusal.value.code == "name_taken"

        step, before = session.step, session.view(None)
        for target in (ben, vic, "p99"):  # present, the VIP, nobody: refused, nothing changes
            with pytest.raises(SessionError) as refusal:
                session.act(vic, "new_phone", step, {"player": target})
            assert refusal.value.code == "bad_action"
        assert session.view(None) == before
        with pytest.raises(SessionError) as refusal:  # a guest is no VIP
            session.act(ben, "new_phone", step, {"player": ana})
        assert refusal.value.code == "bad_action"

        session.act(vic, "new_phone", step, {"player": ana})
        assert session.step == step + 1 and session.view(None)["open_seats"] == [ana]
        seat = session.join("ANA", "TEST")  # her friend's phone
        assert seat.player_id == ana and seat.token != old_token
        assert session.player_for_token(old_token) is None
        assert session.player_for_token(seat.token) == ana
        assert session.view(ana)["me"]["card"] == card and session.step == step + 1
        assert session.view(None)["open_seats"] == []
        with pytest.raises(SessionError):  # taken: the name is refused again
            session.join("Ana", "TEST")
        path = session._state_path
    finally:
        for stream in streams:
            stream.close()
    session.close()
    again = Session(HouseRules(), state_path=path, presence=True)
    try:
        assert again.player_for_token(seat.token) == ana
        assert again.player_for_token(old_token) is None
        assert again.player_for_token(vic_token) == vic
    finally:
        again.close()


def test_round45_an_open_seat_closes_when_the_old_phone_comes_back(make_session: Any) -> None:
    """The VIP opened Ana's seat, then her own phone woke up: the seat is hers again, and a
    phone joining as "Ana" is refused (the name is simply taken)."""
    session = make_session(presence=True)
    vic = session.join("Vic", "TEST").player_id
    ana = session.join("Ana", "TEST").player_id
    session.join("Ben", "TEST")
    vip_stream = session.subscribe(vic)
    try:
        session.act(vic, "new_phone", session.step, {"player": ana})
        assert session.view(None)["open_seats"] == [ana]
        back = session.subscribe(ana)
        try:
            assert session.view(None)["open_seats"] == []
            with pytest.raises(SessionError) as refusal:
                session.join("Ana", "TEST")
            assert refusal.value.code == "name_taken"
        finally:
            back.close()
        assert session.view(None)["open_seats"] == []  # away again: still closed
        with pytest.raises(SessionError):
            session.join("Ana", "TEST")
    finally:
        vip_stream.close()


def test_round45_an_emoji_the_tv_cannot_show_is_told_to_try_another(session: Any) -> None:
    """Round 45's play-test: "🦜" was refused with "Try your name in Latin letters (A to Z)".
    A refusal of symbols only says so (``"emoji": true``) and suggests another emoji; one of
    letters keeps its message."""
    from host.i18n import Catalog

    catalog = Catalog.load()
    assert names.only_symbols("\U0001f99c") and names.only_symbols("\U0001f99c \u2605")
    assert not names.only_symbols("李") and not names.only_symbols("Bo \U0001f99c")
    assert not names.only_symbols("\u200d")
    session.check_names_with(lambda name: name)  # a TV that shows no letter at all
    client = create_app(session).test_client()
    for name, emoji in (("\U0001f99c", True), ("李", False)):
        answer = client.post("/api/join", json={"name": name, "room": "TEST"})
        body = json.loads(answer.data)
        key = "cli.error_emoji_not_shown" if emoji else "cli.error_name_not_shown"
        assert answer.status_code == 400 and body["emoji"] is emoji, body
        assert body["message"] == catalog.t("en", key, letters=f"\u2068{name}\u2069")
    assert session.view(None)["players"] == []
