"""Playing rendered lines: ``pygame.mixer`` on the voice worker, never on the render loop.

The mixer is started lazily by the first ``play`` (so importing this module, or running
``--headless``, never touches a sound device). If no mixer can start, the announcer keeps
the captions going at speaking pace with ``SilentPlayer``.
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path
from typing import Any, Protocol

from host.voice.engine import wav_seconds

log = logging.getLogger(__name__)


class PlaybackUnavailable(RuntimeError):
    """No sound output here (no device, no pygame.mixer)."""


class Player(Protocol):
    """Starts a WAV and reports while it is playing."""

    def play(self, wav: Path) -> float:
        """Start playing ``wav`` without waiting; return its length in seconds."""
        ...

    def busy(self) -> bool: ...

    def stop(self) -> None: ...


class SpeechListener(Protocol):
    """Told when a line starts and when it is cut short: the sound board ducks under it."""

    def speech_started(self, seconds: float) -> None: ...

    def speech_ended(self) -> None: ...


class MixerPlayer:
    """Plays through ``pygame.mixer``; shares the mixer if the sound board already started it
    (the board reserves its own channels, so ``Sound.play()`` here never takes one of them)."""

    def __init__(self, speech: SpeechListener | None = None) -> None:
        self._channel: Any = None
        self._mixer: Any = None
        self._speech = speech

    def _ensure_mixer(self) -> Any:
        if self._mixer is None:
            os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
            try:
                import pygame
            except ImportError as error:
                raise PlaybackUnavailable("pygame is not installed") from error
            try:
                if not pygame.mixer.get_init():
                    pygame.mixer.init()
            except pygame.error as error:
                raise PlaybackUnavailable(f"no sound output: {error}") from error
            self._mixer = pygame.mixer
        return self._mixer

    def play(self, wav: Path) -> float:
        mixer = self._ensure_mixer()
        try:
            sound = mixer.Sound(str(wav))
            self._channel = sound.play()
        except Exception as error:  # pygame.error, or the mixer closed by the TV on exit
            raise PlaybackUnavailable(f"could not play {wav.name}: {error}") from error
        seconds = float(sound.get_length())
        if self._speech is not None and self._channel is not None:
            self._speech.speech_started(seconds)
        return seconds

    def busy(self) -> bool:
        try:
            return bool(self._channel is not None and self._channel.get_busy())
        except Exception:  # noqa: BLE001 - the mixer was shut down under us: nothing plays
            return False

    def stop(self) -> None:
        try:
            if self._channel is not None:
                self._channel.stop()
                if self._speech is not None:
                    self._speech.speech_ended()
        except Exception as error:  # noqa: BLE001 - stopping must never raise (muting, closing)
            log.debug("could not stop the voice channel: %s", error)
        self._channel = None


class SilentPlayer:
    """Plays nothing but takes as long as the line would: keeps captions at speaking pace."""

    def __init__(self) -> None:
        self._until = 0.0

    def play(self, wav: Path) -> float:
        seconds = wav_seconds(wav)
        self._until = time.monotonic() + seconds
        return seconds

    def busy(self) -> bool:
        return time.monotonic() < self._until

    def stop(self) -> None:
        self._until = 0.0
