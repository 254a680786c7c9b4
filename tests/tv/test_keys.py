"""Host keys: each does its one job, asks first where it must, and a refusal changes nothing."""

from __future__ import annotations

from typing import Any, cast

import pygame
import pytest

from host.rules import View
from host.session import SessionError
from host.tv.app import TVApp
from host.tv.overlays import ConfirmOverlay, HelpOverlay, KickOverlay
from host.tv.stage import reveal_marked_at

from .conftest import FakeAnnouncer
from .views import player, view


class RecordingSession:
    """Records host actions; ``refuse`` makes every action raise like the real session."""

    def __init__(self, first: View, refuse: bool = False) -> None:
        self.first = first
        self.calls: list[tuple[str, ...]] = []
        self.refuse = refuse

    def subscribe(self, player_id: str | None) -> Any:
        assert player_id is None, "the TV must subscribe to the public stream"

        class Empty:
            def get(self, timeout: float | None = None) -> None:
                return None

        return Empty()

    def view(self, player_id: str | None) -> View:
        assert player_id is None, "the TV must read the public view"
        return self.first

    def _record(self, *call: str) -> None:
        if self.refuse:
            raise SessionError("not_allowed_now", "nothing to do now")
        self.calls.append(call)

    def host_next(self) -> None:
        self._record("host_next")

    def add_bot(self) -> None:
        self._record("add_bot")

    def kick(self, player_id: str) -> None:
        self._record("kick", player_id)

    def misdeal(self) -> None:
        self._record("misdeal")

    def skip_current(self) -> None:
        self._record("skip_current")


def press(app: TVApp, key: int, unicode: str = "") -> None:
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=key, unicode=unicode, mod=0))


@pytest.fixture
def lobby_app(make_app: Any) -> tuple[TVApp, RecordingSession, FakeAnnouncer]:
    session = RecordingSession(view("lobby", [player(i) for i in range(3)]))
    voice = FakeAnnouncer()
    app, _ = make_app(session=session, announcer=voice)
    return app, session, voice


def test_space_and_enter_ask_for_the_obvious_next_step(lobby_app: Any) -> None:
    app, session, _ = lobby_app
    press(app, pygame.K_SPACE)
    press(app, pygame.K_RETURN)
    assert session.calls == [("host_next",), ("host_next",)]


def test_b_adds_a_computer_player(lobby_app: Any) -> None:
    app, session, _ = lobby_app
    press(app, pygame.K_b)
    assert session.calls == [("add_bot",)]


def test_k_chooses_then_confirms_before_kicking(lobby_app: Any) -> None:
    app, session, _ = lobby_app
    press(app, pygame.K_k)
    assert isinstance(app.overlays[-1], KickOverlay)
    press(app, pygame.K_DOWN)  # the first player (nobody is away: nobody chosen before)
    press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)
    assert isinstance(app.overlays[-1], ConfirmOverlay)
    assert session.calls == []  # not before the host confirms
    press(app, pygame.K_RETURN)
    assert session.calls == [("kick", "p1")]
    assert app.overlays == []


def test_round42_with_nobody_away_k_starts_on_nobody(lobby_app: Any) -> None:
    """Round 41's play-test: with nobody away the kick list started on the first seat (the
    VIP), and K then two Enters removed them. Now Enter does nothing until a player is
    chosen (arrows or their number); Up starts from the last."""
    app, session, _ = lobby_app
    press(app, pygame.K_k)
    overlay = app.overlays[-1]
    assert isinstance(overlay, KickOverlay) and overlay.selected is None
    press(app, pygame.K_RETURN)
    press(app, pygame.K_RETURN)
    assert app.overlays == [overlay] and session.calls == []
    press(app, pygame.K_UP)
    assert overlay.selected == len(overlay.players) - 1


