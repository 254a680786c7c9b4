"""Where the party keeps its files on each system: the saved game, the voice cache, the logs.

Why ``platformdirs``: a Linux path (``~/.local/share``) means nothing on Windows or macOS.
``platformdirs`` gives each system's own places, and still honours the XDG variables on Linux:

| what | Linux (XDG) | macOS | Windows |
| --- | --- | --- | --- |
| saved game | ``~/.local/share/cuckoo-party`` | ``~/Library/Application Support/cuckoo-party`` | ``%LOCALAPPDATA%\\cuckoo-party`` |
| voice cache | ``~/.cache/cuckoo-party`` | ``~/Library/Caches/cuckoo-party`` | ``%LOCALAPPDATA%\\cuckoo-party\\Cache`` |
| logs | ``~/.local/state/cuckoo-party/log`` | ``~/Library/Logs/cuckoo-party`` | ``%LOCALAPPDATA%\\cuckoo-party\\Logs`` |
"""

from __future__ import annotations

import sys
from pathlib import Path

from platformdirs import PlatformDirs
from platformdirs.api import PlatformDirsABC

APP_NAME = "cuckoo-party"
STATE_FILE = "state.json"


def app_dirs(platform: str | None = None) -> PlatformDirsABC:
    """The folders of ``platform`` (``sys.platform`` by default; tests pass another)."""
    platform = platform or sys.platform
    if platform == sys.platform:
        return PlatformDirs(APP_NAME, appauthor=False)
    if platform == "darwin":
        from platformdirs.macos import MacOS

        return MacOS(APP_NAME, appauthor=False)
    if platform == "win32":
        from platformdirs.windows import Windows

        return Windows(APP_NAME, appauthor=False)
    from platformdirs.unix import Unix

    return Unix(APP_NAME, appauthor=False)


def state_path(platform: str | None = None) -> Path:
    """The default saved game (``--state`` chooses another)."""
    return Path(app_dirs(platform).user_data_dir) / STATE_FILE


def cache_dir(platform: str | None = None) -> Path:
    """The per-user cache (rendered voice lines, and later sounds): safe to delete."""
    return Path(app_dirs(platform).user_cache_dir)


def log_dir(platform: str | None = None) -> Path:
    """Where the host's log files go."""
    return Path(app_dirs(platform).user_log_dir)
