"""The sound board: effects and music on reserved mixer channels, ducking under the voice.

Why a board with its own thread: the TV calls ``cue("swap")`` from its frame and must never
wait, so a call only queues the name (a ``SimpleQueue``, no lock shared with the thread); the
board's thread, woken by the queue, plays it at once and moves the volumes every ``TICK_S``
while a duck or a cross-fade is under way.

Why reserved channels: the voice (``host.voice.playback.MixerPlayer``) plays with
``Sound.play()``, which picks a free *unreserved* channel. Music and effects play only on the
channels reserved here, so an effect can never take the voice's channel and cut a line.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from queue import Empty, SimpleQueue
from typing import Any, Protocol

from host.audio.cues import CUES
from host.audio.ducking import TICK_S, Ducker
from host.audio.library import prepare
from host.audio.synth import RATE

log = logging.getLogger(__name__)

MUSIC_CHANNELS = (0, 1)
EFFECT_CHANNELS = (2, 3, 4, 5, 6, 7)
#: Channels 0..RESERVED-1 are ours; the voice gets the others.
RESERVED = 8
ALL_CHANNELS = 12
#: Lobby ↔ game music cross-fade.
MUSIC_FADE_S = 0.8
#: A cue not played within this time is dropped (it would no longer match the picture).
STALE_CUE_S = 0.25
DEFAULT_MUSIC_VOLUME = 0.6
EFFECTS_VOLUME = 0.9
#: Music volume keys step by this much.
VOLUME_STEP = 0.1


class SoundUnavailable(RuntimeError):
    """No sound output here (no device, no pygame.mixer)."""


class Output(Protocol):
    """Where the board's sounds go: ``PygameOutput``, or a recorder in tests."""

    def open(self) -> None: ...
    def load(self, path: Path) -> Any: ...
    def play(self, channel: int, sound: Any, loops: int) -> None: ...
    def set_volume(self, channel: int, volume: float) -> None: ...
    def busy(self, channel: int) -> bool: ...
    def stop(self, channel: int) -> None: ...


class PygameOutput:
    """``pygame.mixer`` with our channels reserved (shared with the voice, which may come
    second: it then finds the mixer already open)."""

    def __init__(self) -> None:
        self._mixer: Any = None

    def open(self) -> None:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        try:
            import pygame
        except ImportError as error:
            raise SoundUnavailable("pygame is not installed") from error
        try:
            if not pygame.mixer.get_init():
                # Our sounds and the voice (espeak) are mono at 22 050 Hz: a mono mixer at that rate
                # holds them at half the memory of 44.1 kHz stereo; 256 frames = 12 ms latency.
                pygame.mixer.init(frequency=RATE, size=-16, channels=1, buffer=256)
            pygame.mixer.set_num_channels(max(ALL_CHANNELS, pygame.mixer.get_num_channels()))
            pygame.mixer.set_reserved(RESERVED)
        except pygame.error as error:
            raise SoundUnavailable(str(error)) from error
        self._mixer = pygame.mixer

    def load(self, path: Path) -> Any:
        return self._mixer.Sound(str(path))

    def play(self, channel: int, sound: Any, loops: int) -> None:
        self._mixer.Channel(channel).play(sound, loops=loops)

    def set_volume(self, channel: int, volume: float) -> None:
        self._mixer.Channel(channel).set_volume(volume)

    def busy(self, channel: int) -> bool:
        return bool(self._mixer.Channel(channel).get_busy())

    def stop(self, channel: int) -> None:
        self._mixer.Channel(channel).stop()


@dataclass
class _Track:
    """A music loop on one channel, fading in (``target`` 1) or out (``target`` 0)."""

    loop: str
    since: float
    start: float
    target: float

    def level(self, now: float) -> float:
        share = min(1.0, max(0.0, (now - self.since) / MUSIC_FADE_S))
        return self.start + (self.target - self.start) * share

    def moving(self, now: float) -> bool:
        return now - self.since < MUSIC_FADE_S


