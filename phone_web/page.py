"""The phone page: one HTML document, one stylesheet, one script — the player's private window.

Why a blueprint of its own: the JSON API (``phone_web.api``) is the contract every client
shares; this page is just one client of it. It serves the shell and the translations for the
phone's language, and nothing about the game: every card and button comes from the API, so
the page can never show what the API would not.

The language is chosen per phone (issue 8), independent of the TV: ``?lang=xx`` (the switch on
the page, remembered in a cookie), else the ``cuckoo_lang`` cookie, else ``Accept-Language``.
"""

from __future__ import annotations

import gzip
import json
import re
from importlib import resources

from flask import Blueprint, Flask, Request, Response, abort, current_app, render_template, request

from host.i18n import LANGUAGE_NAMES, LANGUAGES, Catalog, best_language

page_bp = Blueprint("page", __name__, template_folder="templates")

LANG_COOKIE = "cuckoo_lang"
#: Room codes are short capital letters/digits; anything else is dropped, never echoed.
_ROOM_RE = re.compile(r"^[A-Z0-9]{1,12}$")
#: The shared words the page needs besides its own domain (card names for screen readers).
_COMMON_PREFIXES = ("suit_", "rank_", "lives")
#: Messages the template renders on the server; the script never needs them again.
_SERVER_ONLY = frozenset({
    "title", "language", "room_label", "room_hint", "room_go", "name_label", "name_hint",
    "story_title", "players_title", "alerts_title", "sound_label", "vibrate_label",
    "reveal_title", "reconnecting", "stream_replaced", "stream_take_back",
})
#: The page's two assets and their content types (issue 4: at most 3 requests after the HTML).
#: The stylesheet is pure ASCII, so it needs no ``charset`` (15 bytes fewer on every load).
ASSETS = {"phone.js": "text/javascript; charset=utf-8", "phone.css": "text/css"}
#: Add-ons of other features (PHONE_ADDONS.md): their catalog domains, embedded as
#: ``"<domain>.<key>"``, and their scripts, served after ``phone.js`` in the same response (one
#: request). A missing add-on file is skipped.
ADDON_DOMAINS = ("vip", "social")
ADDON_SCRIPTS = ("vip.js", "social.js")
#: Add-on messages only the TV, the voice or the command line use: never shipped to phones.
_ADDON_SERVER_ONLY = frozenset({
    "vip.game_ended", "vip.player_away", "vip.rules_set", "vip.countdown_away",
    "vip.countdown_idle", "vip.help_away_seconds", "vip.away",
})


def page_catalog(app: Flask) -> Catalog:
    """The app's catalog; loaded once and kept in ``app.extensions`` if the app has none."""
    catalog = app.extensions.get("cuckoo_catalog")
    if catalog is None:
        catalog = app.extensions.setdefault("cuckoo_catalog", Catalog.load())
    return catalog  # type: ignore[no-any-return]


def choose_language(req: Request) -> str:
    """The phone's language: the page switch, then its remembered choice, then the browser's."""
    for value in (req.args.get("lang"), req.cookies.get(LANG_COOKIE)):
        if value in LANGUAGES:
            return value
    return best_language(req.headers.get("Accept-Language"))


def clean_room(value: str | None) -> str:
    """The room code from the QR/typed URL, upper-cased, or ``""`` when absent or malformed."""
    room = (value or "").strip().upper()
    return room if _ROOM_RE.match(room) else ""


def translations(catalog: Catalog, lang: str) -> str:
    """The page's messages as one flat compact JSON object for a ``<script type="application/json">``.

    Why flat and trimmed (issue 4, 20 KB): the phone domain's keys and the few shared card words
    never collide, messages the server already rendered are left out, and a plural whose forms
    are all the same (English "{count} left") ships as one string — ``t()`` in the script takes
    either. ``<`` is escaped so no message (or future edit) can close the data block early.
    """
    common = {
        key: value
        for key, value in catalog.domain(lang, "common").items()
        if key.startswith(_COMMON_PREFIXES)
    }
    phone = {k: v for k, v in catalog.domain(lang, "phone").items() if k not in _SERVER_ONLY}
    for domain in ADDON_DOMAINS:
        phone.update({f"{domain}.{k}": v for k, v in catalog.domain(lang, domain).items()
                      if f"{domain}.{k}" not in _ADDON_SERVER_ONLY})
    data = {key: _one_form_if_same(value) for key, value in {**common, **phone}.items()}
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c")


def _one_form_if_same(message: object) -> object:
    if isinstance(message, dict) and len(set(message.values())) == 1:
        return next(iter(message.values()))
    return message


_STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')
_COMMENT = re.compile(r"/\*.*?\*/|^\s*//[^\n]*", re.DOTALL | re.MULTILINE)
#: A line break after ``;``/``{``/``,`` or before ``}``/``)``/``]`` never ends a statement.
_JOIN_LINES = re.compile(r"([;{,])\n|\n(?=[})\]])")
_SPACE_AROUND = re.compile(r"[ \t]*([=,;:?{}()\[\]<>*&|!])[ \t]*")
#: A lone ``+``/``-`` between operands needs no spaces (``a - -b`` keeps one: ``a- -b``).
_LONE_SIGN = re.compile(r"(?<![+-]) ?([+-]) ?(?![+-])")
#: ``0.25`` → ``.25``; ``true``/``false`` → ``!0``/``!1`` (not after a dot or inside a name).
_LEADING_ZERO = re.compile(r"(?<![\w.$])0\.(?=\d)")
_BOOLEAN = re.compile(r"(?<![\w.$])(true|false)(?![\w$])")
#: ``(x) =>``: one plain parameter needs no parentheses (not after ``async`` or a name).
_ONE_PARAMETER = re.compile(r"(?<![\w$])\((\w+)\)=>")
#: ``;}`` outside strings: a statement before ``}`` ends there anyway (the sources write no
#: empty statements).
_LAST_SEMICOLON = re.compile(r'("(?:\\.|[^"\\\n])*")|;}')


def compact(source: str) -> str:
    """Strip comments, indentation and spaces beside punctuation, outside string literals.

    Why: the readable source stays in git while phones get under the 20 KB budget (issue 4).
    Line breaks are removed only where they can never end a statement (no reliance on
    semicolon insertion), ``+``/``-`` keep a space only beside another sign (``a - -b``), the
    ``;`` before a ``}`` goes, string literals are
    copied untouched. The sources use only double-quoted strings, and regular expressions
    without quotes, spaces or comment markers; the browser tests run the compacted script.
    """
    out: list[str] = []
    position = 0
    for match in _STRING.finditer(source):
        out.append(_compact_code(source[position:match.start()]))
        out.append(match.group())
        position = match.end()
    out.append(_compact_code(source[position:]))
    joined = _JOIN_LINES.sub(r"\1", strip_lines("".join(out)))
    return _LAST_SEMICOLON.sub(lambda m: m.group(1) or "}", joined)


def strip_lines(source: str) -> str:
    """Indentation and blank lines only."""
    lines = (line.strip() for line in source.splitlines())
    return "\n".join(line for line in lines if line) + "\n"


_CSS_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
#: After ``{``, ``}`` or ``;`` a line break in CSS is only whitespace between tokens.
_CSS_BREAK = re.compile(r"([{};])\n")


#: A line break between two tags is never shown (the template keeps one element a line).
_BETWEEN_TAGS = re.compile(r">\n<")


def compact_css(source: str) -> str:
    """The stylesheet (written one rule a line, no strings with ``/*``) without comments or breaks."""
    return _CSS_BREAK.sub(r"\1", strip_lines(_CSS_COMMENT.sub("", source)))


def _compact_code(code: str) -> str:
    code = _COMMENT.sub("", code)
    code = re.sub(r"[ \t]+", " ", code)
    code = _LONE_SIGN.sub(r"\1", _SPACE_AROUND.sub(r"\1", code))
    code = _BOOLEAN.sub(lambda m: "!0" if m.group(1) == "true" else "!1", code)
    return _ONE_PARAMETER.sub(r"\1=>", _LEADING_ZERO.sub(".", code))


def asset_bytes(app: Flask, name: str) -> bytes:
    """One asset, compacted once per app and kept in ``app.extensions``."""
    cache: dict[str, bytes] = app.extensions.setdefault("cuckoo_page_assets", {})
    if name not in cache:
        static = resources.files("phone_web") / "static"
        source = (static / name).read_text(encoding="utf-8")
        if name == "phone.js":
            source += "".join("\n" + (static / addon).read_text(encoding="utf-8")
                              for addon in ADDON_SCRIPTS if (static / addon).is_file())
        text = compact(source) if name.endswith(".js") else compact_css(source)
        cache[name] = text.encode("utf-8")
    return cache[name]


def gzipped_asset(app: Flask, name: str) -> bytes:
    """An asset gzipped once per app: the script with its add-ons is the page's biggest part."""
    cache: dict[str, bytes] = app.extensions.setdefault("cuckoo_page_gzipped", {})
    if name not in cache:
        cache[name] = gzip.compress(asset_bytes(app, name), compresslevel=9, mtime=0)
    return cache[name]


@page_bp.get("/phone/<name>")
def asset(name: str) -> Response:
    """The stylesheet or the script (``no-store`` comes from the app, like every response).

    The script (core page and add-ons in one request, PHONE_ADDONS.md) goes gzipped to every
    browser that accepts it, which all phone browsers do.
    """
    if name not in ASSETS:
        abort(404)
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        response = Response(gzipped_asset(current_app, name), content_type=ASSETS[name])
        response.headers["Content-Encoding"] = "gzip"
        response.headers["Vary"] = "Accept-Encoding"
        return response
    return Response(asset_bytes(current_app, name), content_type=ASSETS[name])


@page_bp.get("/")
def index() -> Response:
    """The page for ``/?room=CODE`` (from the QR) or ``/`` (it then asks for the code)."""
    catalog = page_catalog(current_app)
    lang = choose_language(request)
    room = clean_room(request.args.get("room"))
    html = render_template(
        "phone_web/index.html",
        lang=lang,
        room=room,
        t=catalog.translator(lang),
        i18n=translations(catalog, lang),
        languages=[(code, LANGUAGE_NAMES[code]) for code in LANGUAGES],
    )
    response = Response(_BETWEEN_TAGS.sub("><", html), mimetype="text/html")
    if request.args.get("lang") in LANGUAGES:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 24 * 3600, samesite="Lax")
    return response
