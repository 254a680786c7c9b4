"""Issue 15 finding 4 on a real host process: when its save folder vanishes mid-party, joins and
moves still answer the truth (201/200, the change is real), the party goes on, and on SIGTERM the
host says honestly that the game could not be saved instead of "saved"."""

from __future__ import annotations

import signal
import time
from pathlib import Path

from tests.host_process import HostProcess


def test_issue15_real_host_goes_on_when_the_disk_refuses_and_says_so(
    tmp_path: Path, host_processes: list[HostProcess]
) -> None:
    folder = tmp_path / "party"
    host = HostProcess(folder / "state.json")
    host_processes.append(host)
    tokens = [host.http.join(name)["token"] for name in ("Ana", "Bea", "Cal")]
    host.present(tokens)  # only present players count toward the start
    folder.rename(tmp_path / "moved")
    folder.write_text("a file in the way", encoding="utf-8")  # every save now fails
    late = host.http.join("Dan")  # answered 201 and real
    assert host.http.state(late["token"])["me"]["id"] == late["player_id"]
    status, view = host.http.act(tokens[0], "start", host.http.state(tokens[0])["step"])
    assert status == 200 and view["phase"] == "turns"
    assert host.http.state(tokens[1])["phase"] == "turns"  # everyone sees it
    host.process.send_signal(signal.SIGTERM)
    assert host.process.wait(20) == 0
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not any(
        "could not be saved" in line for line in host.lines
    ):
        time.sleep(0.05)
    assert any("could not be saved" in line for line in host.lines), host.lines
    assert not any("Traceback" in line for line in host.lines), host.lines
    assert not any(line.startswith("Game saved") for line in host.lines), host.lines