def test_round43_a_tenth_player_is_chosen_by_typing_1_then_0(make_app: Any) -> None:
    """Round 42's play-test: the kick list numbers twelve players 1 to 12, but only 1-9 were
    keys, so the tenth was out of reach but by the arrows. Digits now make a number as on a
    keypad (keypad digits too); after a pause a digit starts a new number."""
    session = RecordingSession(view("lobby", [player(i) for i in range(12)]))
    app, _ = make_app(session=session)
    press(app, pygame.K_k)
    overlay = app.overlays[-1]
    assert isinstance(overlay, KickOverlay)
    press(app, pygame.K_1)
    assert overlay.selected == 0
    press(app, pygame.K_0)
    assert overlay.selected == 9
    overlay.update(KickOverlay.TYPING_PAUSE + 0.1)
    press(app, pygame.K_KP2)
    assert overlay.selected == 1  # a new number, not 102
    press(app, pygame.K_3)
    assert overlay.selected == 2  # 23 is nobody's: 3 starts anew
    press(app, pygame.K_RETURN)
    press(app, pygame.K_RETURN)
    assert session.calls == [("kick", "p2")]


def test_k_then_escape_kicks_nobody(lobby_app: Any) -> None:
    app, session, _ = lobby_app
    press(app, pygame.K_k)
    press(app, pygame.K_2)
    press(app, pygame.K_RETURN)
    press(app, pygame.K_ESCAPE)
    assert session.calls == [] and app.overlays == []
    assert app.running


def test_r16_r_calls_a_misdeal_only_during_a_round(make_app: Any) -> None:
    session = RecordingSession(view("lobby", [player(i) for i in range(3)]))
    app, _ = make_app(session=session)
    press(app, pygame.K_r)
    assert session.calls == []  # lobby: a notice instead
    app.stage.receive(view("turns"), [])
    press(app, pygame.K_r)
    assert session.calls == [("misdeal",)]


@pytest.mark.parametrize("phase", ["reveal", "game_over"])
def test_round43_space_waits_while_the_tv_still_turns_the_cards(make_app: Any, phase: str) -> None:
    """R11, R12. Round 42's play-test: Space during the reveal dealt the next round at once,
    before the room had seen who lost (at the game's end it opened the next game). While the
    TV still plays the outcome, Space says why it waits; once it is shown, Space deals."""
    players = [player(i) for i in range(3)]
    session = RecordingSession(view("turns", players))
    app, _ = make_app(session=session)
    cards = {"p0": "2C", "p1": "9H", "p2": "KS"}
    reveal = {"type": "reveal", "cards": cards, "lowest": "2", "losers": ["p0"]}
    app.stage.receive(view(phase, players, lowest="2"), [reveal])
    assert app.stage.animating
    press(app, pygame.K_SPACE)
    press(app, pygame.K_RETURN)
    assert session.calls == []
    assert app._toast is not None
    assert app._toast[0] == app.props.t("reveal_still_on")
    # Round 43's check: once every card is up and the lowest is marked, Space deals, as the
    # dealer's phone may (it waited for the lives' animations too, under "… or press Space").
    app.stage.update(reveal_marked_at(len(cards)) + 0.05)
    assert app.stage.beat is not None and app.stage.beat.kind == "reveal"
    press(app, pygame.K_SPACE)
    assert session.calls == [("host_next",)]


def test_round43_space_waits_for_a_reveal_still_queued(make_app: Any) -> None:
    """R11. The last keep's beat still plays and the reveal waits behind it: Space waits too
    (the session is at the reveal already and would deal)."""
    players = [player(i) for i in range(3)]
    session = RecordingSession(view("turns", players))
    app, _ = make_app(session=session)
    cards = {"p0": "2C", "p1": "9H", "p2": "KS"}
    kept = {"type": "kept", "player": "p2", "auto": False, "timed_out": False, "reason": "chosen"}
    reveal = {"type": "reveal", "cards": cards, "lowest": "2", "losers": ["p0"]}
    app.stage.receive(view("reveal", players, lowest="2"), [kept, reveal])
    assert app.stage.beat is not None and app.stage.beat.kind == "kept"
    press(app, pygame.K_SPACE)
    assert session.calls == []


