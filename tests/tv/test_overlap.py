"""Issue 12 item 5 — nothing on the TV is drawn over something else, at 1920×1080 and 1280×720.

Every scene of ``cuckoo-party screenshots`` is filmed, plus every beat of the scripted game at
several instants, a 10-player table with 16-character names, one with names as wide as a name
may be (round 37: names in two lines at the readable size), a 20-player H7 table, the
language notice over the lobby and the overlays. Round 40: the countdown pill of an away player's turn, with each seat of
every table size away in turn. The TV draws on a logical 1920×1080 canvas
scaled to the screen (``pygame.SCALED``), so 1280×720 is the same picture scaled by 2/3: the
boxes are checked again after that scaling (rounded to whole pixels).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pygame
import pytest

from host.i18n import Catalog
from host.rules import HouseRules
from host.tv.app import FRAME_SECONDS, TVApp
from host.tv.layout import READABLE_SIZE
from host.tv.overlays import ConfirmOverlay, HelpOverlay, KickOverlay
from host.tv.screenshots import PLAYERS, StillCamera, take_screenshots
from tests.tv.overlap import Box, Canvas, overlaps, recording_frames
from tests.tv.views import StillSession, player, view

#: Layers drawn over each other on purpose, (lower, upper): the upper one is drawn later.
UNDER: frozenset[tuple[str, str]] = frozenset(
    {
        # Cards in flight (deal, swap, cut, misdeal) pass *under* the seats, the pile names and
        # the banners, so a moving card never hides a name (issue 12: the cut card over the
        # dealer's plate).
        ("card", "draw_seat"),
        ("card", "label"),
        ("card", "pile_name"),
        ("card", "banner"),
        ("card", "banner_lines"),
        ("card", "card"),
        ("_draw_piles", "card"),
        # The life token leaving a plate rises from it, with its "−1".
        ("draw_seat", "_draw_leaving_token"),
        ("_draw_leaving_token", "_draw_leaving_token"),
        # The lowest card's glow lies under its card and its seat's tag, on the card's top
        # edge (round 42).
        ("_glow", "draw_seat"),
        ("_glow", "_draw_leaving_token"),
        # "Keeps" is written on the player's own card (as wide as its plate at most).
        ("draw_seat", "bubble"),
        # An overlay's words and rows lie on its panel.
        ("draw_panel", "draw"),
        # The stock is four cards stacked.
        ("_draw_piles", "_draw_piles"),
    }
)
#: The winners' confetti: over the seats and cards on purpose (under the words of the game's
#: end: tests/tv/test_scenes.py).
IGNORED = frozenset({"confetti"})
SIXTEEN = (
    "Bartholomew-Jone",
    "Maximilienne-Ro",
    "Giovannantonio",
    "Anne-Charlotte M",
    "Jean-Christophe",
    "Marie-Antoinett",
    "Pierluigi-Ernes",
    "Wilhelmina Oost",
    "Constantinopoli",
    "Aleksandrovitch",
    "Hildegard-Beate",
    "Bernadette-Rose",
    "Massimiliano-Lu",
    "Guinevere Ashby",
    "Christabel-Anne",
    "Fitzgerald-Hugh",
    "Evangelina Sora",
    "Leopoldine-Mari",
    "Sebastiano-Gian",
    "Kristoffer Lars",
)

#: Names 16 columns wide of the widest letter (``host.names.MAX_NAME_WIDTH``), round 37.
WIDEST = tuple("W" * 15 + letter for letter in "WMOQDGHNUV")


class OverlapCamera(StillCamera):
    """Films every scene and beat on a recording canvas; remembers the clashes of each."""

    def __init__(self, app: TVApp, directory: Path, every: int = 1) -> None:
        super().__init__(app, directory)
        self.every = every  # film one beat in ``every`` (long games of big tables)
        self.beats = 0
        self.canvas = Canvas()
        self.frames: dict[str, list[Box]] = {}
        # Every piece painted on the recording canvas, not from the table's still layer (which
        # gives the same pixels: tests/tv/test_motion.py).
        app.table.keep_still = False

    def film(self, name: str) -> None:
        self.app.poll_caption()
        with recording_frames():
            self.app.render(self.canvas)
        self.frames[name] = list(self.canvas.boxes)

    def shoot(self, scene: str) -> None:
        if scene in self.taken:
            return
        self.film(scene)
        self.taken[scene] = self.directory / f"tv-{scene}.png"
        if scene == "lobby":
            app = self.app
            app.notify(app.props.t("language_now", language="Français"))
            self.film("lobby+notice")
            app._toast = None
            props, players = app.props, list(app.stage.players)
            for name, overlay in (
                ("help", HelpOverlay(props, app._pop)),
                ("kick", KickOverlay(props, players, lambda seat: None, app._pop)),
                (
                    "confirm",
                    ConfirmOverlay(
                        props,
                        props.t("kick_question", name=players[0].name),
                        lambda: None,
                        app._pop,
                    ),
                ),
            ):
                app.overlays.append(overlay)
                self.film(f"lobby+{name}")
                app.overlays.pop()

    def play_out(self) -> None:
        app = self.app
        filmed: set[tuple[int, float]] = set()
        counted: set[int] = set()
        for _ in range(100_000):
            beat = app.stage.beat
            if beat is None:
                return
            if id(beat) not in counted:
                counted.add(id(beat))
                self.beats += 1
            for moment in (0.2, 0.6, 0.95):
                key = (id(beat), moment)
                if self.beats % self.every == 0 and beat.progress >= moment and key not in filmed:
                    filmed.add(key)
                    self.film(f"{beat.kind}@{moment}#{len(self.frames)}")
            super_moment = _scene_moment(self, beat)
            if super_moment is not None:
                self.shoot(super_moment)
            app.step(FRAME_SECONDS)
            app.poll_caption()


def _scene_moment(camera: StillCamera, beat: object) -> str | None:
    from host.tv.screenshots import _moment_of

    kind, event, elapsed = beat.kind, beat.event, beat.elapsed  # type: ignore[attr-defined]
    scene, moment = _moment_of(kind, event)
    return scene if scene and scene not in camera.taken and elapsed >= moment else None


def _film(
    tmp_path: Path,
    players: tuple[str, ...],
    rules: HouseRules | None = None,
    lang: str = "en",
    every: int = 1,
) -> OverlapCamera:
    cameras: list[OverlapCamera] = []

    def make(app: TVApp, directory: Path) -> OverlapCamera:
        cameras.append(OverlapCamera(app, directory, every))
        return cameras[-1]

    take_screenshots(
        tmp_path, lang, catalog=Catalog.load(), camera_type=make, players=players, rules=rules
    )
    return cameras[0]


def _clashes(camera: OverlapCamera, scale: float) -> list[str]:
    found = []
    for name, boxes in camera.frames.items():
        found += [f"{name}: {clash}" for clash in overlaps(boxes, UNDER, IGNORED, scale)]
    return found


@pytest.fixture(scope="module")
def filmed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, OverlapCamera]:
    pygame.font.init()
    root = tmp_path_factory.mktemp("overlap")
    return {
        "5": _film(root / "five", PLAYERS),
        "5-fr": _film(root / "five-fr", PLAYERS, lang="fr"),
        "10": _film(root / "ten", SIXTEEN[:10]),
        "10-widest": _film(root / "ten-widest", WIDEST),
        "20": _film(root / "twenty", SIXTEEN, HouseRules.parse("H7"), every=7),
    }


@pytest.mark.parametrize("scale", [1.0, 2 / 3], ids=["1920x1080", "1280x720"])
@pytest.mark.parametrize("table", ["5", "5-fr", "10", "10-widest", "20"])
def test_issue12_nothing_on_the_tv_overlaps(
    filmed: dict[str, OverlapCamera], table: str, scale: float
) -> None:
    clashes = _clashes(filmed[table], scale)
    assert not clashes, f"{len(clashes)} overlaps:\n" + "\n".join(clashes[:40])


def _away_turns(catalog: Catalog, names: tuple[str, ...]) -> list[tuple[str, list[Box]]]:
    """The table of ``names`` with the countdown pill of each seat's turn while that player is
    away, every other seat a computer player (so every seat has its tag above its card)."""
    pygame.font.init()
    canvas = Canvas()
    filmed = []
    for away in range(len(names)):
        players = [
            player(i, name=name, bot=i != away, connected=i != away) for i, name in enumerate(names)
        ]
        big = len(names) > 10
        shown = view(
            "turns",
            players,
            current=f"p{away}",
            dealer=f"p{(away - 1) % len(names)}",
            max_players=20 if big else 10,
            house_rules=["big_table"] if big else [],
        )
        app = TVApp(
            cast(Any, StillSession(shown)), None, catalog, lang="en", join_url="http://x/?room=A"
        )
        app.stage.fast_forward()
        app.table.keep_still = False
        app.vip_hooks.countdown = (f"p{away}", 7, True, False, False)
        with recording_frames():
            app.render(canvas)
        filmed.append((names[away], list(canvas.boxes)))
    return filmed


@pytest.mark.parametrize("scale", [1.0, 2 / 3], ids=["1920x1080", "1280x720"])
@pytest.mark.parametrize(
    "names",
    [PLAYERS[:count] for count in range(3, 6)]
    + [SIXTEEN[:count] for count in range(6, 11)]
    + [WIDEST, SIXTEEN],
    ids=lambda names: f"{len(names)}-{names[0][:4]}",
)
def test_round40_the_away_countdown_pill_covers_no_seat_tag_or_plate(
    catalog: Catalog, names: tuple[str, ...], scale: float
) -> None:
    """Round 40's play-test: "Bruno is away — kept in 7 s" half covered the top seat's "away"
    tag. With each seat away in turn, on 3 to 10 seats (short and 16-letter names, names as
    wide as a name may be) and 20 under H7, the pill (``VipHooks.draw``) meets nothing else
    drawn: no seat's tag, card or plate, nor the header's words."""
    filmed = _away_turns(catalog, names)
    assert all(any(box.kind == "draw" for box in boxes) for _, boxes in filmed)  # a pill each
    clashes = [
        f"{who} away: {clash}"
        for who, boxes in filmed
        for clash in overlaps(boxes, UNDER, IGNORED, scale, involving="draw")
    ]
    assert not clashes, f"{len(clashes)} overlaps:\n" + "\n".join(clashes[:40])


def _pill_sizes(catalog: Catalog, names: tuple[str, ...], away: int, lang: str) -> list[int]:
    """The sizes the countdown pill's words are drawn at while seat ``away`` is away."""
    players = [
        player(i, name=name, bot=i != away, connected=i != away) for i, name in enumerate(names)
    ]
    shown = view("turns", players, current=f"p{away}", dealer=f"p{(away - 1) % len(names)}")
    app = TVApp(
        cast(Any, StillSession(shown)), None, catalog, lang=lang, join_url="http://x/?room=A"
    )
    app.stage.fast_forward()
    app.vip_hooks.countdown = (f"p{away}", 7, True, False, False)
    sizes: list[int] = []
    real = app.props.theme.text

    def spy(text: str, size: int, colour: Any = (0, 0, 0), bold: bool = False) -> Any:
        if "7 s" in text:
            sizes.append(size)
        return real(text, size, colour, bold)

    app.props.theme.text = spy  # type: ignore[method-assign]
    app.render(pygame.Surface((1920, 1080)))
    return sizes


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
@pytest.mark.parametrize("count", [5, 8, 10])
def test_round40_the_countdown_pill_is_readable_with_long_names_in_every_language(
    catalog: Catalog, lang: str, count: int
) -> None:
    """Round 40's check: in French on a 10-seat table "Wilhelmina est absent — carte gardée
    dans 11 s" shrank to about 11 px in the header's room. A pill whose words do not fit at
    the readable size leaves the name out ("Absent — garde : 7 s"): the seat is framed as
    the one playing and tagged "away"."""
    pygame.font.init()
    names = SIXTEEN[:count]
    for away in range(count):
        sizes = _pill_sizes(catalog, names, away, lang)
        assert sizes and min(sizes) >= READABLE_SIZE, (names[away], sizes)


