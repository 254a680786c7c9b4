"""The phones' side of the host: the JSON API of PHONE_API.md and the phone page.

``create_app(session)`` builds a Flask app around an existing ``host.session.Session``; the app
holds no game state of its own, so the TV, the voice and every phone see one truth.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from flask import Flask, Response

from host.i18n import Catalog
from host.phones_first import PhonesFirst
from phone_web.limits import GUESSES_PER_MINUTE, GuessLimiter

if TYPE_CHECKING:
    from wsgiref.types import StartResponse, WSGIApplication, WSGIEnvironment

    from host.session import Session

#: Over this, a request body is refused with 413 before anyone parses it.
MAX_BODY_BYTES = 4 * 1024
#: The phone page takes a request unanswered after this long as lost: a connection that died
#: without a word, or a host frozen for a while (a tap is then sent again, phone.js).
REQUEST_TIMEOUT_SECONDS = 8.0
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; media-src 'self' data:; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
#: The page's stylesheet and script: a CSP header on them has no effect, so it is not sent
#: (issue 16.5: 12 KB transferred for the whole page, headers included).
_SUBRESOURCE_TYPES = frozenset({"text/css", "text/javascript", "application/javascript"})


def create_app(
    session: Session,
    catalog: Catalog | None = None,
    *,
    heartbeat_seconds: float = 5.0,
    guesses_per_minute: int | None = GUESSES_PER_MINUTE,
    request_timeout_seconds: float = REQUEST_TIMEOUT_SECONDS,
) -> Flask:
    """A Flask app serving ``session``: the API blueprint, the phone page and ``/api/social``.

    ``guesses_per_minute``: wrong room codes or failed joins an address may make per minute
    before it gets 429 (issue 15); ``None`` turns the limit off (tests that flood joins).
    ``request_timeout_seconds``: how long the phone page waits for an answer before it takes
    the request as lost (and sends a tap again, phone.js ``sendAction``).
    """
    if not request_timeout_seconds > 0:  # NaN too
        raise ValueError(f"request_timeout_seconds must be positive, not {request_timeout_seconds}")
    from phone_web.api import api_bp, register_error_handlers
    from phone_web.page import page_bp
    from phone_web.social import social_bp
    from phone_web.streams import StreamWriter

    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    app.config["PHONE_REQUEST_TIMEOUT_SECONDS"] = request_timeout_seconds
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.extensions["cuckoo_session"] = session
    app.extensions["cuckoo_catalog"] = catalog or Catalog.load()
    app.extensions["cuckoo_streams"] = StreamWriter(heartbeat_seconds)  # streams, issue 18.1
    if guesses_per_minute is not None:
        app.extensions["cuckoo_limiter"] = GuessLimiter(guesses_per_minute)
    app.register_blueprint(api_bp)
    app.register_blueprint(page_bp)
    app.register_blueprint(social_bp)
    register_error_handlers(app)
    app.after_request(_secure_headers)
    app.wsgi_app = ServedFirst(app.wsgi_app, session.phones_first)  # type: ignore[method-assign]
    return app


class ServedFirst:
    """WSGI middleware: while a phone's POST (a tap, a join, a reaction) is being served, the
    TV's drawing gives way to it (``host/phones_first.py``). The event streams (GET, open for
    hours) are not marked: the TV would wait on them for ever."""

    def __init__(self, app: WSGIApplication, phones_first: PhonesFirst) -> None:
        self.app = app
        self.phones_first = phones_first

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        answer: Iterable[bytes]
        if environ.get("REQUEST_METHOD") != "POST":
            answer = self.app(environ, start_response)
        else:
            with self.phones_first.serving():
                answer = self.app(environ, start_response)
        return answer


def _secure_headers(response: Response) -> Response:
    """Nothing a phone fetches may be cached (it may hold a card); a strict CSP everywhere.

    Every byte counts against the phone page's 20 KB (issue 4): framing is forbidden by the
    CSP's ``frame-ancestors 'none'`` (so no ``X-Frame-Options``), and the referrer policy goes
    on HTML alone (the stylesheet and script link nowhere). A CSP governs documents only, so
    the page's own script and stylesheet go without its ~250 bytes.
    """
    response.headers["Cache-Control"] = "no-store"
    if response.mimetype not in _SUBRESOURCE_TYPES:  # a CSP only acts on documents
        response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    if response.mimetype == "text/html":
        response.headers.setdefault("Referrer-Policy", "no-referrer")
    return response
