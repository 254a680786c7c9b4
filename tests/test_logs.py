"""Issue 16 item 6: logging is configured once by the command, with a rotated file."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from host.cli import _party_log_file, build_parser
from host.logs import BACKUPS, LOG_FILE, configure_logging


@pytest.fixture(autouse=True)
def restore_root_logger() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for handler in list(root.handlers):
        if handler not in handlers:
            root.removeHandler(handler)
            handler.close()
    root.setLevel(level)


def test_issue16_the_log_file_sits_beside_the_state_file(tmp_path: Path) -> None:
    args = build_parser().parse_args(["--state", str(tmp_path / "party" / "state.json")])
    assert _party_log_file(args) == tmp_path / "party" / LOG_FILE
    assert _party_log_file(build_parser().parse_args(["simulate"])) is None


def test_issue16_info_goes_to_the_file_and_debug_only_when_verbose(tmp_path: Path) -> None:
    log_file = tmp_path / LOG_FILE
    configure_logging(log_file=log_file)
    logging.getLogger("host.test").info("dealt round 3")
    logging.getLogger("host.test").debug("a detail")
    configure_logging(verbose=True, log_file=log_file)  # replaces the first configuration
    logging.getLogger("host.test").debug("a detail when verbose")
    text = log_file.read_text(encoding="utf-8")
    assert "dealt round 3" in text and "a detail when verbose" in text
    assert "a detail\n" not in text
    ours = [h for h in logging.getLogger().handlers if getattr(h, "_cuckoo_party_handler", False)]
    assert len(ours) == 2  # one console, one file: configuring twice does not stack handlers


def test_issue16_the_log_file_is_rotated(tmp_path: Path) -> None:
    log_file = tmp_path / LOG_FILE
    configure_logging(log_file=log_file, max_bytes=2_000)
    for i in range(200):
        logging.getLogger("host.test").info("line %d of a long party", i)
    rotated = sorted(p.name for p in tmp_path.iterdir())
    assert rotated == [LOG_FILE] + [f"{LOG_FILE}.{n}" for n in range(1, BACKUPS + 1)]
    assert all(p.stat().st_size <= 2_000 for p in tmp_path.iterdir())


def test_issue16_verbose_is_a_flag_of_the_command() -> None:
    assert build_parser().parse_args(["--verbose"]).verbose is True
    assert build_parser().parse_args([]).verbose is False