def _duel(catalog: Catalog, names: tuple[str, ...], duelists: int) -> list[Box]:
    """What the TV draws one second into H5's sudden death among the first ``duelists`` of
    ``names`` (every seat on one life, a 2 each: they all lost together)."""
    pygame.font.init()
    big = len(names) > 10
    players = [player(i, name=name, lives=1, card="2H") for i, name in enumerate(names)]
    shown = view(
        "reveal",
        players,
        dealer=f"p{len(names) - 1}",
        max_players=20 if big else 10,
        house_rules=["big_table", "sudden_death"] if big else ["sudden_death"],
    )
    app = TVApp(
        cast(Any, StillSession(shown)), None, catalog, lang="en", join_url="http://x/?room=A"
    )
    app.stage.fast_forward()
    app.table.keep_still = False
    duel = dict(zip((f"p{i}" for i in range(duelists)), ("5H", "9S", "KD", "3C"), strict=False))
    event = {"type": "sudden_death", "players": list(duel), "cards": duel, "winner": "p2"}
    app.stage.receive(shown, cast(Any, [event]))
    app.stage.update(1.0)
    assert app.stage.beat is not None and app.stage.beat.kind == "sudden_death"
    canvas = Canvas()
    with recording_frames():
        app.render(canvas)
    return list(canvas.boxes)


