"""Issue 15 finding 4: saving is honest. When the disk refuses a save the change still happens
completely (applied, answered, told to every stream), the party goes on in memory, the TV warns
"can't save the game: …", the next save that works catches up with everything and the warning
clears. A join that fails leaves no seat behind."""

from __future__ import annotations

import errno
import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from host.i18n import Catalog
from host.journal import SaveFile, journal_path
from host.rules import HouseRules
from host.session import Session, SessionError
from host.tv.app import TVApp
from host.tv.safety import WARNING_TOP
from host.tv.theme import WARNING_STRIP
from phone_web import create_app


class FlakyDisk(SaveFile):
    """The real save (snapshot and journal) on a disk that can be filled up and emptied."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.full = False
        self.saves = 0

    def write(self, data: dict[str, Any], *, compact: bool = False, sync: bool = True) -> None:
        if self.full:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(self.path))
        super().write(data, compact=compact, sync=sync)
        self.saves += 1


@pytest.fixture
def disk(tmp_path: Path) -> FlakyDisk:
    return FlakyDisk(tmp_path / "state.json")


@pytest.fixture
def party(tmp_path: Path, disk: FlakyDisk) -> Iterator[tuple[Session, dict[str, str], Path]]:
    path = tmp_path / "state.json"
    session = Session(HouseRules(), seed=8, room="CAKE", state_path=path, save_file=disk)
    ids = {name: session.join(name, "CAKE").player_id for name in ("Ana", "Bea", "Cal")}
    session.host_next()
    yield session, ids, path
    session.close()


def _saved(path: Path) -> dict[str, Any]:
    """What the next start would read: the snapshot with its journal replayed."""
    saved = SaveFile(path).load()
    assert saved is not None
    return saved


def test_issue15_a_refused_save_still_applies_answers_and_tells_everyone(
    party: tuple[Session, dict[str, str], Path], disk: FlakyDisk
) -> None:
    session, _, path = party
    stream = session.subscribe(None, presence=False)
    assert stream.get(timeout=1) is not None  # the first view
    journal = journal_path(path)
    before_step, before_file = session.step, (path.read_bytes(), journal.read_bytes())
    disk.full = True
    current = session.view(None)["current"]
    assert current is not None
    view = session.act(current, "keep", before_step)  # answered: no exception, a real view
    assert view["step"] == before_step + 1 == session.step
    update = stream.get(timeout=1)
    assert update is not None and update.step == before_step + 1  # the stream was told
    assert session.save_problem == os.strerror(errno.ENOSPC)
    assert (path.read_bytes(), journal.read_bytes()) == before_file  # the disk really refused
    # More moves while the disk is full: the party goes on in memory.
    for _ in range(2):
        current = session.view(None)["current"]
        if current is not None:
            session.act(current, "keep", session.step)
    disk.full = False
    current = session.view(None)["current"]
    if current is not None:
        session.act(current, "keep", session.step)
    else:
        session.host_next()
    assert session.save_problem is None  # the warning clears
    assert _saved(path) == json.loads(json.dumps(session.to_dict()))  # caught up with all
    stream.close()


def test_issue15_a_refused_save_is_retried_on_the_next_change_of_any_kind(
    party: tuple[Session, dict[str, str], Path], disk: FlakyDisk
) -> None:
    session, ids, path = party
    disk.full = True
    current = session.view(None)["current"]
    assert current is not None
    session.act(current, "keep", session.step)
    assert session.save_problem is not None
    disk.full = False
    phone = session.subscribe(ids["Ana"])  # a phone reconnecting is a change too
    assert session.save_problem is None
    assert _saved(path)["game"]["step"] == session.step
    phone.close()


def test_issue15_a_join_on_a_full_disk_is_a_real_seat_with_a_working_token(
    party: tuple[Session, dict[str, str], Path], disk: FlakyDisk
) -> None:
    session, _, path = party
    disk.full = True
    joined = session.join("Dan", "CAKE")
    assert session.player_for_token(joined.token) == joined.player_id
    me = session.view(joined.player_id)["me"]
    assert me is not None and me["id"] == joined.player_id
    assert "Dan" not in {p["name"] for p in _saved(path)["game"]["players"]}
    disk.full = False
    session.join("Eve", "CAKE")
    saved = _saved(path)
    assert saved["tokens"][joined.player_id] == joined.token  # caught up: Dan can come back


def test_issue15_a_join_that_fails_leaves_no_seat_behind(
    party: tuple[Session, dict[str, str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    session, _, _ = party
    before = session.to_dict()
    stream = session.subscribe(None, presence=False)
    stream.get(timeout=1)

    def broken(events: Any) -> None:
        raise RuntimeError("the fan-out broke")

    monkeypatch.setattr(session, "_changed", broken)
    with pytest.raises(RuntimeError):
        session.join("Dan", "CAKE")
    monkeypatch.undo()
    assert session.to_dict()["game"]["players"] == before["game"]["players"]
    assert session.to_dict()["tokens"] == before["tokens"]
    assert stream.get(timeout=0.1) is None  # nobody was told of a seat that never was
    assert session.join("Dan", "CAKE").player_id  # the name is free
    stream.close()


def test_issue15_the_api_answers_the_truth_on_a_full_disk(
    party: tuple[Session, dict[str, str], Path], disk: FlakyDisk
) -> None:
    session, _, _ = party
    client = create_app(session).test_client()
    disk.full = True
    joined = client.post("/api/join", json={"name": "Dan", "room": "CAKE"})
    assert joined.status_code == 201
    answer = json.loads(joined.data)
    auth = {"Authorization": f"Bearer {answer['token']}"}
    state = json.loads(client.get("/api/state", headers=auth).data)
    assert state["me"]["id"] == answer["player_id"]
    assert session.save_problem is not None


def test_issue15_the_tv_warns_while_saving_fails_and_clears_after(
    party: tuple[Session, dict[str, str], Path], disk: FlakyDisk
) -> None:
    session, _, _ = party
    pygame.font.init()
    catalog = Catalog.load()
    app = TVApp(session, None, catalog, lang="fr", join_url="http://127.0.0.1:1/?room=CAKE")
    canvas = pygame.Surface((1920, 1080))
    shown: list[str] = []
    real = catalog.t

    def spy(lang: str, key: str, /, count: int | None = None, **params: Any) -> str:
        text = real(lang, key, count=count, **params)
        if key.startswith("safety."):
            shown.append(text)
        return text

    app.props.catalog.t = spy  # type: ignore[method-assign]
    app.poll_save_problem()
    app.render(canvas)
    assert shown == [] and tuple(canvas.get_at((960, WARNING_TOP + 4)))[:3] != WARNING_STRIP
    disk.full = True
    current = session.view(None)["current"]
    assert current is not None
    session.act(current, "keep", session.step)
    app.poll_save_problem()
    assert app.needs_render
    app.render(canvas)
    assert shown and shown[-1].startswith("Impossible d’enregistrer la partie")
    assert os.strerror(errno.ENOSPC) in shown[-1]
    assert tuple(canvas.get_at((960 - 600, WARNING_TOP + 4)))[:3] == WARNING_STRIP
    disk.full = False
    current = session.view(None)["current"]
    assert current is not None
    session.act(current, "keep", session.step)
    app.poll_save_problem()
    shown.clear()
    app.render(canvas)
    assert shown == []
    app.close()


def test_issue15_a_real_vanished_folder_then_restored(tmp_path: Path) -> None:
    """A real disk refusal, no stand-in: the save folder is replaced by a file mid-party."""
    folder = tmp_path / "party"
    path = folder / "state.json"
    session = Session(HouseRules(), seed=3, room="CAKE", state_path=path)
    try:
        for name in ("Ana", "Bea", "Cal"):
            session.join(name, "CAKE")
        folder.rename(tmp_path / "moved")
        folder.write_text("in the way", encoding="utf-8")
        session.host_next()  # applied although the save fails
        assert session.save_problem is not None and session.view(None)["phase"] == "turns"
        folder.unlink()
        (tmp_path / "moved").rename(folder)
        current = session.view(None)["current"]
        assert current is not None
        session.act(current, "keep", session.step)
        assert session.save_problem is None
        assert _saved(path)["game"]["step"] == session.step
    finally:
        session.close()


def _mount_tiny_tmpfs(where: Path) -> bool:
    where.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(where)],
        check=False,
        capture_output=True,
        timeout=20,
    )
    return done.returncode == 0


def test_issue15_a_real_full_tmpfs_then_freed(tmp_path: Path) -> None:
    """A real full disk (a 64 KiB tmpfs; needs the right to mount, as root in CI)."""
    disk = tmp_path / "tiny"
    if not _mount_tiny_tmpfs(disk):
        pytest.skip("mounting a tmpfs is not allowed here")
    try:
        path = disk / "state.json"
        session = Session(HouseRules(), seed=3, room="CAKE", state_path=path)
        for name in ("Ana", "Bea", "Cal"):
            session.join(name, "CAKE")
        filler = disk / "filler"
        with open(filler, "wb", buffering=0) as handle:
            try:
                # at most 1 MiB: the 64 KiB disk is full long before
                handle.writelines(b"\0" * 1024 for _ in range(1024))
            except OSError:
                pass
        session.host_next()
        assert session.save_problem == os.strerror(errno.ENOSPC)
        assert session.view(None)["phase"] == "turns"
        filler.unlink()
        current = session.view(None)["current"]
        assert current is not None
        session.act(current, "keep", session.step)
        assert session.save_problem is None
        assert _saved(path)["game"]["step"] == session.step
        session.close()
        assert not [p for p in disk.iterdir() if p.name.endswith(".tmp")]
    finally:
        subprocess.run(["umount", str(disk)], check=False, timeout=20)


def test_issue15_closing_on_a_full_disk_does_not_raise(
    party: tuple[Session, dict[str, str], Path], disk: FlakyDisk
) -> None:
    session, _, _ = party
    disk.full = True
    session.close()
    with pytest.raises(SessionError):
        session.join("Zed", "CAKE")
