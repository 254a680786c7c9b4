"""The phone page as served: language per phone (issue 8), CSP-clean markup, catalog, assets.

Flask's test client only; the browser tests prove the page actually works.
"""

from __future__ import annotations

import gzip
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from host.i18n import LANGUAGES, Catalog, placeholders
from phone_web.page import compact, translations

STATIC = Path(__file__).resolve().parents[2] / "phone_web" / "static"
BUDGET_BYTES = 20 * 1024


class Tags(HTMLParser):
    """Every start tag with its attributes, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.data: dict[str, str] = {}
        self._open: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._open = dict(attrs).get("id") if tag == "script" else None

    def handle_data(self, data: str) -> None:
        if self._open:
            self.data[self._open] = self.data.get(self._open, "") + data


def parse(html: str) -> Tags:
    tags = Tags()
    tags.feed(html)
    return tags


def i18n_of(client: Any, **headers: str) -> dict[str, Any]:
    page = parse(client.get("/?room=TEST", headers=headers).get_data(as_text=True))
    return json.loads(page.data["i18n"])  # type: ignore[no-any-return]


@pytest.mark.parametrize(("header", "lang"), [
    ("fr-FR,fr;q=0.9,en;q=0.8", "fr"), ("it-IT", "it"), ("de-DE,it;q=0.5", "it"),
    ("en-US,fr;q=0.9", "en"), ("ja-JP", "en"), ("", "en"),
])
def test_each_phone_gets_its_browsers_language(client: Any, header: str, lang: str) -> None:
    response = client.get("/?room=TEST", headers={"Accept-Language": header})
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert f'<html lang="{lang}">' in html
    catalog = Catalog.load()
    assert catalog.t(lang, "phone.name_label") in html
    assert i18n_of(client, **{"Accept-Language": header})["keep"] == \
        catalog.t(lang, "phone.keep")


def test_the_language_switch_wins_and_is_remembered(client: Any) -> None:
    response = client.get("/?room=TEST&lang=it", headers={"Accept-Language": "fr"})
    assert '<html lang="it">' in response.get_data(as_text=True)
    assert "cuckoo_lang=it" in response.headers["Set-Cookie"]
    again = client.get("/?room=TEST", headers={"Accept-Language": "fr"})
    assert '<html lang="it">' in again.get_data(as_text=True)
    ignored = client.get("/?room=TEST&lang=xx", headers={"Accept-Language": "fr"})
    assert '<html lang="it">' in ignored.get_data(as_text=True)  # bad input changes nothing
    assert "Set-Cookie" not in ignored.headers
    links = [a for tag, a in parse(again.get_data(as_text=True)).tags if tag == "a"]
    assert [a["href"] for a in links] == [f"?room=TEST&lang={code}" for code in LANGUAGES]


def test_markup_obeys_the_csp_no_inline_code_no_inline_style(client: Any) -> None:
    response = client.get("/?room=TEST")
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["Cache-Control"] == "no-store"
    page = parse(response.get_data(as_text=True))
    scripts = [a for tag, a in page.tags if tag == "script"]
    assert all(a.get("src") or a.get("type") == "application/json" for a in scripts)
    for tag, attrs in page.tags:
        assert "style" not in attrs, tag
        assert not [name for name in attrs if name.startswith("on")], tag
        for name in ("src", "href"):
            value = attrs.get(name) or ""
            assert not re.match(r"^(https?:)?//", value), f"external {name}: {value}"
    assert ("input", {"id": "name-input", "name": "name", "autocomplete": "nickname",
                      "maxlength": "16", "required": None, "aria-describedby": "name-hint",
                      "autofocus": None}) in page.tags


def test_a_malformed_room_is_never_echoed(client: Any) -> None:
    html = client.get("/?room=%22%3E%3Cscript%3Ex").get_data(as_text=True)
    assert 'data-room=""' in html and "<script>x" not in html
    assert 'id="room-form">' in html  # no valid code: the page asks for one


def test_the_data_block_cannot_be_closed_by_a_message() -> None:
    catalog = Catalog({lang: {"phone.keep": "</script><script>alert(1)</script>"}
                       for lang in LANGUAGES})
    text = translations(catalog, "en")
    assert "</script" not in text.lower()
    assert json.loads(text)["keep"] == "</script><script>alert(1)</script>"


def test_phone_catalog_is_complete_in_every_language() -> None:
    catalog = Catalog.load()
    english = catalog.domain("en", "phone")
    for lang in LANGUAGES:
        messages = catalog.domain(lang, "phone")
        assert set(messages) == set(english), lang
        for key, message in english.items():
            other = messages[key]
            assert type(other) is type(message), (lang, key)
            forms = message.values() if isinstance(message, dict) else [message]
            wanted = set().union(*(placeholders(f) for f in forms))
            theirs = other.values() if isinstance(other, dict) else [other]
            for form in theirs:
                assert placeholders(form) == wanted, (lang, key)
            if isinstance(other, dict):
                assert set(other) == {"one", "other"}, (lang, key)


def test_every_key_the_script_uses_exists() -> None:
    """Typos in ``t("…")`` would show raw keys on phones: every literal and family is checked."""
    source = (STATIC / "phone.js").read_text(encoding="utf-8")
    first_arguments = re.findall(r"\bt\(([^{)]*)", source)  # up to the params or the end
    used = {word for argument in first_arguments for word in re.findall(r'(?<!=== )"(\w+)"', argument)
            if not word.endswith("_")}  # "err_" + code: the families are listed below
    used |= {f"status_{s}" for s in ("active", "eliminated", "waiting")}
    used |= {f"badge_{b}" for b in ("you", "dealer", "turn", "out", "waiting", "offline")}
    used |= {f"err_{e}" for e in ("bad_name", "bad_room", "name_taken", "table_full")}
    used |= {"keep", "exchange", "cut", "deal", "new_game"}  # button labels: t(action)
    assert {"you_gave", "took_yours", "you_blocked", "keep_hint"} <= used
    catalog = Catalog.load()
    for lang in LANGUAGES:
        shipped = json.loads(translations(catalog, lang))
        for key in used:
            assert key in shipped, (lang, key)


def test_assets_are_served_compacted_and_within_budget(client: Any) -> None:
    script = client.get("/phone/phone.js")
    style = client.get("/phone/phone.css")
    assert script.status_code == style.status_code == 200
    assert script.mimetype == "text/javascript" and style.mimetype == "text/css"
    # the stylesheet goes without a charset (fewer header bytes): it must stay pure ASCII
    assert style.content_type == "text/css" and style.get_data().isascii()
    assert script.content_type == "text/javascript; charset=utf-8"
    assert client.get("/phone/../page.py").status_code == 404
    assert client.get("/phone/nothing.js").status_code == 404
    # What a browser receives (it accepts gzip): the script with its add-ons, compressed.
    zipped = {name: client.get(f"/phone/{name}", headers={"Accept-Encoding": "gzip, br"})
              for name in ("phone.js", "phone.css")}
    for name, answer in zipped.items():
        assert answer.headers["Content-Encoding"] == "gzip"
        plain = script if name == "phone.js" else style
        assert gzip.decompress(answer.get_data()) == plain.get_data()
    for lang in LANGUAGES:
        html = client.get(f"/?room=TEST&lang={lang}").get_data()
        total = len(html) + sum(len(answer.get_data()) for answer in zipped.values())
        assert total <= BUDGET_BYTES, (lang, total)


def test_messages_ship_flat_trimmed_and_with_one_form_when_all_are_the_same() -> None:
    catalog = Catalog.load()
    for lang in LANGUAGES:
        shipped = json.loads(translations(catalog, lang))
        assert "room_label" not in shipped  # rendered by the server only
        assert shipped["suit_H"] == catalog.t(lang, "common.suit_H")
        for key, message in catalog.domain(lang, "phone").items():
            if isinstance(message, dict) and key in shipped:
                same = len(set(message.values())) == 1
                assert shipped[key] == (message["other"] if same else message), (lang, key)


def test_compact_keeps_strings_and_drops_only_layout() -> None:
    source = (
        '/* header */\n(() => {\n  const a = "x = y, /* not a comment */";\n'
        '  // gone\n  if (a !== "") {\n    f(a + " " + b, c - -d);\n  }\n})();\n'
    )
    assert compact(source) == (
        '(()=>{const a="x = y, /* not a comment */";if(a!==""){f(a+" "+b,c- -d)}})();'
    )
    assert compact("const f = (x) => x;\nconst g = async (e) => e;\n") == \
        "const f=x=>x;const g=async(e)=>e;"
    real = (STATIC / "phone.js").read_text(encoding="utf-8")
    strings = re.findall(r'"(?:\\.|[^"\\\n])*"', real)
    assert re.findall(r'"(?:\\.|[^"\\\n])*"', compact(real)) == strings
