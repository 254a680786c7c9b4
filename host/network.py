"""Where the phones can reach the host: the LAN address and a free port.

Why no traffic: the party may run without internet, and we must not ping anything to learn our
own address. Connecting a UDP socket only asks the kernel to pick a route; no packet leaves.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import socket
import threading
from typing import Any
from urllib.parse import quote

#: A documentation-only address (RFC 5737); routing towards it reveals the LAN interface.
_ROUTE_PROBE = ("192.0.2.1", 9)
_WILDCARDS = frozenset({"", "0.0.0.0", "::"})


def lan_address(bind: str = "0.0.0.0") -> str:
    """The address phones should use: the bound one, else the interface of the default route."""
    if bind not in _WILDCARDS:
        return bind
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(_ROUTE_PROBE)  # UDP connect: chooses a route, sends nothing
        address = str(probe.getsockname()[0])
        if address and not address.startswith("0."):
            return address
    except OSError:
        pass
    finally:
        probe.close()
    try:
        address = socket.gethostbyname(socket.gethostname())
        if address and not address.startswith("127."):
            return address
    except OSError:
        pass
    return "127.0.0.1"


def port_is_free(bind: str, port: int) -> bool:
    """True when a listening socket could bind ``bind:port`` right now."""
    family = socket.AF_INET6 if ":" in bind else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((bind, port))
        except OSError as error:
            if error.errno in (errno.EADDRINUSE, errno.EACCES):
                return False
            raise
    return True


def free_port(bind: str = "127.0.0.1", start: int = 8000, tries: int = 100) -> int:
    """The first port from ``start`` that is free (``start`` 0 asks the kernel for any)."""
    if start == 0:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            probe.bind((bind, 0))
            return int(probe.getsockname()[1])
    for port in range(start, min(start + tries, 65536)):
        if port_is_free(bind, port):
            return port
    raise OSError(errno.EADDRINUSE, f"no free port in {start}..{start + tries - 1}")


def join_url(address: str, port: int, room: str) -> str:
    """``http://ADDRESS:PORT/?room=CODE`` exactly as PHONE_API.md prints it."""
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}/?room={quote(room)}"


def public_join_url(public_url: str, room: str) -> str:
    """The join URL built on an address given with ``--public-url`` (e.g. behind a router)."""
    base = public_url.rstrip("/")
    return f"{base}/?room={quote(room)}"


#: 20 phones each hold one thread with their event stream, plus their requests, plus spare.
SERVER_THREADS = 64


class BackgroundServer:
    """waitress serving a WSGI app from a daemon thread, stoppable within a second or two.

    ``send_bytes=1`` makes waitress flush every write at once, which event streams need;
    ``channel_request_lookahead`` lets a stream notice a phone that went away.
    """

    def __init__(self, app: Any, bind: str, port: int, *, tries: int = 100,
                 threads: int = SERVER_THREADS) -> None:
        from waitress.server import create_server

        self.requested_port = port
        last_error: OSError | None = None
        candidates = [0] if port == 0 else range(port, min(port + tries, 65536))
        for candidate in candidates:
            try:
                self._server = create_server(
                    app, host=bind, port=candidate, threads=threads, send_bytes=1,
                    channel_request_lookahead=1, ident="cuckoo-party",
                    connection_limit=200, clear_untrusted_proxy_headers=True,
                )
                break
            except OSError as error:
                if error.errno not in (errno.EADDRINUSE, errno.EACCES):
                    raise
                last_error = error
        else:
            raise last_error or OSError(errno.EADDRINUSE, "no free port")
        self.bind = bind
        self.port = int(self._server.effective_port)
        self._thread = threading.Thread(target=self._run, name="web-server", daemon=True)

    def _run(self) -> None:
        try:
            self._server.run()
        except (OSError, ValueError):  # the map was torn down under the loop by stop()
            pass

    def start(self) -> BackgroundServer:
        self._thread.start()
        return self

    def stop(self, timeout: float = 0.5) -> None:
        """Close the listener and every connection, then let the worker threads go.

        The closing runs on the server's own loop thread (through waitress's trigger) so it
        never races the loop; if the loop is gone, it runs here. Afterwards the port is free.
        """
        logging.getLogger("waitress").setLevel(logging.CRITICAL)
        server = self._server
        closed = threading.Event()

        def close_on_loop() -> None:
            try:
                self._close_map()
            finally:
                closed.set()

        try:
            server.trigger.pull_trigger(close_on_loop)
        except (OSError, ValueError, AttributeError):
            pass
        if not (self._thread.is_alive() and closed.wait(timeout)):
            self._close_map()
        listener = getattr(server, "socket", None)
        if listener is not None:  # belt and braces: the port must be free when we return
            try:
                listener.close()
            except OSError:
                pass
        server.task_dispatcher.shutdown(cancel_pending=True, timeout=timeout)
        # The loop notices the empty map at its next poll; it is a daemon, so no long wait.
        self._thread.join(0.2)

    def _close_map(self) -> None:
        socket_map = self._server._map
        for _ in range(10):
            if not socket_map:
                return
            for channel in list(socket_map.values()):
                with contextlib.suppress(Exception):  # best effort while tearing down
                    channel.handle_close()
