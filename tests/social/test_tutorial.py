"""Issue 14.4 and 14.2 on the TV: "How to play" plays the worked example and touches nothing;
tonight's standings and the tutorial are in the screenshots."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame

from host.i18n import LANGUAGES, Catalog
from host.session import Session
from host.tv.app import FRAME_SECONDS, TVApp
from host.tv.screenshots import take_screenshots, take_tutorial_screenshots
from host.tv.theme import CANVAS_SIZE
from host.tv.trail import TRAIL_BOX
from host.tv.tutorial import SCRIPT, Tutorial, play_through


def _app(session: Any) -> TVApp:
    pygame.font.init()
    return TVApp(session, None, Catalog.load(), lang="en", join_url="http://x/?room=TEST")


def _key(app: TVApp, key: int, unicode: str = "") -> None:
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=key, unicode=unicode, mod=0))


def test_issue14_tutorial_plays_the_worked_example() -> None:
    """Deal, exchange, a forced swap passed on and blocked by a King, keep, cut, reveal, a life."""
    app = _app(Session(room="TEST", seed=1))
    assert app.start_tutorial()
    tutorial = app.tutorial
    assert tutorial is not None
    seen: list[str] = []
    everything = tutorial.rehearsal.session.subscribe(None, presence=False)  # the lesson's events
    length = play_through(tutorial, FRAME_SECONDS, lambda t: seen.append(t.step.name))
    assert (
        seen
        == [step.name for step in SCRIPT]
        == [
            "intro",
            "deal",
            "exchange",
            "forced",
            "block",
            "keep",
            "cut",
            "reveal",
            "life_lost",
            "deal2",
            "pass",
            "pass_on",
            "keep2",
            "life_lost2",
            "outro",
        ]
    )
    assert 60 <= length <= 90
    log = []
    while (update := everything.get(timeout=0)) is not None:
        log += update.events
    a, b, c, d = tutorial.ids
    assert {"type": "exchanged", "player": a, "target": b} in log
    assert {"type": "blocked", "player": b, "target": c, "king": "KS", "call": "cuckoo"} in log
    assert {"type": "cut_taken", "dealer": d} in log
    reveals = [e for e in log if e["type"] == "reveal"]
    assert len(reveals) == 2
    reveal = reveals[0]
    assert reveal["cards"] == {a: "9H", b: "2C", c: "KS", d: "8S"} and reveal["losers"] == [b]
    # Round 2 (R8, R13): Ana deals; Chloé passes on the 3 Bruno forced on her; Dario loses.
    assert {"type": "exchanged", "player": b, "target": c} in log
    assert {"type": "exchanged", "player": c, "target": d} in log
    reveal = reveals[1]
    assert reveal["cards"] == {b: "JD", c: "6C", d: "3H", a: "QS"} and reveal["losers"] == [d]
    assert [p["lives"] for p in tutorial.rehearsal.session.view(None)["players"]] == [3, 2, 3, 2]


def test_issue14_tutorial_never_touches_the_party(tmp_path: Path) -> None:
    session = Session(room="TEST", seed=3, state_path=tmp_path / "state.json")
    for name in ("Ana", "Bea"):
        session.join(name, "TEST")
    before, step = session.to_dict(), session.step
    app = _app(session)
    _key(app, pygame.K_t)
    assert app.tutorial is not None
    for _ in range(round(95 / FRAME_SECONDS)):
        app.step(FRAME_SECONDS)
        if app.tutorial is None:
            break
    assert app.tutorial is None  # it ended by itself
    assert session.to_dict() == before and session.step == step
    session.ask_tutorial()  # the VIP's phone asks for it
    app.step(FRAME_SECONDS)
    assert app.tutorial is not None
    app.step(5.0)
    _key(app, pygame.K_SPACE)  # any key skips, and is not a host key meanwhile
    assert app.tutorial is None
    assert session.to_dict() == before and session.step == step
    app.close()
    session.close()


def test_issue14_tutorial_only_from_the_lobby() -> None:
    session = Session(room="TEST", seed=3)
    ids = [session.join(name, "TEST").player_id for name in ("Ana", "Bea", "Cal")]
    session.act(ids[0], "start", 0)
    app = _app(session)
    app.pump_updates()
    app.stage.fast_forward()
    assert not app.start_tutorial() and app.tutorial is None
    app.close()
    session.close()


def test_issue14_new_evening_key_asks_first() -> None:
    session = Session(room="TEST", seed=3)
    ids = [session.join(name, "TEST").player_id for name in ("Ana", "Bea", "Cal")]
    session.act(ids[0], "start", 0)
    assert session.view(None)["standings"]
    app = _app(session)
    _key(app, pygame.K_n)
    assert session.view(None)["standings"]  # only a question so far
    _key(app, pygame.K_ESCAPE)
    assert session.view(None)["standings"] and not app.overlays
    _key(app, pygame.K_n)
    _key(app, pygame.K_RETURN)
    assert session.view(None)["standings"] == []
    app.close()
    session.close()


def _shown_notice(app: TVApp) -> str | None:
    """The words in the TV's caption bar drawn as a notice (gold), read from the frame's
    state: what a host sees there the next 2.5 s."""
    toast = app._toast
    return toast[0] if toast is not None else None


def test_round40_n_during_how_to_play_ends_it_and_asks_for_a_new_evening() -> None:
    """Round 40's play-test: a new evening asked during "How to play" got no reply on the
    TV. N ends the lesson and shows the question over the lobby (not a second N to press);
    Enter then starts the new evening, and the TV says so."""
    session = Session(room="TEST", seed=3)
    for name in ("Ana", "Bea", "Cal"):
        session.join(name, "TEST")
    app = _app(session)
    _key(app, pygame.K_t)
    app.step(3.0)
    assert app.tutorial is not None
    _key(app, pygame.K_n)
    assert app.tutorial is None and len(app.overlays) == 1  # the question, over the lobby
    assert app.base_scene() is app.lobby and session.evenings_begun == 0
    _key(app, pygame.K_RETURN)
    assert session.evenings_begun == 1 and not app.overlays
    done = app.props.catalog.t("en", "evening.new_evening_done")
    assert _shown_notice(app) == done
    app.step(FRAME_SECONDS)  # told once, not again when the TV follows the session
    assert session.evenings_begun == 1 and _shown_notice(app) == done
    app.close()
    session.close()


def test_round40_a_new_evening_from_the_vips_phone_ends_how_to_play_and_shows_on_the_tv() -> None:
    """The play-tester's case: the VIP's phone starts "How to play", then a new evening
    (confirmed on the phone). The TV ends the lesson on its next frame and says "A new
    evening begins"; before, the lesson played on and the TV showed nothing."""
    session = Session(room="TEST", seed=3)
    vip = session.join("Giulia", "TEST").player_id
    session.join("Bruno", "TEST")
    app = _app(session)
    session.act(vip, "how_to_play", session.view(vip)["step"])
    app.step(FRAME_SECONDS)
    app.step(3.0)
    assert app.tutorial is not None
    session.act(vip, "new_evening", session.view(vip)["step"])
    app.step(FRAME_SECONDS)
    assert app.tutorial is None and app.base_scene() is app.lobby
    assert _shown_notice(app) == app.props.catalog.t("en", "evening.new_evening_done")
    app.close()
    session.close()


