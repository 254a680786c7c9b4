"""Issue 18 (peak RSS with the TV ≤ 120 MB): the party's pygame comes without numpy and
setuptools' ``pkg_resources``, which ``import pygame`` imports for itself where they are
installed and the party never uses (``host.system.import_pygame``; 10.0 and 4.6 MB of the TV
host's peak RSS, docs/benchmarks-history.md, round 37)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from host.system import PYGAME_EXTRAS
from tests.host_process import ROOT, HostProcess

#: The extras installed here: only those can show whether pygame was kept from them.
INSTALLED = [name for name in PYGAME_EXTRAS if importlib.util.find_spec(name) is not None]


def _in_fresh_interpreter(code: str) -> dict[str, bool]:
    """Run ``code`` (which prints one JSON object) in a new Python with SDL's dummy drivers:
    this test process has imported pygame, and with it the extras, long ago."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy"}
    env["SDL_AUDIODRIVER"] = "dummy"
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    found: dict[str, bool] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


@pytest.mark.skipif(not INSTALLED, reason="neither numpy nor pkg_resources is installed here")
def test_issue18_the_display_probe_imports_pygame_without_its_extras() -> None:
    """The party's first pygame import is the display probe (``_fall_back_quietly``): after
    it pygame is there, numpy and pkg_resources are not (before the fix both were)."""
    loaded = _in_fresh_interpreter(
        "import json, sys\n"
        "from host.system import probe_display\n"
        "probe_display()\n"
        f"print(json.dumps({{n: n in sys.modules for n in ['pygame', *{INSTALLED!r}]}}))"
    )
    assert loaded == {"pygame": True, **dict.fromkeys(INSTALLED, False)}


@pytest.mark.skipif(not INSTALLED, reason="neither numpy nor pkg_resources is installed here")
def test_issue18_the_extras_can_still_be_imported_after_pygame() -> None:
    """Hidden only from pygame's own import: code that wants numpy later still gets it."""
    imported = _in_fresh_interpreter(
        "import importlib, json\n"
        "from host.system import import_pygame\n"
        "import_pygame()\n"
        f"print(json.dumps({{n: bool(importlib.import_module(n)) for n in {INSTALLED!r}}}))"
    )
    assert imported == dict.fromkeys(INSTALLED, True)


@pytest.mark.skipif(
    importlib.util.find_spec("numpy") is None or not Path("/proc/self/maps").exists(),
    reason="needs numpy installed and Linux's /proc to see it loaded",
)
def test_issue18_the_party_with_its_tv_never_loads_numpy(tmp_path: Path) -> None:
    """End to end: the real ``cuckoo-party`` with its TV (dummy driver) plays a deal, which
    phones see only once the TV has drawn it; numpy's library is not among its mappings."""
    host = HostProcess(tmp_path / "state.json", headless=False)
    try:
        tokens = host.seat_present("Ana", "Bo", "Cy")
        vip = next(iter(tokens.values()))
        assert host.http.act(vip, "start", 0)[0] == 200
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if any("keep" in host.http.state(token)["can"] for token in tokens.values()):
                break
            time.sleep(0.05)
        else:
            raise AssertionError("the TV never dealt")
        maps = Path(f"/proc/{host.process.pid}/maps").read_text()
        assert "/numpy/" not in maps
    finally:
        host.stop()
