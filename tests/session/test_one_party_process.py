"""Issue 12: the host must never die or lose a party — started twice on one save, the second
host refuses (exit 2, one line) and the first keeps its party; a host killed with SIGKILL does
not block the next start; two saves run two parties. Real processes on 127.0.0.1."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from host.i18n import Catalog
from host.journal import journal_path
from tests.host_process import ROOT, HostProcess

#: A save last written this long ago is from another evening: a start would put it aside.
DAYS_AGO = 3 * 24 * 3600.0


def _start_again(state: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """``python -m host.cli`` on ``state`` as ``HostProcess`` starts it, expected to end at
    once (a refused start opens no port, so it is not a ``HostProcess``)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CI": "true"}
    command = [sys.executable, "-m", "host.cli", "--headless", "--bind", "127.0.0.1"]
    command += ["--port", "0", "--room", "TEST", "--state", str(state), *extra]
    return subprocess.run(
        command, check=False, cwd=ROOT, env=env, capture_output=True, text=True, timeout=30
    )


def _save_files(state: Path) -> dict[str, tuple[bytes, float]]:
    """Every file of the save's folder but the log: its bytes and when it was written."""
    return {
        path.name: (path.read_bytes(), path.stat().st_mtime)
        for path in sorted(state.parent.iterdir())
        if not path.name.startswith("cuckoo-party.log")
    }


@pytest.mark.parametrize("second", [[], ["--fresh"]], ids=["again", "fresh"])
def test_issue12_a_second_host_on_the_same_save_is_refused_and_the_first_keeps_its_party(
    tmp_path: Path, host_processes: list[HostProcess], second: list[str]
) -> None:
    state = tmp_path / "state.json"
    first = HostProcess(state)
    host_processes.append(first)
    ana = first.http.join("Ana")
    assert ana["player_id"] == "p1"
    for path in (state, journal_path(state)):  # old enough that a start would put it aside
        written = path.stat().st_mtime - DAYS_AGO
        os.utime(path, (written, written))
    before = _save_files(state)

    refused = _start_again(state, *second)

    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert refused.stdout == ""
    url = f"{first.url}/?room=TEST"
    assert refused.stderr.splitlines() == [
        Catalog.load().t("en", "cli.already_running_at", url=url)
    ]
    assert _save_files(state) == before  # nothing written, nothing put aside
    assert first.process.poll() is None
    assert first.http.call("GET", "/healthz") == (200, "ok")
    table = first.http.state(ana["token"])
    assert [p["name"] for p in table["players"]] == ["Ana"]


def test_issue12_a_host_killed_with_sigkill_does_not_block_the_next_start(
    tmp_path: Path, host_processes: list[HostProcess]
) -> None:
    state = tmp_path / "state.json"
    first = HostProcess(state)
    host_processes.append(first)
    ana = first.http.join("Ana")
    first.kill_9()  # the operating system lets go of the lock with the process

    again = HostProcess(state)
    host_processes.append(again)
    assert any(line.startswith("Resumed the saved game") for line in again.lines)
    table = again.http.state(ana["token"])  # the same party: Ana's phone carries on
    assert [p["name"] for p in table["players"]] == ["Ana"]
    assert _start_again(state).returncode == 2  # and the new host holds the save in turn


def test_issue12_two_hosts_on_two_saves_both_run(
    tmp_path: Path, host_processes: list[HostProcess]
) -> None:
    hosts = [HostProcess(tmp_path / name / "state.json") for name in ("kitchen", "garden")]
    host_processes.extend(hosts)
    for host in hosts:
        assert host.http.join("Ana")["player_id"] == "p1"
    assert all(host.process.poll() is None for host in hosts)
    assert hosts[0].port != hosts[1].port
