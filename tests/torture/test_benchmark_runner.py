"""``python -m benchmarks`` survives a missing or failing module and still prints its table."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_runner_reports_missing_and_failing_modules_and_keeps_the_others(tmp_path: Path) -> None:
    markdown = tmp_path / "table.md"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks",
            "--only",
            "no_such_benchmark,tests.torture.bench_fixture_fails,tests.torture.bench_fixture_ok",
            "--timeout",
            "120",
            "--markdown",
            str(markdown),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    out = done.stdout
    assert done.returncode == 1, out + done.stderr  # not everything ran: say so
    table = out[out.rindex("module") :]
    assert "no_such_benchmark" in table and "[missing" in table
    assert "tests.torture.bench_fixture_fails" in table and "[failed (exit 1)" in table
    assert "this benchmark broke on purpose" in out
    ok_row = next(line for line in table.splitlines() if "stand-in figure" in line)
    assert "42 ms" in ok_row and "<= 50 ms" in ok_row
    assert "a line of the module's own output" in out
    assert "| tests.torture.bench_fixture_ok | stand-in figure | 42 ms | <= 50 ms |" in (
        markdown.read_text(encoding="utf-8")
    )


def test_engine_benchmark_plays_every_round_through_the_validating_apply() -> None:
    """The engine figure (issue 2) counts whole rounds: deal, ten moves and the reveal (R5–R13).

    Not a speed test: it checks that the harness plays what it says, so its figure means
    something. Every move goes through ``Game.apply``, whose refusals raise.
    """
    from unittest import mock

    from benchmarks.engine import rounds_per_second
    from host.rules import Event, Game

    real_apply = Game.apply
    calls: list[tuple[str, str]] = []

    def counting_apply(self: Game, player_id: str, action: str) -> list[Event]:
        calls.append((player_id, action))
        return real_apply(self, player_id, action)

    with mock.patch.object(Game, "apply", counting_apply):
        rate = rounds_per_second(40, players=10, seed=3)
    assert rate > 0
    # start, then per round ten moves and the next deal.
    assert len(calls) == 1 + 40 * 11
    moves = [action for _, action in calls if action in ("keep", "exchange", "cut")]
    assert len(moves) == 400
    assert {"keep", "exchange", "cut"} <= set(moves)  # random moves, not one kind
    assert sum(action == "deal" for _, action in calls) == 40


def test_issue18_several_runs_give_each_number_its_median_and_spread() -> None:
    """Issue 18 item 6: figures are medians of runs with their spread, number by number."""
    from benchmarks.__main__ import combine

    assert combine(["7.8 / 12.8 ms", "8.4 / 14.0 ms", "7.5 / 12.1 ms"]) == (
        "7.8 / 12.8 ms [7.5–8.4 / 12.1–14.0]"
    )
    assert combine(["+3.4 MB", "-0.2 MB", "+1.0 MB"]) == "+1.0 MB [-0.2–+3.4]"
    assert combine(["73,713", "71,002", "73,321"]) == "73,321 [71,002–73,713]"
    assert combine(["2.53x"]) == "2.53x"  # one run: as measured
    assert combine(["12 ms", "timed out"]) == "12 ms | timed out"  # never a made-up median
