"""Shared fixtures: a session factory, a Flask test client and a live server on 127.0.0.1.

Headless by construction: SDL's dummy drivers are set here (not globally) so no test opens a
window or a sound device.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.host_process import HostProcess

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


@pytest.fixture
def host_processes() -> Iterator[list[HostProcess]]:
    """A list to append started hosts to; every one is stopped at the end of the test, even
    when it fails."""
    started: list[HostProcess] = []
    yield started
    for host in started:
        host.stop()


@pytest.fixture
def make_session(tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """``make_session(house_rules="H1", saved=True, **kwargs)`` → a Session, closed afterwards.

    ``saved=True`` saves to ``tmp_path/state.json`` (``session_state_path``).
    """
    from host.rules import HouseRules
    from host.session import Session

    made: list[Any] = []

    def factory(house_rules: str = "", *, saved: bool = False, **kwargs: Any) -> Any:
        kwargs.setdefault("room", "TEST")
        kwargs.setdefault("seed", 42)
        if saved:
            kwargs.setdefault("state_path", tmp_path / "state.json")
        session = Session(HouseRules.parse(house_rules), **kwargs)
        made.append(session)
        return session

    yield factory
    for session in made:
        session.close()


@pytest.fixture
def session(make_session: Callable[..., Any]) -> Any:
    """A fresh, unsaved session in room ``TEST`` with seed 42."""
    return make_session()


@pytest.fixture
def client(session: Any) -> Any:
    """Flask's test client for ``create_app(session)``."""
    from phone_web import create_app

    return create_app(session).test_client()


@dataclass
class LiveServer:
    url: str
    port: int
    session: Any
    app: Any = None  # the Flask app served (its extensions: the session, the stream writer)


@pytest.fixture
def live_server(make_session: Callable[..., Any]) -> Iterator[Callable[..., LiveServer]]:
    """``live_server(session=None, heartbeat_seconds=1.0, request_timeout_seconds=8.0)``:
    waitress on 127.0.0.1, free port."""
    from host.network import BackgroundServer
    from phone_web import REQUEST_TIMEOUT_SECONDS, create_app

    servers: list[Any] = []

    def start(
        session: Any = None,
        heartbeat_seconds: float = 1.0,
        request_timeout_seconds: float = REQUEST_TIMEOUT_SECONDS,
    ) -> LiveServer:
        session = session or make_session()
        app = create_app(
            session,
            heartbeat_seconds=heartbeat_seconds,
            request_timeout_seconds=request_timeout_seconds,
        )
        server = BackgroundServer(app, "127.0.0.1", 0).start()
        servers.append((server, session))
        return LiveServer(f"http://127.0.0.1:{server.port}", server.port, session, app)

    yield start
    for server, session in servers:
        session.close()
        server.stop()
