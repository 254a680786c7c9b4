"""The phone page: one HTML document, one stylesheet, one script — the player's private window.

Why a blueprint of its own: the JSON API (``phone_web.api``) is the contract every client
shares; this page is just one client of it. It serves the shell and the translations for the
phone's language, and nothing about the game: every card and button comes from the API, so
the page can never show what the API would not.

The language is chosen per phone (issue 8), independent of the TV: ``?lang=xx`` (the switch on
the page, remembered in a cookie), else the ``cuckoo_lang`` cookie, else ``Accept-Language``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources

import zopfli.gzip
from flask import Blueprint, Flask, Request, Response, abort, current_app, render_template, request

from host.i18n import LANGUAGE_NAMES, LANGUAGES, Catalog, best_language
from host.palette import SUIT_COLOURS, css_hex
from host.rules import RULE_FIELDS
from phone_web._vendor import rcssmin, rjsmin

page_bp = Blueprint("page", __name__, template_folder="templates")

LANG_COOKIE = "cuckoo_lang"
#: A stream quiet for this many heartbeats is checked with the host (phone.js ``watchQuiet``):
#: the browser's EventSource hides the heartbeats themselves, so a stream that died without a
#: word (the host's power cut) would otherwise leave the phone showing an old table for good.
QUIET_HEARTBEATS = 4
#: Room codes are short capital letters/digits; anything else is dropped, never echoed.
_ROOM_RE = re.compile(r"^[A-Z0-9]{1,12}$")
#: The shared words the page needs besides its own domain (card names for screen readers).
_COMMON_PREFIXES = ("suit_", "rank_", "lives")
#: Messages the template renders on the server; the script never needs them again.
_SERVER_ONLY = frozenset(
    {
        "title",
        "language",
        "room_label",
        "room_hint",
        "room_go",
        "name_label",
        "name_hint",
        "story_title",
        "players_title",
        "alerts_title",
        "sound_label",
        "vibrate_label",
        "reveal_title",
        "reconnecting",
        "stream_replaced",
        "stream_take_back",
        "back_again",
    }
)
#: The page's two assets and their content types (issue 16.5: at most 3 requests after the HTML).
#: The stylesheet is pure ASCII, so it needs no ``charset``.
ASSETS = {"phone.js": "text/javascript; charset=utf-8", "phone.css": "text/css"}
#: The core script; the bundled add-on scripts follow it in the same response (PHONE_ADDONS.md).
CORE_SCRIPT = "phone.js"
#: Add-ons of other features: their catalog domains (keys shipped as ``"<domain>.<key>"``).
ADDON_DOMAINS = ("vip", "social")
#: Add-on scripts every phone runs, bundled after ``phone.js`` (a missing file is skipped).
ADDON_SCRIPTS = ("vip_news.js", "social.js")
#: Add-on scripts a phone fetches only once its view says it can use them (``phone.js``
#: decides when): the VIP's host controls, so a guest never downloads them. Each is served for
#: the phone's language with its own messages in front (``cuckoo.addMessages``).
ON_DEMAND_SCRIPTS = ("vip.js",)
#: A string literal of a script: the words a script names (message keys among them).
_SCRIPT_WORD = re.compile(r'"(?:[a-z]+\.)?([A-Za-z0-9_]+)"')
#: A line break between two tags is never shown (the template keeps one element a line).
_BETWEEN_TAGS = re.compile(r">\n<")
#: The view's fields a script reads the house rules from (``names_key``).
_RULE_WORDS = frozenset({"house_rule_ids", "house_rules"})
#: Pages kept gzipped per app (3 languages × the room codes phones use; a bound, not a need).
_MAX_CACHED_PAGES = 32


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

    The phone domain's keys go unprefixed with the few shared card words (they never collide),
    and the add-on keys that the bundled add-on scripts name as ``"<domain>.<key>"``
    (PHONE_ADDONS.md; an on-demand script brings its own, see ``addon_messages``); messages the
    server already rendered are left out.
    """
    common = {
        key: value
        for key, value in catalog.domain(lang, "common").items()
        if key.startswith(_COMMON_PREFIXES)
    }
    phone = {k: v for k, v in catalog.domain(lang, "phone").items() if k not in _SERVER_ONLY}
    bundled = addon_messages(catalog, lang, _bundled_sources())
    return messages_json({**common, **phone, **bundled})