def test_m_mutes_and_unmutes_the_voice(lobby_app: Any) -> None:
    app, _, voice = lobby_app
    press(app, pygame.K_m)
    assert voice.muted is True
    press(app, pygame.K_m)
    assert voice.muted is False


def test_m_and_volume_say_there_is_no_sound_output_where_there_is_none(make_app: Any) -> None:
    """Round 41's play-test: on a computer with no sound output, M said "Voice and sounds
    on" and nothing could be heard. The TV says there is no sound and changes nothing."""
    from host.tv.app import TVApp

    session = RecordingSession(view("lobby", [player(i) for i in range(3)]))
    voice = FakeAnnouncer()
    voice.muted = True  # the party muted it when it found no sound output
    made, _ = make_app(session=session)
    app = TVApp(
        cast(Any, session),
        voice,
        made.props.catalog,
        lang="en",
        join_url="http://x/",
        sound_output=False,
    )
    for key in (pygame.K_m, pygame.K_EQUALS):
        press(app, key)
        assert voice.muted is True
        assert app._toast is not None and app._toast[0] == "No sound output found: captions only."


def test_l_switches_language_at_once_for_tv_and_voice(
    lobby_app: Any, canvas: pygame.Surface
) -> None:
    app, _, voice = lobby_app
    app.render(canvas)
    english = pygame.image.tobytes(canvas, "RGB")
    press(app, pygame.K_l)
    assert app.props.lang == "fr" and voice.languages == ["fr"]
    assert app.props.t("scan") == "Scanne pour rejoindre"  # "tu" (issue 12)
    app.render(canvas)
    assert pygame.image.tobytes(canvas, "RGB") != english
    press(app, pygame.K_l)
    press(app, pygame.K_l)
    assert voice.languages == ["fr", "it", "en"]


def test_f_toggles_fullscreen(lobby_app: Any) -> None:
    app, _, _ = lobby_app
    press(app, pygame.K_f)
    assert app.fullscreen is True
    press(app, pygame.K_f)
    assert app.fullscreen is False
    press(app, pygame.K_F11)  # round 41's play-test reached for F11 first
    assert app.fullscreen is True


def test_issue13_s_skips_the_current_player_during_a_round_only(make_app: Any) -> None:
    """Round 41's play-test: the TV had no key for a guest who stalls."""
    session = RecordingSession(view("lobby", [player(i) for i in range(3)]))
    app, _ = make_app(session=session)
    press(app, pygame.K_s)
    assert session.calls == [] and app.busy  # the lobby: a notice says when it works
    app.stage.receive(view("turns"), [])
    press(app, pygame.K_s)
    assert session.calls == [("skip_current",)]


def test_issue13_s_too_early_says_when_and_changes_nothing(make_app: Any) -> None:
    session = RecordingSession(view("turns", [player(i) for i in range(3)]), refuse=True)
    app, _ = make_app(session=session)
    app.stage.receive(view("turns"), [])
    before = repr(app.stage)
    press(app, pygame.K_s)
    assert app.running and session.calls == [] and repr(app.stage) == before
    assert app.busy  # "a player can be skipped once their turn has lasted 10 s"


@pytest.mark.parametrize("opener", [pygame.K_n, pygame.K_q, pygame.K_ESCAPE], ids=["N", "Q", "Esc"])
def test_space_never_answers_yes_to_a_question(lobby_app: Any, opener: int) -> None:
    """Round 41's play-test: N then Space wiped the night's standings, Q then Space quit.
    Space is the host's key for the next step; the question says Enter or Esc."""
    app, session, _ = lobby_app
    app.session.new_evening = lambda: session.calls.append(("new_evening",))
    press(app, opener)
    assert isinstance(app.overlays[-1], ConfirmOverlay)
    press(app, pygame.K_SPACE)
    assert isinstance(app.overlays[-1], ConfirmOverlay)  # still asking
    assert session.calls == [] and app.running


def test_space_does_not_choose_in_the_kick_list(lobby_app: Any) -> None:
    app, session, _ = lobby_app
    press(app, pygame.K_k)
    press(app, pygame.K_SPACE)
    assert isinstance(app.overlays[-1], KickOverlay) and session.calls == []


