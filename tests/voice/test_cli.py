"""``cuckoo-party test-voice``: speaks or writes a sample line; fails clearly without a voice."""

from __future__ import annotations

import io
import subprocess
import sys
from argparse import Namespace
from pathlib import Path

import pytest

from host.cli import build_parser, main
from host.voice import Pyttsx3Engine, VoiceUnavailable
from host.voice.cli import run_test_voice_command
from host.voice.engine import wav_peak, wav_seconds
from host.voice.playback import PlaybackUnavailable
from tests.voice.fakes import FakePlayer

ROOT = Path(__file__).resolve().parents[2]


class BrokenEngine(Pyttsx3Engine):
    def open(self) -> str:
        raise VoiceUnavailable("pyttsx3 could not start: no driver")


class NoSoundPlayer(FakePlayer):
    def play(self, wav: Path) -> float:
        raise PlaybackUnavailable("no sound output: dsp: No such audio device")


def run(args: Namespace, **kwargs: object) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_test_voice_command(args, out=out, err=err, **kwargs)  # type: ignore[arg-type]
    return code, out.getvalue(), err.getvalue()


def test_parser_routes_the_sub_command_flags() -> None:
    args = build_parser().parse_args(["--lang", "fr", "test-voice", "--out", "x.wav"])
    assert (args.command, args.lang, args.voice_lang, args.out) == (
        "test-voice",
        "fr",
        None,
        "x.wav",
    )


def test_out_writes_an_audible_wav_in_the_chosen_language(tmp_path: Path) -> None:
    target = tmp_path / "sample.wav"
    code, out, err = run(
        Namespace(voice_lang="it", lang="en", out=str(target)),
        engine=Pyttsx3Engine(tmp_path / "cache"),
    )
    assert code == 0, err
    assert wav_seconds(target) > 2.0 and wav_peak(target) > 1000
    assert out.startswith(f"Scritto {target} (") and "con la voce Italian" in out


def test_speaking_plays_the_sample_and_waits_for_it(tmp_path: Path) -> None:
    player = FakePlayer(time_scale=0.1)
    code, out, _ = run(
        Namespace(voice_lang=None, lang="fr", out=None),
        engine=Pyttsx3Engine(tmp_path),
        player_factory=lambda: player,
    )
    assert code == 0
    assert len(player.played) == 1 and not player.busy()  # it waited for the end
    assert out == "Phrase d’essai prononcée avec la voix French (France).\n"


def test_no_voice_exits_non_zero_with_how_to_enable_it(tmp_path: Path) -> None:
    target = tmp_path / "sample.wav"
    code, out, err = run(
        Namespace(voice_lang="en", lang="en", out=str(target)), engine=BrokenEngine(tmp_path)
    )
    assert code == 1 and out == ""
    assert "No voice available: pyttsx3 could not start: no driver." in err
    assert "To enable voice: pip install pyttsx3 espeakng-loader" in err
    assert not target.exists()


def test_no_sound_output_exits_non_zero_and_suggests_out(tmp_path: Path) -> None:
    code, _, err = run(
        Namespace(voice_lang="en", lang="en", out=None),
        engine=Pyttsx3Engine(tmp_path),
        player_factory=NoSoundPlayer,
    )
    assert code == 1 and "--out" in err and "No such audio device" in err


def test_unwritable_out_is_a_clear_error(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "sample.wav"
    code, _, err = run(
        Namespace(voice_lang="en", lang="en", out=str(target)), engine=Pyttsx3Engine(tmp_path)
    )
    assert code == 1 and f"Cannot write {target}" in err and not target.exists()


def test_the_installed_command_line_writes_a_sample(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # not the real ~/.cache
    target = tmp_path / "cli.wav"
    assert main(["test-voice", "--lang", "en", "--out", str(target)]) == 0
    assert wav_seconds(target) > 1.0
    assert list((tmp_path / "cache" / "cuckoo-party" / "voice").glob("*.wav"))


def test_the_command_in_a_fresh_process_is_headless_and_quiet(tmp_path: Path) -> None:
    target = tmp_path / "proc.wav"
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "SDL_AUDIODRIVER": "dummy",
        "PYTHONPATH": str(ROOT),
    }
    done = subprocess.run(
        [sys.executable, "-m", "host.cli", "test-voice", "--lang", "fr", "--out", str(target)],
        check=False,
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\n") == 1 and "Audio saved" not in done.stdout  # one line only
    assert wav_seconds(target) > 1.0
