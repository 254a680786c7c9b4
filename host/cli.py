"""The ``cuckoo-party`` command: flags of PHONE_API.md plus the host's own, and sub-commands.

Only argument parsing and dispatch live here; each sub-command's work is in its own module,
imported lazily so ``cuckoo-party simulate`` never loads pygame or Flask.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from host.i18n import LANGUAGES


def _add_party_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--headless", action="store_true",
                        help="no window and no sound device: server, game, bots and captions only")
    parser.add_argument("--bind", default="0.0.0.0", help="address to listen on (default: all)")
    parser.add_argument("--port", type=int, default=8000,
                        help="port to listen on (default 8000, or the next free one)")
    parser.add_argument("--room", default=None, help="fixed room code (default: 4 random letters)")
    parser.add_argument("--seed", type=int, default=None, help="make every random choice reproducible")
    parser.add_argument("--state", default=None,
                        help="where the game is saved after every change (resumed on start)")
    parser.add_argument("--fresh", action="store_true", help="ignore a saved game and start over")
    parser.add_argument("--bots", type=int, default=0, help="number of computer players to seat")
    parser.add_argument("--bot-delay", type=float, default=1.5,
                        help="seconds a computer player waits before acting")
    parser.add_argument("--bot-strategy", default="smart", help="strategy of added computer players")
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help="TV and voice language")
    parser.add_argument("--mute", action="store_true", help="captions only, no speech")
    parser.add_argument("--fullscreen", action="store_true", help="start the TV full screen")
    parser.add_argument("--house-rules", default="",
                        help="comma list of house rules, e.g. H1,H3 or five_lives,double_cut")
    parser.add_argument("--rapid-seconds", type=int, default=10, help="H4 time limit per turn")
    parser.add_argument("--turn-timeout", type=float, default=90.0,
                        help="seconds before an idle player keeps automatically (0 = never)")
    parser.add_argument("--public-url", default=None,
                        help="override the address shown in the QR code (e.g. http://10.0.0.5:8000)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cuckoo-party",
        description="Host a party of Cuckoo (Chase the Ace): the TV, the voice and the phones.",
    )
    _add_party_flags(parser)
    commands = parser.add_subparsers(dest="command")

    sim = commands.add_parser("simulate", help="play many games between computer strategies")
    sim.add_argument("--games", type=int, default=1000)
    sim.add_argument("--players", type=int, default=5)
    sim.add_argument("--strategies", default="simple,smart",
                     help="comma list of strategies, seated in rotation")
    sim.add_argument("--house-rules", dest="sim_house_rules", default="")
    sim.add_argument("--seed", dest="sim_seed", type=int, default=1)
    sim.add_argument("--no-progress", action="store_true", help="hide the progress bar")

    shots = commands.add_parser("screenshots", help="write PNGs of every TV scene")
    shots.add_argument("directory")
    shots.add_argument("--lang", dest="shots_lang", choices=LANGUAGES, default=None)

    voice = commands.add_parser("test-voice", help="speak (or write) a sample line")
    voice.add_argument("--lang", dest="voice_lang", choices=LANGUAGES, default=None)
    voice.add_argument("--out", default=None, help="write a WAV file instead of speaking")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "simulate":
        from host.simulate import run_simulation_command

        return run_simulation_command(args)
    if args.command == "screenshots":
        from host.tv.screenshots import run_screenshots_command

        return run_screenshots_command(args)
    if args.command == "test-voice":
        from host.voice.cli import run_test_voice_command

        return run_test_voice_command(args)
    from host.app import run_party

    return run_party(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
