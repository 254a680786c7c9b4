"""Issue 18 item 2: a cheaper durable save — a snapshot plus an append-only journal.

The promises checked here: a record torn by a kill is dropped (it was never answered); damage
before the end of the journal, a gap in it or a journal without its snapshot is refused at
start with one line and exit 2, the files untouched; an answered action survives kill -9; a
restart resumes identically wherever it falls between compactions; a compaction keeps the state
(even one killed before it emptied the journal); every file holding tokens is 0600; a save
from before the journal still loads; ``--fresh`` forgets the journal too. And writing is apart
from syncing: phones get a change before its ``fdatasync``, the tapper's answer after it; one
sync covers every record written before it; a failed sync is shown and the next save compacts.
"""

from __future__ import annotations

import errno
import json
import os
import random
import stat
import statistics
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from host import journal, persistence
from host.cli import main
from host.journal import SaveFile, encode_record, journal_path
from host.logs import log_path_for
from host.pacing import Shown
from host.persistence import save_atomic
from host.rules import HouseRules, game_moves
from host.session import Session
from tests.clock import Clock
from tests.host_process import HostProcess, without_connected


def _play(session: Session, moves: int, rng: random.Random) -> None:
    """``moves`` random changes: legal moves, the host's button between rounds."""
    for _ in range(moves):
        view = session.view(None)
        current = view["current"]
        if current is None:
            session.host_next()
            continue
        session.act(current, rng.choice(game_moves(session.view(current)["can"])), session.step)


def _party(path: Path, compact_every: int = journal.COMPACT_EVERY) -> Session:
    session = Session(
        HouseRules(),
        seed=18,
        room="CAKE",
        state_path=path,
        save_file=SaveFile(path, compact_every=compact_every),
        bots=1,
        # Stopped, as the resumed host's below: a restart opens the current turn anew (its
        # turn_seconds_left is full again), and with time standing still so is the reference's.
        clock=Clock(),
    )
    for name in ("Ana", "Bea", "Cal"):
        session.join(name, "CAKE")
    session.host_next()
    return session


def _records(path: Path) -> list[bytes]:
    return journal_path(path).read_bytes().splitlines(keepends=True)


def _json(data: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(data))  # type: ignore[no-any-return]


