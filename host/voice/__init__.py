"""The host's voice: public events → phrases → WAV → ``pygame.mixer``, plus the captions.

Importing this package starts nothing (no pygame, no speech engine): ``Announcer.start()``
does, on its own threads.
"""

from host.voice.announcer import Announcer, Said, reading_seconds
from host.voice.engine import Pyttsx3Engine, SpeechEngine, VoiceUnavailable
from host.voice.lines import Line, LineQueue
from host.voice.phrases import PRIVATE_KINDS, PUBLIC_KINDS, HiddenEvent, UnknownEvent, phrases_for

__all__ = [
    "PRIVATE_KINDS",
    "PUBLIC_KINDS",
    "Announcer",
    "HiddenEvent",
    "Line",
    "LineQueue",
    "Pyttsx3Engine",
    "Said",
    "SpeechEngine",
    "UnknownEvent",
    "VoiceUnavailable",
    "phrases_for",
    "reading_seconds",
]
