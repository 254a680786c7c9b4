"""Issue 12: the host must never die or lose a party — one running party per save file.

The lock of ``host/one_party.py`` on its own, and the command refusing a second party in-process
(the real processes, with SIGKILL, are in ``tests/session/test_one_party_process.py``).
"""

from __future__ import annotations

import os
from contextlib import closing
from pathlib import Path

import pytest

from host.cli import main
from host.i18n import Catalog
from host.journal import journal_path
from host.one_party import PartyLock, PartyRunning, RunningParty, lock_path

JOIN = "http://192.168.1.20:8000/?room=CAKE"


def test_issue12_the_lock_file_is_beside_the_save_whatever_the_spelling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "saves").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "saves")
    monkeypatch.chdir(tmp_path)
    expected = (tmp_path / "saves" / "state.json.lock").resolve()
    assert lock_path(tmp_path / "saves" / "state.json") == expected
    assert lock_path(Path("saves/state.json")) == expected
    assert lock_path(tmp_path / "link" / "state.json") == expected


def test_issue12_a_held_save_refuses_a_second_lock_and_says_where_phones_join(
    tmp_path: Path,
) -> None:
    state = tmp_path / "state.json"
    with closing(PartyLock.take(state)) as first:
        assert first.held
        with pytest.raises(PartyRunning) as refused:
            PartyLock.take(state)
        assert refused.value.running == RunningParty(pid=os.getpid(), join_url=None)
        first.note_join(JOIN)
        with pytest.raises(PartyRunning) as refused:
            PartyLock.take(state)
        assert refused.value.running == RunningParty(pid=os.getpid(), join_url=JOIN)
    assert not first.held
    with closing(PartyLock.take(state)) as again:  # released: the next start runs
        assert again.held
    assert not state.exists() and not journal_path(state).exists()  # the lock writes no save


def test_issue12_a_lock_file_that_is_not_ours_still_refuses(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    with closing(PartyLock.take(state)):
        lock_path(state).write_bytes(b"\x00garbage")
        with pytest.raises(PartyRunning) as refused:
            PartyLock.take(state)
    assert refused.value.running == RunningParty(pid=None, join_url=None)


def test_issue12_no_lock_possible_runs_the_party_unguarded(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("in the way")
    lock = PartyLock.take(tmp_path / "file" / "state.json")  # its folder cannot exist
    assert not lock.held
    lock.note_join(JOIN)  # nothing to write, nothing raised
    lock.close()


@pytest.mark.parametrize("fresh", [[], ["--fresh"]])
def test_issue12_the_command_refuses_a_second_party_before_touching_the_save(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fresh: list[str]
) -> None:
    """Exit 2, one translated line with the running party's address, and the save (even an
    old one that a start would put aside, even with --fresh) left exactly as it was."""
    state = tmp_path / "state.json"
    state.write_text("{}")
    journal_path(state).write_text("")
    old = 1_000_000_000.0  # 2001: another evening, which a start would put aside
    for path in (state, journal_path(state)):
        os.utime(path, (old, old))
    args = ["--headless", "--port", "0", "--bind", "127.0.0.1", "--state", str(state)]
    with closing(PartyLock.take(state)) as running:
        running.note_join(JOIN)
        before = sorted(p.name for p in tmp_path.iterdir())
        status = main([*args, "--lang", "fr", *fresh])
        after = sorted(p.name for p in tmp_path.iterdir())
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.splitlines() == [Catalog.load().t("fr", "cli.already_running_at", url=JOIN)]
    assert "Cuckoo Party est déjà lancé" in err and JOIN in err
    assert set(after) - set(before) <= {"cuckoo-party.log"}  # the command's log, nothing else
    assert state.read_text() == "{}" and journal_path(state).read_text() == ""
    assert state.stat().st_mtime == old and journal_path(state).stat().st_mtime == old