def test_issue14_tutorial_captions_in_each_language(tmp_path: Path) -> None:
    catalog = Catalog.load()
    for lang in LANGUAGES:
        paths = take_tutorial_screenshots(tmp_path, lang, catalog=catalog)
        assert [p.name for p in paths] == [
            f"tv-tutorial-{lang}-{i:02d}-{step.name}.png" for i, step in enumerate(SCRIPT)
        ]
        assert all(p.stat().st_size > 10_000 for p in paths)
    pygame.font.init()
    captions = set()
    for lang in LANGUAGES:
        app = TVApp(Session(room="TEST"), None, catalog, lang=lang, join_url="http://x/")
        app.start_tutorial()
        assert isinstance(app.tutorial, Tutorial)
        captions.add(app.tutorial.caption)
        app.close()
    assert len(captions) == 3


def test_issue14_screenshots_include_tonights_standings(tmp_path: Path) -> None:
    shots = take_screenshots(tmp_path, "en")
    assert {"standings", "lobby-standings"} <= set(shots)
    assert all("standings" in shots[s].name for s in ("standings", "lobby-standings"))


def test_issue14_tutorial_lines_are_spoken_by_the_announcer() -> None:
    """The voice says each caption of the lesson (a silent engine and player: captions only)."""
    from host.voice import Announcer

    class SilentEngine:
        def render(self, text: str, lang: str) -> Path:
            raise RuntimeError("no speech here")

    announcer = Announcer(Catalog.load(), "fr", muted=True, engine=SilentEngine(), warm_up=False)
    pygame.font.init()
    app = TVApp(Session(room="TEST"), announcer, Catalog.load(), lang="fr", join_url="http://x/")
    assert app.start_tutorial() and app.tutorial is not None
    assert announcer.pending() == 1  # the first line waits for the voice
    announcer.close()
    app.close()


class SayingVoice:
    """Says the lesson's lines one at a time: the caption is the first line not yet taken
    back; records what the TV withdrew."""

    def __init__(self) -> None:
        self.muted = False
        self.said: list[str] = []
        self.withdrawn: list[str] = []

    def say(self, text: str) -> None:
        self.said.append(text)

    def withdraw(self, text: str) -> None:
        self.withdrawn.append(text)

    def caption(self) -> str | None:
        return self.said[0] if self.said else None  # the first line is still being said

    def set_language(self, lang: str) -> None:
        """Not needed here."""

    def set_muted(self, muted: bool) -> None:
        self.muted = muted


