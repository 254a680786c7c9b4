"""A host restarted mid-party: the TV tells what the crash cut short (round 41's play-test)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pygame
import pytest

from host.i18n import Catalog
from host.rules import EventDict, HouseRules, View
from host.session import Session
from host.tv.app import TVApp


class Voice:
    """Records every event the TV hands to the voice."""

    def __init__(self) -> None:
        self.muted = False
        self.told: list[EventDict] = []

    def announce(self, events: Sequence[EventDict], table: View, moment: str = "whole") -> None:
        self.told.extend(events)

    def caption(self) -> None:
        return None

    def set_language(self, lang: str) -> None:
        """Not needed here."""

    def set_muted(self, muted: bool) -> None:
        self.muted = muted


def _played_to(path: Path, phase: str) -> Session:
    """A saved party (no close: as if killed) at its first reveal, or its first turn."""
    session = Session(HouseRules(), seed=3, room="TEST", state_path=path)
    for name in ("Ana", "Bea", "Cal"):
        session.join(name, "TEST")
    session.act("p1", "start", 0)
    while (table := session.view(None))["phase"] == "turns" and phase != "turns":
        session.act(str(table["current"]), "keep", table["step"])
    assert session.view(None)["phase"] == phase
    return session


def test_r11_a_tv_restarted_at_the_reveal_says_who_lost_a_life(
    tmp_path: Path, catalog: Catalog
) -> None:
    """Killed in the middle of the reveal, the restarted TV showed the finished table in
    silence: nothing said who had lost a life. It now tells the round's end again."""
    before = _played_to(tmp_path / "state.json", "reveal")
    loser = next(e for e in before.view(None)["log"] if e["type"] == "life_lost")["player"]
    voice = Voice()
    resumed = Session(HouseRules(), state_path=tmp_path / "state.json")
    app = TVApp(resumed, voice, catalog, lang="en", join_url="http://x/?room=TEST")
    assert [e["type"] for e in voice.told] == ["reveal", "life_lost"]
    name = next(p["name"] for p in resumed.view(None)["players"] if p["id"] == loser)
    lines = [line for event in voice.told for line in app._phrases(event, "en")]
    assert any(name in line for line in lines), lines
    app.close()
    before.close()
    resumed.close()


@pytest.mark.parametrize("phase", ["turns", "reveal"])
def test_r11_no_retelling_mid_turn_or_without_a_restart(
    tmp_path: Path, catalog: Catalog, phase: str
) -> None:
    session = _played_to(tmp_path / "state.json", phase)
    voice = Voice()
    table: Any = (
        session if phase == "reveal" else Session(HouseRules(), state_path=tmp_path / "state.json")
    )
    app = TVApp(table, voice, catalog, lang="en", join_url="http://x/?room=TEST")
    assert voice.told == []  # the same session (no restart), or a restart mid-turn
    app.close()
    session.close()
    table.close()


def test_round41_a_restarted_tv_shows_nobody_away_while_phones_come_back(
    tmp_path: Path, catalog: Catalog
) -> None:
    """Round 41's play-test: for the first seconds after a restart every seat was marked away,
    with a red "Dealing for Sara in 15 s", while the phones reconnected (2.4 s). The TV now
    shows nobody away for ``RECONNECT_GRACE_SECONDS``, then whoever is still away."""
    from host.tv.app import RECONNECT_GRACE_SECONDS

    before = _played_to(tmp_path / "state.json", "reveal")
    resumed = Session(HouseRules(), state_path=tmp_path / "state.json", presence=True)
    back = resumed.subscribe("p1")  # Ana's phone is back at once; Bea's and Cal's are not
    app = TVApp(resumed, Voice(), catalog, lang="en", join_url="http://x/?room=TEST")
    app.play_frame()
    assert all(seat.connected for seat in app.stage.players)
    assert app.vip_hooks.countdown is None
    for _ in range(round((RECONNECT_GRACE_SECONDS + 0.5) * 60)):
        app.play_frame()
    shown = {seat.id: seat.connected for seat in app.stage.players}
    assert shown == {"p1": True, "p2": False, "p3": False}
    back.close()
    app.close()
    before.close()
    resumed.close()


