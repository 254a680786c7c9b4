"""A save from another evening is put aside at start, not resumed.

Why: the game is saved after every change so that a host that crashes carries on where it was,
and by default the save lives in the system's data folder. Without this, every later party —
next Saturday's — opened on last week's table: its players away, their turns kept one by one,
new guests told to wait for the next game, and last week's results called "tonight's
standings". A save nobody has written for ``EVENING_HOURS`` belongs to another evening. It is
renamed beside itself (nothing is deleted) and the party starts fresh; ``--resume`` carries
on a save however old it is.

Only the file's own time is read, never the game: a host restarted after a crash minutes ago
resumes as before, whatever the phase. A computer whose clock is behind (a Raspberry Pi before
it has the time from the network) sees its save as recent, and resumes: the old behaviour.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from host.journal import journal_path

#: A save unwritten for this long is from another evening (a party night is shorter).
EVENING_HOURS = 12.0


@dataclass(frozen=True)
class PutAside:
    """The old save's new place, and when it was last written (seconds since the epoch)."""

    path: Path
    saved_at: float

    def saved_when(self) -> str:
        """When it was last written, in the computer's local time (no words to translate)."""
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.saved_at))


def last_written(path: Path) -> float | None:
    """When the save at ``path`` (its snapshot or its journal, whichever is newer) was last
    written; None when there is no save."""
    times = [p.stat().st_mtime for p in (path, journal_path(path)) if p.exists()]
    return max(times) if times else None


def put_aside_if_old(
    path: Path, now: float | None = None, hours: float = EVENING_HOURS
) -> PutAside | None:
    """Rename the save at ``path`` to ``<stem>.<date-time><suffix>`` (journal too) when it was
    last written ``hours`` or more before ``now``; returns where it went, or None when it is
    recent or there is none. An OSError (a read-only folder…) is the caller's to report."""
    written = last_written(path)
    now = time.time() if now is None else now
    if written is None or now - written < hours * 3600:
        return None
    stamp = time.strftime("%Y-%m-%d-%H%M", time.localtime(written))
    target = path.with_name(f"{path.stem}.{stamp}{path.suffix}")
    extra = 2
    while target.exists() or journal_path(target).exists():  # two old saves of one minute
        target = path.with_name(f"{path.stem}.{stamp}-{extra}{path.suffix}")
        extra += 1
    # The journal first: should the second rename fail, what is left at ``path`` is an old
    # snapshot alone, which the next start puts aside in turn (a journal alone would not load).
    if journal_path(path).exists():
        journal_path(path).rename(journal_path(target))
    if path.exists():
        path.rename(target)
    return PutAside(target, written)
