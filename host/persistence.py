"""Writing a JSON file atomically, and reading it back; the session's snapshots use it.

The session's save is a snapshot written here plus a journal of changes (``host/journal.py``).

Why atomic: a reader (the next start) must see either the old save or the new one, never a
half-written file. We write a temporary file in the same directory, fsync it, rename it over the
old one and fsync the directory, so the rename itself survives a power cut.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from host import paths

#: What a host is told of a save the party cannot read (``cli.save_<problem>``): the details
#: are for the log, in the words of the check that failed.
SAVE_PROBLEMS = ("damaged", "folder", "unreadable", "unknown_version")


class CorruptSave(ValueError):
    """The state file exists but is not a save we wrote (we refuse to guess).

    ``problem`` (one of ``SAVE_PROBLEMS``) is what the host is told, in their language; the
    message is the technical detail (the field, the record), for the log.
    """

    def __init__(self, detail: str, problem: str = "damaged") -> None:
        if problem not in SAVE_PROBLEMS:
            raise ValueError(f"unknown save problem {problem!r}")
        super().__init__(detail)
        self.problem = problem


class StateUnwritable(OSError):
    """The state file cannot be written at start (a read-only folder, a file in the way…)."""


def default_state_path() -> Path:
    """The system's place for the saved game (see ``host.paths``; XDG on Linux)."""
    return paths.state_path()


def save_atomic(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` as JSON to ``path`` atomically (temp file, fsync, rename, fsync dir)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp_name, 0o600)  # the save holds every player's token
        os.replace(tmp_name, path)
    except BaseException:
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        raise
    fsync_directory(path.parent)


def fsync_directory(directory: Path) -> None:
    """Make a rename or a new file's name in ``directory`` durable (best effort: some systems
    cannot open a folder)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def load(path: Path) -> dict[str, Any] | None:
    """The saved session at ``path``, or None when there is none yet.

    Anything else that is not a JSON object — a folder, an unreadable file, bytes that are not
    UTF-8, nesting too deep to read — is a ``CorruptSave`` with the reason, never a traceback.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):
        return None  # nothing saved there (yet): whether it can be written is checked next
    except IsADirectoryError:
        raise CorruptSave("it is a folder, not a saved game", "folder") from None
    except OSError as error:
        raise CorruptSave(_reason(error), "unreadable") from None
    except UnicodeDecodeError as error:
        raise CorruptSave(_reason(error)) from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise CorruptSave(f"not JSON ({type(error).__name__}: {error})") from None
    if not isinstance(data, dict):
        raise CorruptSave("not a saved session")
    return data


def _reason(error: BaseException) -> str:
    """A short reason for an I/O failure: the system's words without the errno noise."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__


def describe_failure(error: BaseException) -> str:
    """How a failed save is reported (logs, the TV's warning): the reason, e.g. "No space
    left on device"."""
    return _reason(error)


def remove_stale_temps(path: Path) -> int:
    """Delete temporary files a killed save left beside ``path`` (they may hold tokens)."""
    path = Path(path)
    removed = 0
    try:
        stale = list(path.parent.glob(f".{path.name}.*.tmp"))
    except OSError:
        return 0
    for temp in stale:
        try:
            temp.unlink()
            removed += 1
        except OSError:
            pass
    return removed


def check_writable(path: Path) -> None:
    """Raise StateUnwritable unless a save to ``path`` can be written right now (at start):
    a temporary file is written, synced and removed beside it, as a real save would."""
    path = Path(path)
    try:
        if path.is_dir():
            raise IsADirectoryError(21, "is a folder", str(path))
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            os.write(fd, b"{}")
            os.fsync(fd)
        finally:
            os.close(fd)
            os.unlink(probe)
    except OSError as error:
        raise StateUnwritable(_reason(error)) from None


def discard(path: Path) -> None:
    """Forget a file (a missing one is fine); ``--fresh`` uses ``SaveFile.discard``."""
    try:
        Path(path).unlink()
    except FileNotFoundError:
        pass
