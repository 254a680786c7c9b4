"""The ``cuckoo-party`` command line: every contract flag, help in the user's language."""

from __future__ import annotations

import pytest

from host.cli import build_parser, help_language, main


def test_contract_flags_parse() -> None:
    args = build_parser().parse_args(
        [
            "--headless",
            "--bind",
            "127.0.0.1",
            "--port",
            "8765",
            "--room",
            "TEST",
            "--seed",
            "42",
            "--state",
            "/tmp/s.json",
            "--fresh",
            "--bots",
            "2",
            "--bot-delay",
            "0.5",
            "--lang",
            "fr",
            "--mute",
            "--fullscreen",
            "--house-rules",
            "H1,H3",
            "--public-url",
            "http://10.0.0.5:8000",
            "--turn-timeout",
            "0",
        ]
    )
    assert (args.headless, args.bind, args.port, args.room, args.seed) == (
        True,
        "127.0.0.1",
        8765,
        "TEST",
        42,
    )
    assert (args.state, args.fresh, args.bots, args.bot_delay) == ("/tmp/s.json", True, 2, 0.5)
    assert (args.lang, args.mute, args.fullscreen, args.house_rules) == ("fr", True, True, "H1,H3")
    assert args.public_url == "http://10.0.0.5:8000" and args.turn_timeout == 0


def test_help_language_from_flag_then_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    assert help_language([]) == "it"
    assert help_language(["--lang", "fr", "--help"]) == "fr"
    assert help_language(["--lang=en"]) == "en"
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert help_language([]) == "en"


@pytest.mark.parametrize(
    ("lang", "phrase"),
    [
        ("en", "captions only, no speech"),
        ("fr", "sous-titres seulement, sans voix"),
        ("it", "solo sottotitoli, senza voce"),
    ],
)
def test_help_is_translated(lang: str, phrase: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--lang", lang, "--help"])
    assert done.value.code == 0
    assert phrase in " ".join(capsys.readouterr().out.split())


def test_bad_flag_is_refused_with_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as refused:
        main(["--port", "not-a-number"])
    assert refused.value.code == 2
    assert "--port" in capsys.readouterr().err
