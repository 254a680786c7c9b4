"""The announcer: the host's voice and the TV's caption bar, fed by public events.

``announce()`` is called from the session's subscription pump; it only turns events into
phrases and queues them, so it returns at once. A worker thread takes each line, shows it
as the caption, has the render thread make (or reuse) its WAV and plays it. Whatever goes
wrong with speech — muted, no engine, an engine that raises or hangs, no sound device —
the captions carry on at speaking pace and the game never waits for the voice.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import CancelledError, Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from functools import partial
from itertools import pairwise
from pathlib import Path

from host.i18n import LANGUAGES, Catalog
from host.rules import EventDict, View
from host.voice.engine import Pyttsx3Engine, SpeechEngine
from host.voice.lines import Line, LineQueue
from host.voice.phrases import HiddenEvent, Moment, Translate, phrases_for, player_name
from host.voice.playback import MixerPlayer, PlaybackUnavailable, Player, SilentPlayer
from host.voice.renderer import AHEAD, Renderer

log = logging.getLogger(__name__)

#: A caption stays up this long after its line ends, unless a newer line replaces it.
CAPTION_LINGER_S = 3.0
#: The worker waits for a line at most this long before it looks again. Only a safety net:
#: a new line and ``close()`` wake it at once, so an idle host does not wake ten times a second.
IDLE_WAIT_S = 1.0
#: While a line plays, the sound device is asked whether it is still busy this often once the
#: line's own length is over (its tail); until then the worker sleeps unless muted or closed.
PLAYING_POLL_S = 0.02
#: A caption-only line is held at least this long, so it can be read…
MIN_CAPTION_S = 1.0
#: …and at most this long.
MAX_CAPTION_S = 3.5


@dataclass(frozen=True)
class Said:
    """A line the announcer got to: when it started and whether it was heard or only shown."""

    line: Line
    started: float
    audio: bool


def likely_lines(event: EventDict, view: View, translate: Translate) -> list[str]:
    """Lines this event makes likely soon, worth rendering ahead: each guest's turn prompt
    and keep when they join, and each neighbour's swap when a round is dealt."""
    if event["type"] == "player_joined" and event.get("name"):
        name = str(event["name"])
        return [
            translate(key, name=name) for key in ("voice.turn", "voice.turn_dealer", "voice.kept")
        ]
    if event["type"] == "round_dealt":
        names = [player_name(view, pid, translate) for pid in event.get("order") or ()]
        return [
            translate("voice.exchanged", name=asker, target=target)
            for asker, target in pairwise(names)
        ]
    return []


def _kind_of(event: object) -> str:
    """An event's ``type``; "" for something that is not an event (logged, then skipped)."""
    if isinstance(event, Mapping) and "type" in event:
        return str(event["type"])
    return ""


def reading_seconds(text: str) -> float:
    """About how long a line takes to say (and to read on the caption bar)."""
    return min(MAX_CAPTION_S, max(MIN_CAPTION_S, 0.4 + 0.06 * len(text)))


