"""Issue 20 items 2 and 4: the sound board — effects on their own channels (never the voice's),
music that follows the TV and its volume, mute, --no-music, no device, nothing blocking."""

from __future__ import annotations

import threading
import time
import wave
from pathlib import Path
from typing import Any

import pytest

from host.audio.library import prepare
from host.audio.mixer import (
    EFFECT_CHANNELS,
    MUSIC_CHANNELS,
    MUSIC_FADE_S,
    RESERVED,
    STALE_CUE_S,
    PygameOutput,
    SoundBoard,
    SoundUnavailable,
)
from host.voice.playback import MixerPlayer
from tests.audio.conftest import FakeClock, RecordingOutput, fake_paths


def loaded_board(output: RecordingOutput, clock: FakeClock, **flags: Any) -> SoundBoard:
    board = SoundBoard(output=output, clock=clock, loader=fake_paths, **flags)
    board.load()
    return board


def test_issue20_cues_play_on_effect_channels_and_music_on_its_own(
    output: RecordingOutput, clock: FakeClock
) -> None:
    board = loaded_board(output, clock)
    board.play_music("lobby")
    for name in ("swap", "deal", "deal", "turn"):
        board.cue(name)
    board.tick(clock.now)
    plays = output.plays()
    assert [sound for _, _, sound in plays if sound != "lobby"] == ["swap", "deal", "deal", "turn"]
    assert all(channel in EFFECT_CHANNELS for _, channel, sound in plays if sound != "lobby")
    assert next(channel for _, channel, sound in plays if sound == "lobby") in MUSIC_CHANNELS
    assert len({channel for _, channel, sound in plays if sound != "lobby"}) == 4  # no cut-offs


def test_issue20_many_cues_at_once_reuse_effect_channels_only(
    output: RecordingOutput, clock: FakeClock
) -> None:
    board = loaded_board(output, clock)
    for _ in range(20):
        board.cue("deal")
        board.tick(clock.now)
    assert {channel for _, channel, _ in output.plays()} <= set(EFFECT_CHANNELS)


def test_issue20_stale_and_unknown_cues_are_dropped(
    output: RecordingOutput, clock: FakeClock
) -> None:
    board = loaded_board(output, clock)
    board.cue("swap")
    board.cue("no_such_cue")
    board.cue("lobby")  # a loop is not a cue
    clock.now += STALE_CUE_S + 0.1  # the picture has moved on
    board.tick(clock.now)
    assert output.plays() == []


def test_issue20_mute_silences_music_and_effects(output: RecordingOutput, clock: FakeClock) -> None:
    board = loaded_board(output, clock, muted=True)
    board.play_music("lobby")
    board.cue("join")
    board.tick(clock.now)
    assert [sound for _, _, sound in output.plays()] == ["lobby"]  # ready, at volume 0
    channel = output.plays()[0][1]
    assert output.volume_at(channel, clock.now) == 0.0
    board.set_muted(False)
    clock.now = 2 * MUSIC_FADE_S
    board.tick(clock.now)
    assert output.volume_at(channel, clock.now) == pytest.approx(board.music_volume)


def test_issue20_no_music_flag_plays_no_loop(output: RecordingOutput, clock: FakeClock) -> None:
    board = loaded_board(output, clock, music=False)
    board.play_music("lobby")
    board.cue("join")
    board.tick(clock.now)
    assert [sound for _, _, sound in output.plays()] == ["join"]


def test_issue20_music_cross_fades_from_lobby_to_game(
    output: RecordingOutput, clock: FakeClock
) -> None:
    board = loaded_board(output, clock)
    board.play_music("lobby")
    board.tick(0.0)
    clock.now = 5.0
    board.play_music("game")
    board.tick(5.0)
    lobby = next(c for _, c, s in output.plays() if s == "lobby")
    game = next(c for _, c, s in output.plays() if s == "game")
    assert lobby != game
    board.tick(5.0 + MUSIC_FADE_S / 2)
    assert 0 < output.volume_at(game, 5.0 + MUSIC_FADE_S / 2) < board.music_volume
    clock.now = 5.0 + MUSIC_FADE_S + 0.01
    assert board.tick(clock.now) is None  # settled: the thread may sleep
    assert ("stop", lobby) in [(what, chan) for _, what, chan, _ in output.calls]
    assert output.volume_at(game, clock.now) == pytest.approx(board.music_volume)


def test_issue20_music_volume_is_clamped_and_applied(
    output: RecordingOutput, clock: FakeClock
) -> None:
    board = loaded_board(output, clock)
    assert board.set_music_volume(1.7) == 1.0
    assert board.set_music_volume(-3) == 0.0
    assert board.set_music_volume(0.35) == 0.35
    board.play_music("game")
    clock.now = MUSIC_FADE_S + 0.1
    board.tick(0.0)
    board.tick(clock.now)
    channel = output.plays()[0][1]
    assert output.volume_at(channel, clock.now) == pytest.approx(0.35)


