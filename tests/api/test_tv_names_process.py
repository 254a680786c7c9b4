"""Play-test finding (a name the TV drew as boxes), end to end: the real ``cuckoo-party`` with
its TV hands the session the TV's check before the server opens, and a headless one does not.

An Arabic name stands for "a name the TV cannot show" here: refused for its script whatever
fonts the computer has (``host/tv/shown_names.py``), so the test does not depend on them.
"""

from __future__ import annotations

from pathlib import Path

from tests.host_process import HostProcess

ARABIC = "محمد"


def test_playtest_cjk_the_party_with_its_tv_refuses_a_name_it_cannot_show(
    tmp_path: Path, host_processes: list[HostProcess]
) -> None:
    host = HostProcess(tmp_path / "tv.json", headless=False)
    host_processes.append(host)
    status, body = host.http.call("POST", "/api/join", {"name": ARABIC, "room": "TEST"})
    assert (status, body["error"], body["letters"]) == (400, "bad_name", ARABIC)
    host.http.join("Ana")  # the first to sit down is still the VIP: nothing was taken
    status, table = host.http.call("GET", "/api/table?room=TEST")
    assert status == 200 and [p["name"] for p in table["players"]] == ["Ana"]


def test_playtest_cjk_a_headless_party_takes_the_same_name(
    tmp_path: Path, host_processes: list[HostProcess]
) -> None:
    host = HostProcess(tmp_path / "headless.json")
    host_processes.append(host)
    assert host.http.join(ARABIC)["status"] == "active"
