"""The JSON API of PHONE_API.md, exactly: join, state, action, events, table, healthz.

Why so thin: every rule and every secret lives in the session and the engine; this blueprint
only checks the shape of requests (in the contract's order of checks), turns ``SessionError``
codes into HTTP answers and streams views. Errors are always ``{"error", "message"}`` JSON in
the caller's language, never a stack trace.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypedDict

from flask import Blueprint, Flask, Response, current_app, request
from werkzeug.exceptions import HTTPException

from host.i18n import Catalog, best_language
from host.names import only_symbols
from host.rules import Status, View
from host.session import NameKeptForAway, NameNotShown, Session, SessionError
from host.session_controls import BadControlFields, control_fields
from host.stream_sink import SINK_KEY
from phone_web.limits import GuessLimiter
from phone_web.streams import CONNECTED_MESSAGE, RelaySink, Sink, Stream, StreamWriter


class JoinAnswer(TypedDict):
    """The body of ``POST /api/join``'s 201 (PHONE_API.md)."""

    player_id: str
    token: str
    status: Status


class NameNotShownDetail(TypedDict):
    """What ``bad_name`` adds for a name the TV cannot draw: the letters it cannot show."""

    letters: str


class OkAnswer(TypedDict):
    """A plain acknowledgement (``POST /api/social``'s reaction)."""

    ok: bool


api_bp = Blueprint("api", __name__)
log = logging.getLogger(__name__)

#: Every error code the API answers with, and its HTTP status.
ERROR_STATUS: dict[str, int] = {
    "bad_request": 400,
    "bad_name": 400,
    "bad_action": 400,
    "unauthorized": 401,
    "bad_room": 403,
    "not_found": 404,
    "method_not_allowed": 405,
    "name_taken": 409,
    "table_full": 409,
    "stale_step": 409,
    "too_large": 413,
    "rate_limited": 429,
    "internal": 500,
    "closed": 503,
}
#: Session refusals that are not client mistakes of their own kind.
_SESSION_ALIASES = {"unknown_player": "unauthorized"}
_HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "bad_room",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
}
#: How often a stream checks whether its phone went away (frees the server thread).
_STREAM_POLL_SECONDS = 1.0


class ApiError(Exception):
    def __init__(self, code: str, retry_after: int = 0, *, left_away: bool = False) -> None:
        super().__init__(code)
        self.code = code
        self.retry_after = retry_after
        self.left_away = left_away


def _session() -> Session:
    return current_app.extensions["cuckoo_session"]  # type: ignore[no-any-return]


def error_response(
    code: str,
    retry_after: int = 0,
    *,
    detail: NameNotShownDetail | None = None,
    away: bool = False,
    left_away: bool = False,
) -> Response:
    """``{"error": code, "message": text}`` in the caller's language, with the right status.

    ``detail``: for a name the TV cannot show, its ``letters`` go in the answer too and the
    message says them (PHONE_API.md's ``bad_name``). ``away``: a ``name_taken`` whose seat
    is kept for a phone that is away; ``"away": true`` is added and the message says what to
    do (docs/api.md). ``left_away``: an ``unauthorized`` token whose seat the lobby's away
    rule freed; ``"away": true`` is added, so the phone can say why (round 47)."""
    code = _SESSION_ALIASES.get(code, code)
    status = ERROR_STATUS.get(code, 400)
    catalog: Catalog = current_app.extensions["cuckoo_catalog"]
    lang = best_language(request.headers.get("Accept-Language"))
    key = (
        f"cli.error_{code}"
        if f"cli.error_{code}" in catalog.keys(lang)
        else "cli.error_bad_request"
    )
    body: dict[str, str | bool] = {"error": code, "message": catalog.t(lang, key)}
    if away:
        body["message"] = catalog.t(lang, "cli.error_name_taken_away")
        body["away"] = True
    if left_away:
        body["away"] = True
    if detail is not None:
        # Isolated (U+2068…U+2069): an Arabic name must not carry the full stop along.
        letters = f"\u2068{detail['letters']}\u2069"
        emoji = only_symbols(detail["letters"])  # "Try your name in Latin letters" read oddly
        key = "cli.error_emoji_not_shown" if emoji else "cli.error_name_not_shown"
        body["message"] = catalog.t(lang, key, letters=letters)
        body["letters"] = detail["letters"]
        body["emoji"] = emoji
    response = current_app.response_class(
        json.dumps(body, ensure_ascii=False),
        status=status,
        mimetype="application/json",
    )
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="cuckoo-party"'
    if retry_after:
        response.headers["Retry-After"] = str(retry_after)
    return response


def register_error_handlers(app: Flask) -> None:
    """JSON errors for everything, including 404/405/413 and crashes (logged, never shown)."""

    @app.errorhandler(ApiError)
    def _api_error(error: ApiError) -> Response:
        return error_response(error.code, error.retry_after, left_away=error.left_away)

    @app.errorhandler(SessionError)
    def _session_error(error: SessionError) -> Response:
        if isinstance(error, NameNotShown):
            return error_response(error.code, detail={"letters": error.letters})
        if isinstance(error, NameKeptForAway):
            return error_response(error.code, away=True)
        return error_response(error.code)

    @app.errorhandler(HTTPException)
    def _http_error(error: HTTPException) -> Response:
        return error_response(_HTTP_CODES.get(error.code or 400, "bad_request"))

    @app.errorhandler(Exception)
    def _crash(error: Exception) -> Response:
        log.exception("unexpected error in %s %s", request.method, request.path)
        return error_response("internal")


