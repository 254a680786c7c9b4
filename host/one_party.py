"""One running party per save file (issue 12: the host must never die or lose a party).

Why: a host who double-clicks the launcher, or starts it again without seeing the first window,
used to get two parties on one save. Both wrote the same journal, each seated its own ``p1``
with its own token, and after a restart one party's seats were gone. Now the process that runs
a party holds a lock on ``<save>.lock`` beside the save for as long as it runs; a second start
on the same save finds it held and refuses before it changes anything (no save put aside or
written, no port, no window).

The lock is one the operating system lets go of when the process ends, however it ends
(``flock`` on POSIX, ``msvcrt.locking`` on Windows): a host killed with ``kill -9`` or by a
power cut never blocks the next start, and there is no stale pid to guess about. The lock file
itself stays (removing it would let two starts lock two different files); it also says where
phones join the running party, so the refusal (and ``cuckoo-party doctor``, which only looks:
``running_party``) can tell the host. Its descriptor is not inherited by child processes
(Python's default), so a helper the host starts cannot keep the lock after the host is gone.

When the lock cannot be taken at all (a folder that cannot be written, a file system without
locks), the party runs unguarded, as before: the lock protects the party, it must never stop it.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

LOCK_SUFFIX = ".lock"
#: What the lock file says is written in one record of this size, padded with spaces, so a
#: reader never sees it half-rewritten or cut short (the file is never truncated).
RECORD_BYTES = 1024
#: On Windows a locked byte cannot be read by others: lock one far past the record instead.
WINDOWS_LOCKED_BYTE = 1 << 30


def lock_path(state_path: Path) -> Path:
    """The lock file beside the save (``state.json`` → ``state.json.lock``), for the save's
    real place, so two spellings of one save (relative, through a link) share one lock."""
    real = state_path.resolve()
    return real.with_name(real.name + LOCK_SUFFIX)


@dataclass(frozen=True)
class RunningParty:
    """What the lock file says of the party that holds it."""

    pid: int | None
    """The running host's process id (for the log and for people who debug)."""
    join_url: str | None
    """Where phones join it, or None if it has no network address yet (or it did not say)."""


class PartyRunning(Exception):
    """Another live process runs a party on this save."""

    def __init__(self, running: RunningParty) -> None:
        super().__init__(f"a party already runs on this save (pid {running.pid})")
        self.running = running


class PartyLock:
    """The lock on one save, held by the process that runs its party until ``close``.

    ``PartyLock.take(state_path)`` takes it or raises ``PartyRunning``; ``contextlib.closing``
    lets go of it. An unguarded lock (``fd`` None) is the fallback when no lock could be made.
    """

    def __init__(self, path: Path, fd: int | None, pid: int) -> None:
        self.path = path
        self._fd = fd
        self._pid = pid
        # The join address may move while the party runs: noted from its own thread.
        self._writing = threading.Lock()

    @classmethod
    def take(cls, state_path: Path) -> PartyLock:
        """Hold the lock of ``state_path``'s save; ``PartyRunning`` if another process holds it."""
        path = lock_path(state_path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o600)
        except OSError as error:  # the save's own check says what is wrong, in one line
            log.info("no lock on the save at %s, running unguarded: %s", path, error)
            return cls(path, None, os.getpid())
        try:
            held = _try_lock(fd)
        except OSError as error:  # e.g. a network file system without locks
            os.close(fd)
            log.warning("could not lock %s, running unguarded: %s", path, error)
            return cls(path, None, os.getpid())
        if not held:
            running = _read_record(fd)
            os.close(fd)
            raise PartyRunning(running)
        lock = cls(path, fd, os.getpid())
        lock.note_join(None)
        return lock

    @property
    def held(self) -> bool:
        """Whether this process holds the lock (False when unguarded or closed)."""
        return self._fd is not None

    def note_join(self, join_url: str | None) -> None:
        """Write where phones join (None: no network address) for a refused second start."""
        record = json.dumps({"pid": self._pid, "join_url": join_url}).encode("utf-8")
        if len(record) > RECORD_BYTES:  # an address that long is not worth a broken record
            record = json.dumps({"pid": self._pid, "join_url": None}).encode("utf-8")
        with self._writing:
            if self._fd is None:
                return
            try:
                os.lseek(self._fd, 0, os.SEEK_SET)
                os.write(self._fd, record.ljust(RECORD_BYTES))
            except OSError as error:  # a full disk: the lock holds, only the address is lost
                log.warning("could not write the join address to %s: %s", self.path, error)

    def close(self) -> None:
        """Let go of the lock (closing the file is enough for the operating system)."""
        with self._writing:
            if self._fd is not None:
                fd, self._fd = self._fd, None
                os.close(fd)


def running_party(state_path: Path) -> RunningParty | None:
    """The party that holds ``state_path``'s lock, or None if no process does (``doctor``).

    Why it only looks: the doctor must neither keep a party from starting nor stop one. The
    lock file is opened read-only and never created; the lock is tried without waiting, shared
    (on POSIX, so it never disturbs a running party's exclusive one) and let go of at once.
    A party started in that same instant would find it held and be refused: the host starts
    it again. Whatever cannot be read or tried says nothing (None), as a missing file does.
    """
    try:
        fd = os.open(lock_path(state_path), os.O_RDONLY | getattr(os, "O_BINARY", 0))
    except OSError:  # no lock file: no party has run on this save (or it cannot be read)
        return None
    try:
        if not _try_lock(fd, shared=True):
            return _read_record(fd)
        _unlock(fd)
        return None
    except OSError as error:  # e.g. a network file system without locks
        log.info("could not look at the lock %s: %s", lock_path(state_path), error)
        return None
    finally:
        os.close(fd)


def _try_lock(fd: int, *, shared: bool = False) -> bool:
    """Lock ``fd`` without waiting: True if this process has it now, False if another does.

    ``shared``: a lock that other shared ones do not conflict with (POSIX); Windows has no
    such mode, so there it is the same exclusive byte, which the caller lets go of at once.
    """
    if sys.platform == "win32":
        import msvcrt

        os.lseek(fd, WINDOWS_LOCKED_BYTE, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError as error:  # EACCES, or EDEADLOCK: locked by another process
            if error.errno in (errno.EACCES, errno.EDEADLOCK):
                return False
            raise
        return True
    import fcntl

    try:
        fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _unlock(fd: int) -> None:
    """Let go of a lock ``_try_lock`` took on ``fd`` (closing ``fd`` would too, on POSIX)."""
    if sys.platform == "win32":
        import msvcrt

        os.lseek(fd, WINDOWS_LOCKED_BYTE, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        return
    import fcntl

    fcntl.flock(fd, fcntl.LOCK_UN)


def _read_record(fd: int) -> RunningParty:
    """What the holder wrote in the lock file; whatever cannot be read is None."""
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        data = json.loads(os.read(fd, RECORD_BYTES).decode("utf-8"))
    except (OSError, ValueError):  # still being created, or not ours: the refusal stands
        return RunningParty(pid=None, join_url=None)
    if not isinstance(data, dict):
        return RunningParty(pid=None, join_url=None)
    pid, url = data.get("pid"), data.get("join_url")
    return RunningParty(
        pid=pid if isinstance(pid, int) else None,
        join_url=url if isinstance(url, str) and url else None,
    )
