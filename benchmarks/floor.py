"""The floor: the least a server can do to fan one tap out to N phones' event streams.

Why a floor: a latency or CPU figure means little alone on a shared virtual machine. This is a
bare stdlib ``asyncio`` server, one thread, no framework, no save, no per-player view: it speaks
the same wire protocol as the host (``POST /api/join``, ``GET /api/events`` as server-sent
events over chunked HTTP/1.1, ``POST /api/action`` with a bearer token and a ``step``), builds
ONE message per change, encodes it once and writes the same bytes to every open stream. The
benchmarks time it with the very client they use for the host, in the same run
(``benchmarks/versus.py``), and report our figures as multiples of it.

The message looks like a view to the client (``step``, ``phase``, ``current``, ``can``) and is
padded to ``--bytes`` so the wire carries as much as the host's views do.

Run alone: ``python -m benchmarks.floor --serve [--port 0] [--bytes 4000]``; it prints
``Join at http://127.0.0.1:PORT/?room=BENCH`` like the host, and stops on SIGTERM.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import signal
import sys
from typing import Any

ROOM = "BENCH"
MAX_BODY = 4096


class Floor:
    """The whole server state: players in join order, tokens, open streams and the step."""

    def __init__(self, payload_bytes: int) -> None:
        self.payload_bytes = payload_bytes
        self.players: list[str] = []
        self.tokens: dict[str, str] = {}
        self.streams: list[asyncio.StreamWriter] = []
        self.step = 0
        self.message = self._build()

    def _build(self) -> bytes:
        """One message for everybody: one ``json.dumps`` and one encode per change."""
        current = self.players[self.step % len(self.players)] if self.players else None
        view: dict[str, Any] = {
            "step": self.step,
            "phase": "turns",
            "current": current,
            "can": ["keep"],
            "pad": "",
        }
        bare = len(json.dumps(view, separators=(",", ":")))
        view["pad"] = "x" * max(0, self.payload_bytes - bare)
        data = f"data: {json.dumps(view, separators=(',', ':'))}\n\n".encode()
        return f"{len(data):x}\r\n".encode() + data + b"\r\n"  # one HTTP/1.1 chunk

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One keep-alive connection: requests until the client closes or opens a stream."""
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                request_line, *header_lines = head.decode("latin-1").split("\r\n")
                method, target, _ = request_line.split(" ", 2)
                headers = {
                    name.strip().lower(): value.strip()
                    for name, _, value in (line.partition(":") for line in header_lines if line)
                }
                length = int(headers.get("content-length", "0"))
                if not 0 <= length <= MAX_BODY:
                    return
                body = await reader.readexactly(length) if length else b""
                if method == "GET" and target.startswith("/api/events?token="):
                    if target.split("=", 1)[1] not in self.tokens:
                        self._answer(writer, 401, {"error": "unauthorized"})
                        continue
                    writer.write(
                        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                        b"Transfer-Encoding: chunked\r\n\r\n" + self.message
                    )
                    self.streams.append(writer)
                    await reader.read()  # until the phone goes away
                    return
                status, answer = self._route(method, target, headers, body)
                self._answer(writer, status, answer)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, ValueError):
            return
        finally:
            if writer in self.streams:
                self.streams.remove(writer)
            writer.close()

    def _route(
        self, method: str, target: str, headers: dict[str, str], body: bytes
    ) -> tuple[int, dict[str, Any]]:
        if method == "POST" and target == "/api/join":
            player = f"p{len(self.players) + 1}"
            token = secrets.token_urlsafe(16)
            self.players.append(player)
            self.tokens[token] = player
            self.message = self._build()
            return 201, {"player_id": player, "token": token, "status": "joined"}
        if method == "POST" and target == "/api/action":
            token = headers.get("authorization", "").partition(" ")[2]
            if token not in self.tokens:
                return 401, {"error": "unauthorized"}
            tap = json.loads(body)
            if tap.get("step") != self.step:
                return 409, {"error": "stale_step"}
            self.step += 1
            self.message = self._build()
            for stream in self.streams:  # the same bytes to every phone, no task per stream
                stream.write(self.message)
            return 200, {"step": self.step}
        return 404, {"error": "not_found"}

    @staticmethod
    def _answer(writer: asyncio.StreamWriter, status: int, answer: dict[str, Any]) -> None:
        data = json.dumps(answer).encode()
        writer.write(
            f"HTTP/1.1 {status} X\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n\r\n".encode()
            + data
        )


async def serve(port: int, payload_bytes: int) -> None:
    """Serve on 127.0.0.1 until SIGTERM or SIGINT."""
    floor = Floor(payload_bytes)
    server = await asyncio.start_server(floor.handle, "127.0.0.1", port)
    bound = server.sockets[0].getsockname()[1]
    print(f"Join at http://127.0.0.1:{bound}/?room={ROOM}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    async with server:
        await stop.wait()


def main(argv: list[str] | None = None) -> Any:
    """``--serve``: run the floor server. Without it (as ``python -m benchmarks`` calls it):
    run the interleaved comparison in ``benchmarks/versus.py``."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--serve", action="store_true")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--bytes", type=int, default=4000, help="size of each message's JSON")
    args, rest = parser.parse_known_args(argv)
    if not args.serve:
        from benchmarks import versus

        return versus.main(rest)
    asyncio.run(serve(args.port, args.bytes))
    return 0


if __name__ == "__main__":
    main(sys.argv[1:])
