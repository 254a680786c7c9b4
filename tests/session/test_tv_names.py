"""Play-test finding: "李小龍" joined from a phone and the TV drew empty boxes. With a TV, the
party hands the session the TV's check of a name (``Session.check_names_with``) and a name the
TV cannot show is refused at the join — ``400 bad_name`` with the ``letters`` it cannot show,
said in the guest's language — and nothing changes. A headless party has no TV: any name.

The check is the TV's own (``host/tv/shown_names.py``) with the bundled fonts only, so these
tests do not depend on the fonts this machine has.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from host.i18n import Catalog
from host.session import NameNotShown, SessionError
from host.tv.shown_names import TvLetters
from host.tv.theme import Theme
from phone_web import create_app

CATALOG = Catalog.load()


def test_playtest_cjk_a_name_the_tv_cannot_show_is_refused_and_changes_nothing(
    make_session: Any, tmp_path: Path
) -> None:
    session = make_session(saved=True)
    session.check_names_with(TvLetters(Theme()))
    session.join("Ana", "TEST")
    before, saved = session.view(None), (tmp_path / "state.json").read_bytes()
    with pytest.raises(NameNotShown) as refusal:
        session.join("李小龍", "TEST")
    assert (refusal.value.code, refusal.value.letters) == ("bad_name", "李小龍")
    assert session.view(None) == before  # no seat, no step
    assert (tmp_path / "state.json").read_bytes() == saved
    session.join("Bruce", "TEST")  # the next guest is seated as ever
    assert [p["name"] for p in session.view(None)["players"]] == ["Ana", "Bruce"]


def test_playtest_cjk_the_checks_before_it_still_come_first(session: Any) -> None:
    """PHONE_API.md's order: a wrong room is bad_room, whatever the name."""
    session.check_names_with(TvLetters(Theme()))
    with pytest.raises(SessionError) as refusal:
        session.join("李小龍", "NOPE")
    assert refusal.value.code == "bad_room"


@pytest.mark.parametrize("name", ["李小龍", "محمد", "रवि"])
def test_playtest_cjk_a_headless_party_takes_any_name(session: Any, name: str) -> None:
    session.join(name, "TEST")
    assert session.view(None)["players"][0]["name"] == name


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_playtest_cjk_the_api_says_which_letters_and_what_to_do(session: Any, lang: str) -> None:
    session.check_names_with(TvLetters(Theme()))
    client = create_app(session).test_client()
    answer = client.post(
        "/api/join", json={"name": "Ana 李", "room": "TEST"}, headers={"Accept-Language": lang}
    )
    assert answer.status_code == 400
    body = answer.get_json()
    assert body["error"] == "bad_name" and body["letters"] == "李"
    assert body["message"] == CATALOG.t(lang, "cli.error_name_not_shown", letters="\u2068李\u2069")
    assert session.view(None)["players"] == []
    other = client.post("/api/join", json={"name": " ", "room": "TEST"}).get_json()
    assert other["error"] == "bad_name" and "letters" not in other  # other bad names as before
