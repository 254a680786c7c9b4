"""A save from another evening is put aside at start, not resumed (``host/last_party.py``).

Why it matters: the save lives in the system's data folder, so next week's party would open
on this week's table — its players away, its results called "tonight's standings".
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from host.journal import journal_path
from host.last_party import EVENING_HOURS, last_written, put_aside_if_old

HOUR = 3600.0


def _save(folder: Path, written: float, *, journal: bool = True) -> Path:
    """A snapshot (and its journal) last written at ``written``."""
    path = folder / "state.json"
    path.write_text('{"snapshot": 1}')
    files = [path]
    if journal:
        journal_path(path).write_text("1 0 {}\n")
        files.append(journal_path(path))
    for file in files:
        os.utime(file, (written, written))
    return path


def test_a_save_from_last_week_is_renamed_beside_itself_with_its_journal(tmp_path: Path) -> None:
    now = time.time()
    written = now - 7 * 24 * HOUR
    path = _save(tmp_path, written)
    aside = put_aside_if_old(path, now)
    assert aside is not None and aside.saved_at == written
    assert not path.exists() and not journal_path(path).exists()  # nothing left to resume
    assert aside.path.parent == tmp_path
    assert aside.path.read_text() == '{"snapshot": 1}'  # nothing lost: the same bytes
    assert journal_path(aside.path).read_text() == "1 0 {}\n"
    stamp = time.strftime("%Y-%m-%d-%H%M", time.localtime(written))
    assert aside.path.name == f"state.{stamp}.json"
    assert aside.saved_when() == time.strftime("%Y-%m-%d %H:%M", time.localtime(written))


def test_a_save_written_tonight_is_left_to_resume(tmp_path: Path) -> None:
    now = time.time()
    path = _save(tmp_path, now - (EVENING_HOURS - 0.5) * HOUR)  # a long night, still tonight
    assert put_aside_if_old(path, now) is None
    assert path.exists() and journal_path(path).exists()


def test_the_journal_counts_as_the_last_write(tmp_path: Path) -> None:
    """The snapshot is rewritten only every 500 changes; the journal gets every change."""
    now = time.time()
    path = _save(tmp_path, now - 3 * 24 * HOUR)
    os.utime(journal_path(path), (now - 60, now - 60))  # a change a minute ago
    assert last_written(path) == now - 60
    assert put_aside_if_old(path, now) is None


def test_no_save_nothing_to_put_aside(tmp_path: Path) -> None:
    assert last_written(tmp_path / "state.json") is None
    assert put_aside_if_old(tmp_path / "state.json") is None


def test_two_old_saves_of_the_same_minute_keep_both(tmp_path: Path) -> None:
    now = time.time()
    written = now - 2 * 24 * HOUR
    first = put_aside_if_old(_save(tmp_path, written), now)
    second = put_aside_if_old(_save(tmp_path, written, journal=False), now)
    assert first is not None and second is not None and first.path != second.path
    assert first.path.exists() and second.path.exists()
    assert journal_path(first.path).exists() and not journal_path(second.path).exists()


def test_a_clock_behind_the_save_resumes_it(tmp_path: Path) -> None:
    """A Raspberry Pi boots with yesterday's time until the network gives it the hour: a save
    that seems to come from the future is tonight's, as before this module."""
    now = time.time()
    path = _save(tmp_path, now + 5 * HOUR)
    assert put_aside_if_old(path, now) is None and path.exists()