def test_h_and_question_mark_show_help_any_key_closes(
    lobby_app: Any, canvas: pygame.Surface
) -> None:
    app, session, _ = lobby_app
    press(app, pygame.K_h)
    assert isinstance(app.overlays[-1], HelpOverlay)
    app.render(canvas)
    press(app, pygame.K_SPACE)
    assert app.overlays == [] and session.calls == []  # the key closed help, nothing else
    press(app, pygame.K_SLASH, "?")
    assert isinstance(app.overlays[-1], HelpOverlay)


def test_round42_with_help_open_a_settings_key_closes_it_and_does_its_work(
    lobby_app: Any,
) -> None:
    """Round 42's play-test: the host read "L: Language" in the help, pressed L, and the help
    closed with the TV still in English, twice. A key that only changes how the TV looks or
    sounds (L, F/F11, M, - and =) now closes the help and does its work; a key that acts on
    the party (Space, B, K, S, N…) still only closes it."""
    app, session, _ = lobby_app
    press(app, pygame.K_h)
    press(app, pygame.K_l)
    assert app.overlays == [] and app.props.lang == "fr"
    press(app, pygame.K_h)
    press(app, pygame.K_f)
    assert app.overlays == [] and app.fullscreen
    for key in (pygame.K_SPACE, pygame.K_b, pygame.K_k, pygame.K_s, pygame.K_n):
        press(app, pygame.K_h)
        press(app, key)
        assert app.overlays == [], key
    assert session.calls == []


def test_escape_and_q_ask_before_quitting(lobby_app: Any) -> None:
    app, _, _ = lobby_app
    press(app, pygame.K_ESCAPE)
    assert isinstance(app.overlays[-1], ConfirmOverlay) and app.running
    press(app, pygame.K_ESCAPE)
    assert app.overlays == [] and app.running
    press(app, pygame.K_q)
    press(app, pygame.K_RETURN)
    assert app.running is False


def close_window(app: TVApp) -> None:
    app.handle(pygame.event.Event(pygame.QUIT))


def test_window_close_asks_while_anyone_is_seated(lobby_app: Any) -> None:
    """Round 44's play-test: Alt+F4 mid-round ended the party at once, where Q asks. The
    close button asks the same question; Esc keeps the party; closing again quits."""
    app, session, _ = lobby_app
    close_window(app)
    assert isinstance(app.overlays[-1], ConfirmOverlay) and app.running
    press(app, pygame.K_ESCAPE)
    assert app.overlays == [] and app.running
    close_window(app)
    press(app, pygame.K_RETURN)
    assert app.running is False and session.calls == []


def test_window_closed_twice_quits(make_app: Any) -> None:
    app, _ = make_app(session=RecordingSession(view("turns")))
    close_window(app)
    assert app.running
    close_window(app)
    assert app.running is False


def test_window_close_with_nobody_seated_quits_at_once(make_app: Any) -> None:
    app, _ = make_app(session=RecordingSession(view("lobby", [])))
    close_window(app)
    assert app.running is False and app.overlays == []


def test_window_close_over_another_question_asks_to_quit(lobby_app: Any) -> None:
    """The kick list up, a close asks about quitting (it is not taken for a yes to a kick)."""
    app, session, _ = lobby_app
    press(app, pygame.K_k)
    close_window(app)
    assert app.running and app.overlays[-1] is not None
    press(app, pygame.K_RETURN)
    assert app.running is False and session.calls == []


def test_a_refused_host_key_shows_a_notice_and_changes_nothing(
    make_app: Any, canvas: pygame.Surface
) -> None:
    session = RecordingSession(view("lobby", [player(0)]), refuse=True)
    app, _ = make_app(session=session)
    before = repr(app.stage)
    press(app, pygame.K_SPACE)
    assert app.running and session.calls == []
    assert repr(app.stage) == before
    assert app.busy  # the notice is on screen
    app.render(canvas)
