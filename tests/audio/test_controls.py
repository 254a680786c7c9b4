"""Issue 20 items 4 and 5: M cycles voice and sound / sound only / silent (shown on the TV),
- and = set the music volume, --mute and --no-music, no sound device, ``test-sounds``."""

from __future__ import annotations

import argparse
import io
from pathlib import Path
from typing import Any

import pygame
import pytest

from host.app import _start_sound_board, _voice_player
from host.audio.cli import run_test_sounds_command
from host.audio.library import file_name, sound_names
from host.audio.mixer import SoundUnavailable
from host.audio.synth import read_wav
from host.cli import build_parser, main
from host.i18n import Catalog
from host.tv.app import FRAME_SECONDS, TVApp
from host.tv.rehearsal import Rehearsal
from host.voice.playback import MixerPlayer, SilentPlayer
from tests.audio.conftest import FakeClock, RecordingOutput
from tests.audio.test_cueing import RecordingSounds


class Voice:
    def __init__(self) -> None:
        self.muted = False

    def caption(self) -> str | None:
        return None

    def set_language(self, lang: str) -> None:
        """Not used here."""

    def set_muted(self, muted: bool) -> None:
        self.muted = muted


def press(app: TVApp, key: int) -> None:
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=key, unicode="", mod=0))


@pytest.fixture
def tv() -> tuple[TVApp, Voice, RecordingSounds]:
    pygame.font.init()
    voice, sounds = Voice(), RecordingSounds()
    app = TVApp(
        Rehearsal().session,
        voice,
        Catalog.load(),
        lang="en",
        join_url="http://x/?room=CAKE",
        sounds=sounds,
    )
    return app, voice, sounds


def toast(app: TVApp) -> str:
    assert app._toast is not None
    return app._toast[0]


def test_issue20_m_cycles_voice_and_sound_then_sound_only_then_silent(tv: Any) -> None:
    app, voice, sounds = tv
    assert app.sound_mode == "all"
    press(app, pygame.K_m)
    assert (voice.muted, sounds.muted, app.sound_mode) == (True, False, "sound_only")
    assert toast(app) == "Sound only — voice off, captions stay"
    press(app, pygame.K_m)
    assert (voice.muted, sounds.muted, app.sound_mode) == (True, True, "silent")
    assert toast(app) == "Silent — captions only"
    press(app, pygame.K_m)
    assert (voice.muted, sounds.muted, app.sound_mode) == (False, False, "all")
    assert toast(app) == "Voice and sound on"


def test_issue20_music_volume_keys_step_and_show(tv: Any) -> None:
    app, _, sounds = tv
    press(app, pygame.K_MINUS)
    assert sounds.music_volume == pytest.approx(0.5)
    assert toast(app) == "Music volume 50 %"
    press(app, pygame.K_EQUALS)
    press(app, pygame.K_EQUALS)
    assert sounds.music_volume == pytest.approx(0.7)


def test_issue20_no_music_and_mute_flags_parse() -> None:
    args = build_parser().parse_args(["--no-music", "--mute"])
    assert args.no_music and args.mute
    assert not build_parser().parse_args([]).no_music
    assert build_parser().parse_args(["test-sounds", "--out", "d"]).sounds_out == "d"


def party_args(**flags: Any) -> argparse.Namespace:
    return argparse.Namespace(**{"no_music": False, "mute": False, **flags})


def test_issue20_no_device_one_clear_line_and_a_silent_voice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class NoDevice(RecordingOutput):
        def open(self) -> None:
            raise SoundUnavailable("No available audio device")

    monkeypatch.setattr("host.audio.mixer.PygameOutput", lambda: NoDevice(FakeClock()))
    out = io.StringIO()
    board = _start_sound_board(party_args(), Catalog.load(), "en", out)
    assert board is False
    assert out.getvalue().splitlines() == [
        "No sound output (No available audio device): the party goes on silently, with captions."
    ]
    assert isinstance(_voice_player(board, headless=False), SilentPlayer)


def test_issue20_mute_and_no_music_reach_the_board(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("host.audio.mixer.PygameOutput", lambda: RecordingOutput(FakeClock()))
    monkeypatch.setattr("host.audio.mixer.prepare", dict)
    board: Any = _start_sound_board(
        party_args(mute=True, no_music=True), Catalog.load(), "en", io.StringIO()
    )
    close = board.close
    try:
        assert board.muted and not board.music_enabled
        player = _voice_player(board, headless=False)
        assert isinstance(player, MixerPlayer) and player._speech is board
        assert _voice_player(board, headless=True) is None
    finally:
        close()


def test_issue20_test_sounds_writes_a_wav_named_after_each_cue(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    args = argparse.Namespace(sounds_out=str(tmp_path / "check"), lang="en")
    assert run_test_sounds_command(args, out=out, err=err) == 0
    written = sorted(p.name for p in (tmp_path / "check").iterdir())
    assert written == sorted(file_name(name) for name in sound_names())
    assert "cuckoo.wav" in written and "music_lobby.wav" in written
    for path in (tmp_path / "check").iterdir():
        assert max(abs(f) for f in read_wav(path)) > 10000
    assert len(out.getvalue().splitlines()) == len(sound_names()) and err.getvalue() == ""


def test_issue20_test_sounds_into_a_file_is_refused_clearly(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    err = io.StringIO()
    args = argparse.Namespace(sounds_out=str(blocker), lang="en")
    assert run_test_sounds_command(args, out=io.StringIO(), err=err) == 1
    assert err.getvalue().startswith(f"Cannot write to {blocker}")


def test_issue20_test_sounds_plays_every_sound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    output = RecordingOutput(FakeClock())
    out = io.StringIO()
    args = argparse.Namespace(sounds_out=None, lang="en")
    assert (
        run_test_sounds_command(args, output_factory=lambda: output, out=out, sleep=lambda s: None)
        == 0
    )
    assert [sound for _, _, sound in output.plays()] == [name for name in sound_names()]
    assert out.getvalue().splitlines()[-1] == "Every sound played."


def test_issue20_test_sounds_without_a_device_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class NoDevice(RecordingOutput):
        def open(self) -> None:
            raise SoundUnavailable("No available audio device")

    monkeypatch.setattr("host.audio.cli.PygameOutput", lambda: NoDevice(FakeClock()))
    assert main(["test-sounds"]) == 1
    assert "No sound output: No available audio device." in capsys.readouterr().err


def test_round42_the_music_keys_after_m_leave_the_voice_off(tv: Any) -> None:
    """Round 42's play-test: M (sound only), then - or =, and the caption said "Voice on" and
    the voice spoke again. M did not tell the session the voice was off, so the volume's
    change brought back the session's old voice setting (``VipHooks._apply``). Now M tells
    it, the VIP's phone shows the voice off, and the music keys change the music only."""
    app, voice, _ = tv
    for _ in range(3):
        app.step(FRAME_SECONDS)
    press(app, pygame.K_m)
    assert app.sound_mode == "sound_only"
    assert app.session.view(None)["voice_muted"] is True  # what the VIP's phone shows
    for key in (pygame.K_MINUS, pygame.K_EQUALS):
        press(app, key)
        for _ in range(3):
            app.step(FRAME_SECONDS)
        assert (voice.muted, app.sound_mode) == (True, "sound_only"), key
        assert toast(app).startswith("Music volume")
    press(app, pygame.K_m)  # silent
    press(app, pygame.K_m)  # all again
    for _ in range(3):
        app.step(FRAME_SECONDS)
    assert (voice.muted, app.sound_mode) == (False, "all")
    assert app.session.view(None)["voice_muted"] is False