def test_issue20_no_device_gives_a_reason_and_starts_nothing() -> None:
    class NoDevice(RecordingOutput):
        def open(self) -> None:
            raise SoundUnavailable("No available audio device")

    board = SoundBoard(output=NoDevice(FakeClock()), loader=fake_paths)
    assert board.start() == "No available audio device"
    board.cue("swap")  # still safe to call
    board.close()


def test_issue20_cue_never_waits_for_the_output(clock: FakeClock) -> None:
    """The TV's call only queues: even an output stuck in ``play`` cannot hold a frame."""
    release = threading.Event()

    class StuckOutput(RecordingOutput):
        def play(self, channel: int, sound: Any, loops: int) -> None:
            super().play(channel, sound, loops)
            release.wait(5.0)

    output = StuckOutput(clock)
    board = SoundBoard(output=output, clock=clock, loader=fake_paths)
    board.start()
    try:
        deadline = time.monotonic() + 5
        while not output.plays() and time.monotonic() < deadline:
            board.cue("swap")  # the first play sticks on the board's thread
            time.sleep(0.01)
        for _ in range(100):
            board.cue("deal")  # returns although the board is stuck
            board.play_music("game")
            board.set_music_volume(0.4)
        # 100 rounds of calls came back while the board's thread is still stuck in one play
        assert not release.is_set()
        assert [what for _, what, _, _ in output.calls].count("play") == 1
        assert output.threads == {"sound-board"}  # the caller's thread never touched it
    finally:
        release.set()
        board.close()


def write_tone(path: Path, seconds: float) -> Path:
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(22050)
        wav.writeframes(b"\x00\x10\x00\xf0" * round(22050 * seconds / 2))
    return path


def test_issue20_effects_never_cut_a_spoken_line(tmp_path: Path) -> None:
    """Real pygame.mixer (SDL's dummy driver): the voice plays on an unreserved channel and
    keeps it while the board fires far more cues than it has channels."""
    pygame = pytest.importorskip("pygame")
    board = SoundBoard(output=PygameOutput(), loader=lambda: prepare(tmp_path / "sounds"))
    assert board.start() is None
    try:
        assert board.wait_ready(60.0)
        player = MixerPlayer(speech=board)
        player.play(write_tone(tmp_path / "line.wav", 3.0))
        voice = player._channel
        voice_sound = voice.get_sound()
        deadline = time.monotonic() + 5
        while board.gain(time.monotonic()) == 1.0 and time.monotonic() < deadline:
            time.sleep(0.005)
        assert board.gain(time.monotonic()) < 1.0  # the voice told the board: ducking
        for _ in range(40):
            for name in ("deal", "swap", "turn", "drumroll"):
                board.cue(name)
            time.sleep(0.01)  # the board's thread plays them
        assert voice.get_busy() and voice.get_sound() is voice_sound
        channels = [pygame.mixer.Channel(i) for i in range(pygame.mixer.get_num_channels())]
        index = next(i for i, channel in enumerate(channels) if channel.get_sound() is voice_sound)
        assert index >= RESERVED
        assert any(channels[i].get_busy() for i in EFFECT_CHANNELS)
        player.stop()
        deadline = time.monotonic() + 5
        while board._ducker.speaking(time.monotonic()) and time.monotonic() < deadline:
            time.sleep(0.005)
        assert not board._ducker.speaking(time.monotonic())
    finally:
        board.close()
        pygame.mixer.quit()


def test_issue20_a_board_started_muted_opens_and_loads_nothing_until_unmuted(
    clock: FakeClock,
) -> None:
    opened: list[str] = []
    loaded: list[int] = []

    class Watched(RecordingOutput):
        def open(self) -> None:
            opened.append(threading.current_thread().name)

    def loader() -> dict[str, Path]:
        loaded.append(1)
        return fake_paths()

    output = Watched(clock)
    board = SoundBoard(output=output, clock=clock, loader=loader, muted=True)
    assert board.start() is None
    try:
        board.play_music("lobby")
        board.cue("join")
        assert not board.wait_ready(0.2)
        assert opened == [] and loaded == []
        board.set_muted(False)  # M
        assert board.wait_ready(5.0)
        assert opened == ["sound-board"] and loaded == [1]
        deadline = time.monotonic() + 5
        while not output.plays() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert [sound for _, _, sound in output.plays()] == ["lobby"]  # the stale cue is gone
    finally:
        board.close()
