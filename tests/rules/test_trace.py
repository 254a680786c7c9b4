"""Issue 16: the differential trace that pins the engine's behaviour can see a change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import trace
from host.rules.options import HouseRules


def test_issue16_a_recording_compares_equal_to_the_same_engine(tmp_path: Path) -> None:
    path = tmp_path / "trace.json"
    trace.record(path, games=3)
    assert trace.compare(path) == 0


def test_issue16_a_changed_rule_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "trace.json"
    trace.record(path, games=3)
    recording = json.loads(path.read_text())
    assert len(recording["games"]) == 3 and all(recording["games"].values())
    # R3 changed behind the trace's back: four lives instead of three.
    monkeypatch.setattr(HouseRules, "starting_lives", property(lambda self: 4))
    assert trace.compare(path) == 1
    assert "DIFFERENT: game 0" in capsys.readouterr().out
