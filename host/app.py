"""The composition root of a party: catalog, session, web server, bots, voice, then the TV.

Why a root: each part is built here, in order, from the parsed flags, and torn down in reverse in
``finally`` — so Ctrl-C or SIGTERM always saves the game and the process exits within 2 seconds.
The TV and the voice are imported lazily: a headless host needs neither pygame nor a sound card.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, TextIO

from host.bot_runner import BotRunner
from host.i18n import Catalog
from host.join_address import JoinAddress, JoinLink, fixed
from host.last_party import put_aside_if_old
from host.logs import log_path_for
from host.network import BackgroundServer, public_join_url
from host.one_party import PartyLock, PartyRunning, RunningParty
from host.persistence import CorruptSave, StateUnwritable, default_state_path
from host.rules import EventDict, HouseRules, UnknownHouseRule, View
from host.rules.bots import STRATEGIES
from host.session import Session
from host.session_controls import TvSettings
from host.subscriptions import Subscription

if TYPE_CHECKING:
    from host.tv.theme import Theme
    from host.voice import Announcer

log = logging.getLogger(__name__)
#: The contract's start-up line is in English, for the programs that read it (test clients).
CONTRACT_LANGUAGE = "en"


def run_party(args: argparse.Namespace, *, out: TextIO | None = None) -> int:
    """Run the party until Ctrl-C, SIGTERM or the TV window closes; returns the exit status."""
    out = out or sys.stdout
    catalog = Catalog.load()
    lang: str = args.lang

    def say(key: str, stream: TextIO = out, **params: Any) -> None:
        print(catalog.t(lang, key, **params), file=stream, flush=True)

    try:
        options = HouseRules.parse(args.house_rules, rapid_seconds=args.rapid_seconds)
    except UnknownHouseRule as error:
        say("cli.bad_house_rules", sys.stderr, detail=str(error))
        return 2
    if args.bot_strategy not in STRATEGIES or not 0 <= args.bots < options.max_players:
        say(
            "cli.bad_bots",
            sys.stderr,
            strategies=", ".join(STRATEGIES),
            most=options.max_players - 1,
        )
        return 2
    state_path = Path(args.state) if args.state else default_state_path()
    # Before anything touches the save (even --fresh, even putting it aside): one party a save.
    try:
        held = PartyLock.take(state_path)
    except PartyRunning as refusal:
        _refuse_second_party(refusal.running, say)
        return 2
    with contextlib.closing(held):  # and the OS lets go of it, however the process ends
        return _run_on_held_save(args, options, state_path, held, catalog, say, out)


def _run_on_held_save(
    args: argparse.Namespace,
    options: HouseRules,
    state_path: Path,
    held: PartyLock,
    catalog: Catalog,
    say: Callable[..., None],
    out: TextIO,
) -> int:
    """The party itself, in the process that holds its save's lock (``host/one_party.py``)."""
    lang: str = args.lang
    if not args.fresh and not args.resume:
        _put_aside_another_evening(state_path, say)
    try:
        session = Session(
            options,
            seed=args.seed,
            room=args.room,
            state_path=state_path,
            fresh=args.fresh,
            turn_timeout=args.turn_timeout,
            bot_delay=args.bot_delay,
            bots=args.bots,
            bot_strategy=args.bot_strategy,
            presence=True,
            away_seconds=args.away_seconds,
            tv=TvSettings(lang, bool(args.mute)),
        )
    except StateUnwritable as error:
        say("safety.state_unwritable", sys.stderr, path=str(state_path), detail=str(error))
        return 2
    except (CorruptSave, KeyError, TypeError, ValueError) as error:
        # The host reads what is wrong in their language; the check's own words (a field, a
        # record number) go to the log, for whoever looks into it.
        log.info("the saved game %s cannot be read: %s", state_path, error)
        problem = error.problem if isinstance(error, CorruptSave) else "damaged"
        say(
            "cli.bad_state",
            sys.stderr,
            path=str(state_path),
            problem=catalog.t(lang, f"cli.save_{problem}"),
            log=str(log_path_for(state_path)),
        )
        return 2

    interrupted = False
    try:
        with contextlib.ExitStack() as parts, _terminate_as_interrupt():
            parts.callback(session.close)  # the final save, even if start-up fails half-way
            _serve(parts, args, session, catalog, options, say, out, held)
    except KeyboardInterrupt:
        interrupted = True
    _farewell(session, say)
    if interrupted and threading.current_thread() is threading.main_thread():
        _leave_now(out)
    return 0