def test_issue14_a_skipped_lesson_leaves_no_caption_and_says_no_more() -> None:
    """Round 41's play-test: after T, then a key, the lobby's caption bar still read "How to
    play Cuckoo: …". The lesson's lines waiting for the voice are withdrawn, and the one
    being said is taken off the bar."""
    session = Session(room="TEST", seed=3)
    for name in ("Ana", "Bea", "Cal"):
        session.join(name, "TEST")
    voice = SayingVoice()
    pygame.font.init()
    app = TVApp(session, voice, Catalog.load(), lang="en", join_url="http://x/?room=TEST")
    app.start_tutorial()
    for _ in range(40):  # a few steps of the lesson, each said
        app.step(0.25)
    assert len(voice.said) >= 2
    _key(app, pygame.K_ESCAPE)
    assert app.tutorial is None
    app.poll_caption()
    assert app.caption is None
    assert set(voice.withdrawn) == set(voice.said)
    app.close()
    session.close()


def test_issue14_a_lesson_played_to_its_end_keeps_its_last_caption() -> None:
    session = Session(room="TEST", seed=3)
    voice = SayingVoice()
    pygame.font.init()
    app = TVApp(session, voice, Catalog.load(), lang="en", join_url="http://x/?room=TEST")
    app.start_tutorial()
    assert app.tutorial is not None
    play_through(app.tutorial, 0.05)
    app.step(0.05)
    assert app.tutorial is None
    voice.said = voice.said[-1:]  # the outro is still being said
    app.poll_caption()
    assert app.caption == voice.said[0] and voice.withdrawn == []
    app.close()
    session.close()


def test_issue14_a_real_game_start_ends_the_tutorial() -> None:
    session = Session(room="TEST", seed=3)
    ids = [session.join(name, "TEST").player_id for name in ("Ana", "Bea", "Cal")]
    app = _app(session)
    app.start_tutorial()
    app.step(2.0)
    session.act(ids[0], "start", 0)  # the VIP starts from their phone meanwhile
    app.pump_updates()
    app.stage.fast_forward()
    app.step(FRAME_SECONDS)
    assert app.tutorial is None and app.base_scene() is app.table
    app.close()
    session.close()


def test_issue14_tutorial_badge_has_the_trail_corner_to_itself() -> None:
    """The "How to play" badge sits where a game's trail goes (top left); the lesson draws no
    trail there — before, the trail's lines showed around and under the badge."""
    app = _app(Session(room="TEST", seed=1))
    assert app.start_tutorial()
    tutorial = app.tutorial
    assert tutorial is not None
    checked = []

    def shoot(lesson: Tutorial) -> None:
        stage = lesson.stage
        if not stage.trail or stage.phase not in ("turns", "reveal"):
            return  # nothing a trail would show
        with_trail = pygame.Surface(CANVAS_SIZE)
        lesson.draw(with_trail)
        kept, stage.trail = stage.trail, []
        without = pygame.Surface(CANVAS_SIZE)
        lesson.draw(without)
        stage.trail = kept
        corner = TRAIL_BOX.clip(pygame.Rect((0, 0), CANVAS_SIZE))
        assert pygame.image.tobytes(with_trail.subsurface(corner), "RGB") == pygame.image.tobytes(
            without.subsurface(corner), "RGB"
        ), lesson.step.name
        checked.append(lesson.step.name)

    play_through(tutorial, FRAME_SECONDS, shoot)
    assert len(checked) >= 3  # moves the trail would have listed


def test_round42_the_lesson_is_not_played_by_a_guests_namesake() -> None:
    """Round 41's play-test: "How to play" always starred Ana, Bruno, Chloé and Dario, and a
    real Ana at the table heard "Ana swaps with Bruno". A lesson player whose name reads like
    a guest's ("ANA", "Bruno ") is played by a stand-in of the same gender (the captions say
    "he" and "she"): the seats, every caption and the spoken lines name the stand-in."""
    session = Session(room="TEST", seed=3)
    for name in ("ANA", "Bruno ", "Hugo", "Zoe"):
        session.join(name, "TEST")
    said: list[str] = []
    app = _app(session)
    app.announcer = type("Voice", (), {"say": staticmethod(said.append)})()
    for _ in range(10):  # the TV sees who is at the table
        app.step(FRAME_SECONDS)
    assert app.start_tutorial()
    tutorial = app.tutorial
    assert tutorial is not None
    assert tutorial.names == ("Elsa", "Marco", "Chloé", "Dario")
    table = tutorial.rehearsal.session.view(None)
    assert [p["name"] for p in table["players"]] == ["Elsa", "Marco", "Chloé", "Dario"]
    captions: list[str] = []
    play_through(tutorial, FRAME_SECONDS, lambda t: captions.append(t.caption))
    assert any("Elsa" in line and "Marco" in line for line in captions)
    assert said and said[0] == captions[0]
    for line in captions + said:
        assert "Ana" not in line.split() and "Bruno" not in line and "Hugo" not in line
    app.close()
    session.close()
