"""The private parts of pyttsx3 and waitress we rely on are still where we expect (issue 17).

Why a test: pyproject.toml caps both libraries at the releases these were checked on; when a
cap is raised, this test is what fails loudly if a new release moved an internal, instead of
a party night where the voice speaks at the wrong rate or the host cannot stop its server.
"""

from __future__ import annotations

import inspect
import subprocess
import sys
import textwrap

from tests.host_process import ROOT


def test_pyttsx3_espeak_driver_internals_used_by_synth() -> None:
    """``host/voice/synth.py``: ``engine.proxy._driver`` and ``_espeak.Synchronize``."""
    from pyttsx3.driver import DriverProxy

    assert "self._driver" in inspect.getsource(DriverProxy.__init__)
    probe = textwrap.dedent("""
        from host.voice.engine import init_pyttsx3
        engine = init_pyttsx3()
        from pyttsx3.drivers import _espeak
        assert callable(_espeak.Synchronize)
        driver = engine.proxy._driver
        assert callable(driver.setProperty)
        print("ok")
    """)
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={"PYTHONPATH": str(ROOT), "PATH": ""},
    )
    assert done.stdout.strip().endswith("ok"), done.stderr[-2000:]


def test_waitress_server_internals_used_by_network() -> None:
    """``host/network.py``: the server's ``_map``, ``trigger``, ``task_dispatcher``, port."""
    from waitress.server import create_server

    def app(environ: object, start_response: object) -> list[bytes]:
        return []

    server = create_server(app, host="127.0.0.1", port=0, threads=1)
    try:
        assert isinstance(server._map, dict)
        assert callable(server.trigger.pull_trigger)
        assert callable(server.task_dispatcher.shutdown)
        assert int(server.effective_port) > 0
    finally:
        server.close()
        server.task_dispatcher.shutdown(cancel_pending=True, timeout=1)
