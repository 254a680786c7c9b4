"""``cuckoo-party screenshots DIR``: play a scripted, seeded game and write a PNG of each scene.

No screen is needed: scenes paint on an off-screen 1920×1080 surface. The game is played on
the real session through ``Rehearsal`` (the TV follows its public stream, as at a party).
A small "director" picks moves so every scene happens: it asks a neighbour who holds a King
once (to show a block) — it may read that neighbour's own view because it is the script, not
the TV.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import pygame

from host.i18n import LANGUAGES, Catalog
from host.rules import KING, EventDict, HouseRules
from host.tv.app import FRAME_SECONDS, TVApp
from host.tv.rehearsal import Rehearsal
from host.tv.stage import WINNER_BOARD_SECONDS, Stage, reveal_marked_at
from host.tv.theme import CANVAS_SIZE
from host.tv.tutorial import Tutorial, play_through

JOIN_URL = "http://192.168.1.20:8000/?room=CAKE"
PLAYERS = ("Ana", "Chloé", "Niccolò", "François", "Zoë")
SCENES = (
    "lobby",
    "deal",
    "turn",
    "exchange",
    "block",
    "cut",
    "reveal",
    "game-over",
    "standings",
    "lobby-standings",
)
MAX_MOVES = 3000


class CaptionsFromEvents:
    """Stands in for the announcer in pictures: the caption is the voice's phrase for the
    event on screen (``host.voice.phrases``), so screenshots show the caption bar in use.
    It only writes text; the TV never speaks."""

    def __init__(self, app_stage: Stage, catalog: Catalog, lang: str) -> None:
        self.stage = app_stage
        self.catalog = catalog
        self.lang = lang
        self.muted = True
        self._last: str | None = None

    def caption(self) -> str | None:
        """The phrase of the event playing now, else the last one (captions linger)."""
        beat = self.stage.beat
        if beat is None or self.stage.latest is None:
            return self._last
        from host.voice.phrases import phrases_for

        lines = phrases_for(beat.event, self.stage.latest, self.catalog.translator(self.lang))
        self._last = lines[0] if lines else self._last
        return self._last

    def set_language(self, lang: str) -> None:
        self.lang = lang

    def set_muted(self, muted: bool) -> None:
        self.muted = muted


class StillCamera:
    """Renders the app at chosen moments and writes ``tv-<scene>.png`` once per scene."""

    def __init__(self, app: TVApp, directory: Path) -> None:
        self.app = app
        self.directory = directory
        self.surface = pygame.Surface(CANVAS_SIZE)
        self.taken: dict[str, Path] = {}

    def shoot(self, scene: str) -> None:
        if scene in self.taken:
            return
        self.app.poll_caption()
        self.app.render(self.surface)
        path = self.directory / f"tv-{scene}.png"
        pygame.image.save(self.surface, str(path))
        self.taken[scene] = path

    def play_out(self) -> None:
        """Run the queued animations, stopping to shoot the moments worth a picture."""
        app = self.app
        for _ in range(100_000):
            beat = app.stage.beat
            if beat is None:
                return
            scene, moment = _moment_of(beat.kind, beat.event)
            if scene and scene not in self.taken and beat.elapsed >= moment:
                self.shoot(scene)
            app.play_frame()
            app.poll_caption()


def _moment_of(kind: str, event: EventDict) -> tuple[str | None, float]:
    """Which scene a beat illustrates and how far into it the picture is taken (seconds)."""
    if kind == "round_dealt":
        return "deal", 0.55
    if kind == "exchanged":
        return "exchange", 0.55
    if kind == "blocked":
        return "block", 0.9
    if kind in ("cut_taken", "cut_king"):
        return "cut", 0.5 if kind == "cut_taken" else 1.0
    if event["type"] == "reveal":
        return "reveal", reveal_marked_at(len(event.get("cards", {}))) + 0.3
    return None, 0.0


def director(rehearsal: Rehearsal, wanted: Callable[[str], bool]) -> Callable[[str], str | None]:
    """Choose a move that produces a scene still missing, else let the bot strategy decide."""
    session = rehearsal.session

    def choose(player: str) -> str | None:
        view = session.view(player)
        if player == view["dealer"]:
            return "cut" if wanted("cut") and "cut" in view["can"] else None
        me = view["me"]
        target = me["target"] if me is not None else None
        target_me = session.view(target)["me"] if target else None
        target_card = target_me["card"] if target_me is not None else None
        holds_king = bool(target_card) and str(target_card).startswith(KING)
        if wanted("block") and holds_king:
            return "exchange"
        shows_king = player in view["shown"]  # a swap would carry it face up
        if wanted("exchange") and not holds_king and not shows_king:
            return "exchange"
        return None

    return choose


def take_screenshots(
    directory: Path,
    lang: str,
    *,
    seed: int = 11,
    catalog: Catalog | None = None,
    camera_type: Callable[[TVApp, Path], StillCamera] = StillCamera,
    players: tuple[str, ...] = PLAYERS,
    rules: HouseRules | None = None,
) -> dict[str, Path]:
    """Play one seeded game (five players by default) and write every scene of ``SCENES``.

    ``camera_type``, ``players`` and ``rules`` let the layout tests film other tables with the
    same script (e.g. 20 players with 16-character names under H7).
    """
    directory.mkdir(parents=True, exist_ok=True)
    if not pygame.font.get_init():
        pygame.font.init()
    rehearsal = Rehearsal(rules or HouseRules(), seed=seed, room="CAKE")
    catalog = catalog or Catalog.load()
    app = TVApp(rehearsal.session, None, catalog, lang=lang, join_url=JOIN_URL)
    app.announcer = CaptionsFromEvents(app.stage, catalog, lang)
    camera = camera_type(app, directory)
    for i, name in enumerate(players):
        rehearsal.join(name, bot=i == len(players) - 1)
    app.pump_updates()
    app.stage.fast_forward()
    camera.shoot("lobby")
    choose = director(rehearsal, lambda scene: scene not in camera.taken)
    for _ in range(MAX_MOVES):
        if rehearsal.phase == "game_over":
            break
        rehearsal.play(choose)
        app.pump_updates()
        camera.play_out()
        if app.stage.phase == "turns" and app.stage.round >= 2 and app.stage.current:
            camera.shoot("turn")
    camera.play_out()
    if app.stage.phase == "game_over":  # the resting picture: winners, standings, next step
        camera.shoot("game-over")
    for _ in range(round((WINNER_BOARD_SECONDS + 1) / FRAME_SECONDS)):
        app.play_frame()  # the winners' cheer ends: tonight's standings (issue 14)
    camera.shoot("standings")
    rehearsal.host_next()  # a new game: the lobby, with tonight's standings
    app.pump_updates()
    app.stage.fast_forward()
    camera.shoot("lobby-standings")
    missing = [scene for scene in SCENES if scene not in camera.taken]
    if missing:
        raise RuntimeError(f"the scripted game never showed: {', '.join(missing)}")
    return camera.taken


def take_tutorial_screenshots(
    directory: Path, lang: str, *, catalog: Catalog | None = None
) -> list[Path]:
    """ "How to play" (issue 14): one picture per step, ``tv-tutorial-<lang>-<nn>-<step>.png``."""
    directory.mkdir(parents=True, exist_ok=True)
    if not pygame.font.get_init():
        pygame.font.init()
    catalog = catalog or Catalog.load()
    app = TVApp(
        Rehearsal(HouseRules(), room="CAKE").session, None, catalog, lang=lang, join_url=JOIN_URL
    )
    app.start_tutorial()
    assert app.tutorial is not None
    surface = pygame.Surface(CANVAS_SIZE)
    written: list[Path] = []

    def shoot(tutorial: Tutorial) -> None:
        app.render(surface)
        path = directory / f"tv-tutorial-{lang}-{tutorial.index:02d}-{tutorial.step.name}.png"
        pygame.image.save(surface, str(path))
        written.append(path)

    play_through(app.tutorial, FRAME_SECONDS, shoot)
    return written


def run_screenshots_command(args: argparse.Namespace) -> int:
    """Entry point of the sub-command; prints each file written."""
    lang = args.shots_lang or args.lang
    shots = take_screenshots(Path(args.directory), lang)
    for scene in SCENES:
        print(shots[scene])
    for tutorial_lang in LANGUAGES:
        for path in take_tutorial_screenshots(Path(args.directory), tutorial_lang):
            print(path)
    return 0
