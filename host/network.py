"""Where the phones can reach the host: the LAN address and a free port.

Why no traffic: the party may run without internet, and we must not ping anything to learn our
own address. Connecting a UDP socket only asks the kernel to pick a route; no packet leaves.
When a VPN or a container bridge holds that route, the Wi-Fi's or the Ethernet's address is
used instead (``host/interfaces.py``): phones cannot reach a VPN's.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import socket
import threading
import weakref
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from host.interfaces import Interface, network_interfaces, phone_address

log = logging.getLogger(__name__)

#: A documentation-only address (RFC 5737); routing towards it reveals the LAN interface.
_ROUTE_PROBE = ("192.0.2.1", 9)
#: Bind addresses that mean "every interface": the address phones use must be found.
WILDCARDS = frozenset({"", "0.0.0.0", "::"})


def default_route_address(bind: str = "0.0.0.0") -> str:
    """The bound address, else the one of the default route's interface (a VPN's, if it holds
    the route), else the host name's, else the loopback."""
    if bind not in WILDCARDS:
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


def lan_address(
    bind: str = "0.0.0.0",
    *,
    route: Callable[[str], str] = default_route_address,
    interfaces: Callable[[], list[Interface]] = network_interfaces,
) -> str:
    """The address phones should use: the bound one, else the default route's, unless that is
    a VPN's or a container's and the Wi-Fi or the Ethernet has one (``phone_address``).

    ``route`` finds the default route's address (``default_route_address``) and
    ``interfaces`` lists the interfaces; tests pass their own. A listing that fails keeps the
    route's address: the listing only improves the choice, it must never stop the party.
    """
    address = route(bind)
    if bind not in WILDCARDS:
        return address
    try:
        table = interfaces()
    except (ImportError, OSError) as error:
        log.debug("no interface listing, keeping the route's address %s: %s", address, error)
        return address
    return phone_address(address, table)


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


#: The most event streams that can be live at once: one per seat (issue 15: a new stream of a
#: player replaces the old one), 20 seats with H7. ``/api/table`` is answered, never streamed,
#: so public watchers hold no thread at all.
MAX_STREAMS = 20
#: Threads left for plain requests when every stream is live (each is answered in milliseconds).
REQUEST_THREADS = 12
SERVER_THREADS = MAX_STREAMS + REQUEST_THREADS
#: Past this many open connections waitress stops accepting (far above the worst real case:
#: 20 phones with a stream and a few keep-alive connections each, about 100).
CONNECTION_LIMIT = 1000
#: Past this many, the oldest idle connections are closed to make room (``ConnectionGuard``).
EVICT_ABOVE = 600
#: A connection with no request running is closed after this many quiet seconds.
IDLE_SECONDS = 10
#: A request must have fully arrived this long after its first byte (slow-header senders).
REQUEST_SECONDS = 10
#: A client that accepts none of the bytes waiting for it this long is gone (frozen phone).
STALL_SECONDS = 30
#: The kernel aborts a connection whose sent data stays unacknowledged this long (a phone that
#: slept or left without a FIN), so its stream ends and its player shows as away.
UNACKED_SECONDS = 20


