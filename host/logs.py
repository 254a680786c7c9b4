"""Logging, configured once by the ``cuckoo-party`` command (never at import time).

Why here: every module logs through ``logging.getLogger(__name__)`` and decides nothing about
where it goes. The command decides once: warnings on the console (the console also carries the
join address and captions, so it stays quiet), everything from INFO on in a log file beside the
state file, rotated so a party that runs all night cannot fill the disk. ``--verbose`` lowers
both to DEBUG.
"""

from __future__ import annotations

import logging
import logging.handlers
import sys
from pathlib import Path

LOG_FILE = "cuckoo-party.log"
#: One file grows to this size, then rolls over; this many old ones are kept.
MAX_BYTES = 1_000_000
BACKUPS = 3
FORMAT = "%(asctime)s %(levelname)s %(threadName)s %(name)s: %(message)s"
#: Marks the handlers installed here, so configuring again replaces them (tests, re-runs).
_OURS = "_cuckoo_party_handler"


def log_path_for(state_path: Path) -> Path:
    """The log file beside the state file."""
    return state_path.parent / LOG_FILE


def configure_logging(
    *, verbose: bool = False, log_file: Path | None = None, max_bytes: int = MAX_BYTES
) -> None:
    """Send warnings (everything with ``verbose``) to stderr and, if given, INFO and up
    (DEBUG with ``verbose``) to a rotated ``log_file``. Replaces what an earlier call set."""
    root = logging.getLogger()
    for handler in [h for h in root.handlers if getattr(h, _OURS, False)]:
        root.removeHandler(handler)
        handler.close()
    formatter = logging.Formatter(FORMAT)
    console = logging.StreamHandler(sys.stderr)
    console.setLevel(logging.DEBUG if verbose else logging.WARNING)
    handlers: list[logging.Handler] = [console]
    if log_file is not None:
        try:
            log_file.parent.mkdir(parents=True, exist_ok=True)
            to_file = logging.handlers.RotatingFileHandler(
                log_file, maxBytes=max_bytes, backupCount=BACKUPS, encoding="utf-8"
            )
        except OSError as error:  # an unwritable folder must not stop the party
            logging.getLogger(__name__).warning("no log file at %s: %s", log_file, error)
        else:
            to_file.setLevel(logging.DEBUG if verbose else logging.INFO)
            handlers.append(to_file)
    for handler in handlers:
        handler.setFormatter(formatter)
        setattr(handler, _OURS, True)
        root.addHandler(handler)
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