def _json_body() -> dict[str, object]:
    """The body as a JSON object, or 400 bad_request. Reading it enforces the 4 KB limit.

    Deep nesting (``[[[[…``) is a bad request too, not a crash: the decoder's RecursionError is
    caught here (issue 15). NaN and Infinity are not JSON and are refused.
    """
    raw = request.get_data(cache=True)
    try:
        body = json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ApiError("bad_request") from None
    if not isinstance(body, dict):
        raise ApiError("bad_request")
    return body


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return None


def _caller(allow_query: bool = False) -> str:
    """The player id for the request's token, or 401."""
    token = _bearer_token()
    if token is None and allow_query:
        token = request.args.get("token")
    player_id = _session().player_for_token(token)
    if player_id is None:
        raise ApiError("unauthorized", left_away=_session().left_for_being_away(token))
    return player_id


def _json(data: View | JoinAnswer | OkAnswer, status: int = 200) -> Response:
    return current_app.response_class(
        json.dumps(data, ensure_ascii=False, separators=(",", ":")),
        status=status,
        mimetype="application/json",
    )


@api_bp.get("/healthz")
def healthz() -> Response:
    return current_app.response_class("ok", mimetype="text/plain")


def _limiter() -> GuessLimiter | None:
    return current_app.extensions.get("cuckoo_limiter")


def _has_valid_token() -> bool:
    token = _bearer_token()
    return token is not None and _session().player_for_token(token) is not None


@contextmanager
def _guess() -> Iterator[None]:
    """A room-code or join attempt: refused with 429 from a guessing address (issue 15);
    a refusal inside counts as one more wrong guess. A valid token is never limited."""
    limiter = _limiter()
    if limiter is None or _has_valid_token():
        yield
        return
    address = request.remote_addr or "?"
    wait = limiter.retry_after(address)
    if wait:
        raise ApiError("rate_limited", wait)
    try:
        yield
    except (ApiError, SessionError, HTTPException):
        limiter.failed(address)
        raise


@api_bp.post("/api/join")
def join() -> Response:
    with _guess():
        body = _json_body()
        # A missing or non-text room is a wrong room, a missing or non-text name a bad name:
        # the contract lists only those codes for joins (the session checks the room first).
        result = _session().join(body.get("name"), body.get("room"))
    answer: JoinAnswer = {
        "player_id": result.player_id,
        "token": result.token,
        "status": result.status,
    }
    return _json(answer, 201)


@api_bp.get("/api/state")
def state() -> Response:
    return _json(_session().view(_caller()))


@api_bp.post("/api/action")
def action() -> Response:
    player_id = _caller()
    body = _json_body()
    name, step = body.get("action"), body.get("step")
    if not isinstance(name, str) or not isinstance(step, int) or isinstance(step, bool):
        raise ApiError("bad_request")
    try:  # a host control's extra fields: checked before the step (PHONE_API.md)
        extra = control_fields(name, body)
    except BadControlFields:
        raise ApiError("bad_request") from None
    answer = _session().act_json(player_id, name, step, extra)  # the stream's own text
    return current_app.response_class(answer, mimetype="application/json")


@api_bp.get("/api/table")
def table() -> Response:
    session = _session()
    room = request.args.get("room")
    with _guess():
        if not _has_valid_token() and (room is None or room.strip().upper() != session.room):
            raise ApiError("bad_room")
    return _json(session.view(None, paced=True))  # as the TV shows it (host/pacing.py)


@api_bp.get("/api/events")
def events() -> Response:
    """Server-sent events: the caller's full view now, then on every change; heartbeats.

    One live stream per player (issue 15): opening a new one ends the old one at once with
    ``event: replaced``, so a player's tabs can never hold more than one server thread.
    The body after the first line is written by whichever thread changes the table
    (``phone_web/streams.py``, issue 18.1): on waitress straight to the phone; elsewhere
    (Flask's test client) into a ``RelaySink`` that this request's own thread yields from.
    """
    player_id = _caller(allow_query=True)
    subscription = _session().subscribe(player_id)
    disconnected: Callable[[], bool] | None = request.environ.get("waitress.client_disconnected")
    sink: Sink | None = request.environ.get(SINK_KEY)
    writer: StreamWriter = current_app.extensions["cuckoo_streams"]

    def gone() -> bool:
        return disconnected is not None and disconnected()

    def written_by_the_changes(sink: Sink, relay: RelaySink | None) -> Iterator[bytes]:
        stream: Stream | None = None
        try:
            yield CONNECTED_MESSAGE  # the server sends the headers and this; then the pushers
            stream = writer.attach(subscription, sink)
            if relay is not None:  # no sink from the server: this thread yields their bytes
                yield from relay.relay(gone, _STREAM_POLL_SECONDS)
                return
            while not stream.wait(_STREAM_POLL_SECONDS):
                if gone():
                    break
        finally:
            if stream is not None:
                stream.detach()
            subscription.close()

    if sink is None:  # Flask's test client: the request's thread yields what the pushers write
        relay = RelaySink()
        body = written_by_the_changes(relay, relay)
    else:
        body = written_by_the_changes(sink, None)
    response = Response(body, mimetype="text/event-stream")
    response.headers["X-Accel-Buffering"] = "no"
    response.call_on_close(subscription.close)
    return response
