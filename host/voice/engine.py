"""Speech engines: text → a WAV file, cached by (text, voice).

Why WAV files and not ``engine.say``: pyttsx3's espeak driver speaks only the last of
several queued lines, keeps writing to a file after ``save_to_file`` and plays through
``aplay``. Rendering each line to its own WAV (then playing it with ``pygame.mixer``) avoids
all three, and the cache makes a repeated line ("Cuckoo!") instant.

An engine is anything with ``render(text, lang) -> Path``; tests inject slow, failing and
hanging ones. ``Pyttsx3Engine`` is the real one: it runs pyttsx3 in a child process
(``host.voice.synth``) for each line it has not cached yet.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import json
import os
import subprocess
import sys
import threading
import wave
from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from host import paths

#: Bump when the way WAVs are made changes, so stale cache entries are not reused.
CACHE_FORMAT = "1"
#: The cache keeps at most this many lines (about 100 KB each); the least recently used go.
MAX_CACHED_LINES = 3000
#: How long one line (or the voice list) may take before the child process is killed.
FINISH_TIMEOUT_S = 15.0

#: Voice ids/language tags we prefer for each shipped language, best first.
PREFERRED_TAGS: dict[str, tuple[str, ...]] = {
    "en": ("en-gb", "en", "en-us"),
    "fr": ("fr-fr", "fr"),
    "it": ("it", "it-it"),
}
#: Words found in voice names on engines that give no language tags (SAPI5, NSSS).
LANGUAGE_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("english",),
    "fr": ("french", "français"),
    "it": ("italian", "italiano"),
}


class VoiceUnavailable(RuntimeError):
    """No speech engine can run here; the host goes on with captions only."""


class SpeechEngine(Protocol):
    """Renders one line in one language to a WAV file and returns its path."""

    def render(self, text: str, lang: str) -> Path: ...


def default_cache_dir() -> Path:
    """``voice`` in the system's cache folder (``host.paths``): lines survive restarts."""
    return paths.cache_dir() / "voice"


def load_bundled_espeak() -> str:
    """Make the espeak-ng shipped by ``espeakng-loader`` the one pyttsx3 finds.

    pyttsx3 opens ``libespeak-ng.so.1`` by name; loading the bundled library (whose soname
    is that name) with ``RTLD_GLOBAL`` first makes the dynamic loader reuse it, and
    ``ESPEAK_DATA_PATH`` points espeak at the bundled voices. Returns the library path.
    """
    try:
        import espeakng_loader
    except ImportError as error:
        raise VoiceUnavailable("espeakng-loader is not installed") from error
    library = espeakng_loader.get_library_path()
    ctypes.CDLL(library, mode=ctypes.RTLD_GLOBAL)
    os.environ["ESPEAK_DATA_PATH"] = espeakng_loader.get_data_path()
    return str(library)


def init_pyttsx3(
    init: Callable[[], Any] | None = None,
    load_bundled: Callable[[], str] = load_bundled_espeak,
    platform: str = sys.platform,
) -> Any:
    """``pyttsx3.init()``; on Linux, if that fails, load the bundled espeak-ng and retry."""
    if init is None:
        try:
            import pyttsx3
        except ImportError as error:
            raise VoiceUnavailable("pyttsx3 is not installed") from error
        init = pyttsx3.init
    try:
        return init()
    except Exception as first:  # pyttsx3 raises anything from OSError to RuntimeError
        if not platform.startswith("linux"):
            raise VoiceUnavailable(f"pyttsx3 could not start: {first}") from first
        try:
            load_bundled()
            return init()
        except Exception as second:
            raise VoiceUnavailable(f"pyttsx3 could not start: {second}") from second


def language_tags(voice: Any) -> list[str]:
    """A voice's language tags, lower-case with dashes (``en-gb``), whatever the driver."""
    tags: list[str] = []
    for raw in getattr(voice, "languages", None) or ():
        if isinstance(raw, bytes):  # old espeak drivers: b"\x05en-gb"
            raw = raw.decode("utf-8", "ignore").lstrip("\x00\x01\x02\x03\x04\x05")
        tags.append(str(raw).strip().lower().replace("_", "-"))
    return tags


def pick_voice(voices: Iterable[Any], lang: str) -> Any | None:
    """The engine's best voice for ``lang`` (en, fr, it), or None if it has none."""
    voices = list(voices)
    preferred = PREFERRED_TAGS.get(lang, (lang,))
    for tag in preferred:
        for voice in voices:
            if tag in language_tags(voice):
                return voice
    for voice in voices:
        if any(t.split("-")[0] == lang for t in language_tags(voice)):
            return voice
    words = LANGUAGE_WORDS.get(lang, ())
    for voice in voices:
        label = f"{getattr(voice, 'name', '')} {getattr(voice, 'id', '')}".lower()
        if any(word in label for word in words):
            return voice
    return None


def wav_seconds(path: Path) -> float:
    """The length of a WAV file in seconds."""
    with wave.open(str(path), "rb") as wav:
        return wav.getnframes() / float(wav.getframerate() or 1)


