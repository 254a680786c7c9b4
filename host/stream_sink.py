"""Let one thread write every open event stream: waitress's task, plus a body sink.

Why (issue 18 item 1): waitress runs each response on a worker thread of its own until the
body ends, so with the body as a generator every change woke one thread per phone, and the
twenty of them then fought for the GIL to send the same few kilobytes. Here a streaming
response's first chunk goes out as usual, and the application then hands the rest of the body
(``environ[SINK_KEY]``) to ``phone_web/streams.py``, where the thread that changes the table
writes it; the worker thread only waits for the stream to end, waking once a second to see
whether the phone left.

The sink frames each chunk as waitress's ``task.write`` does and sends it at once from the
calling thread, queueing in waitress's own buffers only what the socket does not take, so the
bytes on the wire are the ones a generator would have produced. Nothing else in the task runs
while the application's iterator is parked; ``phone_web.streams.Stream`` lets one thread write
at a time.

waitress internals relied on (pinned ``waitress>=3.0,<3.1`` in pyproject.toml, as for
``ConnectionGuard``): ``HTTPChannel.task_class``; ``WSGITask.get_environment``, ``write``,
``wrote_header`` and ``chunked_response``; a channel's ``outbuf_lock``,
``total_outbufs_len``, ``connected``, ``send``, ``write_soon`` and ``last_activity``; and
``ClientDisconnected``.
"""

from __future__ import annotations

import time
from typing import Any

from waitress.channel import ClientDisconnected, HTTPChannel
from waitress.task import WSGITask

#: Where a streaming response finds its sink in the WSGI environ (absent on other servers).
SINK_KEY = "cuckoo.body_sink"


class BodySink:
    """Writes the body of a response that is already running, from any one thread."""

    def __init__(self, task: WSGITask) -> None:
        self._task = task

    def write(self, data: bytes) -> None:
        """Send ``data`` as the body's next bytes; ``ConnectionError`` if the phone is gone.

        A chunked body whose earlier bytes have all gone out is framed and sent here, with one
        ``send``; only what the socket does not take is queued in waitress's buffers, which
        its loop then sends. Why not always ``task.write``: its buffers (a copy in, a copy
        out, a lock, a check of the watermark) cost about 16 µs a phone on every change,
        nearly as much as the ``send`` itself (issue 18.1). Anything else (the headers not yet
        out, a body that is not chunked) goes through ``task.write`` as before.
        """
        task = self._task
        if not (task.wrote_header and task.chunked_response):
            self._write_through_task(data)
            return
        chunk = b"%X\r\n%s\r\n" % (len(data), data)  # the framing task.write would add
        channel = task.channel
        with channel.outbuf_lock:  # waitress's loop and this thread never send at once
            if not channel.connected:
                raise ConnectionError("the client disconnected")
            if not channel.total_outbufs_len:  # nothing queued ahead: the bytes stay in order
                sent = channel.send(chunk, do_close=False)  # 0 if the socket is full or gone
                if sent:
                    channel.last_activity = time.time()  # what waitress's own flush notes
                chunk = chunk[sent:]
            if chunk:  # queued; waitress flushes it, or finds the phone gone
                try:
                    channel.write_soon(chunk)
                except ClientDisconnected as gone:
                    raise ConnectionError("the client disconnected") from gone

    def _write_through_task(self, data: bytes) -> None:
        try:
            self._task.write(data)
        except ClientDisconnected as gone:
            raise ConnectionError("the client disconnected") from gone

    def end(self) -> None:
        """Nothing to do: the request's thread waits on the stream itself (``Stream.wait``)."""

    @property
    def unsent(self) -> int:
        """Bytes written but not yet accepted by the client's socket (a stalled reader)."""
        return int(self._task.channel.total_outbufs_len)


class SinkTask(WSGITask):  # type: ignore[misc]  # waitress ships no type hints
    """waitress's WSGI task, with a ``BodySink`` of itself in the environ."""

    def get_environment(self) -> dict[str, Any]:
        environ: dict[str, Any] = super().get_environment()
        environ.setdefault(SINK_KEY, BodySink(self))
        return environ


class SinkChannel(HTTPChannel):  # type: ignore[misc]
    """waitress's HTTP channel, running its requests as ``SinkTask``s."""

    task_class = SinkTask
