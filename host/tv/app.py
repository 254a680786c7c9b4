"""The TV application: a scene stack over one ``Stage``, host keys, and a fixed-timestep loop.

Why a class with ``step(dt)`` / ``render(surface)`` / ``run(max_frames)``: the real window, the
screenshot command, the benchmarks and the tests all drive the same object — tests with a fake
clock and a bounded number of frames, the party with the real clock until the host quits.

The TV only ever subscribes to the *public* stream (``session.subscribe(None)``) and reads the
public view; the stage drops anything private on arrival as a second line of defence.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, Protocol, cast

import pygame

from host.audio.cueing import CueTrack
from host.i18n import LANGUAGES, Catalog
from host.join_address import JoinLink, fixed
from host.pacing import Shown
from host.phones_first import PhonesFirst
from host.rules import EventDict, View
from host.session import SessionError
from host.subscriptions import Update
from host.tv import evening
from host.tv.bench import benched
from host.tv.cards import CardPainter
from host.tv.damage import Damage
from host.tv.frame_rate import FrameRate
from host.tv.lobby import LobbyScene
from host.tv.motion import pose
from host.tv.overlays import (
    FULLSCREEN_KEYS,
    MUSIC_DOWN_KEYS,
    MUSIC_UP_KEYS,
    ConfirmOverlay,
    HelpOverlay,
    KickOverlay,
    caption_bar_rect,
    draw_caption_bar,
)
from host.tv.safety import draw_save_warning
from host.tv.scene import Props, Scene
from host.tv.screen import Screen
from host.tv.seats import ring
from host.tv.stage import SeatShow, Stage, reveal_marked_at
from host.tv.table import TableScene
from host.tv.theme import Theme
from host.tv.tutorial import Tutorial
from host.tv.vip_hooks import VipHooks

if TYPE_CHECKING:
    from host.voice.phrases import Moment

log = logging.getLogger(__name__)

FRAME_SECONDS = 1.0 / 60.0
IDLE_FPS = 10
TOAST_SECONDS = 2.5
MAX_UPDATES_PER_FRAME = 200
REDRAW_EVENTS = frozenset(
    {
        pygame.VIDEOEXPOSE,
        pygame.WINDOWEXPOSED,
        pygame.WINDOWRESTORED,
        pygame.WINDOWSIZECHANGED,
        pygame.WINDOWSHOWN,
    }
)
#: What a host key may be refused with (shown as a notice; the table is unchanged).
REFUSALS = (SessionError,)
#: A restarted host shows nobody away for this long: the phones are reconnecting (about 2.4 s
#: in round 41's play-test), and an away countdown then was only alarming.
RECONNECT_GRACE_SECONDS = 5.0


class Subscription(Protocol):
    """A stream of updates (``host.subscriptions.Subscription``); None when nothing waits."""

    def get(self, timeout: float | None = None) -> Update | None: ...


class TableHost(Protocol):
    """The part of ``host.session.Session`` the TV uses."""

    def subscribe(self, player_id: str | None) -> Subscription: ...
    def view(self, player_id: str | None) -> View: ...
    def host_next(self) -> object: ...
    def add_bot(self) -> object: ...
    def kick(self, player_id: str) -> object: ...
    def misdeal(self) -> object: ...


class Leader(Protocol):
    """A session that follows the TV's beats (``host.session.Session``; see host/pacing.py)."""

    def lead(self) -> Subscription: ...
    def tv_shown(self, shown: Shown) -> None: ...
    def resign(self) -> None: ...


class Voice(Protocol):
    """The part of ``host.voice.Announcer`` the TV uses."""

    @property
    def muted(self) -> bool: ...
    def caption(self) -> str | None: ...
    def set_language(self, lang: str) -> None: ...
    def set_muted(self, muted: bool) -> None: ...


class Sounds(Protocol):
    """The part of ``host.audio.SoundBoard`` the TV uses (every call returns at once)."""

    @property
    def muted(self) -> bool: ...
    @property
    def music_volume(self) -> float: ...
    def cue(self, name: str) -> None: ...
    def play_music(self, loop: str | None) -> None: ...
    def set_muted(self, muted: bool) -> None: ...
    def set_music_volume(self, volume: float) -> float: ...


#: Keys that end "How to play" and then do their work: N asks for a new evening over the
#: lobby (round 40's play-test: a host who asks for a new evening means it, and pressing N
#: twice, once to skip, was not what anyone guessed). Every other key only skips.
LESSON_PASSES_ON = frozenset({pygame.K_n})
#: M cycles these: voice and sound, sound only, silent.
SOUND_MODES = ("all", "sound_only", "silent")
MUSIC_STEP = 0.1