def test_round41_a_tv_without_a_restart_shows_away_at_once(
    tmp_path: Path, catalog: Catalog
) -> None:
    session = _played_to(tmp_path / "state.json", "reveal")  # no phone streams: all away
    app = TVApp(session, Voice(), catalog, lang="en", join_url="http://x/?room=TEST")
    app.play_frame()
    assert not any(seat.connected for seat in app.stage.players)
    app.close()
    session.close()


def test_r11_a_tv_restarted_at_the_reveal_shows_the_cards_face_up_and_who_lost(
    tmp_path: Path, catalog: Catalog, phrases_asked: Any
) -> None:
    """Round 47's look at a host restarted mid-reveal (the round's cards revealed in the save,
    the TV's reveal never played): the cards are not turned over again, but its very first
    frame shows the reveal at rest, as a TV that played it does: every card face up, the
    lowest one glowing red, "Lowest card: …" on the felt, and the loser a life down in its
    dots and in the round's story."""
    from host.tv import theme
    from host.tv.seats import card_rect
    from host.tv.table import card_look

    before = _played_to(tmp_path / "state.json", "reveal")
    saved = before.view(None)
    cards = {p["id"]: p["card"] for p in saved["players"]}
    (loser,) = saved["losers"]
    resumed = Session(HouseRules(), state_path=tmp_path / "state.json")
    app = TVApp(resumed, Voice(), catalog, lang="en", join_url="http://x/?room=TEST")
    asked = phrases_asked(app)
    canvas = pygame.Surface(theme.CANVAS_SIZE)
    app.render(canvas)
    spots = app.table.seating()[0]
    assert app.stage.phase == "reveal" and not app.stage.animating
    for seat in app.stage.players:
        look = card_look(app.stage, seat)
        assert (look.kind, look.code, look.flip) == ("face", cards[seat.id], 1.0), seat.name
        assert look.lowest == (seat.id == loser), seat.name
        card = card_rect(spots[seat.id])
        assert tuple(canvas.get_at(card.move(6, 0).midleft))[:3] == theme.CARD_FACE, seat.name
        glowing = tuple(canvas.get_at((card.left - 4, card.centery)))[:3] == theme.HIGHLIGHT
        assert glowing == (seat.id == loser), seat.name
    assert "lowest" in asked
    shown = {seat.id: seat.lives for seat in app.stage.players}
    assert shown == {p["id"]: p["lives"] for p in saved["players"]}
    assert shown[loser] == saved["max_lives"] - 1
    assert any(e["type"] == "life_lost" and e["player"] == loser for e in app.stage.trail)
    app.close()
    before.close()
    resumed.close()


def _played_to_the_end(path: Path) -> Session:
    """A saved party (no close: as if killed) just after its game's last reveal."""
    session = _played_to(path, "reveal")
    for _ in range(200):  # a 3-player game of 3 lives ends within a few dozen moves
        table = session.view(None)
        if table["phase"] == "game_over":
            return session
        if table["phase"] == "turns":
            session.act(str(table["current"]), "keep", table["step"])
        else:  # the reveal: whoever deals next deals
            dealer = str(table["next_dealer"])
            session.act(dealer, session.view(dealer)["can"][0], table["step"])
    raise AssertionError("the game did not end")


def test_r14_a_tv_restarted_at_the_games_end_shows_its_winner_board_first(
    tmp_path: Path, catalog: Catalog, phrases_asked: Any
) -> None:
    """Round 47's look: a host killed during the game's last reveal came back on tonight's
    standings at once, while the voice told that reveal, who went out and who won: no card,
    loser or winner of it was on screen. The winners' board (the game's finishing order under
    "Ana wins!") is up first, for as long as after a game's end played out; then the
    standings."""
    from host.tv import theme
    from host.tv.stage import WINNER_BOARD_SECONDS

    before = _played_to_the_end(tmp_path / "state.json")
    (winner,) = before.view(None)["winners"]
    resumed = Session(HouseRules(), state_path=tmp_path / "state.json")
    app = TVApp(resumed, Voice(), catalog, lang="en", join_url="http://x/?room=TEST")
    asked = phrases_asked(app)
    canvas = pygame.Surface(theme.CANVAS_SIZE)
    app.render(canvas)
    assert app.base_scene() is app.table
    assert "winner" in asked
    assert app.stage.winners == [winner]
    for _ in range(round((WINNER_BOARD_SECONDS + 0.5) * 60)):
        app.stage.update(1 / 60)
    assert app.base_scene() is app.standings
    app.close()
    before.close()
    resumed.close()
