"""A tiny HTTP + server-sent-events client for tests that talk to a real server on 127.0.0.1."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

TIMEOUT = 10.0


class Http:
    """JSON requests against ``base`` (``http://127.0.0.1:PORT``); one connection per call."""

    def __init__(self, base: str) -> None:
        parts = urlsplit(base)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        raw: bytes | None = None,
    ) -> tuple[int, Any]:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=TIMEOUT)
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        try:
            connection.request(method, path, body=data, headers=headers)
            response = connection.getresponse()
            text = response.read().decode("utf-8")
        finally:
            connection.close()
        try:
            return response.status, json.loads(text)
        except ValueError:
            return response.status, text

    def join(self, name: str, room: str = "TEST") -> dict[str, Any]:
        status, body = self.call("POST", "/api/join", {"name": name, "room": room})
        assert status == 201, (status, body)
        return body  # type: ignore[no-any-return]

    def state(self, token: str) -> dict[str, Any]:
        status, body = self.call("GET", "/api/state", token=token)
        assert status == 200, (status, body)
        return body  # type: ignore[no-any-return]

    def act(self, token: str, action: str, step: int) -> tuple[int, Any]:
        return self.call("POST", "/api/action", {"action": action, "step": step}, token=token)


class EventStream(threading.Thread):
    """Reads ``GET /api/events`` in the background; keeps every view and counts comments."""

    def __init__(self, base: str, token: str) -> None:
        super().__init__(daemon=True)
        parts = urlsplit(base)
        assert parts.hostname is not None, base
        self._connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        self._connection.connect()
        self._socket = self._connection.sock  # kept: http.client may drop its own reference
        self._connection.request("GET", f"/api/events?token={token}")
        self.response = self._connection.getresponse()
        self.views: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.comments = 0
        self.event_names: list[str] = []  # named SSE events (``event: replaced``)
        self.ended = threading.Event()
        self._lock = threading.Lock()

    def run(self) -> None:
        try:
            while True:
                line = self.response.readline()
                if not line:
                    return
                text = line.decode("utf-8").rstrip("\n")
                with self._lock:
                    if text.startswith("data: "):
                        self.raw.append(text)
                        self.views.append(json.loads(text[6:]))
                    elif text.startswith(":"):
                        self.comments += 1
                    elif text.startswith("event: "):
                        self.event_names.append(text[7:])
        except (OSError, ValueError, http.client.HTTPException):
            return
        finally:
            self.ended.set()

    def snapshot(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self.views)

    def wait_for(
        self, predicate: Callable[[list[dict[str, Any]]], bool], timeout: float = TIMEOUT
    ) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate(self.snapshot()):
                return True
            time.sleep(0.01)
        return predicate(self.snapshot())

    def close(self) -> None:
        try:
            self._socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._socket.close()
        self._connection.close()
        self.join(5)


def wait_until(predicate: Callable[[], bool], timeout: float, interval: float = 0.01) -> bool:
    """Poll ``predicate`` until true or ``timeout`` seconds pass (bounded)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return predicate()
