"""``POST /api/social``: reactions and predictions from guests who are not playing this round.

Why a blueprint of its own: these are not game actions (PHONE_API.md's ``/api/action``) — they
never change ``step``, never reach the engine, and can never make a player's tap stale. The
session checks who may send what and when (``host.social``); this module only reads the body and
turns refusals into ``{"error", "message"}`` answers in the caller's language.
"""

from __future__ import annotations

import json

from flask import Blueprint, Response, current_app, request

from host.i18n import Catalog, best_language
from host.session import SessionError
from phone_web.api import ApiError, OkAnswer, _caller, _json, _json_body, _session

social_bp = Blueprint("social", __name__)

#: Refusals of this endpoint and their HTTP status (others come from ``phone_web.api``).
SOCIAL_STATUS: dict[str, int] = {"too_fast": 429, "not_allowed_now": 409}


@social_bp.post("/api/social")
def social() -> Response:
    """``{"react": "🎉"}`` → ``{"ok": true}``; ``{"predict": "p3"}`` → the caller's view."""
    player_id = _caller()
    body = _json_body()
    if len(body) != 1 or not ({"react", "predict"} & body.keys()):
        raise ApiError("bad_request")
    session = _session()
    try:
        if "react" in body:
            session.react(player_id, body["react"])
            ok: OkAnswer = {"ok": True}
            return _json(ok)
        return _json(session.predict(player_id, body["predict"]))
    except SessionError as refusal:
        if refusal.code not in SOCIAL_STATUS:
            raise
        return _refused(refusal.code)


def _refused(code: str) -> Response:
    catalog: Catalog = current_app.extensions["cuckoo_catalog"]
    lang = best_language(request.headers.get("Accept-Language"))
    return current_app.response_class(
        json.dumps(
            {"error": code, "message": catalog.t(lang, f"social.error_{code}")}, ensure_ascii=False
        ),
        status=SOCIAL_STATUS[code],
        mimetype="application/json",
    )
