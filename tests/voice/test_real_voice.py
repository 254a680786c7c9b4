"""Real speech: espeak-ng through pyttsx3 renders each language with a voice of that language."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from host.i18n import LANGUAGES, Catalog
from host.rules import Call
from host.voice import Announcer, Pyttsx3Engine, VoiceUnavailable
from host.voice.engine import init_pyttsx3, pick_voice, wav_peak, wav_seconds
from host.voice.playback import MixerPlayer
from tests.voice.fakes import table_view, wait_for

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Pyttsx3Engine:
    real = Pyttsx3Engine(tmp_path_factory.mktemp("voice-cache"))
    real.open()
    return real


@pytest.mark.parametrize("lang", LANGUAGES)
def test_r7_cuckoo_is_rendered_audibly_in_each_language(
    engine: Pyttsx3Engine, catalog: Catalog, lang: str
) -> None:
    wav = engine.render(catalog.t(lang, "voice.cuckoo"), lang)
    assert wav_seconds(wav) > 0.3
    assert wav_peak(wav) > 1000  # not silence


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_gets_a_voice_of_that_language(engine: Pyttsx3Engine, lang: str) -> None:
    voice = engine.voice_for(lang)
    assert voice is not None
    assert any(tag.split("-")[0] == lang for tag in voice.languages), (lang, voice)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_accented_names_are_rendered_with_the_languages_voice(
    engine: Pyttsx3Engine, catalog: Catalog, lang: str
) -> None:
    sample = catalog.t(lang, "voice.sample")
    assert {"Chloé", "Niccolò", "François"} <= set(
        sample.replace(",", " ").replace(".", " ").split()
    )
    wav = engine.render(sample, lang)
    assert wav_seconds(wav) > 2.0 and wav_peak(wav) > 1000
    # The same text in another language's voice is another recording, cached apart.
    other = engine.render(sample, "en" if lang != "en" else "fr")
    assert other != wav and other.read_bytes() != wav.read_bytes()


def test_the_cache_returns_a_line_without_rendering_again(engine: Pyttsx3Engine) -> None:
    first = engine.render("Marie cuts the deck…", "en")
    size, inode = first.stat().st_size, first.stat().st_ino
    again = engine.render("Marie cuts the deck…", "en")
    assert again == first and (again.stat().st_size, again.stat().st_ino) == (size, inode)
    assert not list(first.parent.glob("*.part.wav"))  # no half-written files left


def test_the_real_announcer_speaks_through_the_mixer(catalog: Catalog, tmp_path: Path) -> None:
    announcer = Announcer(catalog, "it", engine=Pyttsx3Engine(tmp_path), player=MixerPlayer())
    announcer.start()
    try:
        assert announcer.voice_status().startswith("Voce: Italian")
        announcer.announce(
            [
                {
                    "type": "blocked",
                    "player": "p2",
                    "target": "p4",
                    "king": "KC",
                    "call": Call.CUCKOO,
                }
            ],
            table_view(),
        )
        assert wait_for(lambda: len(announcer.said()) >= 1, timeout=5.0)
        first = announcer.said()[0]
        assert first.line.text == "Cuckoo!" and first.audio
        assert first.started - first.line.born < 10.0  # latency figures: benchmarks/voice.py
    finally:
        announcer.close()


def test_init_retries_with_the_bundled_espeak_when_pyttsx3_fails() -> None:
    attempts: list[str] = []
    loaded: list[str] = []

    def init() -> object:
        attempts.append("init")
        if not loaded:
            raise OSError("libespeak-ng.so.1: cannot open shared object file")
        return SimpleNamespace(ok=True)

    def load_bundled() -> str:
        loaded.append("bundled")
        return "/bundled/libespeak-ng.so"

    assert init_pyttsx3(init, load_bundled, platform="linux").ok
    assert attempts == ["init", "init"] and loaded == ["bundled"]


def test_init_gives_a_clear_error_when_no_engine_can_start() -> None:
    def init() -> object:
        raise RuntimeError("no driver")

    with pytest.raises(VoiceUnavailable, match="no driver"):
        init_pyttsx3(init, lambda: "", platform="linux")
    loaded: list[str] = []

    def load_bundled() -> str:
        loaded.append("bundled")
        return ""

    with pytest.raises(VoiceUnavailable):  # no espeak-ng fallback off Linux
        init_pyttsx3(init, load_bundled, platform="win32")
    assert loaded == []


def test_the_bundled_espeak_ng_from_pip_renders_speech(tmp_path: Path) -> None:
    """In a fresh process: load espeakng-loader's library first, then pyttsx3 must use it."""
    script = textwrap.dedent(f"""
        import sys
        from pathlib import Path
        from host.voice.engine import load_bundled_espeak, wav_peak
        from host.voice.synth import render_line
        library = load_bundled_espeak()
        wav = Path({str(tmp_path)!r}) / "bundled.wav"
        seconds = render_line("Cuckoo !", "roa/fr", 175, wav)
        maps = Path("/proc/self/maps").read_text()
        assert library in maps, "the bundled library is not the one loaded"
        assert "/usr/lib/x86_64-linux-gnu/libespeak-ng" not in maps
        print(seconds, wav_peak(wav), file=sys.stderr)
    """)
    done = subprocess.run(
        [sys.executable, "-c", "import sys\n" + script],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    seconds, peak = done.stderr.split()
    assert float(seconds) > 0.3 and int(peak) > 1000


def test_works_from_pip_alone_when_no_system_espeak_is_found(tmp_path: Path) -> None:
    """A fresh process where loading espeak by name fails (as on a machine without the
    espeak-ng package): ``pyttsx3.init()`` fails, the bundled library is loaded, speech works."""
    script = textwrap.dedent(f"""
        import ctypes
        from pathlib import Path
        import espeakng_loader

        bundled = espeakng_loader.get_library_path()
        real_load = ctypes.cdll.LoadLibrary

        def load_without_system_espeak(name, *args, **kwargs):
            loaded = bundled in Path("/proc/self/maps").read_text()
            if "espeak" in str(name) and not loaded:
                raise OSError(f"{{name}}: cannot open shared object file")
            return real_load(name, *args, **kwargs)

        ctypes.cdll.LoadLibrary = load_without_system_espeak
        import pyttsx3
        try:
            pyttsx3.init()
        except Exception:
            pass
        else:
            raise SystemExit("the simulation failed: pyttsx3 started without espeak")
        import sys
        from host.voice.engine import wav_peak
        from host.voice.synth import list_voices, render_line
        assert list_voices()["voices"]["it"]["id"] == "roa/it"
        wav = Path({str(tmp_path)!r}) / "pip.wav"
        seconds = render_line("Cuckoo!", "roa/it", 175, wav)
        maps = Path("/proc/self/maps").read_text()
        assert bundled in maps and "/usr/lib/x86_64-linux-gnu/libespeak-ng" not in maps
        print(seconds, wav_peak(wav), file=sys.stderr)
    """)
    done = subprocess.run(
        [sys.executable, "-c", script],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr + done.stdout
    seconds, peak = done.stderr.split()
    assert float(seconds) > 0.3 and int(peak) > 1000


def test_pick_voice_prefers_the_languages_own_tags() -> None:
    voices = [
        SimpleNamespace(id="roa/fr-be", name="French (Belgium)", languages=["fr-be"]),
        SimpleNamespace(id="roa/fr", name="French (France)", languages=["fr-fr"]),
        SimpleNamespace(id="win-it", name="Microsoft Elsa - Italian (Italy)", languages=[]),
    ]
    french, italian = pick_voice(voices, "fr"), pick_voice(voices, "it")
    assert french is not None and french.id == "roa/fr"
    assert italian is not None and italian.id == "win-it"  # by name when the engine has no tags
    assert pick_voice(voices, "en") is None


def test_a_hung_synthesiser_process_is_killed_and_reported(tmp_path: Path) -> None:
    hung = Pyttsx3Engine(
        tmp_path, timeout_s=0.5, command=[sys.executable, "-c", "import time; time.sleep(30)"]
    )
    began = time.perf_counter()
    with pytest.raises(VoiceUnavailable, match="did not answer within 0.5 s"):
        hung.open()
    assert time.perf_counter() - began < 10.0  # killed, not waited for (30 s)


def test_a_crashing_synthesiser_process_gives_its_last_words(tmp_path: Path) -> None:
    crashing = Pyttsx3Engine(
        tmp_path,
        command=[
            sys.executable,
            "-c",
            "import sys; print('noise'); sys.exit('espeak: segmentation fault')",
        ],
    )
    with pytest.raises(VoiceUnavailable, match="espeak: segmentation fault"):
        crashing.open()


@pytest.mark.parametrize(
    "lang, voice_id, name",
    [("fr", "roa/fr", "Chloé"), ("it", "roa/it", "Niccolò"), ("fr", "roa/fr", "François")],
)
def test_accented_names_reach_the_synthesiser_intact(
    engine: Pyttsx3Engine, tmp_path: Path, lang: str, voice_id: str, name: str
) -> None:
    """Through the engine (text sent to the child on stdin), "Chloé" sounds exactly as when
    the name is handed to pyttsx3 directly — and not like a wrongly decoded "ChloÃ©"."""
    voice = engine.voice_for(lang)
    assert voice is not None and voice.id == voice_id
    spoken = engine.render(name, lang).read_bytes()

    def direct(text: str, out: Path) -> bytes:
        script = (
            "import sys; from pathlib import Path; from host.voice.synth import render_line;"
            " render_line(sys.argv[1], sys.argv[2], int(sys.argv[3]), Path(sys.argv[4]))"
        )
        done = subprocess.run(
            [sys.executable, "-c", script, text, voice_id, str(engine.rate), str(out)],
            check=False,
            cwd=ROOT,
            capture_output=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        return out.read_bytes()

    assert spoken == direct(name, tmp_path / "direct.wav")
    assert spoken != direct(name.encode("utf-8").decode("latin-1"), tmp_path / "garbled.wav")


def test_the_cache_keeps_only_the_newest_lines(tmp_path: Path) -> None:
    engine = Pyttsx3Engine(tmp_path)
    for i in range(5):
        line = tmp_path / f"line{i}.wav"
        line.write_bytes(b"RIFF")
        os.utime(line, (1000 + i, 1000 + i))
    assert engine.prune_cache(keep=2) == 3
    assert sorted(p.name for p in tmp_path.glob("*.wav")) == ["line3.wav", "line4.wav"]