def _bundled_sources() -> str:
    """The bundled add-on scripts' sources, one after the other (the words they name)."""
    return "\n".join(source for source in map(_static_text, ADDON_SCRIPTS) if source)


def messages_json(messages: dict[str, object]) -> str:
    """Messages as compact JSON for the page or a script.

    A plural whose forms are all the same ships as one string — ``t()`` in the script takes
    either. ``<`` is escaped so no message (or future edit) can close a data block early.
    """
    data = {key: _one_form_if_same(value) for key, value in messages.items()}
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c")


def named_words(source: str) -> set[str]:
    """Every word a script writes as a string literal (``"now_vip"``, ``"strategy_"``, ``"H1"``)."""
    return set(_SCRIPT_WORD.findall(source))


def names_key(words: set[str], key: str) -> bool:
    """Whether a script with these literal words uses the message ``key``.

    The key itself (``"now_vip"``), a family it builds at run time from a prefix ending in
    ``_`` (``"strategy_" + name`` names ``strategy_smart``), or a rule id of RULES.md written
    in capitals whose messages start with it (``"H1"`` names ``h1_name`` and ``h1_text``).
    A script that reads the view's ``"house_rule_ids"`` (the rules on offer) or
    ``"house_rules"`` (the rules on) names every house rule's messages: the rules come from the
    host (``host.rules.RULE_FIELDS``), never from the script.
    """
    if not words.isdisjoint(_RULE_WORDS) and any(
        key.startswith(f"{rule.lower()}_") for rule in RULE_FIELDS
    ):
        return True
    return key in words or any(
        (word.endswith("_") and key.startswith(word))
        or (word.isupper() and key.startswith(word.lower() + "_"))
        for word in words
    )


def addon_messages(catalog: Catalog, lang: str, source: str) -> dict[str, object]:
    """The add-on messages a script uses, as ``"<domain>.<key>"`` (PHONE_ADDONS.md).

    Why only those: the add-on domains also hold the TV's and the voice's words, which a phone
    never shows, and every byte counts against the page's 12 KB (issue 16.5).
    """
    words = named_words(source)
    return {
        f"{domain}.{key}": value
        for domain in ADDON_DOMAINS
        for key, value in catalog.domain(lang, domain).items()
        if names_key(words, key)
    }


def _one_form_if_same(message: object) -> object:
    if isinstance(message, dict) and len(set(message.values())) == 1:
        return next(iter(message.values()))
    return message


def suit_colour_rules() -> str:
    """The four-colour pack as CSS classes, from ``host.palette`` (the TV draws the same)."""
    return "".join(
        f".suit-{suit}{{color:{css_hex(colour)}}}" for suit, colour in SUIT_COLOURS.items()
    )


def _static_text(name: str) -> str | None:
    """A file of ``phone_web/static``, or ``None`` when absent (an add-on not merged yet)."""
    path = resources.files("phone_web") / "static" / name
    return path.read_text(encoding="utf-8") if path.is_file() else None


def minified_script(source: str) -> str:
    """One script minified by rjsmin, without its last ``;`` (the caller joins scripts)."""
    return str(rjsmin.jsmin(source)).strip().rstrip(";")


def script_bundle() -> str:
    """``phone.js`` then each bundled add-on script present, minified into one response.

    Why one response: the page may make at most 3 requests after the HTML (issue 16.5). Each
    file is minified on its own and joined with ``;`` so one file cannot change how the next
    one is parsed.
    """
    sources = [_static_text(name) for name in (CORE_SCRIPT, *ADDON_SCRIPTS)]
    return ";\n".join(minified_script(source) for source in sources if source) + ";"


def on_demand_script(catalog: Catalog, lang: str, name: str) -> str | None:
    """An on-demand add-on script for one language: its messages, then its code, minified.

    ``None`` when ``name`` is not an on-demand script or its file is absent. The messages come
    first so the script finds them in ``cuckoo.t`` when it runs; those the page already ships
    for its bundled scripts (the house rules' lines, round 43) are not sent twice.
    """
    source = _static_text(name) if name in ON_DEMAND_SCRIPTS else None
    if source is None:
        return None
    shipped = addon_messages(catalog, lang, _bundled_sources())
    own = addon_messages(catalog, lang, source)
    messages = messages_json({key: value for key, value in own.items() if key not in shipped})
    return f"window.cuckoo.addMessages({messages});\n{minified_script(source)};"


