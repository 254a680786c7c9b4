"""The TV's own settings that outlive a restart: the language chosen with L.

Why a small file beside the game's save (``state.json`` → ``state.tv.json``): the language is
the host's choice for the room, not part of the game, and the session's save belongs to the
session. Written atomically like the game; a missing or damaged file just means "no choice
saved yet".
"""

from __future__ import annotations

import json
from pathlib import Path

from host import persistence
from host.i18n import LANGUAGES


def settings_path(state_path: Path) -> Path:
    """Where the TV's settings live for a game saved at ``state_path``."""
    return state_path.with_name(f"{state_path.stem}.tv.json")


def load_language(path: Path) -> str | None:
    """The language saved at ``path``, or None (none saved, unreadable, unknown language)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    lang = data.get("lang") if isinstance(data, dict) else None
    return lang if lang in LANGUAGES else None


def save_language(path: Path, lang: str) -> None:
    """Remember ``lang`` for the next start (atomic write)."""
    persistence.save_atomic(path, {"lang": lang})


def starting_language(cli_lang: str, lang_given: bool, saved: str | None) -> str:
    """The TV's language at start: ``--lang`` when typed, else the one saved with L, else the
    default ``--lang``."""
    return cli_lang if lang_given or not saved else saved
