"""The party command starts itself once more with glibc's per-thread caches off (issue 18
item 5: flat memory; ``host/relaunch.py``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

from host.relaunch import (
    ENVIRONMENT_KEY,
    SETTING,
    is_glibc,
    relaunch_command,
    tuned_environment,
)
from tests.host_process import HostProcess

ROOT = Path(__file__).resolve().parents[1]
needs_glibc = pytest.mark.skipif(not is_glibc(), reason="GLIBC_TUNABLES exist only on glibc")

#: Prints its pid before and after asking to start again, then the tunables it runs with.
PROBE = (
    "import os; from host.relaunch import relaunch_with_flat_memory; "
    "print('START', os.getpid(), flush=True); relaunch_with_flat_memory(); "
    "print('AFTER', os.getpid(), os.environ.get('GLIBC_TUNABLES'), flush=True)"
)


def run_probe(**environment: str) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != ENVIRONMENT_KEY}
    env.update(PYTHONPATH=str(ROOT), **environment)
    command = [sys.executable, "-c", PROBE]
    done = subprocess.run(command, check=False, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.split("\n")[:-1]


def test_the_setting_is_added_when_absent() -> None:
    tuned = tuned_environment({"HOME": "/root"})
    assert tuned == {"HOME": "/root", ENVIRONMENT_KEY: "glibc.malloc.tcache_count=0"}


def test_other_tunables_are_kept_and_the_setting_appended() -> None:
    tuned = tuned_environment({ENVIRONMENT_KEY: "glibc.malloc.arena_max=2"})
    assert tuned is not None
    assert tuned[ENVIRONMENT_KEY] == f"glibc.malloc.arena_max=2:{SETTING}"


@pytest.mark.parametrize(
    "given", ["glibc.malloc.tcache_count=7", "glibc.malloc.arena_max=2:glibc.malloc.tcache_count=3"]
)
def test_a_cache_setting_given_by_the_host_person_is_left_alone(given: str) -> None:
    assert tuned_environment({ENVIRONMENT_KEY: given}) is None


def test_the_caller_environment_is_not_changed() -> None:
    environ = {"HOME": "/root"}
    tuned_environment(environ)
    assert environ == {"HOME": "/root"}


def test_the_same_command_runs_again_with_the_same_interpreter() -> None:
    command = relaunch_command(["python3", "-m", "host.cli", "--mute"], "/usr/bin/python3.11")
    assert command == ["/usr/bin/python3.11", "-m", "host.cli", "--mute"]


@needs_glibc
def test_a_process_starts_once_more_in_place_with_the_caches_off() -> None:
    lines = run_probe()
    starts = [line for line in lines if line.startswith("START ")]
    after = [line.split() for line in lines if line.startswith("AFTER ")]
    assert len(starts) == 2, lines  # the first start, then the same command once more
    assert len({line.split()[1] for line in starts}) == 1, "exec keeps the process id"
    assert after == [["AFTER", starts[0].split()[1], SETTING]], lines


@needs_glibc
def test_no_second_start_when_the_host_person_set_the_caches() -> None:
    lines = run_probe(GLIBC_TUNABLES="glibc.malloc.tcache_count=7")
    assert [line.split()[0] for line in lines] == ["START", "AFTER"]
    assert lines[1].endswith("glibc.malloc.tcache_count=7")


def test_the_party_command_is_the_launcher() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["cuckoo-party"] == "host.cli:launch"


@needs_glibc
def test_a_running_host_has_the_caches_off(tmp_path: Path) -> None:
    host = HostProcess(tmp_path / "state.json")
    try:
        environ = Path(f"/proc/{host.process.pid}/environ").read_bytes().split(b"\0")
        assert f"{ENVIRONMENT_KEY}={SETTING}".encode() in environ
        assert host.http.call("GET", "/healthz") == (200, "ok")
    finally:
        host.stop()
