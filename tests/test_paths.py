"""Per-system folders for the saved game, the voice cache and the logs (issue 17)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from host import paths


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the XDG branch is Linux's")
def test_linux_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert paths.state_path() == tmp_path / "data" / "cuckoo-party" / "state.json"
    assert paths.cache_dir() == tmp_path / "cache" / "cuckoo-party"
    assert paths.log_dir() == tmp_path / "state" / "cuckoo-party" / "log"


def test_macos_uses_library_folders(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/Users/ana")
    assert paths.state_path("darwin") == Path(
        "/Users/ana/Library/Application Support/cuckoo-party/state.json"
    )
    assert paths.cache_dir("darwin") == Path("/Users/ana/Library/Caches/cuckoo-party")
    assert paths.log_dir("darwin") == Path("/Users/ana/Library/Logs/cuckoo-party")


def test_windows_uses_local_app_data(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shell API call is faked with platformdirs' own reading of the variables."""
    from platformdirs import windows

    monkeypatch.setattr(windows, "get_win_folder", windows.get_win_folder_from_env_vars)
    local = "C:\\Users\\Ana\\AppData\\Local"
    monkeypatch.setenv("LOCALAPPDATA", local)
    monkeypatch.setenv("APPDATA", "C:\\Users\\Ana\\AppData\\Roaming")
    state = str(paths.state_path("win32"))
    assert state.startswith(local) and state.endswith("state.json")
    assert "cuckoo-party" in state
    assert str(paths.cache_dir("win32")).startswith(local)
    assert str(paths.log_dir("win32")).startswith(local)


def test_voice_cache_lives_in_the_cache_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from host.voice.engine import default_cache_dir

    monkeypatch.setattr(paths, "cache_dir", lambda platform=None: tmp_path / "c")
    assert default_cache_dir() == tmp_path / "c" / "voice"