def stylesheet() -> str:
    """``phone.css`` plus the suit colours, minified."""
    return str(rcssmin.cssmin((_static_text("phone.css") or "") + suit_colour_rules()))


@dataclass(frozen=True)
class Asset:
    """One served file: the minified bytes and their gzip, made once per app."""

    content_type: str
    plain: bytes
    gzipped: bytes


def _gzip(data: bytes) -> bytes:
    """Zopfli's gzip: a standard gzip stream, some 4 % smaller than zlib's best."""
    return bytes(zopfli.gzip.compress(data))


def _gzip_page(app: Flask, html: bytes) -> bytes:
    """The HTML gzipped, kept per app: a page differs only by language and room code."""
    cache: dict[bytes, bytes] = app.extensions.setdefault("cuckoo_page_gzip", {})
    if html not in cache:
        if len(cache) >= _MAX_CACHED_PAGES:
            cache.clear()
        cache[html] = _gzip(html)
    return cache[html]


def page_assets(app: Flask) -> dict[str, Asset]:
    """The stylesheet and the script bundle, minified and gzipped once, kept per app."""
    assets: dict[str, Asset] | None = app.extensions.get("cuckoo_page_assets")
    if assets is None:
        texts = {"phone.js": script_bundle(), "phone.css": stylesheet()}
        assets = {
            name: Asset(ASSETS[name], text.encode(), _gzip(text.encode()))
            for name, text in texts.items()
        }
        app.extensions["cuckoo_page_assets"] = assets
    return assets


def on_demand_asset(app: Flask, lang: str, name: str) -> Asset | None:
    """An on-demand script for one language, minified and gzipped on first use, kept per app.

    Only the names of ``ON_DEMAND_SCRIPTS`` are looked up and kept: a URL is not a cache key.
    """
    if name not in ON_DEMAND_SCRIPTS:
        return None
    cache: dict[tuple[str, str], Asset | None] = app.extensions.setdefault(
        "cuckoo_on_demand_assets", {}
    )
    if (lang, name) not in cache:
        text = on_demand_script(page_catalog(app), lang, name)
        cache[(lang, name)] = (
            None
            if text is None
            else Asset(ASSETS[CORE_SCRIPT], text.encode(), _gzip(text.encode()))
        )
    return cache[(lang, name)]


def accepts_gzip(req: Request) -> bool:
    """Whether the browser said it takes gzip (every phone browser does)."""
    return "gzip" in req.headers.get("Accept-Encoding", "").lower()


def compressed_response(body: bytes, content_type: str, gzipped: bytes | None) -> Response:
    """``gzipped`` when the browser accepts gzip, else ``body``; ``Vary`` says it depends."""
    response = Response(body, content_type=content_type)
    response.vary.add("Accept-Encoding")
    if gzipped is not None and accepts_gzip(request):
        response.set_data(gzipped)
        response.headers["Content-Encoding"] = "gzip"
    return response


@page_bp.get("/phone/<name>")
def asset(name: str) -> Response:
    """The stylesheet, the script bundle, or an on-demand add-on script (``?lang=xx``).

    ``no-store`` comes from the app, like every response.
    """
    if name in ASSETS:
        served: Asset | None = page_assets(current_app)[name]
    else:
        served = on_demand_asset(current_app, choose_language(request), name)
    if served is None:
        abort(404)
    return compressed_response(served.plain, served.content_type, served.gzipped)


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
        quiet_ms=round(
            QUIET_HEARTBEATS * current_app.extensions["cuckoo_streams"].heartbeat_seconds * 1000
        ),
        timeout_ms=round(current_app.config["PHONE_REQUEST_TIMEOUT_SECONDS"] * 1000),
        t=catalog.translator(lang),
        i18n=translations(catalog, lang),
        languages=[(code, LANGUAGE_NAMES[code]) for code in LANGUAGES],
    )
    body = _BETWEEN_TAGS.sub("><", html).encode()
    response = compressed_response(
        body,
        "text/html; charset=utf-8",
        _gzip_page(current_app, body) if accepts_gzip(request) else None,
    )
    if request.args.get("lang") in LANGUAGES:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 24 * 3600, samesite="Lax")
    return response
