"""The session on disk: a snapshot plus an append-only journal of every change since.

Why: rewriting the whole save after every tap (a temporary file, fsync, rename, fsync of the
folder) cost several milliseconds inside the session lock (issue 18 item 2). Appending one
record to a journal and syncing it with ``fdatasync`` keeps the same promise — an answered
action survives kill -9, because the answer is sent only after the record is on disk — for a
fraction of that. Every ``COMPACT_EVERY`` records, and when the party closes, the whole session
is written as a snapshot (atomically, as before) and the journal is emptied.

Files, for a save at ``state.json`` (both 0600: they hold every player's token):

- ``state.json``: the snapshot, the session's JSON as always, plus ``"seq"``, the number of the
  last change it contains. A save from before the journal has no ``"seq"`` and counts as 0.
- ``state.json.journal``: one line per change after the snapshot,
  ``<seq> <crc32 as 8 hex digits> <json>\\n``; the CRC covers ``<seq> <json>``. The JSON is
  the session's members that changed since the record before (``{"patch": [[path, value],
  …]}``, ``session_patch``), or the whole session when its shape changed. Starting again is:
  check every record, then apply them in order to the snapshot (``read_journal``).

  Why a patch (issue 18, eighteenth pass in docs/benchmarks-history.md): the record is written under
  the session lock before any phone gets the change, so its cost is on every tap's path. A keep with
  twenty players changes the game's seats, turn, log and history, not its random state, options,
  tokens or standings: the patch is a quarter of the bytes, and encoding it (after comparing the
  members) took 150 instead of 282 µs in process. (An earlier pass measured no gain from parts; the
  sync was then in the tap's path and cost the same for 2 or 12 KB.)

Writing and syncing are two steps (``write(..., sync=False)``, then ``sync``). Why: once
``os.write`` has returned, the record is in the kernel and survives kill -9 of the host; only
a power cut or a crash of the system can still lose it, and that is what ``fdatasync`` is for.
So the session writes the record under its lock, in order, sends the change to every phone,
and only then syncs and answers the tapper — the other phones no longer wait for the disk
(issue 18 items 1 and 2). One ``sync`` covers every record written before it (a group commit).
The price, on a power cut only: phones may have seen a change that the restarted host does not
have; the tapper, never answered, taps again.

Reading back: a last record that is cut short or fails its CRC was being written when the
process died; it was never synced, so never answered, and it is dropped. A bad record with a
good one after it is damage, and so is a gap in the numbers: ``CorruptSave``, the host refuses
to start with one line. Records numbered at or below the snapshot's ``seq`` are left over from
a compaction that was killed before it emptied the journal, and are skipped.

After a failed write the journal may end in half a record, so the next write is a compaction,
which empties it; appending resumes only once that worked.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import threading
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from host import persistence
from host.persistence import CorruptSave

log = logging.getLogger(__name__)

#: A snapshot after this many journal records. A compaction costs about two old-style saves
#: and falls on one change in COMPACT_EVERY: at 100 it was exactly the taps' p99, at 500 it is
#: beyond it, while the journal stays around 1 MB (a record is about 2 KB with ten players,
#: a deal's more) and reading it back at start takes about 16 ms (``benchmarks/save.py``).
COMPACT_EVERY = 500
#: ``fdatasync`` syncs the record without the file's times; systems without it use ``fsync``.
_sync_data: Callable[[int], None] = getattr(os, "fdatasync", os.fsync)


def journal_path(path: Path) -> Path:
    """The journal beside the snapshot at ``path`` (``state.json`` → ``state.json.journal``)."""
    return path.with_name(f"{path.name}.journal")


def encode_record(seq: int, data: dict[str, Any]) -> bytes:
    """One journal line: ``<seq> <crc32> <json>\\n`` (JSON never holds a raw newline)."""
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    head = str(seq).encode("ascii")
    crc = zlib.crc32(head + b" " + payload)
    return b"%s %08x %s\n" % (head, crc, payload)


#: A journal record that holds only what changed: ``{"patch": [[path, value], …]}``.
PATCH_KEY = "patch"


def session_patch(before: dict[str, Any], after: dict[str, Any]) -> list[list[Any]] | None:
    """What changed from ``before`` to ``after``, as ``[path, value]`` pairs that turn the one
    into the other (``apply_patch``); None when their shapes differ (then write ``after`` whole).

    Two levels: a top-level member that differs is given whole, unless both are objects with
    the same keys, in order (the game, the standings), whose differing members are then given
    one by one. Comparing costs far less than encoding what did not change (the game's random
    state, the standings, the tokens). ``before`` must not share a list or dict that changed
    since with ``after`` (``Session.to_dict`` builds new ones; the tests check every change).
    """
    if list(before) != list(after):
        return None
    patch: list[list[Any]] = []
    for key, value in after.items():
        old = before[key]
        if _same_members(old, value):  # compared member by member, each member once
            patch.extend(
                [[key, name], member] for name, member in value.items() if old[name] != member
            )
        elif old != value:
            patch.append([[key], value])
    return patch


def _same_members(old: Any, new: Any) -> bool:
    """Both objects with the same keys in the same order, all text (a path is made of text:
    JSON would turn any other key into text, which ``apply_patch`` would not find)."""
    return (
        isinstance(old, dict)
        and isinstance(new, dict)
        and list(old) == list(new)
        and all(isinstance(name, str) for name in new)
    )


def apply_patch(data: dict[str, Any], patch: Any) -> None:
    """Apply a record's ``[path, value]`` pairs to ``data`` in place; CorruptSave if they do
    not fit it (a path that is not there: not a patch of this save)."""
    if not isinstance(patch, list):
        raise CorruptSave("journal: a patch that is not a list")
    for pair in patch:
        if not (
            isinstance(pair, list)
            and len(pair) == 2
            and isinstance(pair[0], list)
            and all(isinstance(key, str) for key in pair[0])
        ):
            raise CorruptSave("journal: a patch entry that is not [path, value]")
        path, value = pair
        target: Any = data
        for key in path[:-1]:
            target = target.get(key) if isinstance(target, dict) else None
        if not (path and isinstance(target, dict) and path[-1] in target):
            raise CorruptSave("journal: a patch that does not fit the save before it")
        target[path[-1]] = value


def _decode_line(line: bytes) -> tuple[int, bytes] | None:
    """``(seq, json bytes)`` of a whole, intact record line; None if it is not one."""
    parts = line.split(b" ", 2)
    if len(parts) != 3 or not parts[0].isdigit() or len(parts[1]) != 8:
        return None
    head, crc, payload = parts
    try:
        expected = int(crc, 16)
    except ValueError:
        return None
    if zlib.crc32(head + b" " + payload) != expected:
        return None
    return int(head), payload


def read_journal(
    raw: bytes, snapshot_seq: int, snapshot: dict[str, Any]
) -> tuple[int, dict[str, Any] | None]:
    """The session after a journal's bytes, applied to the snapshot numbered ``snapshot_seq``:
    ``(the last change's seq, the session)``, or ``(snapshot_seq, None)`` when there is none.

    A torn last record is dropped; damage before the end, a missing change or a record that
    does not fit the one before it is CorruptSave. ``snapshot`` is changed in place.
    """
    lines = raw.split(b"\n")
    # After the last newline: nothing, or a record cut short by a kill (never answered).
    complete = lines[:-1]
    records: list[tuple[int, bytes]] = []
    for number, line in enumerate(complete, start=1):
        record = _decode_line(line)
        if record is None:
            if number == len(complete) and not lines[-1]:
                break  # the last record, torn by a kill while it was written: drop it
            raise CorruptSave(f"journal: record {number} is damaged")
        records.append(record)
    last_seq = snapshot_seq
    changes: list[bytes] = []
    previous = -1
    for number, (seq, payload) in enumerate(records, start=1):
        if seq <= previous:
            raise CorruptSave(f"journal: record {number} is out of order")
        previous = seq
        if seq <= snapshot_seq:
            continue  # already in the snapshot (a compaction killed before it emptied us)
        if seq != last_seq + 1:
            raise CorruptSave(f"journal: changes {last_seq + 1} to {seq - 1} are missing")
        last_seq = seq
        changes.append(payload)
    if not changes:
        return snapshot_seq, None
    data = snapshot
    for payload in changes:
        try:
            record = json.loads(payload)
        except (ValueError, RecursionError) as error:
            raise CorruptSave(f"journal: not JSON ({type(error).__name__})") from None
        if not isinstance(record, dict):
            raise CorruptSave("journal: not a saved session")
        if list(record) == [PATCH_KEY]:
            apply_patch(data, record[PATCH_KEY])
        else:
            data = record  # the whole session
    return last_seq, data


class SaveFile:
    """Where one session is saved: ``load`` at start, ``write`` after every change, ``sync``.

    ``load``, ``write`` and ``discard`` are called by one writer at a time (the session holds
    its lock); ``sync`` may be called from any thread, without that lock, while another change
    is being written.
    """

    def __init__(self, path: Path, *, compact_every: int = COMPACT_EVERY) -> None:
        self.path = Path(path)
        self.journal = journal_path(self.path)
        self.compact_every = max(1, compact_every)
        self._seq = 0
        #: Records in the journal since the snapshot; None: the next write must compact.
        self._appended: int | None = None
        #: The session as the last write left it on disk: the next record's patch is against it.
        self._base: dict[str, Any] | None = None
        #: The last change whose record is whole in the journal (or in the snapshot).
        self._written = 0
        #: The last change known to be on the disk itself; guarded by ``_sync_lock``.
        self._synced = 0
        #: A sync failed: what the journal holds is uncertain, so the next write compacts.
        self._sync_failed = False
        self._sync_lock = threading.Lock()

    # ------------------------------------------------------------------ start

    def load(self) -> dict[str, Any] | None:
        """The latest saved session (snapshot, then the journal), or None when there is none.

        CorruptSave names what is wrong; nothing is changed on disk.
        """
        snapshot = persistence.load(self.path)
        raw = self._read_journal()
        if snapshot is None:
            if raw:
                raise CorruptSave("a journal without its snapshot")
            return None
        seq = snapshot.pop("seq", 0)
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            raise CorruptSave("seq: expected a whole number from 0")
        last_seq, latest = read_journal(raw, seq, snapshot)
        self._seq = last_seq
        return latest if latest is not None else snapshot

    def _read_journal(self) -> bytes:
        try:
            return self.journal.read_bytes()
        except (FileNotFoundError, NotADirectoryError):
            return b""
        except IsADirectoryError:
            raise CorruptSave("journal: it is a folder, not a saved game") from None
        except OSError as error:
            raise CorruptSave(f"journal: {persistence.describe_failure(error)}") from None

    def discard(self) -> None:
        """Forget the save (``--fresh``): the snapshot and its journal."""
        for path in (self.journal, self.path):
            try:
                path.unlink()
            except FileNotFoundError:
                pass

    # ------------------------------------------------------------------ saving

    def write(self, data: dict[str, Any], *, compact: bool = False, sync: bool = True) -> None:
        """Write ``data`` (the whole session): durable before returning unless ``sync=False``.

        Appends one record (what changed since the last write: ``session_patch``), or writes
        a snapshot when one is due, asked for (``compact``: closing), or needed (the first
        write, or the first after a failure). An OSError leaves the next write to compact; a
        refused snapshot with a whole journal puts the change there (``_snapshot_put_off``).
        With ``sync=False`` the record survives kill -9 once this returns, and a power cut
        only after a later ``sync()``; a snapshot is always synced. ``data`` is kept as the
        next patch's base: the caller must not change it afterwards.
        """
        appended, base = self._appended, self._base
        self._appended = self._base = None  # until this write is known to have worked
        self._seq += 1  # every attempt its own number: a snapshot outranks any record before
        if self._sync_failed:
            self._sync_failed = False  # before writing: a failure from now on sets it again
            appended = None
        if compact or appended is None or appended >= self.compact_every:
            try:
                self._compact(data)
            except OSError as error:
                if appended is None:
                    raise  # the journal may end in half a record: only a snapshot will do
                self._snapshot_put_off(data, base, error)
                return
            self._appended = 0
            with self._sync_lock:
                self._synced = max(self._synced, self._seq)  # the snapshot is synced
        else:
            self._append(self._record(data, base))
            self._appended = appended + 1
        self._base = data
        self._written = self._seq
        if sync:
            self.sync()  # nothing to do after a snapshot

    def _record(self, data: dict[str, Any], base: dict[str, Any] | None) -> bytes:
        """The journal's record of ``data``: what changed since ``base``, or all of it."""
        patch = None if base is None else session_patch(base, data)
        return encode_record(self._seq, data if patch is None else {PATCH_KEY: patch})

    def _snapshot_put_off(
        self, data: dict[str, Any], base: dict[str, Any] | None, error: OSError
    ) -> None:
        """A snapshot was refused, but the journal is whole: the change is appended to it
        and synced (durable, as a snapshot would have been), and the next snapshot is tried
        after ``compact_every`` more records. Raises if the journal refuses it too.

        Why: a folder that takes no new file (read-only, or out of inodes) may still take
        bytes in the journal already open there. Round 44's play-test made the save's folder
        unchangeable mid-party: every change was still in the journal, yet closing (a
        snapshot) said the game was lost, and a restart resumed it whole. The snapshot
        failing first leaves the journal as it was (``_compact`` empties it only after);
        records it already holds are skipped at start."""
        self._append(self._record(data, base))
        self._appended = 0
        self._base = data
        self._written = self._seq
        self.sync()
        log.warning("could not write a snapshot to %s (%s): kept in the journal", self.path, error)

    def sync(self) -> None:
        """Make every record written so far durable (one ``fdatasync`` for all of them).

        Nothing to do when a sync since the last write already covered it. An OSError means
        the records' fate is unknown: the next write compacts, and the error is raised.
        """
        with self._sync_lock:
            target = self._written
            if self._synced >= target:
                return
            try:
                fd = self._open_journal()
                try:
                    _sync_data(fd)
                finally:
                    os.close(fd)
            except OSError:
                self._sync_failed = True
                raise
            self._synced = max(self._synced, target)

    def _open_journal(self) -> int:
        """The journal, opened for appending. Opened for each record and each sync, without
        O_CREAT, so a journal moved or deleted under us is an error now rather than changes
        written (or synced) where the next start will not look."""
        return os.open(self.journal, os.O_WRONLY | os.O_APPEND | getattr(os, "O_BINARY", 0))

    def _append(self, record: bytes) -> None:
        fd = self._open_journal()
        try:
            view = memoryview(record)
            while view:  # a short write goes on; a full disk then raises ENOSPC
                written = os.write(fd, view)
                if written <= 0:
                    raise OSError(errno.EIO, "the journal took no bytes")
                view = view[written:]
        finally:
            os.close(fd)

    def _compact(self, data: dict[str, Any]) -> None:
        """The snapshot first (atomic, numbered), then an empty journal, synced, 0600."""
        persistence.save_atomic(self.path, {**data, "seq": self._seq})
        created = not self.journal.exists()
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0)
        fd = os.open(self.journal, flags, 0o600)
        try:
            if hasattr(os, "fchmod"):
                os.fchmod(fd, 0o600)  # it will hold tokens, whoever created it before
            os.fsync(fd)
        finally:
            os.close(fd)
        if created:
            persistence.fsync_directory(self.path.parent)  # a new journal's name is durable
