"""The real headless host for the soak test, plus one way in for the host's own hand: kicks.

Why a wrapper: the soak test kicks players as the person running the party does (the TV's key
path calls ``Session.kick``), but a child process's session is out of the test's reach. This
runs ``host.cli`` unchanged and reads ``kick PLAYER_ID`` and ``next`` lines on stdin, calling
``kick`` or ``host_next`` (the TV's button) on the session the host made. Run: ``python -m tests.torture.soak_host <host.cli flags>``.
"""

from __future__ import annotations

import sys
import threading
from typing import Any

import host.app
from host.session import Session, SessionError

_made: list[Session] = []


class _RecordedSession(Session):
    """The host's own session, remembered so stdin commands can reach it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _made.append(self)


def _commands() -> None:
    for line in sys.stdin:
        command, _, player_id = line.strip().partition(" ")
        if not _made:
            continue
        try:
            if command == "kick":
                _made[-1].kick(player_id)
            elif command == "next":  # the TV's one button: deal when the dealer's phone sleeps
                _made[-1].host_next()
        except SessionError as refusal:
            print(f"REFUSED {command} {player_id} {refusal.code}", flush=True)


def main() -> int:
    host.app.Session = _RecordedSession  # type: ignore[attr-defined]
    threading.Thread(target=_commands, name="soak-commands", daemon=True).start()
    from host.cli import main as cli_main

    return cli_main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
