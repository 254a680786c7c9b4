"""Saving the whole session after every change, so a crash or kill -9 loses nothing.

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


class CorruptSave(ValueError):
    """The state file exists but is not a save we wrote (we refuse to guess)."""


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
    _fsync_directory(path.parent)


def _fsync_directory(directory: Path) -> None:
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
    """The saved session at ``path``, or None when there is none yet."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise CorruptSave(f"{path}: {error}") from error
    if not isinstance(data, dict):
        raise CorruptSave(f"{path}: not a saved session")
    return data


def discard(path: Path) -> None:
    """Forget a save (``--fresh``); a missing file is fine."""
    try:
        Path(path).unlink()
    except FileNotFoundError:
        pass