@pytest.mark.parametrize(
    ("names", "duelists"),
    [
        (("Bo", "Cy", "Ana"), 2),
        (("Bo", "Cy", "Ana"), 3),
        (PLAYERS[:3], 3),
        (SIXTEEN[:3], 3),
        (SIXTEEN[:4], 2),
        (SIXTEEN[:4], 4),
        (PLAYERS[:4], 3),
        (SIXTEEN[:6], 2),
        (SIXTEEN[:6], 3),
        (SIXTEEN[:6], 4),
        (SIXTEEN[:10], 2),
        (SIXTEEN[:10], 3),
        (SIXTEEN[:10], 4),
        (SIXTEEN, 3),
    ],
    ids=lambda v: f"{len(v)}seats" if isinstance(v, tuple) else f"{v}duel",
)
def test_round47_h5_the_duels_cards_and_names_meet_no_pile_or_seat(
    catalog: Catalog, names: tuple[str, ...], duelists: int
) -> None:
    """H5. Round 47's play-test: the first duellist's card lay on the stock and the stock hid
    the end of their name ("Bo" read "B"). On 3, 4, 6 and 10 seats (and 20 under H7), short
    and 16-letter names, the sudden death's cards and names (``_sudden_death``, ``label``)
    meet neither a pile nor a seat."""
    boxes = _duel(catalog, names, duelists)
    assert sum(box.kind == "label" for box in boxes) == duelists
    clashes = [
        clash
        for kind in ("_sudden_death", "label")
        for clash in overlaps(boxes, UNDER, IGNORED, involving=kind)
    ]
    assert not clashes, f"{len(clashes)} overlaps:\n" + "\n".join(clashes)
