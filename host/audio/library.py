"""The rendered sounds on disk: one WAV per cue and loop, made once and kept per user.

Why a cache: rendering in pure Python takes a couple of seconds; a party should start at once
and a second party never pays it again. The files sit beside the voice's cache, found by one
small function (``sound_cache_dir``) so the place can move in one edit.
"""

from __future__ import annotations

from pathlib import Path

from host.audio.cues import CUES, LOOPS, render_cue, render_loop
from host.audio.synth import write_wav
from host.voice.engine import default_cache_dir

#: Bump when any recipe changes, so stale cached sounds are not reused.
SOUND_FORMAT = "1"


def sound_cache_dir() -> Path:
    """Beside the voice cache: ``…/cuckoo-party/sounds``."""
    return default_cache_dir().parent / "sounds"


def file_name(name: str) -> str:
    """``cuckoo`` → ``cuckoo.wav``; a loop ``lobby`` → ``music_lobby.wav``."""
    return f"music_{name}.wav" if name in LOOPS else f"{name}.wav"


def sound_names() -> list[str]:
    """Every cue, then every loop."""
    return [*CUES, *LOOPS]


def render(name: str, target: Path) -> Path:
    """Render one cue or loop to ``target`` (a WAV), whatever is there."""
    samples = render_loop(name) if name in LOOPS else render_cue(name)
    return write_wav(target, samples)


def prepare(cache_dir: Path | None = None) -> dict[str, Path]:
    """Every sound's WAV in the cache, rendering the ones missing; name → path."""
    folder = (cache_dir or sound_cache_dir()) / f"v{SOUND_FORMAT}"
    paths: dict[str, Path] = {}
    for name in sound_names():
        path = folder / file_name(name)
        if not path.exists():
            render(name, path)
        paths[name] = path
    return paths