def _refuse_second_party(running: RunningParty, say: Callable[..., None]) -> None:
    """One line for a host who started the party twice: it runs already, and what to do."""
    if running.join_url is None:
        say("cli.already_running", sys.stderr)
    else:
        say("cli.already_running_at", sys.stderr, url=running.join_url)


def _put_aside_another_evening(state_path: Path, say: Callable[..., None]) -> None:
    """Last week's save is not tonight's party (``host/last_party.py``): rename it aside and
    say where, so the host can still carry it on with ``--resume --state``."""
    try:
        aside = put_aside_if_old(state_path)
    except OSError as error:  # cannot rename: resume it, as before, and say why
        log.warning("could not put the old save %s aside: %s", state_path, error)
        return
    if aside is not None:
        log.info("the save of %s was put aside in %s", aside.saved_when(), aside.path)
        say("cli.put_aside", when=aside.saved_when(), path=str(aside.path))


def _farewell(session: Session, say: Callable[..., None]) -> None:
    """The last line: "saved", or — honestly — why the last save failed (issue 15)."""
    if session.save_problem is None:
        say("cli.saved_and_exiting")
    else:
        say(
            "safety.exit_unsaved",
            sys.stderr,
            path=str(session.state_path),
            detail=session.save_problem,
        )


def _leave_now(out: TextIO) -> None:
    """After Ctrl-C or SIGTERM, and once everything is saved and stopped, end the process at once.

    Why: the interpreter's own teardown (dozens of idle server threads, pygame, the speech
    engine, every module) can take over a second on a busy machine, and the host promises to be
    gone within 2 seconds of the signal. Nothing is left to save or flush but the streams.
    """
    for stream in (out, sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    logging.shutdown()
    os._exit(0)


def _serve(
    parts: contextlib.ExitStack,
    args: argparse.Namespace,
    session: Session,
    catalog: Catalog,
    options: HouseRules,
    say: Callable[..., None],
    out: TextIO,
    held: PartyLock,
) -> None:
    """Start the server, bots and voice (each registered for teardown), then wait or run the TV."""
    lang: str = args.lang
    _fall_back_quietly(args, say)
    if session.resumed:
        say("cli.resumed", room=session.room, step=session.step)
    say("cli.state_file", path=str(session.state_path))
    if session.state_path is not None:
        say("logs.file", path=str(log_path_for(session.state_path)))
    from phone_web import create_app

    # With a TV, phones follow its pace from the very first join (issue 12): the lead is taken
    # before the server opens, the TV picks its stream up once its window is open.
    led = None if args.headless else session.lead()
    if led is not None:
        parts.callback(session.resign)
    theme = None if args.headless else _check_names_against_tv(session)
    server = BackgroundServer(create_app(session, catalog), args.bind, args.port).start()
    parts.callback(server.stop)
    if server.port != args.port and args.port != 0:
        say("cli.port_busy", busy=args.port, port=server.port)

    announce_join = _noted_in(held, join_announcer(catalog, lang, out))
    if args.public_url:
        join = fixed(public_join_url(args.public_url, session.room))
    else:
        address = JoinAddress(args.bind, server.port, session.room, on_change=announce_join)
        parts.callback(address.stop)
        join = address.start().current
    announce_join(join())

    runner = BotRunner(session, bot_delay=args.bot_delay)
    parts.callback(_stop_quietly, runner)
    runner.start()
    board = None if args.headless else _start_sound_board(args, catalog, lang, out)
    if board:
        parts.callback(_stop_quietly, board)
    announcer = _start_announcer(
        catalog, lang, muted=args.mute or args.headless, player=_voice_player(board, args.headless)
    )
    if announcer is not None:
        parts.callback(_stop_quietly, announcer)
        if not args.headless:
            _report_voice(announcer, out)
    if announcer is not None and args.headless:
        # With a TV, the TV feeds the voice as each beat plays (the TV leads, issue 12).
        captions = _caption_printer(catalog, lang, out)
        pump = _AnnouncerPump(session.subscribe(None, presence=False), announcer, captions)
        parts.callback(_stop_quietly, pump)
        pump.start()
    # Unwinding starts here: save and end every stream first, so the rest stops at once.
    parts.callback(session.close)
    parts.callback(_arm_exit_watchdog, lambda: _farewell(session, say))
    if args.headless:
        threading.Event().wait()  # until Ctrl-C / SIGTERM
    else:
        from host.tv import run_tv
        from host.tv.settings import load_language, settings_path, starting_language

        # The language chosen with L survives a restart, unless --lang says otherwise.
        settings = settings_path(session.state_path) if session.state_path else None
        saved = load_language(settings) if settings is not None else None
        tv_lang = starting_language(lang, bool(getattr(args, "lang_given", False)), saved)
        if announcer is not None and tv_lang != lang:
            announcer.set_language(tv_lang)
        session.set_tv_settings(language=tv_lang)  # the VIP's phone shows the TV's language
        run_tv(
            session,
            announcer,
            catalog,
            lang=tv_lang,
            fullscreen=args.fullscreen,
            join_url=join().url,
            join=join,
            house_rules=options.ids(),
            sounds=board or None,
            sound_output=board is not False and not getattr(args, "no_sound_output", False),
            settings=settings,
            led=led,
            theme=theme,
        )


def _check_names_against_tv(session: Session) -> Theme:
    """With a TV: its fonts, with the computer's fonts for Chinese, Japanese and Korean names
    (found once), and from now on the session refuses a name the TV cannot show with them
    (``host/tv/shown_names.py``). Before the server opens, so no join slips past the check."""
    from host.tv.fallback_fonts import find_fallback_fonts
    from host.tv.shown_names import TvLetters
    from host.tv.theme import Theme

    theme = Theme(fallbacks=find_fallback_fonts())
    session.check_names_with(TvLetters(theme))
    return theme


def join_announcer(catalog: Catalog, lang: str, out: TextIO) -> Callable[[JoinLink], None]:
    """What the console says of the join address, at start and again each time it moves
    (``host/join_address.py``): the line in the host's language; with no network, what to
    do as well.

    The contract's English line (``Join at …``, PHONE_API.md) comes first whenever a program
    may be reading: ``out`` is not a terminal (a test client's pipe, a log file). A person at
    a terminal who chose Italian reads only Italian (round 46: "Join at …" first, in English,
    on an Italian console); in English the two lines are one."""
    contract = lang == CONTRACT_LANGUAGE or not _read_by_a_person(out)

    def announce(link: JoinLink) -> None:
        if contract:
            print(catalog.t(CONTRACT_LANGUAGE, "cli.join_at", url=link.url), file=out, flush=True)
        if lang != CONTRACT_LANGUAGE:
            print(catalog.t(lang, "cli.join_at", url=link.url), file=out, flush=True)
        if link.offline:
            print(catalog.t(lang, "cli.no_network"), file=out, flush=True)

    return announce


def _read_by_a_person(out: TextIO) -> bool:
    """Is ``out`` a terminal (a person reads it), not a pipe or a file a program reads?"""
    try:
        return out.isatty()
    except (AttributeError, ValueError):  # a stand-in stream, or one already closed
        return False


def _noted_in(held: PartyLock, announce: Callable[[JoinLink], None]) -> Callable[[JoinLink], None]:
    """``announce``, and the address also kept in the save's lock file, so a second start on
    this save can tell the host where phones join this party (none while offline)."""

    def announce_and_note(link: JoinLink) -> None:
        announce(link)
        held.note_join(None if link.offline else link.url)

    return announce_and_note


def _fall_back_quietly(args: argparse.Namespace, say: Callable[..., None]) -> None:
    """No screen → headless, no sound → captions: one clear line each, not SDL's raw output.

    The mixer is left open when it works, so the voice starts without asking SDL again.
    """
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if args.headless:
        return
    from host.system import probe_audio, probe_display

    if not probe_display().available:
        say("doctor.fallback_headless")
        args.headless = True
        return
    if not args.mute and not probe_audio(keep_open=True).available:
        say("doctor.fallback_no_sound")
        args.mute = True
        args.no_sound_output = True  # the TV's M says so rather than "voice on"


def _arm_exit_watchdog(farewell: Callable[[], None], seconds: float = 1.6) -> None:
    """Shutting down must end within 2 s even if a part hangs; the game is saved by then."""

    def give_up() -> None:
        with contextlib.suppress(Exception):
            farewell()
        os._exit(0)

    timer = threading.Timer(seconds, give_up)
    timer.daemon = True
    timer.start()


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM behaves like Ctrl-C (KeyboardInterrupt in the main thread), so we save and exit."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: FrameType | None) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second signal must not cut the save
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _start_sound_board(args: argparse.Namespace, catalog: Catalog, lang: str, out: TextIO) -> Any:
    """Cues and music (issue 20), opened before the voice so both share one mixer; with no
    sound output, one clear line and a silent party (the captions carry on). ``False`` means
    "tried, no device"."""
    from host.audio import SoundBoard

    board = SoundBoard(music=not getattr(args, "no_music", False), muted=args.mute)
    problem = board.start()
    if problem is not None:
        print(catalog.t(lang, "sound.no_device", reason=problem), file=out, flush=True)
        return False
    return board


def _voice_player(board: Any, headless: bool) -> Any:
    """How the voice plays: ducking the board's music and effects, silently when the board
    found no sound output, or the voice's own default (None)."""
    if headless or board is None:
        return None
    from host.voice.playback import MixerPlayer, SilentPlayer

    return MixerPlayer(speech=board) if board else SilentPlayer()


def _start_announcer(
    catalog: Catalog, lang: str, *, muted: bool, player: Any = None
) -> Announcer | None:
    """The voice, if it starts; the party goes on without it otherwise."""
    from host.voice import Announcer

    try:
        announcer = Announcer(catalog, lang, muted=muted, player=player)
        announcer.start()
    except Exception:  # a broken sound setup must not stop the party
        log.exception("the announcer could not start")
        return None
    return announcer


def _report_voice(announcer: Announcer, out: TextIO) -> None:
    """One console line: the voice in use, or how to enable one (off the start-up path: the
    engine may take a moment to open and the QR code must be on screen at once)."""

    def report() -> None:
        with contextlib.suppress(Exception):
            print(announcer.voice_status(timeout=10.0), file=out, flush=True)

    threading.Thread(target=report, name="voice-status", daemon=True).start()


def _stop_quietly(part: Any) -> None:
    for name in ("stop", "close"):
        method: Callable[[], Any] | None = getattr(part, name, None)
        if callable(method):
            with contextlib.suppress(Exception):
                method()
            return


Captions = Callable[[list[EventDict], View], None]


def _caption_printer(catalog: Catalog, lang: str, out: TextIO) -> Captions:
    """Headless hosts print each public announcement as a caption line (same phrases as the TV)."""
    from host.voice import phrases_for

    translate = catalog.translator(lang)

    def print_captions(events: list[EventDict], view: View) -> None:
        for event in events:
            try:
                texts = phrases_for(event, view, translate)
            except Exception:  # the voice module refuses hidden or unknown events
                log.debug("no caption for %r", event["type"], exc_info=True)
                continue
            for text in texts:
                print(
                    catalog.t(lang, "cli.caption", room=view["room"], text=text),
                    file=out,
                    flush=True,
                )

    return print_captions


class _AnnouncerPump:
    """Feeds public updates to the announcer off the writer's thread; prints captions headless."""

    def __init__(
        self, subscription: Subscription, announcer: Announcer, captions: Captions | None
    ) -> None:
        self._subscription = subscription
        self._announcer = announcer
        self._captions = captions
        self._thread = threading.Thread(target=self._run, name="announcer-pump", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._subscription.close()
        if self._thread.is_alive():  # a signal may land before the thread ever started
            self._thread.join(1.0)

    def _run(self) -> None:
        while True:
            update = self._subscription.get(timeout=0.5)
            if update is None:
                if self._subscription.closed:
                    return
                continue
            if not update.events:
                continue
            try:
                self._announcer.announce(update.events, update.view)
                if self._captions is not None:
                    self._captions(update.events, update.view)
            except Exception:  # one bad phrase must not silence the rest
                log.exception("announcement failed")