class Announcer:
    """Speaks and captions the public play, never blocking its callers.

    ``engine`` renders lines to WAV (default: pyttsx3 with a WAV cache); ``player`` plays
    them (default: ``pygame.mixer``). Both are injectable so tests can be slow, broken or
    silent on purpose.
    """

    def __init__(
        self,
        catalog: Catalog,
        lang: str,
        *,
        muted: bool = False,
        engine: SpeechEngine | None = None,
        max_lag_s: float = 2.0,
        player: Player | None = None,
        render_timeout_s: float = 3.0,
        cache_dir: Path | None = None,
        warm_up: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._catalog = catalog
        self._lang = self._checked_language(lang)
        self._muted = muted
        self._engine: SpeechEngine = engine if engine is not None else Pyttsx3Engine(cache_dir)
        # Rendering likely lines ahead (the calls, each guest's turn prompt) pays off with
        # the real engine, where a first rendering costs a process start.
        self._warm_up = engine is None if warm_up is None else warm_up
        self._player: Player = player if player is not None else MixerPlayer()
        self._render_timeout_s = render_timeout_s
        self._clock = clock
        self._queue = LineQueue(max_lag_s)
        self._renderer = Renderer()
        self._stop = threading.Event()
        #: Set by mute and close: the worker, sleeping through a line it plays, looks at once.
        self._cut = threading.Event()
        self._lock = threading.Lock()
        self._caption: tuple[str, float] | None = None
        self._said: deque[Said] = deque(maxlen=200)
        self._batches = 0
        self._prefetched: dict[tuple[str, str], Future[Path]] = {}
        self._opened = threading.Event()
        self._open_requested = False
        self._engine_error: str | None = None
        self._engine_stuck = False
        self._logged: set[str] = set()
        self._worker = threading.Thread(target=self._run, name="voice", daemon=True)
        self._started = False

    # ------------------------------------------------------------------ public API

    def start(self) -> None:
        """Start the render thread (which opens the engine) and the speaking worker."""
        if self._started:
            return
        self._started = True
        self._renderer.start()
        self._worker.start()
        if not self._muted:  # a muted (or headless) host never starts a speech engine
            self._request_open()
        self._warm_calls(self._lang)

    def announce(self, events: Sequence[EventDict], view: View, moment: Moment = "whole") -> None:
        """Queue the phrases for a batch of public events; returns at once, never raises.
        ``moment``: the TV says a sudden death's rule and its verdict apart (``phrases_for``)."""
        lang = self._lang
        translate = self._catalog.translator(lang)
        now = self._clock()
        with self._lock:
            self._batches += 1
            batch = self._batches
        lines: list[Line] = []
        # "New game! Marie deals first." / "Misdeal! Marie deals again." already say it.
        kinds = [_kind_of(event) for event in events]
        told_deal = "game_started" in kinds or "misdeal" in kinds
        for kind, event in zip(kinds, events):
            try:
                if not (kind == "round_dealt" and told_deal):
                    lines.extend(
                        Line(text, lang, kind, now, batch)
                        for text in phrases_for(event, view, translate, moment)
                    )
                self._warm(lang, likely_lines(event, view, translate))
            except HiddenEvent as error:
                log.error("voice refused an event: %s", error)
            except Exception:  # a bad event must not stop the voice, nor the game
                log.exception("voice could not phrase a %r event", kind)
        if lines:
            self._queue.put(lines)

    def say(self, text: str) -> None:
        """Queue one line that is not a game event ("How to play", issue 14); never blocks."""
        with self._lock:
            self._batches += 1
            batch = self._batches
        self._queue.put([Line(text, self._lang, "tutorial", self._clock(), batch)])

    def withdraw(self, text: str) -> None:
        """A waiting line that is no longer true goes unsaid (a line being said finishes; the
        TV hides its caption itself). Never blocks."""
        self._queue.withdraw(text)

    def caption(self) -> str | None:
        """The line the caption bar shows now (the one being said), or None."""
        with self._lock:
            if self._caption is not None and self._clock() < self._caption[1]:
                return self._caption[0]
        return None

    def set_language(self, lang: str) -> None:
        """Speak the next announcements in ``lang``; an unknown language changes nothing."""
        self._lang = self._checked_language(lang)
        self._warm_calls(self._lang)

    @property
    def language(self) -> str:
        return self._lang

    def set_muted(self, muted: bool) -> None:
        """Mute (captions only) or unmute; muting cuts the line being spoken."""
        self._muted = bool(muted)
        if not self._muted and self._started:
            self._request_open()
            self._warm_calls(self._lang)
        if self._muted:
            self._player.stop()
            self._cut.set()

    @property
    def muted(self) -> bool:
        return self._muted

    def voice_available(self, timeout: float = 2.0) -> bool:
        """Can lines be heard (engine started)? Waits up to ``timeout`` for the engine."""
        if self._started:
            self._request_open()
        self._opened.wait(timeout)
        return self._opened.is_set() and self._engine_error is None

    def voice_status(self, timeout: float = 2.0) -> str:
        """One line for the host's console: the voice in use, or how to enable one."""
        t = self._catalog.translator(self._lang)
        if self._muted:
            return t("voice.status_muted")
        if not self.voice_available(timeout):
            reason = self._engine_error or "the speech engine did not start in time"
            return t("voice.status_unavailable", reason=reason)
        return t("voice.status_ready", voice=self._describe(timeout))

    def said(self) -> list[Said]:
        """The lines started so far, newest last (tests and benchmarks read this)."""
        with self._lock:
            return list(self._said)

    def dropped(self) -> list[Line]:
        """Lines dropped as stale so the voice could stay with the game."""
        return self._queue.dropped()

    def pending(self) -> int:
        """How many lines wait to be said."""
        return len(self._queue)

    def close(self) -> None:
        """Stop speaking and join the worker quickly (a hung engine is left behind)."""
        self._stop.set()
        self._cut.set()
        self._queue.close()
        self._player.stop()
        if self._started:
            self._worker.join(1.0)
        self._renderer.close(0.2)

    # ------------------------------------------------------------------ engine

    @staticmethod
    def _checked_language(lang: str) -> str:
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
        return lang

    def _request_open(self) -> None:
        with self._lock:
            if self._open_requested:
                return
            self._open_requested = True
        self._renderer.submit(self._open_engine).add_done_callback(self._engine_opened)

    def _open_engine(self) -> str:
        opener = getattr(self._engine, "open", None)
        return str(opener()) if callable(opener) else type(self._engine).__name__

    def _engine_opened(self, future: Future[str]) -> None:
        error = future.exception()
        if error is not None:
            self._engine_error = str(error) or type(error).__name__
            log.warning("voice unavailable, captions only: %s", self._engine_error)
        self._opened.set()

    def _describe(self, timeout: float) -> str:
        describe = getattr(self._engine, "describe", None)
        if not callable(describe):
            return type(self._engine).__name__
        lang = self._lang
        try:
            return str(self._renderer.submit(lambda: describe(lang)).result(timeout))
        except Exception:  # noqa: BLE001 - a status line must never fail
            return type(self._engine).__name__

    def _warm_calls(self, lang: str) -> None:
        t = self._catalog.translator(lang)
        self._warm(lang, [t("voice.cuckoo"), t("voice.chase")])

    def _warm(self, lang: str, texts: list[str]) -> None:
        """Render ``texts`` into the cache when the render thread has nothing urgent."""
        if not self._warm_up or not self._started or self._muted or self._engine_error is not None:
            return
        for text in texts:
            self._renderer.submit(partial(self._engine.render, text, lang), AHEAD)

    def _can_speak(self) -> bool:
        if self._muted or (self._opened.is_set() and self._engine_error is not None):
            return False
        if self._engine_stuck:  # a render timed out: no new lines until it comes back
            if self._renderer.busy_for() > 0:
                return False
            self._engine_stuck = False
        # A job running far past the render timeout means the engine hangs: captions only.
        return self._renderer.busy_for() <= self._render_timeout_s

    def _log_once(self, message: str) -> None:
        if message not in self._logged:
            self._logged.add(message)
            log.warning("%s", message)

    # ------------------------------------------------------------------ worker

    def _run(self) -> None:
        while not self._stop.is_set():
            line = self._queue.wait_take(self._clock, IDLE_WAIT_S)
            if line is None:
                continue
            try:
                self._say(line)
            except Exception:  # never let the worker die: captions must go on
                log.exception("voice worker failed on %r", line.text)

    def _show(self, text: str, until: float) -> None:
        with self._lock:
            self._caption = (text, until)

    def _record(self, line: Line, started: float, audio: bool) -> None:
        with self._lock:
            self._said.append(Said(line, started, audio))

    def _say(self, line: Line) -> None:
        start = self._clock()
        estimate = reading_seconds(line.text)
        self._show(line.text, start + estimate + CAPTION_LINGER_S)
        wav = self._render(line) if self._can_speak() else None
        if wav is None or self._muted or self._stop.is_set():
            self._record(line, start, audio=False)
            self._hold(estimate - (self._clock() - start))
            return
        self._cut.clear()  # a mute from now on cuts this line
        try:
            seconds = self._player.play(wav)
        except PlaybackUnavailable as error:
            self._log_once(f"no sound output, captions keep speaking pace: {error}")
            self._player = SilentPlayer()
            seconds = self._player.play(wav)
        started = self._clock()
        self._record(line, started, audio=not isinstance(self._player, SilentPlayer))
        self._show(line.text, started + seconds + CAPTION_LINGER_S)
        self._prefetch_next()
        self._wait_played(started + seconds)

    def _wait_played(self, ends: float) -> None:
        """Sleep until the line playing is over (``ends``, by the clock), or muted or closed.

        Why not just ask the device every few milliseconds: that woke the worker fifty times a
        second for as long as the voice spoke. Its length is known; only its tail is polled.
        """
        while self._player.busy() and not self._stop.is_set():
            if self._muted:
                self._player.stop()
                return
            if self._cut.wait(max(PLAYING_POLL_S, ends - self._clock())):
                self._cut.clear()  # looked at: muted or closed is read above

    def _render(self, line: Line) -> Path | None:
        key = (line.text, line.lang)
        future = self._prefetched.pop(key, None)
        if future is None:
            future = self._renderer.submit(lambda: self._engine.render(line.text, line.lang))
        deadline = self._clock() + self._render_timeout_s
        while not self._stop.is_set():
            try:
                return future.result(timeout=min(0.05, max(0.0, deadline - self._clock())))
            except FutureTimeout:
                if self._clock() >= deadline:
                    self._engine_stuck = not future.cancel()
                    self._log_once("the speech engine is too slow or stuck; captions only")
                    return None
            except CancelledError:
                return None
            except Exception as error:  # noqa: BLE001 - any engine failure means captions only
                self._log_once(f"the speech engine failed: {error!r}")
                return None
        future.cancel()
        return None

    def _prefetch_next(self) -> None:
        """Render the next waiting line while this one plays, so it starts without a gap."""
        nxt = self._queue.peek()
        if nxt is None or not self._can_speak() or self._renderer.busy_for() > 0:
            return
        key = (nxt.text, nxt.lang)
        if key in self._prefetched:
            return
        if len(self._prefetched) >= 8:  # lines dropped as stale leave futures behind
            for old in list(self._prefetched)[:4]:
                self._prefetched.pop(old).cancel()
        self._prefetched[key] = self._renderer.submit(
            lambda: self._engine.render(nxt.text, nxt.lang)
        )

    def _hold(self, seconds: float) -> None:
        """Keep a caption-only line up for ``seconds`` — less if more lines are waiting.

        The worker sleeps until the hold is over, or until a line arrives (then only until the
        shortest hold), or the announcer closes: it does not look at the clock fifty times a
        second, as it did, on a host that only shows captions.
        """
        deadline = self._clock() + max(0.0, seconds)
        shortest = self._clock() + MIN_CAPTION_S * 0.6
        while not self._stop.is_set():
            now = self._clock()
            waiting = len(self._queue) > 0
            if now >= deadline or (waiting and now >= shortest):
                return
            if waiting:
                self._stop.wait(min(deadline, shortest) - now)
            else:
                self._queue.wait_for_line(deadline - now)