class SoundBoard:
    """Cues, music and their volumes; every public method returns at once and never raises.

    Callers never take a lock the board's thread holds: each request goes into a
    ``SimpleQueue`` (its ``put`` never blocks) and the thread applies them in order.
    """

    def __init__(
        self,
        *,
        music: bool = True,
        muted: bool = False,
        output: Output | None = None,
        clock: Callable[[], float] = time.monotonic,
        loader: Callable[[], dict[str, Path]] = prepare,
    ) -> None:
        self.music_enabled = music
        self._muted = muted
        self._output: Output = output if output is not None else PygameOutput()
        self._clock = clock
        self._loader = loader
        self._ducker = Ducker()
        self._inbox: SimpleQueue[tuple[str, Any, float]] = SimpleQueue()
        self._held: list[tuple[str, Any, float]] = []
        self._want: str | None = None
        self._tracks: dict[int, _Track] = {}
        self._sounds: dict[str, Any] = {}
        self._music_volume = DEFAULT_MUSIC_VOLUME
        self._next_effect = 0
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None
        self._opened = False
        self.played: deque[tuple[float, str]] = deque(maxlen=200)

    # -- life ------------------------------------------------------------------------------
    def start(self) -> str | None:
        """Open the output (here, so the voice shares it) and start the thread that renders
        or loads the sounds, then plays them. Returns None, or why there is no sound.

        A board started muted (``--mute``) opens nothing and loads nothing until it is
        unmuted: a silent party costs no sound device and no memory for sounds."""
        if not self._muted:
            problem = self._open()
            if problem is not None:
                return problem
        self._thread = threading.Thread(target=self._run, name="sound-board", daemon=True)
        self._thread.start()
        return None

    def _open(self) -> str | None:
        try:
            self._output.open()
        except SoundUnavailable as error:
            return str(error) or "no sound output"
        self._opened = True
        return None

    def load(self) -> None:
        """Render what is missing and load every sound (the board's thread does this first)."""
        self._sounds = {name: self._output.load(path) for name, path in self._loader().items()}
        self._ready.set()

    def wait_ready(self, timeout: float) -> bool:
        """Are the sounds loaded (waits up to ``timeout`` seconds)? Cues before that are lost."""
        return self._ready.wait(timeout)

    def close(self) -> None:
        self._stop.set()
        self._inbox.put(("wake", None, 0.0))
        if self._thread is not None:
            self._thread.join(0.3)  # a first-run rendering may not answer: it is a daemon
        for channel in (*MUSIC_CHANNELS, *EFFECT_CHANNELS):
            try:
                self._output.stop(channel)
            except Exception:  # noqa: BLE001 - the mixer may be gone already
                break

    # -- what the TV, the keys and the voice call ------------------------------------------
    def cue(self, name: str) -> None:
        """Play a cue now (queued for the board's thread: never blocks a frame)."""
        self._inbox.put(("cue", name, self._clock()))

    def play_music(self, loop: str | None) -> None:
        """Cross-fade to the ``lobby`` or ``game`` loop (None: fade the music out)."""
        self._inbox.put(("music", loop, self._clock()))

    @property
    def muted(self) -> bool:
        return self._muted

    def set_muted(self, muted: bool) -> None:
        """Silence (or bring back) music and effects; the voice has its own switch."""
        self._muted = bool(muted)
        self._inbox.put(("wake", None, 0.0))

    @property
    def music_volume(self) -> float:
        return self._music_volume

    def set_music_volume(self, volume: float) -> float:
        """The host's music volume, 0..1 (clamped); returns the volume now in use. Works with or
        without a game, so the VIP's phone can call it too."""
        self._music_volume = round(min(1.0, max(0.0, float(volume))), 2)
        self._inbox.put(("wake", None, 0.0))
        return self._music_volume

    def speech_started(self, seconds: float) -> None:
        """The voice started a line of ``seconds``: duck music and effects under it."""
        self._inbox.put(("speak", seconds, self._clock()))

    def speech_ended(self) -> None:
        """The voice was cut short (muted, closing): come back up now."""
        self._inbox.put(("hush", None, self._clock()))

    def gain(self, now: float) -> float:
        """The ducking gain the board applies at ``now`` (1.0 when nobody speaks)."""
        return self._ducker.gain(now)

    # -- the board's thread ----------------------------------------------------------------
    def _wait_until_heard(self) -> bool:
        """Started muted: keep the requests that matter (not the cues, stale by then) until
        the board is unmuted, then open the output. False if stopped or there is no output."""
        while self._muted and not self._stop.is_set():
            request = self._inbox.get()
            if request[0] != "cue":
                self._held = [*self._held[-20:], request]
        if self._stop.is_set():
            return False
        if not self._opened:
            problem = self._open()
            if problem is not None:
                log.warning("no sound output, the party's sounds stay off: %s", problem)
                return False
        return True

    def _run(self) -> None:
        if not self._wait_until_heard():
            return
        try:
            self.load()
        except Exception:  # a broken cache must not stop the party
            log.exception("the party's sounds could not be made; going on without them")
            return
        wake: float | None = self._clock()  # play at once what was asked while loading
        while not self._stop.is_set():
            timeout = None if wake is None else max(0.0, wake - self._clock())
            try:
                self._held.append(self._inbox.get(timeout=timeout))
            except Empty:
                pass
            if self._stop.is_set():
                return
            try:
                wake = self.tick(self._clock())
            except Exception:  # e.g. the mixer closed under us at exit
                log.debug("sound board tick failed", exc_info=True)
                wake = self._clock() + 0.5

    def _requests(self) -> list[tuple[str, Any, float]]:
        taken, self._held = self._held, []
        while True:
            try:
                taken.append(self._inbox.get_nowait())
            except Empty:
                return taken

    def tick(self, now: float) -> float | None:
        """Apply the requests, play queued cues, follow the music wanted, set every volume;
        returns when the board should run again (None: not until something is asked of it)."""
        cues: list[tuple[str, float]] = []
        for kind, value, at in self._requests():
            if kind == "cue":
                cues.append((str(value), at))
            elif kind == "music":
                self._want = value
            elif kind == "speak":
                self._ducker.speak(at, float(value))
            elif kind == "hush":
                self._ducker.hush(at)
        want = self._want if self.music_enabled else None
        gain = self._ducker.gain(now)
        duck_wake = self._ducker.next_move(now)
        music_level = 0.0 if self._muted else self._music_volume * gain
        effect_level = 0.0 if self._muted else EFFECTS_VOLUME * gain
        if self._sounds:
            for name, asked in cues:
                self._play_cue(name, now - asked, effect_level)
            self._follow_music(want, now)
        for channel in EFFECT_CHANNELS:
            self._output.set_volume(channel, effect_level)
        moving = False
        for channel in MUSIC_CHANNELS:
            track = self._tracks.get(channel)
            if track is None:
                continue
            self._output.set_volume(channel, music_level * track.level(now))
            moving = moving or track.moving(now)
            if track.target == 0 and not track.moving(now):
                self._output.stop(channel)
                del self._tracks[channel]
        if moving or (duck_wake is not None and duck_wake <= now):
            return now + TICK_S
        return duck_wake

    def _play_cue(self, name: str, late: float, level: float) -> None:
        sound = self._sounds.get(name) if name in CUES else None
        if sound is None or late > STALE_CUE_S or level <= 0:
            return
        free = [c for c in EFFECT_CHANNELS if not self._output.busy(c)]
        if free:
            channel = free[0]
        else:  # all busy: the oldest effect makes way (never the voice: not our channel)
            channel = EFFECT_CHANNELS[self._next_effect % len(EFFECT_CHANNELS)]
            self._next_effect += 1
        self._output.set_volume(channel, level)
        self._output.play(channel, sound, 0)
        self.played.append((self._clock(), name))

    def _follow_music(self, want: str | None, now: float) -> None:
        playing = next((t for t in self._tracks.values() if t.target == 1), None)
        if (playing.loop if playing else None) == want:
            return
        for track in self._tracks.values():
            if track.target == 1:
                track.start, track.since, track.target = track.level(now), now, 0.0
        if want is None or want not in self._sounds:
            return
        channel = next((c for c in MUSIC_CHANNELS if c not in self._tracks), MUSIC_CHANNELS[0])
        self._output.play(channel, self._sounds[want], -1)
        self._tracks[channel] = _Track(want, now, 0.0, 1.0)
