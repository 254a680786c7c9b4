"""The join address, followed while the party runs.

Why: the address is the computer's address on the Wi-Fi, and that can change under a running
party. A laptop started before it found the Wi-Fi has only 127.0.0.1, which no phone can
reach; one that joins another network, or gets a new lease, has a new address. Read once at
start, the TV would keep showing a QR code that leads nowhere. So the address is looked up
again every few seconds, off the TV's thread (finding it may ask the system's resolver), and
the TV, the console and the log follow it.

An address the host gave (``--bind`` to one address, ``--public-url``) is its own choice: it is
never looked up again and never called unreachable.
"""

from __future__ import annotations

import ipaddress
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

from host.network import WILDCARDS, join_url, lan_address

log = logging.getLogger(__name__)

#: How often the address is looked up again: a guest who scans the new code waits at most this.
CHECK_SECONDS = 3.0


@dataclass(frozen=True)
class JoinLink:
    """Where phones join, as the TV and the console show it."""

    url: str
    offline: bool = False
    """No address a phone could reach: this computer found no network, only itself."""


def fixed(url: str) -> Callable[[], JoinLink]:
    """A join address that never changes: the one given with ``--public-url``."""
    link = JoinLink(url)
    return lambda: link


class JoinAddress:
    """The join URL of ``room`` on ``port``, looked up again every ``every`` seconds.

    ``route_address``: finds this computer's address for a bind address (``lan_address``;
    tests pass their own). ``on_change``: called with the new link, on the watcher's thread.
    """

    def __init__(
        self,
        bind: str,
        port: int,
        room: str,
        *,
        route_address: Callable[[str], str] = lan_address,
        every: float = CHECK_SECONDS,
        on_change: Callable[[JoinLink], None] | None = None,
    ) -> None:
        self.bind, self.port, self.room = bind, port, room
        self.follows = bind in WILDCARDS  # an address the host chose is never looked up again
        self._route_address = route_address
        self._every = every
        self._on_change = on_change
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._link = self._look_up()

    def current(self) -> JoinLink:
        """The address now (one attribute read: the TV asks every frame)."""
        return self._link

    def check(self) -> bool:
        """Look the address up again; returns whether it changed (and tells ``on_change``)."""
        link = self._look_up()
        if link == self._link:
            return False
        self._link = link
        log.info("join address now %s%s", link.url, " (no network)" if link.offline else "")
        if self._on_change is not None:
            self._on_change(link)
        return True

    def start(self) -> JoinAddress:
        """Follow the address on a thread of its own (nothing to follow: no thread)."""
        if self.follows and self._thread is None:
            self._thread = threading.Thread(target=self._run, name="join-address", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread.is_alive():
            self._thread.join(1.0)

    def _run(self) -> None:
        while not self._stop.wait(self._every):
            try:
                self.check()
            except Exception:  # a failed look-up keeps the address we had; the party goes on
                log.exception("could not look the join address up again")

    def _look_up(self) -> JoinLink:
        address = self._route_address(self.bind)
        offline = self.follows and ipaddress.ip_address(address).is_loopback  # as the doctor
        return JoinLink(join_url(address, self.port, self.room), offline)


__all__ = ["CHECK_SECONDS", "JoinAddress", "JoinLink", "fixed"]