def _refused_at_start(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """The real command on ``path``: exit 2, one line naming the save, both files untouched;
    returns the check's words, which the party's log holds."""
    files = (path, journal_path(path))
    before = [f.read_bytes() if f.is_file() else None for f in files]
    status = main(["--headless", "--port", "0", "--bind", "127.0.0.1", "--state", str(path)])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert str(path) in lines[0] and "--fresh" in lines[0]
    assert [f.read_bytes() if f.is_file() else None for f in files] == before
    log = log_path_for(path)
    assert str(log) in lines[0]  # the check's own words are in the party's log
    return log.read_text(encoding="utf-8").rsplit("cannot be read: ", 1)[-1]


def test_issue18_each_change_is_one_journal_record_not_a_new_snapshot(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    session = _party(path)
    snapshot = path.read_bytes()
    before = len(_records(path))
    _play(session, 5, random.Random(1))
    assert path.read_bytes() == snapshot  # the snapshot waits for the compaction
    assert len(_records(path)) == before + 5
    assert SaveFile(path).load() == _json(session.to_dict())
    session.close()


def test_issue18_torn_last_record_is_dropped(tmp_path: Path) -> None:
    """A kill while a record was written leaves it cut short, or with a bad CRC: the record
    was never synced, so never answered; the start resumes at the record before."""
    path = tmp_path / "state.json"
    session = _party(path)
    _play(session, 4, random.Random(2))
    answered = session.to_dict()
    snapshot, good = path.read_bytes(), journal_path(path).read_bytes()
    record = encode_record(len(_records(path)) + 2, {**answered, "room": "TORN"})
    tails = {
        "cut short": record[: len(record) // 2],
        "bad CRC": record.replace(b"TORN", b"TURN"),
        "zeros": b"\0" * 4096,
    }
    for kind, tail in tails.items():
        path.write_bytes(snapshot)
        journal_path(path).write_bytes(good + tail)
        resumed = Session(HouseRules(), state_path=path)
        assert resumed.resumed, kind
        assert resumed.to_dict() == answered, kind
        _play(resumed, 2, random.Random(2))  # and it carries on: the torn tail is gone
        after = resumed.to_dict()
        assert Session(HouseRules(), state_path=path).to_dict() == after, kind


def _a_move(session: Session) -> tuple[str, str, int]:
    current = session.view(None)["current"]
    assert current is not None
    return current, game_moves(session.view(current)["can"])[0], session.step


def _flip_byte(path: Path, record: int) -> None:
    lines = _records(path)
    line = bytearray(lines[record])
    line[len(line) // 2] ^= 0x20  # one letter's case, inside the JSON
    lines[record] = bytes(line)
    journal_path(path).write_bytes(b"".join(lines))


def _killed_party(path: Path, moves: int = 6) -> None:
    session = _party(path)
    _play(session, moves, random.Random(3))  # no close(): as if killed


def test_issue18_damage_in_the_middle_of_the_journal_is_refused_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "state.json"
    _killed_party(path)
    assert len(_records(path)) >= 4
    _flip_byte(path, 1)
    assert "journal: record 2 is damaged" in _refused_at_start(path, capsys)


def test_issue18_a_missing_change_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "state.json"
    _killed_party(path)
    lines = _records(path)
    journal_path(path).write_bytes(b"".join(lines[:1] + lines[2:]))
    assert "are missing" in _refused_at_start(path, capsys)


def test_issue18_records_out_of_order_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "state.json"
    _killed_party(path)
    lines = _records(path)
    lines[2] = lines[1]  # a change twice
    journal_path(path).write_bytes(b"".join(lines))
    assert "out of order" in _refused_at_start(path, capsys)


def test_issue18_a_journal_without_its_snapshot_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "state.json"
    _killed_party(path)
    path.unlink()
    assert "without its snapshot" in _refused_at_start(path, capsys)


@pytest.mark.parametrize("seq", [-1, "7", True, None, 2.5])
def test_issue18_a_damaged_snapshot_number_is_refused(
    seq: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "state.json"
    session = _party(path)
    session.close()
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["seq"] = seq
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert "seq" in _refused_at_start(path, capsys)


def test_issue18_a_damaged_last_session_in_the_journal_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A whole, intact record whose session is wrong (a token for nobody) is checked as a
    snapshot is: one line, exit 2."""
    path = tmp_path / "state.json"
    session = _party(path)
    doc = _json(session.to_dict())
    doc["tokens"]["p42"] = "x" * 43
    with journal_path(path).open("ab") as handle:
        handle.write(encode_record(len(_records(path)) + 2, doc))
    assert "tokens" in _refused_at_start(path, capsys)


def test_issue18_kill_9_after_an_answered_action_loses_nothing(
    tmp_path: Path, host_processes: list[HostProcess]
) -> None:
    """The real host: a tap answered 200, then kill -9; the change came from the journal."""
    state = tmp_path / "state.json"
    host = HostProcess(state)
    host_processes.append(host)
    tokens = host.seat_present("Ana", "Bea", "Cal")
    first = next(iter(tokens.values()))
    assert host.http.act(first, "start", host.http.state(first)["step"])[0] == 200
    views = {pid: host.http.state(token) for pid, token in tokens.items()}
    pid = next(p for p, v in views.items() if game_moves(v["can"]))
    status, answer = host.http.act(
        tokens[pid], game_moves(views[pid]["can"])[0], views[pid]["step"]
    )
    assert status == 200, answer
    host.kill_9()
    assert _records(state), "the answered changes were in the journal"
    assert SaveFile(state).load() is not None
    host = HostProcess(state)
    host_processes.append(host)
    host.present(tokens.values())
    assert without_connected(host.http.state(tokens[pid])) == without_connected(answer)


@pytest.mark.parametrize("seed", range(6))
def test_issue18_restart_resumes_identically_anywhere_between_compactions(
    seed: int, tmp_path: Path
) -> None:
    """Property: kill (no close) after any number of changes, with compactions every few
    records and sometimes a torn tail; the restart equals the party, and both carry on alike."""
    rng = random.Random(seed)
    path = tmp_path / "state.json"
    every = rng.choice((1, 2, 3, 7, 100))
    party = _party(path, compact_every=every)
    for _ in range(4):
        _play(party, rng.randrange(0, 25), rng)
        if rng.random() < 0.5:
            with journal_path(path).open("ab") as handle:
                handle.write(b'99999 00000000 {"half a rec')
        resumed = Session(
            HouseRules(),
            state_path=path,
            save_file=SaveFile(path, compact_every=every),
            clock=Clock(),
        )
        party._save_file = None  # the killed host writes nothing more; it is the reference
        assert resumed.to_dict() == party.to_dict()
        for pid in [None, *resumed.bots, *(p["id"] for p in party.view(None)["players"])]:
            assert resumed.view(pid) == party.view(pid)
        moves = rng.randrange(1, 20)
        _play(party, moves, random.Random(seed * 100 + moves))
        _play(resumed, moves, random.Random(seed * 100 + moves))
        assert resumed.to_dict() == party.to_dict()
        party = resumed  # the restarted host goes on; the old one is gone


def _payload(record: bytes) -> dict[str, Any]:
    """The JSON of one journal line."""
    return json.loads(record.split(b" ", 2)[2])  # type: ignore[no-any-return]


def test_issue18_a_record_holds_only_what_the_change_changed(tmp_path: Path) -> None:
    """Eighteenth pass (docs/benchmarks-history.md): each record is the members that differ from the
    session before it, not the whole session — the game's random state, the tokens and the standings
    stay out of a move that did not change them — and the journal still gives the session after
    every change."""
    path = tmp_path / "state.json"
    session = _party(path)
    rng = random.Random(5)
    shares: list[float] = []
    for _ in range(30):
        before = _json(session.to_dict())
        count = len(_records(path))
        _play(session, 1, rng)
        after = _json(session.to_dict())
        new = _records(path)[count:]
        assert len(new) == 1
        record = _payload(new[0])
        assert list(record) == [journal.PATCH_KEY]
        paths = [path_ for path_, _ in record[journal.PATCH_KEY]]
        expected = []
        for key, value in after.items():  # an object with the same keys: member by member
            if isinstance(value, dict) and list(value) == list(before[key]):
                expected += [[key, name] for name in value if value[name] != before[key][name]]
            elif value != before[key]:
                expected.append([key])
        assert sorted(paths) == sorted(expected)
        assert ["game", "step"] in paths
        assert ["tokens"] not in paths
        shares.append(len(new[0]) / len(json.dumps(after, ensure_ascii=False).encode()))
        assert SaveFile(path).load() == after
    assert statistics.median(shares) < 0.5  # a deal changes nearly everything; a move little
    session.close()


def test_issue18_a_journal_of_whole_sessions_still_loads(tmp_path: Path) -> None:
    """Records written before the eighteenth pass hold the whole session; patches after them
    apply to the last of them."""
    path = tmp_path / "state.json"
    session = _party(path)
    _play(session, 3, random.Random(6))
    session._save_file = None  # from now on this test writes the journal
    lines = _records(path)
    rng = random.Random(6)
    for _ in range(3):  # as the host before this pass wrote them
        _play(session, 1, rng)
        lines.append(encode_record(len(lines) + 2, _json(session.to_dict())))
    journal_path(path).write_bytes(b"".join(lines))
    assert SaveFile(path).load() == _json(session.to_dict())
    before = _json(session.to_dict())
    _play(session, 1, rng)
    patch = journal.session_patch(before, _json(session.to_dict()))
    assert patch
    lines.append(encode_record(len(lines) + 2, {journal.PATCH_KEY: patch}))
    journal_path(path).write_bytes(b"".join(lines))
    assert SaveFile(path).load() == _json(session.to_dict())


def test_issue18_a_session_whose_shape_changed_is_written_whole(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    save = SaveFile(path)
    save.write({"format": "x", "game": {"step": 1}})  # the first write: the snapshot
    save.write({"format": "x", "game": {"step": 2}})
    save.write({"format": "x", "game": {"step": 3, "new": True}, "more": 1})
    first, second = (_payload(line) for line in _records(path))
    assert first == {journal.PATCH_KEY: [[["game", "step"], 2]]}
    assert second == {"format": "x", "game": {"step": 3, "new": True}, "more": 1}
    assert SaveFile(path).load() == second


def test_issue18_a_patch_splits_only_objects_whose_keys_are_text() -> None:
    """A path is text: an object with other keys (JSON would make them text) is given whole,
    so the patch read back always fits."""
    before = {"game": {"step": 1, "rng": "s"}, "by_number": {1: "a"}, "room": "CAKE"}
    after = {"game": {"step": 2, "rng": "s"}, "by_number": {1: "b"}, "room": "CAKE"}
    patch = journal.session_patch(before, after)
    assert patch == [[["game", "step"], 2], [["by_number"], {1: "b"}]]
    data = json.loads(json.dumps(before))
    journal.apply_patch(data, json.loads(json.dumps(patch)))
    assert data == json.loads(json.dumps(after))


@pytest.mark.parametrize(
    "patch",
    [
        [[["nowhere"], 1]],
        [[["game", "nowhere"], 1]],
        [[["room", "deeper"], 1]],
        [[[], 1]],
        [[[["room"]], 1]],
        [["room", "CAKE"]],
        "room",
    ],
)
def test_issue18_a_patch_that_does_not_fit_the_save_is_refused_with_one_line(
    patch: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "state.json"
    _killed_party(path)
    with journal_path(path).open("ab") as handle:
        handle.write(encode_record(len(_records(path)) + 2, {journal.PATCH_KEY: patch}))
    assert "journal: a patch" in _refused_at_start(path, capsys)


@pytest.mark.parametrize("rules", ["", "H1", "H2", "H3", "H4", "H5", "H6", "H7", "H8"])
def test_issue18_the_journal_gives_the_session_after_every_change_under_each_rule(
    rules: str, tmp_path: Path
) -> None:
    """Property (the patch's base must never change under it: ``to_dict`` must share no list
    or dict that a later change alters): after every change of a seeded game, under each
    house rule, the save read back equals the session."""
    path = tmp_path / "state.json"
    session = Session(
        HouseRules.parse(rules),
        seed=len(rules),
        room="CAKE",
        state_path=path,
        bots=2,
        clock=Clock(),
    )
    for name in ("Ana", "Bea", "Cal"):
        session.join(name, "CAKE")
    session.host_next()
    rng = random.Random(rules)
    for _ in range(60):
        _play(session, 1, rng)
        assert SaveFile(path).load() == _json(session.to_dict())
    session.close()


def test_issue18_compaction_keeps_the_state(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    session = _party(path, compact_every=5)
    for moves in range(1, 13):
        _play(session, 1, random.Random(moves))
        assert len(_records(path)) <= 5
        assert SaveFile(path).load() == _json(session.to_dict())
    snapshot = json.loads(path.read_text(encoding="utf-8"))
    assert snapshot["seq"] > 5  # compacted more than once
    session.close()
    assert _records(path) == []  # closing compacts: one snapshot, an empty journal
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert {k: v for k, v in saved.items() if k != "seq"} == _json(session.to_dict())


def test_issue18_a_compaction_killed_before_emptying_the_journal_keeps_the_state(
    tmp_path: Path,
) -> None:
    """The snapshot is written first: records it already holds are skipped at start."""
    path = tmp_path / "state.json"
    session = _party(path, compact_every=4)
    while len(_records(path)) < 4:
        _play(session, 1, random.Random(len(_records(path))))
    old_journal = journal_path(path).read_bytes()
    _play(session, 1, random.Random(9))  # this change compacts
    assert _records(path) == []
    journal_path(path).write_bytes(old_journal)  # as if killed before the journal was emptied
    assert Session(HouseRules(), state_path=path).to_dict() == session.to_dict()


def test_issue18_a_failed_append_is_caught_up_by_a_compaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Half a record written, then a full disk: the party goes on, the next save is a
    snapshot that empties the journal, and a restart resumes the latest state."""
    path = tmp_path / "state.json"
    session = _party(path)
    real_write = os.write

    def half_then_full(fd: int, data: Any) -> int:
        if len(data) > 20:  # halves until the end of the record is left: then the disk is full
            return real_write(fd, bytes(data[: len(data) // 2]))
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "write", half_then_full)  # the journal's writes, during one act
    session.act(*_a_move(session))
    assert session.save_problem == os.strerror(errno.ENOSPC)
    monkeypatch.undo()
    assert not journal_path(path).read_bytes().endswith(b"\n")  # half a record at the end
    session.act(*_a_move(session))
    assert session.save_problem is None and _records(path) == []  # compacted
    _play(session, 3, random.Random(4))
    assert Session(HouseRules(), state_path=path).to_dict() == session.to_dict()


def test_a_refused_snapshot_keeps_every_change_in_the_journal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 44's play-test: the save's folder took no new file mid-party (a snapshot's
    temporary file refused) while the journal still took bytes. The changes go on into the
    journal, nobody is told the game is unsaved (it is not), closing says "saved", a restart
    resumes the latest state, and once the folder takes files again a snapshot empties it."""
    path = tmp_path / "state.json"
    session = _party(path, compact_every=3)

    def refused(path: Path, data: Any) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(persistence, "save_atomic", refused)
    for moves in range(7):  # past two snapshots due
        _play(session, 1, random.Random(moves))
        assert session.save_problem is None
    assert len(_records(path)) > 3  # the snapshots were put off: all in the journal
    assert SaveFile(path).load() == _json(session.to_dict())
    session.close()  # its snapshot refused too
    assert session.save_problem is None
    assert SaveFile(path).load() == _json(session.to_dict())
    monkeypatch.undo()
    again = Session(HouseRules(), state_path=path)
    assert again.to_dict() == session.to_dict()
    assert _records(path) == []  # the first write after a start is a snapshot
    again.close()


def test_a_refused_snapshot_after_a_torn_record_is_a_save_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A journal that may end in half a record is not appended to: the refused snapshot is
    told (``save_problem``), as before (passes on the old code too: the guard of the change)."""
    path = tmp_path / "state.json"
    session = _party(path)

    def torn(fd: int, data: Any) -> int:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(os, "write", torn)  # what the journal holds is uncertain now
    session.act(*_a_move(session))
    assert session.save_problem is not None
    monkeypatch.undo()

    def refused(path: Path, data: Any) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(persistence, "save_atomic", refused)
    session.act(*_a_move(session))
    assert session.save_problem == os.strerror(errno.EROFS)
    session.close()


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_issue18_every_file_holding_tokens_is_0600(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    journal_path(path).write_bytes(b"")
    os.chmod(journal_path(path), 0o644)  # left by someone else, readable by all
    old = os.umask(0)
    try:
        session = _party(path, compact_every=3)
        rng = random.Random(5)
        for _ in range(3):  # until the journal holds a record (a compaction empties it)
            _play(session, 1, rng)
            if _records(path):
                break
        assert _records(path) and _mode(journal_path(path)) == 0o600
        assert _mode(path) == 0o600
        _play(session, 5, random.Random(6))  # through a compaction
        assert _mode(journal_path(path)) == 0o600 and _mode(path) == 0o600
        session.close()
    finally:
        os.umask(old)
    assert _mode(journal_path(path)) == 0o600 and _mode(path) == 0o600


def test_issue18_a_save_from_before_the_journal_still_loads(tmp_path: Path) -> None:
    """The old format: the session's JSON alone, no ``seq``, no journal."""
    path = tmp_path / "state.json"
    party = Session(HouseRules(), seed=7, room="CAKE", bots=1)
    for name in ("Ana", "Bea", "Cal"):
        party.join(name, "CAKE")
    party.host_next()
    _play(party, 5, random.Random(7))
    save_atomic(path, party.to_dict())  # as the host before issue 18 wrote it
    resumed = Session(HouseRules(), state_path=path)
    assert resumed.resumed and resumed.to_dict() == party.to_dict()
    _play(party, 3, random.Random(8))
    _play(resumed, 3, random.Random(8))  # journaled now; killed without close
    assert Session(HouseRules(), state_path=path).to_dict() == party.to_dict()
    party.close()


def test_issue18_fresh_forgets_the_journal_too(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    _killed_party(path)
    assert _records(path)
    fresh = Session(HouseRules(), room="NEW", state_path=path, fresh=True)
    assert not fresh.resumed and fresh.view(None)["players"] == []
    assert _records(path) == []
    again = Session(HouseRules(), state_path=path)
    assert again.room == "NEW" and again.view(None)["players"] == []
    again.close()


def test_issue18_the_standings_are_saved_as_before_without_asdict(tmp_path: Path) -> None:
    """The save's standings lines are the fields' plain values, as ``asdict`` gave them."""
    session = _party(tmp_path / "state.json")
    _play(session, 30, random.Random(11))
    lines = session._standings.lines.values()
    assert lines and session.to_dict()["standings"]["lines"] == [asdict(x) for x in lines]
    session.close()


class _GatedSync(SaveFile):
    """The real save, whose ``sync`` waits for the test once armed (a slow disk)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.armed = False
        self.syncing = threading.Event()
        self.release = threading.Event()

    def sync(self) -> None:
        if self.armed:
            self.syncing.set()
            assert self.release.wait(timeout=10), "the test never released the disk"
        super().sync()


def _slow_disk_party(tmp_path: Path) -> tuple[Session, _GatedSync, list[str]]:
    """Three seated and dealt in, saved on a disk whose sync the test holds once armed."""
    path = tmp_path / "state.json"
    disk = _GatedSync(path)
    session = Session(HouseRules(), seed=18, room="CAKE", state_path=path, save_file=disk)
    ids = [session.join(name, "CAKE").player_id for name in ("Ana", "Bea", "Cal")]
    session.host_next()
    return session, disk, ids


@contextmanager
def _tap_held_at_the_disk(
    session: Session, disk: _GatedSync, player: str
) -> Iterator[tuple[int, list[int], threading.Thread]]:
    """``player`` keeps, on a thread, at the current step; inside the block the change is
    written and its sync held: (that step, the tap's answers so far, its thread). Leaving
    lets the disk go on and waits for the tap."""
    step = session.step
    answers: list[int] = []
    disk.armed = True
    tap = threading.Thread(target=lambda: answers.append(session.act(player, "keep", step)["step"]))
    tap.start()
    try:
        assert disk.syncing.wait(timeout=10), "the tap never reached the disk sync"
        yield step, answers, tap
    finally:
        disk.release.set()
        tap.join(timeout=10)


def test_issue18_phones_get_a_change_before_the_disk_sync_and_the_tapper_after_it(
    tmp_path: Path,
) -> None:
    """Items 1 and 2: the fan-out does not wait for ``fdatasync``; the tap's answer does."""
    session, disk, ids = _slow_disk_party(tmp_path)
    current = session.view(None)["current"]
    assert current is not None
    watcher = session.subscribe(next(p for p in ids if p != current))
    assert watcher.get(timeout=1) is not None  # the table as it is
    with _tap_held_at_the_disk(session, disk, current) as (step, answers, _):
        update = watcher.get(timeout=5)
        assert update is not None and update.step == step + 1  # before the sync ended
        assert answers == [], "the tapper was answered before the change was on the disk"
        assert SaveFile(disk.path).load() == _json(session.to_dict()), "written, not yet synced"
    assert answers == [step + 1]
    session.close()


def test_issue18_one_sync_covers_every_record_written_before_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A group commit: three records written, one ``fdatasync``; a sync with nothing new is free."""
    path = tmp_path / "state.json"
    save = SaveFile(path)
    save.write({"n": 0})  # the first write is a snapshot, synced by itself
    syncs: list[int] = []
    real = journal._sync_data

    def counted(fd: int) -> None:
        syncs.append(fd)
        real(fd)

    monkeypatch.setattr(journal, "_sync_data", counted)
    for n in (1, 2, 3):
        save.write({"n": n}, sync=False)
    assert syncs == [] and len(_records(path)) == 3
    assert SaveFile(path).load() == {"n": 3}  # kill -9 now would lose nothing: it is written
    save.sync()
    save.sync()
    assert len(syncs) == 1
    save.write({"n": 4})  # sync=True, the default: durable before returning
    assert len(syncs) == 2


def test_issue18_a_failed_sync_is_shown_and_the_next_change_compacts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sync that fails (EIO): the tap is still answered, the TV is told, the next save is a
    snapshot (the journal's records are of unknown fate), and the problem then clears."""
    path = tmp_path / "state.json"
    session = _party(path)
    real = journal._sync_data
    failing = [True]

    def sync_data(fd: int) -> None:
        if failing[0]:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real(fd)

    monkeypatch.setattr(journal, "_sync_data", sync_data)
    current = session.view(None)["current"]
    assert current is not None
    view = session.act(current, game_moves(session.view(current)["can"])[0], session.step)
    assert view["step"] == session.step
    assert session.save_problem == os.strerror(errno.EIO)
    failing[0] = False
    _play(session, 1, random.Random(1))
    assert session.save_problem is None
    assert _records(path) == [], "the change after a failed sync was a snapshot"
    assert SaveFile(path).load() == _json(session.to_dict())
    session.close()


def test_issue18_the_tv_never_waits_for_the_disk_when_it_paces_the_phones(
    tmp_path: Path,
) -> None:
    """The TV's thread reports its beats (``tv_shown``) between two frames: that re-paces the
    phones but saves nothing, so it must return while a tap still waits for its sync."""
    session, disk, _ = _slow_disk_party(tmp_path)
    tv = session.lead()
    session.tv_shown(Shown(begun=1000))  # the TV has played everything so far
    current = session.view(None)["current"]
    assert current is not None
    with _tap_held_at_the_disk(session, disk, current) as (_, _, tap):
        beat = threading.Thread(target=lambda: session.tv_shown(Shown(begun=2000)))
        beat.start()
        beat.join(timeout=5)
        assert not beat.is_alive(), "the TV's beat waited for the tap's fdatasync"
        assert tap.is_alive(), "the tap was answered before its sync"
    assert not tap.is_alive()
    tv.end()
    session.close()