def outlived(event: EventDict, table: View | None) -> bool:
    """Has the table moved past what ``event``'s caption says? An away player's caption
    ("their card is kept in 10 seconds") goes once they are back or their turn is over; a
    caption otherwise stays its usual time (issue 12 item 3, the play-test's H4 caption)."""
    if event["type"] != "player_away" or table is None:
        return False
    player = event["player"]
    if table["phase"] != "turns" or table["current"] != player:
        return True
    return any(seat["id"] == player and seat["connected"] for seat in table["players"])


class TVApp:
    """Everything the TV shows and every host key, independent of the real window."""

    def __init__(
        self,
        session: TableHost,
        announcer: Voice | None,
        catalog: Catalog,
        *,
        lang: str,
        join_url: str,
        join: Callable[[], JoinLink] | None = None,
        house_rules: list[str] | None = None,
        fullscreen: bool = False,
        sounds: Sounds | None = None,
        sound_output: bool = True,
        on_language: Callable[[str], None] | None = None,
        led: Subscription | None = None,
        theme: Theme | None = None,
    ) -> None:
        self.session = session
        self.on_language = on_language  # e.g. remember L's choice for the next start
        # Captions by the event they tell, so a language switch re-tells the caption at once.
        self._phrased: dict[str, tuple[EventDict, int, str, Moment]] = {}
        # Lines given to the voice that may stop being true before they are said ("Zoé is
        # away…"): withdrawn once the table outlives them.
        self._perishable: dict[str, EventDict] = {}
        self.announcer = announcer
        self.sounds = sounds
        self.sound_output = sound_output
        """False: this computer has no sound output, so M and -/= say so (round 41's
        play-test: M there said "Voice and sounds on", and nothing could be heard)."""
        self._cues = CueTrack(sounds) if sounds is not None else None
        self._music: str | None = None
        theme_ = theme or Theme()  # the party's has the computer's CJK fonts, if any
        self.props = Props(
            theme_, CardPainter(theme_), catalog, lang, join_url, list(house_rules or [])
        )
        # The join address as it moves (host/join_address.py): the lobby's QR follows it.
        self._join = join or fixed(join_url)
        self._link = self._join()
        self.props.join_url, self.props.join_offline = self._link.url, self._link.offline
        self.stage = Stage()
        if self._cues is not None:
            self.stage.on_begin = self._cues.begin
        self.lobby = LobbyScene(self.stage, self.props)
        # Phones first (host/phones_first.py): a frame gives way while a phone is served.
        self.phones_first: PhonesFirst = getattr(session, "phones_first", None) or PhonesFirst()
        self.table = TableScene(self.stage, self.props, self.phones_first.give_way)
        self.standings = evening.StandingsScene(self.stage, self.props)
        self.tutorial: Tutorial | None = None
        self._tutorial_asks = getattr(session, "tutorial_asks", 0)
        self._evenings_begun = getattr(session, "evenings_begun", 0)
        self._had_reactions = False
        self.overlays: list[Scene] = []
        self._quit_question: Scene | None = None  # the last one asked (is it still up?)
        self.fullscreen = fullscreen
        self.screen: Screen | None = None  # the real window, once ``run`` shows it
        self.running = True
        self.frames_rendered = 0
        self.frame_rate = FrameRate()  # 60 a second while something moves, fewer if late
        self.damage = Damage()  # where the canvas differs from the screen (only that is shown)
        self._bar_drawn: Hashable = None  # the caption bar's words in the frame last drawn
        self._layer_failed = False
        self._toast: tuple[str, float] | None = None
        self._caption: str | None = None
        self._lesson_lines: set[str] = set()  # what "How to play" said (host/tv/tutorial.py)
        self._hushed: set[str] = set()  # …taken off the caption bar when it was cut short
        self._dirty = True
        self._drawn_pose: Hashable = None  # the animation's pose in the frame last drawn
        self.vip_hooks = VipHooks()
        self._draw_failures: set[str] = set()
        self._save_problem: str | None = None
        # The TV leads (host/pacing.py): a session that can follow the TV's beats sends
        # phones only what the TV has played; the voice speaks each event as it plays.
        leads = callable(getattr(session, "lead", None))
        self._pacer_host = cast(Leader, session) if leads else None
        # ``led``: the stream of a lead the party took before the phones could join.
        self.subscription = (
            led
            if led is not None
            else (
                self._pacer_host.lead() if self._pacer_host is not None else session.subscribe(None)
            )
        )
        self._unreported: Shown | None = None  # how far the TV has played, not yet told
        self.stage.on_shown = self._shown
        self.stage.on_cue = self._cue
        resumed = getattr(session, "resumed", False) is True  # restarted from its save
        self.stage.presume_connected = resumed
        first = self.subscription.get(0.0)
        if first is not None:
            self.stage.receive(first.view, list(first.events))
        else:
            self.stage.receive(session.view(None), [])
        if resumed and not self.stage.animating:
            self._retell_outcome()

    def _retell_outcome(self) -> None:
        """A host restarted at the reveal or the game's end says its outcome again.

        Round 41's play-test killed the host in the middle of the reveal: the restarted TV
        showed the finished table in silence, and nothing on it said who had lost a life
        (the phones did). The cards are not turned over again, as the phones follow the TV's
        beats and already had them; the voice and the caption tell the round's end, from the
        reveal on, as the public log of the round keeps it. At the game's end the winners'
        board goes up again while it is told (``Stage.cheer_again``)."""
        table = self.stage.latest
        if table is None or table["phase"] not in ("reveal", "game_over"):
            return
        self.stage.cheer_again()
        log = table["log"]
        starts = [i for i, event in enumerate(log) if event["type"] == "reveal"]
        for event in log[starts[-1] :] if starts else []:
            self._cue(event)

    def _shown(self, shown: Shown) -> None:
        """The stage began a beat: phones are told once the frame showing it is on screen.

        Why not at once: the beat begins in ``step``, before the frame that draws it; telling
        the session there sent every phone the news first, and a phone answering it at once
        (with the TV leading, "you may act" is the TV's own beat) then waited for the TV's
        most expensive frame, the one that repaints the table for the new turn, to be drawn.
        Told after that frame, phones learn a beat when the TV shows it, and their taps land
        in the quiet part of the frame. ``Shown`` only grows, so the last one says it all.
        """
        self._unreported = shown

    def report_shown(self) -> None:
        """Tell the session how far the TV has played, if that moved since it was last told
        (``play_frame`` calls it once the frame is drawn and presented)."""
        shown, self._unreported = self._unreported, None
        if shown is not None and self._pacer_host is not None:
            self._pacer_host.tv_shown(shown)

    def _cue(self, event: EventDict, moment: Moment = "whole") -> None:
        """An event's moment is on screen: the voice says it now (and the caption shows it).
        A sudden death has two (``Stage.on_cue``): its verdict is said when the TV shows it."""
        announce = getattr(self.announcer, "announce", None)
        if callable(announce) and self.stage.latest is not None:
            for index, text in enumerate(self._phrases(event, self.props.lang, moment)):
                if len(self._phrased) > 200:
                    self._phrased.clear()
                self._phrased[text] = (event, index, self.props.lang, moment)
                if event["type"] == "player_away":
                    self._perishable[text] = event
            announce([event], self.stage.latest, moment)

    def _phrases(self, event: EventDict, lang: str, moment: Moment = "whole") -> list[str]:
        """The voice's lines for ``event`` in ``lang`` (none if the voice cannot phrase it)."""
        if self.stage.latest is None:
            return []
        try:
            from host.voice.phrases import phrases_for

            translate = self.props.catalog.translator(lang)
            return phrases_for(event, self.stage.latest, translate, moment)
        except Exception:  # noqa: BLE001 - a caption is never worth a crash
            return []

    def close(self) -> None:
        """Stop following the session (the TV is going away); phones no longer wait for it."""
        close = getattr(self.subscription, "close", None)
        if callable(close):
            close()
        if self._pacer_host is not None:
            self._pacer_host.resign()

    # -- input -----------------------------------------------------------------------------
    def pump_updates(self) -> int:
        """Take every public update waiting on the subscription (never blocks)."""
        taken = 0
        while taken < MAX_UPDATES_PER_FRAME:
            update = self.subscription.get(0.0)
            if update is None:
                break
            self.stage.receive(update.view, list(update.events))
            self.vip_hooks.events(self, update.events)
            taken += 1
        return taken

    def poll_caption(self) -> None:
        self._withdraw_outlived()
        caption = self.announcer.caption() if self.announcer is not None else None
        if caption in self._hushed:
            caption = None  # a skipped lesson's line, still being said: off the bar
        told = self._phrased.get(caption or "")
        if told is not None and outlived(told[0], self.stage.latest):
            caption = None  # "Zoé is away…" once she is back or her turn is over: no longer true
        elif told is not None and told[2] != self.props.lang:  # L was pressed: follow at once
            lines = self._phrases(told[0], self.props.lang, told[3])
            caption = lines[told[1]] if told[1] < len(lines) else caption
        if caption != self._caption:
            self._caption, self._dirty = caption, True

    def _withdraw_outlived(self) -> None:
        """The voice does not say a waiting line the table has outlived (she is back)."""
        withdraw = getattr(self.announcer, "withdraw", None)
        for text, event in list(self._perishable.items()):
            if outlived(event, self.stage.latest):
                del self._perishable[text]
                if callable(withdraw):
                    withdraw(text)

    def poll_save_problem(self) -> None:
        """Follow the session's ``save_problem`` (the warning strip; stand-ins have none)."""
        problem = getattr(self.session, "save_problem", None)
        problem = problem if isinstance(problem, str) else None
        if problem != self._save_problem:
            self._save_problem, self._dirty = problem, True

    @property
    def caption(self) -> str | None:
        return self._caption

    def handle(self, event: pygame.event.Event) -> None:
        """A pygame event: the top overlay first, then the host keys."""
        if event.type == pygame.QUIT:
            self._window_closed()
            return
        if event.type in REDRAW_EVENTS:
            self._dirty = True  # the window was uncovered, restored or resized
            self.damage.whole()  # and may have lost what it showed
            return
        if event.type != pygame.KEYDOWN:
            return
        self._dirty = True
        if self.tutorial is not None and self.tutorial.handle(event):
            self._end_lesson(cut_short=True)  # skipped: back to the party at once
            if event.key not in LESSON_PASSES_ON:
                return
        if self.overlays and self.overlays[-1].handle(event):
            return
        self._host_key(event)

    def _host_key(self, event: pygame.event.Event) -> None:
        key = event.key
        if key in (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER):
            if self._outcome_still_playing():
                self.notify(self.props.t("reveal_still_on"))
            else:
                self._call(self.session.host_next)
        elif key == pygame.K_b:
            if self._call(self.session.add_bot):
                self.notify(self.props.t("bot_added"))
        elif key == pygame.K_k:
            self._push(KickOverlay(self.props, self._kickable(), self._ask_kick, self._pop))
        elif key == pygame.K_r:
            if self.stage.phase != "turns":
                self.notify(self.props.t("misdeal_when"))
            else:
                self._call(self.session.misdeal)
        elif key == pygame.K_s:
            self.skip_current()
        elif key == pygame.K_t:
            self.start_tutorial()
        elif key == pygame.K_n and callable(getattr(self.session, "new_evening", None)):
            self._push(
                ConfirmOverlay(
                    self.props,
                    evening.t(self.props, "new_evening_question"),
                    self.new_evening,
                    self._pop,
                )
            )
        elif key == pygame.K_m:
            self.toggle_mute()
        elif key in MUSIC_DOWN_KEYS:
            self.change_music_volume(-MUSIC_STEP)
        elif key in MUSIC_UP_KEYS:
            self.change_music_volume(MUSIC_STEP)
        elif key in FULLSCREEN_KEYS:
            self.toggle_fullscreen()
        elif key == pygame.K_l:
            self.next_language()
        elif key in (pygame.K_h, pygame.K_QUESTION) or event.dict.get("unicode") == "?":
            self._push(HelpOverlay(self.props, self._pop))
        elif key in (pygame.K_ESCAPE, pygame.K_q):
            self._ask_quit()

    def _outcome_still_playing(self) -> bool:
        """The round is over but the TV is still turning its cards: Space waits, or it would
        deal the next round (or open the next game) before the room has seen the lowest card
        (round 42's play-test). Once every card is up and the lowest is marked, it deals, as
        the dealer's phone may then (round 43's check: it waited for the lives' animations
        too, under "… or press Space")."""
        latest = self.stage.latest
        if latest is None or latest["phase"] not in ("reveal", "game_over"):
            return False
        beat = self.stage.beat
        if beat is not None and beat.event["type"] == "reveal":
            return beat.elapsed < reveal_marked_at(len(beat.event["cards"]))
        return any(waiting.kind == "reveal" for waiting in self.stage.queue)

    def _call(self, action: Callable[..., Any], *args: Any) -> bool:
        """Run a host action; a refusal becomes a notice on screen and changes nothing."""
        try:
            action(*args)
        except REFUSALS as error:
            log.info("host key refused: %s", error)
            self.notify(self.props.t("refused"))
            return False
        return True

    def skip_current(self) -> None:
        """S: whoever has the turn keeps, if they are away or have had it 10 s (as the VIP's
        skip); else a notice says when it works, and nothing changes."""
        skip = getattr(self.session, "skip_current", None)
        if self.stage.phase != "turns" or not callable(skip):
            self.notify(self.props.t("skip_when"))
            return
        try:
            skip()
        except REFUSALS as error:
            log.info("host key S refused: %s", error)
            self.notify(self.props.t("skip_when"))

    def _kickable(self) -> list[SeatShow]:
        """The kick list's players: the ring's seats in their order, then the bench's
        latecomers (``host/tv/bench.py``), numbered as the host sees them on the TV."""
        return ring(self.stage) + benched(self.stage)

    def _ask_kick(self, seat: SeatShow) -> None:
        question = self.props.t("kick_question", name=seat.name)

        def kick() -> None:
            self._call(self.session.kick, seat.id)

        self._push(ConfirmOverlay(self.props, question, kick, self._pop))

    def _push(self, overlay: Scene) -> None:
        self.overlays.append(overlay)
        self._dirty = True

    def _pop(self) -> None:
        if self.overlays:
            self.overlays.pop()
        self._dirty = True

    # -- the evening (issue 14) ------------------------------------------------------------
    def start_tutorial(self) -> bool:
        """T (or the VIP through ``session.ask_tutorial``): "How to play", from the lobby only."""
        if self.stage.phase != "lobby":
            self.notify(evening.t(self.props, "tutorial_lobby_only"))
            return False
        say = getattr(self.announcer, "say", None)
        self._lesson_lines, self._hushed = set(), set()

        def tell(line: str) -> None:
            self._lesson_lines.add(line)
            if callable(say):
                say(line)

        guests = [seat.name for seat in self.stage.players]
        self.tutorial = Tutorial(self.props, tell, guests)
        self._dirty = True
        return True

    def _end_lesson(self, *, cut_short: bool) -> None:
        """The lesson ("How to play") is over. Cut short (a key, a new evening, a game
        started), its lines go unsaid and its caption off the bar: round 41's play-test
        skipped it, and the bar still read "How to play Cuckoo: …" over the lobby."""
        self.tutorial = None
        self._dirty = True
        if not cut_short:
            return
        withdraw = getattr(self.announcer, "withdraw", None)
        if callable(withdraw):
            for line in self._lesson_lines:
                withdraw(line)
        self._hushed = set(self._lesson_lines)

    def new_evening(self) -> None:
        """The host's N, answered yes: the session's new evening, told at once on the TV."""
        if self._call(self.session.new_evening):  # type: ignore[attr-defined]
            self._evenings_begun = getattr(self.session, "evenings_begun", 0)
            self._evening_begun()

    def _follow_evenings(self) -> None:
        """A new evening asked on the VIP's phone (and confirmed there) is told on the TV too:
        round 40's play-test saw nothing on the TV after it, the lesson playing on."""
        begun = getattr(self.session, "evenings_begun", 0)
        if begun != self._evenings_begun:
            self._evenings_begun = begun
            self._evening_begun()

    def _evening_begun(self) -> None:
        """A new evening ends "How to play" (the lobby shows tonight's standings gone) and
        says so in the caption bar."""
        if self.tutorial is not None:
            self._end_lesson(cut_short=True)
        self.notify(evening.t(self.props, "new_evening_done"))

    def _reactions(self) -> list[Any]:
        desk = getattr(self.session, "reactions", None)
        return list(desk.on_screen()) if desk is not None else []

    # -- host switches ---------------------------------------------------------------------
    def quit(self) -> None:
        self.running = False

    def _ask_quit(self) -> None:
        """Q and Esc: "Quit the party?" (Enter: yes, Esc: no)."""
        self._quit_question = ConfirmOverlay(
            self.props, self.props.t("quit_question"), self.quit, self._pop
        )
        self._push(self._quit_question)

    def _window_closed(self) -> None:
        """The window's close button, or Alt+F4: asks as Q does while anyone is seated.

        Why: round 44's play-test hit Alt+F4 mid-round and the party was gone at once (saved,
        but every phone stalled until someone ran the host again); the close button is easy to
        hit while taking the window off full screen or moving it to the TV. With nobody seated
        there is nothing to lose: it closes. Closing again while the question is up quits, as
        a host who means it expects."""
        asking = bool(self.overlays) and self.overlays[-1] is self._quit_question
        if not self.stage.players or asking:
            self.quit()
        else:
            self._ask_quit()

    def toggle_mute(self) -> None:
        """M: with sounds, cycle voice and sound → sound only → silent; else voice on/off."""
        if self._no_sound_output():
            return
        if self.sounds is not None:
            modes = SOUND_MODES
            self.set_sound_mode(modes[(modes.index(self.sound_mode) + 1) % len(modes)])
            return
        if self.announcer is None:
            return
        muted = not self.announcer.muted
        self.announcer.set_muted(muted)
        self._tell_session(voice_muted=muted)
        self.notify(self.props.t("muted" if muted else "unmuted"))

    def _no_sound_output(self) -> bool:
        """True, and said on screen, when this computer has no sound output: M and -/= would
        otherwise seem to switch sound on (round 41's play-test)."""
        if not self.sound_output:
            self.notify(self.props.catalog.t(self.props.lang, "doctor.fallback_no_sound"))
        return not self.sound_output

    @property
    def sound_mode(self) -> str:
        """``all`` (voice and sound), ``sound_only`` or ``silent``."""
        if self.sounds is not None and self.sounds.muted:
            return "silent"
        return "sound_only" if self.announcer is not None and self.announcer.muted else "all"

    def set_sound_mode(self, mode: str) -> None:
        """M's modes. The voice's switch is mirrored in the session, as without sounds: round
        42's play-test pressed M (sound only), then - or =, and the volume's change brought
        back the session's old voice setting ("Voice on", ``VipHooks._apply``)."""
        if self.announcer is not None:
            self.announcer.set_muted(mode != "all")
            self._tell_session(voice_muted=mode != "all")
        if self.sounds is not None:
            self.sounds.set_muted(mode == "silent")
        self.notify(self.props.catalog.t(self.props.lang, f"sound.mode_{mode}"))

    def change_music_volume(self, step: float) -> None:
        """- and =: the music volume, in tenths, shown on screen."""
        if self._no_sound_output():
            return
        if self.sounds is None:
            return
        volume = self.sounds.set_music_volume(self.sounds.music_volume + step)
        self._tell_session(music_volume=round(volume * 100))
        self.notify(
            self.props.catalog.t(self.props.lang, "sound.music_volume", percent=round(volume * 100))
        )

    def toggle_fullscreen(self) -> None:
        self.fullscreen = not self.fullscreen
        self.damage.whole()
        self._dirty = True
        if self.screen is not None:
            try:
                self.screen.set_fullscreen(self.fullscreen)
            except pygame.error as error:  # a driver without full screen: keep the flag, say why
                log.info("fullscreen not available: %s", error)

    def next_language(self) -> None:
        """L: English → Français → Italiano → …; applies to the TV and the voice at once."""
        lang = LANGUAGES[(LANGUAGES.index(self.props.lang) + 1) % len(LANGUAGES)]
        self.set_language(lang)

    def set_language(self, lang: str) -> None:
        self._tell_session(language=lang)
        self.props.lang = lang
        if self.announcer is not None:
            self.announcer.set_language(lang)
        if self.on_language is not None:
            try:
                self.on_language(lang)
            except OSError as error:  # a read-only disk must not stop the party
                log.warning("could not remember the language: %s", error)
        self.poll_caption()
        self.notify(self.props.t("language_now", language=self.props.language_name))

    def _tell_session(self, **settings: Any) -> None:
        """The TV's own switches (L, M) are mirrored in the session's view for the VIP."""
        mirror = getattr(self.session, "set_tv_settings", None)
        if callable(mirror):
            mirror(**settings)

    def notify(self, text: str) -> None:
        self._toast = (text, self.stage.time + TOAST_SECONDS)
        self._dirty = True

    # -- time and drawing ------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        """Something moves: run at 60 fps; otherwise idle at a low rate."""
        stage = self.stage
        moving = stage.busy or stage.bubbles_fading
        return moving or self._toast is not None or self.tutorial is not None

    @property
    def needs_render(self) -> bool:
        """Something new to show: an update, a key, a caption — or the animation playing
        moved (``host/tv/motion.py``): a still frame is neither drawn nor presented again."""
        return self._dirty or self.stage.changed or pose(self.stage) != self._drawn_pose

    def base_scene(self) -> Scene:
        if self.tutorial is not None:
            return self.tutorial
        if (
            self.stage.phase == "game_over"
            and not self.stage.busy
            and not self.stage.winner_board_up
            and evening.standings_of(self.stage)
        ):
            return self.standings  # between games, once the winners were cheered
        return self.lobby if self.stage.phase == "lobby" else self.table

    def play_frame(
        self,
        surface: pygame.Surface | None = None,
        *,
        steps: int = 1,
        screen: Screen | None = None,
    ) -> bool:
        """One frame as the party plays it: ``steps`` fixed steps of game time, the frame drawn
        on ``surface`` if anything changed and shown on ``screen``, then the session told how
        far the TV has played. Returns whether a frame was drawn.

        Why one method: with the TV leading, phones wait for the TV's beats, and they learn a
        beat only from ``report_shown`` (see ``_shown``). A driver that stepped the TV and
        forgot to report left every phone waiting for the pacer's stall release, seconds
        later. ``run``, the screenshots and the tests play frames through here (the frame
        benchmarks time its parts one by one and report themselves). Without a
        ``surface`` nothing is drawn (a test or a script that only needs the TV's time to
        pass); what the stage began is still reported, as a drawn frame would be.
        """
        for _ in range(steps):
            self.step(FRAME_SECONDS)
        drawn = False
        if surface is not None and self.needs_render:
            self.render(surface)
            if screen is not None:
                screen.present(self.damage.take())
            drawn = True
        self.report_shown()  # the beat is on screen: now the phones follow it
        return drawn

    def step(self, dt: float) -> None:
        """Advance game time by ``dt`` seconds. Drivers call ``play_frame``, which also tells
        the session what the TV has shown; ``step`` alone leaves the phones waiting."""
        self.stage.update(dt)
        if self.stage.presume_connected and self.stage.time >= RECONNECT_GRACE_SECONDS:
            self.stage.stop_presuming()
        asks = getattr(self.session, "tutorial_asks", 0)
        if asks != self._tutorial_asks:
            self._tutorial_asks = asks
            self.start_tutorial()
        self._follow_evenings()
        if self.tutorial is not None:
            self.tutorial.update(dt)
            if self.tutorial.done:
                self._end_lesson(cut_short=False)
            elif self.stage.phase != "lobby":  # a real game takes over
                self._end_lesson(cut_short=True)
            self._dirty = True
        self._follow_join_address()
        shown = bool(self._reactions())
        if shown or self._had_reactions:  # one more frame once the last one has gone
            self._dirty = True
        self._had_reactions = shown
        # the VIP's TV settings, countdowns (none while a restarted host's phones come back)
        if self.vip_hooks.step(self, self.stage.latest, quiet=self.stage.presume_connected):
            self._dirty = True
        # Whether S would skip now (the header says "S: skip"); asked only during turns.
        ready: Callable[[], bool] | None = getattr(self.session, "skip_ready", None)
        turns = self.stage.phase == "turns" and not self.stage.presume_connected
        skip = turns and callable(ready) and ready()
        if skip != self.stage.skip_ready:
            self.stage.skip_ready = skip
            self._dirty = True
        if self._cues is not None:
            self._cues.follow()
        self._follow_music()
        for overlay in self.overlays:
            overlay.update(dt)
        if self._toast is not None:
            self._dirty = True
            if self.stage.time >= self._toast[1]:
                self._toast = None

    def _follow_join_address(self) -> None:
        """A new join address shows at once: in the lobby's QR and address, and in the
        caption bar for the guests already at the table (their phones lost the old one)."""
        link = self._join()
        if link == self._link:
            return
        self._link = link
        self.props.join_url, self.props.join_offline = link.url, link.offline
        self.notify(
            self.props.t("network_lost")
            if link.offline
            else self.props.t("join_moved", url=link.url)
        )

    def _follow_music(self) -> None:
        """The lobby loop while guests join, the quieter game loop from the first deal."""
        loop = "lobby" if self.stage.phase == "lobby" else "game"
        if self.sounds is not None and loop != self._music:
            self._music = loop
            self.sounds.play_music(loop)

    def render(self, surface: pygame.Surface) -> None:
        """Paint the whole frame on the 1920×1080 canvas, layer by layer: a layer that fails is
        logged once and skipped, the others are still drawn (issue 15: data never ends the TV)."""
        self.phones_first.new_frame()
        self._layer_failed = False
        scene = self.base_scene()
        self.table.countdown_up = self.vip_hooks.countdown is not None
        self._guarded(scene.draw, surface)
        if scene is self.lobby:
            self._guarded(
                lambda target: evening.draw_lobby_standings(target, self.props, self.stage), surface
            )
        reactions = self._reactions() if self.tutorial is None else []
        if self.tutorial is None:
            on_table = scene is self.table and bool(reactions)

            def react(target: pygame.Surface) -> None:
                # A latecomer's reaction goes by their name on the table's bench.
                bench = self.table.bench(self.table.seating()[0]) if on_table else None
                evening.draw_reactions(target, self.props, self.stage, reactions, bench)

            self._guarded(react, surface)
        slot = self.table.turn_slot() if scene is self.table else None
        self._guarded(
            lambda target: self.vip_hooks.draw(target, self.props, self.stage.name_of, slot),
            surface,
        )
        problem = self._save_problem
        self._guarded(lambda target: draw_save_warning(target, self.props, problem), surface)
        caption = self.tutorial.caption if self.tutorial is not None else self._caption
        notice = self._toast[0] if self._toast is not None else None
        self._guarded(lambda target: draw_caption_bar(target, self.props, caption, notice), surface)
        for overlay in self.overlays:
            self._guarded(overlay.draw, surface)
        self._count_damage(scene, bool(reactions or problem), (caption, notice, self.props.lang))
        self.stage.changed = False
        self._dirty = False
        self._drawn_pose = pose(self.stage)
        self.frames_rendered += 1

    def _count_damage(self, scene: Scene, over_anywhere: bool, bar: Hashable) -> None:
        """Tell ``self.damage`` where this frame may differ from the one before: a table frame
        copied from its still layer, with nothing drawn over it that does not say where, is
        the layer's changes, what the table painted over it and the caption bar if its words
        changed (it is opaque and painted whole every frame); any other frame is whole."""
        changed: list[pygame.Rect] | None = None
        over = self.table.over if scene is self.table else None
        if (
            over_anywhere
            or self.overlays
            or self.vip_hooks.countdown is not None
            or self._layer_failed
        ):
            over = None
        if over is not None:
            self.table.canvas_untouched()
            changed = list(self.table.still.changed)
            if bar != self._bar_drawn:
                changed.append(caption_bar_rect())
        self._bar_drawn = bar
        self.damage.frame(changed, over)

    def _guarded(self, draw: Callable[[pygame.Surface], object], surface: pygame.Surface) -> None:
        self.phones_first.give_way()
        try:
            draw(surface)
        except Exception as error:  # one broken element must not end the party
            self._layer_failed = True
            signature = f"{type(error).__name__}: {error}"
            if signature not in self._draw_failures:
                if len(self._draw_failures) < 100:
                    self._draw_failures.add(signature)
                log.exception("drawing failed (skipped this layer): %s", signature)

    def run(
        self,
        surface: pygame.Surface | None = None,
        max_frames: int | None = None,
        clock: Callable[[], float] = time.perf_counter,
        wait: Callable[[int], object] | None = None,
        *,
        screen: Screen | None = None,
    ) -> None:
        """The fixed-timestep loop: 60 fps while anything moves (fewer while the host cannot
        keep up, ``host/tv/frame_rate.py``), ``IDLE_FPS`` when idle.

        Draws on ``surface``, or on the ``screen``'s canvas, which is then shown in its window
        (and F toggles its full screen). ``clock`` (seconds) and ``wait`` (called with the
        frame rate wanted, sleeps) are injectable so tests can run it with a fake clock and no
        sleeping.
        """
        if screen is not None:
            self.screen = screen
            surface = screen.canvas
        if surface is None:
            raise RuntimeError("no surface to draw on: open the window first")
        tick = wait or pygame.time.Clock().tick
        last, backlog, loops, paced = clock(), 0.0, 0, False
        while self.running and (max_frames is None or loops < max_frames):
            for event in pygame.event.get() if pygame.display.get_init() else []:
                self.handle(event)
            self.pump_updates()
            self.poll_caption()
            self.poll_save_problem()
            now = clock()
            if paced:  # the last turn was a frame of something moving: was it on time?
                self.frame_rate.turn(now, now - last)
            backlog += min(now - last, 0.25)
            last = now
            steps = 0
            while backlog >= FRAME_SECONDS:
                steps += 1
                backlog -= FRAME_SECONDS
            self.play_frame(surface, steps=steps, screen=screen)
            paced = self.busy
            if paced or wait is not None:
                tick(self.frame_rate.fps if paced else IDLE_FPS)
            else:
                self._idle_wait(1.0 / IDLE_FPS)
            loops += 1

    def _idle_wait(self, seconds: float) -> None:
        """Idle: sleep on the subscription, not the clock, so a tap shows on the very next frame
        instead of up to 1/IDLE_FPS later (keys still answer within ``seconds``)."""
        started = time.perf_counter()
        update = self.subscription.get(seconds)
        if update is not None:
            self.stage.receive(update.view, list(update.events))
            self.vip_hooks.events(self, update.events)
            return
        left = seconds - (time.perf_counter() - started)
        if left > 0.001:  # a subscription that does not block (closed, or a stand-in)
            time.sleep(left)


def open_window(fullscreen: bool, title: str) -> Screen:
    """The real window: the 1920×1080 canvas scaled to fit the screen (``host.tv.screen``)."""
    return Screen(title, fullscreen=fullscreen)
