"""The ``cuckoo-party`` command: flags of PHONE_API.md plus the host's own, and sub-commands.

Only argument parsing and dispatch live here; each sub-command's work is in its own module,
imported lazily so ``cuckoo-party simulate`` never loads pygame or Flask.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from host.i18n import LANGUAGES, Catalog, normalize_language
from host.last_party import EVENING_HOURS
from host.logs import configure_logging, log_path_for
from host.relaunch import relaunch_with_flat_memory


def _add_party_flags(parser: argparse.ArgumentParser, _: Callable[..., str]) -> None:
    parser.add_argument("--headless", action="store_true", help=_("help.headless"))
    parser.add_argument("--bind", default="0.0.0.0", help=_("help.bind"))
    parser.add_argument("--port", type=int, default=8000, help=_("help.port"))
    parser.add_argument("--room", default=None, help=_("help.room"))
    parser.add_argument("--seed", type=int, default=None, help=_("help.seed"))
    parser.add_argument("--state", default=None, help=_("help.state"))
    saved = parser.add_mutually_exclusive_group()
    saved.add_argument("--fresh", action="store_true", help=_("help.fresh"))
    saved.add_argument(
        "--resume", action="store_true", help=_("help.resume", hours=f"{EVENING_HOURS:g}")
    )
    parser.add_argument("--bots", type=int, default=0, help=_("help.bots"))
    parser.add_argument("--bot-delay", type=float, default=1.5, help=_("help.bot_delay"))
    parser.add_argument("--bot-strategy", default="smart", help=_("help.bot_strategy"))
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help=_("help.lang"))
    parser.add_argument("--mute", action="store_true", help=_("help.mute"))
    parser.add_argument("--no-music", action="store_true", help=_("sound.help_no_music"))
    parser.add_argument("--fullscreen", action="store_true", help=_("help.fullscreen"))
    parser.add_argument("--house-rules", default="", help=_("help.house_rules"))
    parser.add_argument("--rapid-seconds", type=int, default=10, help=_("help.rapid_seconds"))
    parser.add_argument("--turn-timeout", type=float, default=90.0, help=_("help.turn_timeout"))
    parser.add_argument("--away-seconds", type=float, default=15.0, help=_("vip.help_away_seconds"))
    parser.add_argument("--public-url", default=None, help=_("help.public_url"))


def help_language(argv: Sequence[str] | None) -> str:
    """The language of ``--help``: ``--lang`` if given on the command line, else the system's."""
    args = list(sys.argv[1:] if argv is None else argv)
    for index, arg in enumerate(args):
        if arg == "--lang" and index + 1 < len(args):
            return normalize_language(args[index + 1])
        if arg.startswith("--lang="):
            return normalize_language(arg.partition("=")[2])
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if os.environ.get(variable):
            return normalize_language(os.environ[variable])
    return "en"


def build_parser(lang: str = "en", catalog: Catalog | None = None) -> argparse.ArgumentParser:
    """Every flag and sub-command, with help texts from the catalog in ``lang``."""
    _ = (catalog or Catalog.load()).translator(lang)
    parser = argparse.ArgumentParser(
        prog="cuckoo-party",
        description=_("help.description"),
    )
    _add_party_flags(parser, _)
    parser.add_argument("--verbose", action="store_true", help=_("logs.help_verbose"))
    commands = parser.add_subparsers(dest="command")

    sim = commands.add_parser("simulate", help=_("help.simulate"))
    sim.add_argument("--games", type=int, default=1000, help=_("help.games"))
    sim.add_argument("--players", type=int, default=5, help=_("help.players"))
    sim.add_argument("--strategies", default="simple,smart", help=_("help.strategies"))
    sim.add_argument(
        "--house-rules", dest="sim_house_rules", default="", help=_("help.house_rules")
    )
    sim.add_argument("--seed", dest="sim_seed", type=int, default=1, help=_("help.seed"))
    sim.add_argument("--no-progress", action="store_true", help=_("help.no_progress"))

    shots = commands.add_parser("screenshots", help=_("help.screenshots"))
    shots.add_argument("directory", help=_("help.directory"))
    shots.add_argument(
        "--lang", dest="shots_lang", choices=LANGUAGES, default=None, help=_("help.lang")
    )

    voice = commands.add_parser("test-voice", help=_("help.test_voice"))
    voice.add_argument(
        "--lang", dest="voice_lang", choices=LANGUAGES, default=None, help=_("help.lang")
    )
    voice.add_argument("--out", default=None, help=_("help.out"))

    doctor = commands.add_parser("doctor", help=_("help.doctor"))
    doctor.add_argument(
        "--lang", dest="doctor_lang", choices=LANGUAGES, default=None, help=_("help.lang")
    )
    doctor.add_argument("--speak", action="store_true", help=_("help.speak"))
    # The party's own --bind/--port/--state after "doctor" too (round 45's play-test: a host
    # typed "cuckoo-party doctor --port 6150" and got a usage dump); before it, as ever.
    doctor.add_argument("--bind", default=argparse.SUPPRESS, help=_("help.bind"))
    doctor.add_argument("--port", type=int, default=argparse.SUPPRESS, help=_("help.port"))
    doctor.add_argument("--state", default=argparse.SUPPRESS, help=_("help.state"))

    sounds = commands.add_parser("test-sounds", help=_("sound.help_test_sounds"))
    sounds.add_argument(
        "--out", dest="sounds_out", default=None, metavar="DIR", help=_("sound.help_out_dir")
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser(help_language(argv)).parse_args(argv)
    configure_logging(verbose=args.verbose, log_file=_party_log_file(args))
    given = list(sys.argv[1:] if argv is None else argv)
    # Whether --lang was typed: a TV language chosen with L is kept across restarts otherwise.
    args.lang_given = any(a == "--lang" or a.startswith("--lang=") for a in given)
    if args.command == "simulate":
        from host.simulate import run_simulation_command

        return run_simulation_command(args)
    if args.command == "screenshots":
        from host.tv.screenshots import run_screenshots_command

        return run_screenshots_command(args)
    if args.command == "doctor":
        from host.doctor import run_doctor_command

        return run_doctor_command(args)
    if args.command == "test-voice":
        from host.voice.cli import run_test_voice_command

        return run_test_voice_command(args)
    if args.command == "test-sounds":
        from host.audio.cli import run_test_sounds_command

        return run_test_sounds_command(args)
    from host.app import run_party

    return run_party(args)


def _party_log_file(args: argparse.Namespace) -> Path | None:
    """A party logs beside its state file; the sub-commands only to the console."""
    if args.command is not None:
        return None
    from host.persistence import default_state_path

    return log_path_for(Path(args.state) if args.state else default_state_path())


def launch(argv: Sequence[str] | None = None) -> NoReturn:
    """What the ``cuckoo-party`` command runs: ``main`` in a process whose C allocator keeps
    its memory flat (``host.relaunch``; this may start the same command once more, at once).
    Tests call ``main`` itself, which never replaces the process it runs in."""
    relaunch_with_flat_memory()
    sys.exit(main(argv))


if __name__ == "__main__":  # pragma: no cover
    launch()
