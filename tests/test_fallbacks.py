"""No screen → headless, no sound → captions: one clear line, never SDL's raw output (issue 17)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.host_process import ROOT

RAW_SDL = ("ALSA lib", "XDG_RUNTIME_DIR", "Hello from the pygame community")


def _environ(**env: str) -> dict[str, str]:
    """This process's environment without any screen or sound chosen (tests set dummies)."""
    environ = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "SDL_AUDIODRIVER")
    }
    environ.update(PYTHONPATH=str(ROOT), **env)
    return environ


def _available(probe: str, **env: str) -> bool:
    """Ask ``host.system`` in a child with the host's environment (not the tests' dummies)."""
    code = f"from host.system import {probe}; print({probe}().available)"
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=_environ(**env),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout.strip().endswith("True")


def _start_windowed_host(tmp_path: Path, **env: str) -> list[str]:
    """Start the party without --headless, read its first lines, stop it with SIGTERM."""
    environ = _environ(**env)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "host.cli",
            "--bind",
            "127.0.0.1",
            "--port",
            "0",
            "--state",
            str(tmp_path / "s.json"),
            "--fresh",
        ],
        cwd=ROOT,
        env=environ,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: list[str] = []
    assert process.stdout is not None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
        if line.startswith("Join at"):
            break
    process.send_signal(signal.SIGTERM)
    rest, _ = process.communicate(timeout=15)
    return lines + rest.splitlines()


def test_no_screen_runs_headless_with_one_clear_line(tmp_path: Path) -> None:
    if _available("probe_display"):  # pragma: no cover - a machine with a real screen
        pytest.skip("this machine has a screen: the fallback cannot happen here")
    lines = _start_windowed_host(tmp_path)
    assert lines[0] == "No screen found: running without the TV (phones and captions only)."
    assert any(line.startswith("Join at http://127.0.0.1:") for line in lines)
    assert not [line for line in lines if line.startswith(RAW_SDL)], lines


def test_no_sound_shows_captions_with_one_clear_line(tmp_path: Path) -> None:
    if _available(
        "probe_audio", SDL_VIDEODRIVER="dummy"
    ):  # pragma: no cover - a machine with a sound card
        pytest.skip("this machine has a sound output: the fallback cannot happen here")
    lines = _start_windowed_host(tmp_path, SDL_VIDEODRIVER="dummy")
    assert lines[0] == "No sound output found: captions only."
    assert not [line for line in lines if line.startswith(RAW_SDL)], lines


def test_no_sound_output_mutes_and_tells_the_tv(monkeypatch: pytest.MonkeyPatch) -> None:
    """No sound output: the party starts muted, with one clear line, and marks it so that the
    TV's M says "no sound output" rather than "voice on" (round 41's play-test)."""
    import argparse

    import host.system
    from host.app import _fall_back_quietly
    from host.system import Probe

    monkeypatch.setattr(host.system, "probe_display", lambda: Probe(True, ""))
    monkeypatch.setattr(host.system, "probe_audio", lambda keep_open=False: Probe(False, "none"))
    said: list[str] = []
    args = argparse.Namespace(headless=False, mute=False)
    _fall_back_quietly(args, lambda key, **_: said.append(key))
    assert args.mute is True and args.no_sound_output is True
    assert said == ["doctor.fallback_no_sound"]