class BackgroundServer:
    """waitress serving a WSGI app from a daemon thread, stoppable within a second or two.

    ``send_bytes=1`` makes waitress flush every write at once, which event streams need;
    ``channel_request_lookahead`` lets a stream notice a phone that went away. Connections are
    bounded (issue 15): more threads than streams can ever be live, idle and slow connections
    dropped within seconds, the oldest idle ones evicted when too many are open, and ``poll``
    instead of ``select`` so descriptors past 1024 are fine.
    """

    def __init__(
        self,
        app: Any,
        bind: str,
        port: int,
        *,
        tries: int = 100,
        threads: int = SERVER_THREADS,
        idle_seconds: int = IDLE_SECONDS,
        guard: ConnectionGuard | None = None,
    ) -> None:
        from waitress.server import create_server

        self.requested_port = port
        last_error: OSError | None = None
        candidates = [0] if port == 0 else range(port, min(port + tries, 65536))
        for candidate in candidates:
            try:
                self._server = create_server(
                    app,
                    host=bind,
                    port=candidate,
                    threads=threads,
                    send_bytes=1,
                    channel_request_lookahead=1,
                    ident="cuckoo-party",
                    connection_limit=CONNECTION_LIMIT,
                    clear_untrusted_proxy_headers=True,
                    channel_timeout=idle_seconds,
                    cleanup_interval=1,
                    asyncore_use_poll=True,
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
        # Not a create_server() argument: waitress applies it to every accepted connection.
        self._server.adj.socket_options = _socket_options()
        # A stream's body is written by whoever changes the table (host/stream_sink.py, 18.1).
        from host.stream_sink import SinkChannel

        self._server.channel_class = SinkChannel
        self.guard = guard or ConnectionGuard()
        self.guard.install(self._server)
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


def _socket_options() -> list[tuple[int, int, int]]:
    """waitress's default (no Nagle) plus, where the kernel has it, ``TCP_USER_TIMEOUT``."""
    options = [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]
    if hasattr(socket, "TCP_USER_TIMEOUT"):  # Linux
        options.append((socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, UNACKED_SECONDS * 1000))
    return options


class ConnectionGuard:
    """What waitress lacks against a room full of odd phones: deadlines and eviction.

    waitress closes a connection only after ``channel_timeout`` seconds without a byte in or
    out, and stops accepting at ``connection_limit``. So a client sending one header line
    every 2 s, or one that opened a stream and stopped reading, stays forever, and a few
    hundred silent sockets lock everyone else out (issue 15, finding 3). After waitress's own
    sweep, once a second on its loop thread, this closes connections whose request has not
    fully arrived within ``request_seconds``, those whose client accepted none of the waiting
    bytes for ``stall_seconds`` (even those waitress already marked to close: a full socket
    never gets to it), and then the longest-idle ones beyond ``evict_above``.

    waitress internals relied on (pinned ``waitress>=3.0,<3.1`` in pyproject.toml): the
    server's ``maintenance(now)`` hook and ``active_channels``; a channel's ``requests``
    (running), ``request`` (partly received), ``last_activity``, ``total_outbufs_len`` and
    ``will_close`` (waitress's own way to close a channel from its loop), ``handle_close``
    (for a channel whose full socket never gets to that); and the server's
    ``adj.socket_options``, set after creation (``BackgroundServer``).
    """

    def __init__(
        self,
        *,
        request_seconds: float = REQUEST_SECONDS,
        stall_seconds: float = STALL_SECONDS,
        evict_above: int = EVICT_ABOVE,
    ) -> None:
        self.request_seconds = request_seconds
        self.stall_seconds = stall_seconds
        self.evict_above = evict_above
        self.closed = 0
        self._first_seen: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()

    def install(self, server: Any) -> None:
        """Run after waitress's own ``maintenance`` each time it runs (on its loop thread)."""
        waitress_sweep = server.maintenance

        def maintenance(now: float) -> None:
            waitress_sweep(now)
            self.sweep(list(server.active_channels.values()), now)

        server.maintenance = maintenance

    def sweep(self, channels: list[Any], now: float) -> None:
        """Close what is too slow, too stuck or one too many (on waitress's loop thread)."""
        idle: list[Any] = []
        open_count = 0
        for channel in channels:
            stuck = (
                bool(channel.total_outbufs_len) and now - channel.last_activity > self.stall_seconds
            )
            if stuck:  # even when already marked: a full socket never gets to its close
                self._close(channel, at_once=True)
                continue
            if channel.will_close:
                continue
            open_count += 1
            if channel.requests:  # a request runs (a stream): only a stuck reader is closed
                continue
            partial = channel.request
            if partial is not None:
                started = self._first_seen.setdefault(partial, now)
                if now - started > self.request_seconds:
                    self._close(channel)
                    open_count -= 1
                    continue
            idle.append(channel)
        if open_count > self.evict_above:
            idle.sort(key=lambda channel: float(channel.last_activity))
            for channel in idle[: open_count - self.evict_above]:
                self._close(channel)

    def _close(self, channel: Any, *, at_once: bool = False) -> None:
        """``will_close``: waitress closes it at its next write turn. That turn never comes for
        a client whose receive window stays full, so such a channel is closed here and now
        (``handle_close`` is what waitress's loop itself calls when a socket fails)."""
        self.closed += 1
        if not at_once:
            channel.will_close = True
            return
        with contextlib.suppress(OSError):
            channel.handle_close()