def wav_peak(path: Path) -> int:
    """The largest absolute 16-bit sample: 0 means silence."""
    with wave.open(str(path), "rb") as wav:
        if wav.getsampwidth() != 2:
            raise ValueError("only 16-bit WAV files are checked")
        samples = array("h", wav.readframes(wav.getnframes()))
    if sys.byteorder == "big":
        samples.byteswap()
    return max((abs(s) for s in samples), default=0)


@dataclass(frozen=True)
class ChosenVoice:
    """The engine voice used for a language: its id goes into the cache key."""

    id: str
    name: str
    languages: tuple[str, ...] = ()


def _project_root() -> str:
    """Where the ``host`` package lives, so the child process can import it too."""
    return str(Path(__file__).resolve().parents[2])


class Pyttsx3Engine:
    """The real engine: pyttsx3 (espeak-ng on Linux, SAPI5 on Windows, NSSS on macOS).

    Each uncached line is rendered by a short-lived child process (``host.voice.synth``).
    Why not in-process: pyttsx3's espeak driver returns from ``runAndWait`` while espeak
    still synthesises on its own thread, and its callbacks race with the next line (empty
    or truncated WAVs); a garbage-collected pyttsx3 engine even clears espeak's global
    callback. A fresh process per line has none of that, can be killed when it hangs, and
    cannot take the party down if the synthesiser crashes. Cached lines cost no process.
    """

    def __init__(
        self,
        cache_dir: Path | None = None,
        rate: int = 185,
        timeout_s: float = FINISH_TIMEOUT_S,
        command: Sequence[str] | None = None,
    ) -> None:
        self.cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir()
        self.rate = rate
        self.timeout_s = timeout_s
        self._command = list(command) if command else [sys.executable, "-m", "host.voice.synth"]
        self._voices: dict[str, ChosenVoice | None] | None = None
        self._driver = ""
        self._lock = threading.Lock()

    def _run_child(self, args: list[str], text: str = "") -> str:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (_project_root(), env.get("PYTHONPATH")) if p
        )
        try:
            done = subprocess.run(
                [*self._command, *args],
                input=text.encode("utf-8"),
                capture_output=True,
                timeout=self.timeout_s,
                env=env,
                check=False,
            )
        except subprocess.TimeoutExpired as error:  # the child is killed by now
            raise VoiceUnavailable(
                f"the speech engine did not answer within {self.timeout_s:g} s"
            ) from error
        except OSError as error:
            raise VoiceUnavailable(f"could not start the speech engine: {error}") from error
        if done.returncode != 0:
            lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise VoiceUnavailable(lines[-1] if lines else f"speech engine exit {done.returncode}")
        return done.stdout.decode("utf-8", "replace")

    def prune_cache(self, keep: int = MAX_CACHED_LINES) -> int:
        """Delete the oldest cached lines beyond ``keep``; returns how many went."""
        try:
            lines = sorted(self.cache_dir.glob("*.wav"), key=lambda p: p.stat().st_mtime)
        except OSError:
            return 0
        gone = 0
        for path in lines[: max(0, len(lines) - keep)]:
            try:
                path.unlink()
                gone += 1
            except OSError:
                continue
        return gone

    def open(self) -> str:
        """Start pyttsx3 once to choose the voices (raises ``VoiceUnavailable``); the driver."""
        with self._lock:
            if self._voices is None:
                self.prune_cache()
                output = self._run_child(["voices"]).strip().splitlines()
                try:
                    data = json.loads(output[-1])
                    self._voices = {
                        lang: ChosenVoice(v["id"], v["name"], tuple(v["languages"])) if v else None
                        for lang, v in data["voices"].items()
                    }
                    self._driver = str(data["driver"])
                except (IndexError, KeyError, TypeError, ValueError) as error:
                    raise VoiceUnavailable(
                        f"unexpected answer from the speech engine: {error}"
                    ) from error
            return self._driver

    def voice_for(self, lang: str) -> ChosenVoice | None:
        """The voice chosen for ``lang`` (None: the engine's default voice is used)."""
        self.open()
        assert self._voices is not None
        return self._voices.get(lang)

    def describe(self, lang: str) -> str:
        """A human name for the voice used for ``lang``, for the status line."""
        voice = self.voice_for(lang)
        return voice.name if voice is not None else "default"

    def cache_path(self, text: str, voice_id: str) -> Path:
        key = "\x1f".join((CACHE_FORMAT, voice_id, str(self.rate), text))
        digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]
        return self.cache_dir / f"{digest}.wav"

    def render(self, text: str, lang: str) -> Path:
        """Render ``text`` with the ``lang`` voice into the cache (or reuse it) and return it."""
        voice = self.voice_for(lang)
        path = self.cache_path(text, voice.id if voice is not None else "default")
        if path.exists():
            with contextlib.suppress(OSError):
                os.utime(path)  # recently used: the last to be pruned
            return path
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.stem}.{os.getpid()}.{threading.get_ident()}.part.wav")
        try:
            self._run_child(
                [
                    "render",
                    "--voice",
                    voice.id if voice is not None else "",
                    "--rate",
                    str(self.rate),
                    "--out",
                    str(partial),
                ],
                text,
            )
            if not partial.exists() or wav_seconds(partial) <= 0:
                raise VoiceUnavailable(f"the engine wrote no audio for {text!r}")
            os.replace(partial, path)  # atomic: a half-written WAV is never cached
        finally:
            partial.unlink(missing_ok=True)
        return path
