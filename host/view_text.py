"""A view as the event stream sends it, with the public part of one change encoded once.

Why (issue 18.1): on every change each phone's stream sent its own view as JSON, and the
public part — players, log, standings: nearly all of the bytes — was encoded once per phone.
Every phone's view of one change is the same public view with that phone's own ``me`` and
``can`` (``host.rules.views.player_view``), so ``ViewText`` encodes the public members once
and each phone's text is those members with its own two spliced in: the very bytes
``encode_view`` gives for the whole view, for the cost of encoding ``me`` and ``can``.

A view that is not that public view with only ``me`` and ``can`` replaced (one the TV pacing
rewrote, say) is encoded whole, so the result is right whatever view is passed.
"""

from __future__ import annotations

import json
import operator
import threading
from collections.abc import Mapping
from typing import Any, TypeVar, cast

#: The two members that differ from one receiver to the next (``player_view``).
_OWN = ("me", "can")
AnyView = TypeVar("AnyView", bound=Mapping[str, Any])
"""A view of any declared type (the contract's ``View`` or a plain dict): given back as such."""
_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def encode_view(view: Mapping[str, Any]) -> str:
    """The JSON of a view as the stream sends it (PHONE_API.md): compact, UTF-8 as is."""
    return _encode(view)


def view_json(view: Mapping[str, Any], text: ViewText | None = None) -> str:
    """The JSON of ``view``, spliced from ``text`` (its change's encoding) when given."""
    return text.encode(view) if text is not None else encode_view(view)


def sse_message(view: Mapping[str, Any], text: ViewText | None = None) -> bytes:
    """One event-stream message carrying ``view``: ``data: <json>`` and a blank line."""
    return text.message(view) if text is not None else sse_data(encode_view(view))


def sse_data(body: str) -> bytes:
    """One event-stream message carrying the JSON text ``body``."""
    return f"data: {body}\n\n".encode()


class ViewText:
    """The encoding of one change's public view, shared by every receiver's view of it.

    Thread-safe: the stream threads of one change all use the same ``ViewText``; the public
    members are encoded by the first of them, once.
    """

    def __init__(self, base: Mapping[str, Any]) -> None:
        self.base = base
        self._keys = list(base)
        at = self._keys.index("me") if "me" in self._keys else -1
        #: Where ``me`` is, if ``can`` follows it (as in every view ``build_view`` makes).
        self._at = at if at >= 0 and self._keys[at + 1 : at + 2] == ["can"] else None
        #: The members every receiver's view shares with the base, and the base's objects.
        self._shared_keys = [key for key in self._keys if key not in _OWN]
        self._shared_values = [base[key] for key in self._shared_keys]
        self._lock = threading.Lock()
        self._parts: tuple[str, str] | None = None
        self._framed: tuple[bytes, bytes] | None = None
        self._whole: str | None = None

    def encode(self, view: Mapping[str, Any]) -> str:
        """The JSON of ``view``, equal to ``encode_view(view)``."""
        if view is self.base:
            if self._whole is None:
                self._whole = encode_view(view)
            return self._whole
        if not self._shares_base(view):
            return encode_view(view)
        head, tail = self._split()
        return f'{head}"me":{_encode(view["me"])},"can":{_encode(view["can"])}{tail}'

    def message(self, view: Mapping[str, Any]) -> bytes:
        """The event-stream message of ``view``, equal to ``sse_data(self.encode(view))``.

        Why bytes: the public members are encoded to UTF-8 once per change, framed as the
        message's start and end, so each phone's message costs only its own ``me`` and
        ``can`` and one join, not a text of the whole table (8 KB at 20 players) built and
        then encoded again for every phone (issue 18.1).
        """
        if view is self.base or not self._shares_base(view):
            return sse_data(self.encode(view))
        start, end = self._framed_parts()
        me, can = _encode(view["me"]).encode(), _encode(view["can"]).encode()
        return b"".join((start, b'"me":', me, b',"can":', can, end))

    def adopt(self, view: AnyView) -> AnyView:
        """``view`` with each member (but ``me`` and ``can``) that equals the base's replaced
        by the base's own, so its text is spliced: a new dict, equal to ``view``.

        Why: the TV pacing masks every phone's view separately (``host.pacing``), so their
        public members are equal copies, not the base's objects; ``base`` is then the masked
        public view. A member that differs (the TV moved on in between) keeps its own value.
        """
        if self._at is None or self._shares_base(view) or list(view) != self._keys:
            return view
        base = self.base
        shared = {
            key: base[key] if key not in _OWN and value == base[key] else value
            for key, value in view.items()
        }
        return cast(AnyView, shared)

    def _shares_base(self, view: Mapping[str, Any]) -> bool:
        """Is ``view`` the base with only ``me`` and ``can`` replaced (same keys, same order)?"""
        if self._at is None or list(view) != self._keys:
            return False
        # Member by member, the very same objects; ``map`` keeps the loop in C, since this
        # runs twice for every phone of every change (``adopt``, then ``message``).
        members = map(view.__getitem__, self._shared_keys)
        return all(map(operator.is_, members, self._shared_values))

    def _framed_parts(self) -> tuple[bytes, bytes]:
        """``_split``'s two parts in UTF-8, with the message's ``data: `` and blank line."""
        if self._framed is None:  # two threads racing here both compute the same bytes
            head, tail = self._split()
            self._framed = b"data: " + head.encode(), tail.encode() + b"\n\n"
        return self._framed

    def _split(self) -> tuple[str, str]:
        """The encoded members before ``me`` (with the opening brace) and after ``can``."""
        with self._lock:
            if self._parts is None:
                keys, at = self._keys, self._at or 0
                members = [f"{_encode(key)}:{_encode(self.base[key])}" for key in keys]
                before, after = members[:at], members[at + 2 :]
                head = "{" + "".join(member + "," for member in before)
                tail = "".join("," + member for member in after) + "}"
                self._parts = head, tail
            return self._parts
