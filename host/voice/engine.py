"""Speech engines: text → a WAV file, cached by (text, voice).

Why WAV files and not ``engine.say``: pyttsx3's espeak driver speaks only the last of
several queued lines, keeps writing to a file after ``save_to_file`` and plays through
``aplay``. Rendering each line to its own WAV (then playing it with ``pygame.mixer``) avoids
all three, and the cache makes a repeated line ("Cuckoo!") instant.

An engine is anything with ``render(text, lang) -> Path``; tests inject slow, failing and
hanging ones. ``Pyttsx3Engine`` is the real one. It is not thread-safe (espeak has one
global synthesiser), so the announcer drives it from one render thread only.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import sys
import threading
import wave
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

#: Bump when the way WAVs are made changes, so stale cache entries are not reused.
CACHE_FORMAT = "1"
#: How long to wait for the synthesiser to finish one line before giving up on it.
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
    """``$XDG_CACHE_HOME/cuckoo-party/voice`` (``~/.cache/...``): lines survive restarts."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cuckoo-party" / "voice"


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


def init_pyttsx3(init: Callable[[], Any] | None = None,
                 load_bundled: Callable[[], str] = load_bundled_espeak,
                 platform: str = sys.platform) -> Any:
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


def _language_tags(voice: Any) -> list[str]:
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
            if tag in _language_tags(voice):
                return voice
    for voice in voices:
        if any(t.split("-")[0] == lang for t in _language_tags(voice)):
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


def _quiet(*_args: object, **_kwargs: object) -> None:
    """Stands in for ``print`` in pyttsx3's espeak driver, which prints every saved file."""


class _ProcessSynth:
    """The one pyttsx3 engine of this process, and the lock that serialises its use.

    A deliberate piece of process-wide state: espeak has a single synthesiser per process,
    and when pyttsx3 garbage-collects an engine it clears espeak's *global* audio callback
    (``DriverProxy.__del__`` → ``SetSynthCallback(None)``), silently emptying the WAVs of any
    newer engine. Holding one engine for the life of the process avoids both problems.
    """

    lock = threading.Lock()
    engine: Any = None

    @classmethod
    def get(cls) -> Any:
        """The shared engine, started on first use (call with ``lock`` held)."""
        if cls.engine is None:
            engine = init_pyttsx3()
            espeak_driver = sys.modules.get("pyttsx3.drivers.espeak")
            if espeak_driver is not None:
                espeak_driver.print = _quiet  # type: ignore[attr-defined]
            cls.engine = engine
        return cls.engine


@dataclass
class ChosenVoice:
    """The engine voice used for a language: its id goes into the cache key."""

    id: str
    name: str


class Pyttsx3Engine:
    """The real engine: pyttsx3 (espeak-ng on Linux, SAPI5 on Windows, NSSS on macOS).

    Create it anywhere and as often as needed: every instance drives the process's one
    pyttsx3 engine under one lock, so calls from several threads take turns.
    """

    def __init__(self, cache_dir: Path | None = None, rate: int = 175) -> None:
        self.cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir()
        self.rate = rate
        self._voices: dict[str, ChosenVoice | None] = {}
        self._lock = _ProcessSynth.lock

    def open(self) -> str:
        """Start pyttsx3 (raises ``VoiceUnavailable``); returns the engine's driver name."""
        with self._lock:
            return str(getattr(self._ensure_engine(), "driver_name", "pyttsx3"))

    def _ensure_engine(self) -> Any:
        return _ProcessSynth.get()

    def voice_for(self, lang: str) -> ChosenVoice | None:
        """The voice chosen for ``lang`` (None: the engine's default voice is used)."""
        with self._lock:
            return self._voice_for(lang)

    def _voice_for(self, lang: str) -> ChosenVoice | None:
        if lang not in self._voices:
            engine = self._ensure_engine()
            voice = pick_voice(engine.getProperty("voices") or (), lang)
            self._voices[lang] = (
                ChosenVoice(str(voice.id), str(getattr(voice, "name", voice.id)))
                if voice is not None else None
            )
        return self._voices[lang]

    def describe(self, lang: str) -> str:
        """A human name for the voice used for ``lang``, for the status line."""
        voice = self.voice_for(lang)
        return voice.name if voice is not None else "default"

    def cache_path(self, text: str, voice_id: str) -> Path:
        key = "\x1f".join((CACHE_FORMAT, voice_id, str(self.rate), text))
        digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]
        return self.cache_dir / f"{digest}.wav"

    @staticmethod
    def _save(engine: Any, text: str, partial: Path) -> None:
        """``save_to_file`` + ``runAndWait``, then wait for espeak to really finish.

        espeak-ng in retrieval mode synthesises on its own thread, and pyttsx3's loop can
        return before the last audio arrives (an empty or truncated file). pyttsx3 sends
        ``finished-utterance`` only after the WAV is written, so that is what we wait for.
        """
        finished = threading.Event()
        token = engine.connect("finished-utterance", lambda **_: finished.set())
        try:
            engine.save_to_file(text, str(partial))
            engine.runAndWait()
            if not finished.wait(FINISH_TIMEOUT_S):
                raise VoiceUnavailable(f"the engine did not finish {text!r}")
        finally:
            engine.disconnect(token)

    def render(self, text: str, lang: str) -> Path:
        """Render ``text`` with the ``lang`` voice into the cache (or reuse it) and return it."""
        with self._lock:
            voice = self._voice_for(lang)
            voice_id = voice.id if voice is not None else "default"
            path = self.cache_path(text, voice_id)
            if path.exists():
                return path
            engine = self._ensure_engine()
            if voice is not None:
                engine.setProperty("voice", voice.id)
            engine.setProperty("rate", self.rate)
            self.cache_dir.mkdir(parents=True, exist_ok=True)
            partial = path.with_name(f"{path.stem}.{os.getpid()}.{threading.get_ident()}.part.wav")
            try:
                self._save(engine, text, partial)
                if not partial.exists() or wav_seconds(partial) <= 0:
                    raise VoiceUnavailable(f"the engine wrote no audio for {text!r}")
                os.replace(partial, path)  # atomic: a half-written WAV is never cached
            finally:
                partial.unlink(missing_ok=True)
            return path
