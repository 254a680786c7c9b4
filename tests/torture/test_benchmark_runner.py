"""``python -m benchmarks`` survives a missing or failing module and still prints its table."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_runner_reports_missing_and_failing_modules_and_keeps_the_others(tmp_path: Path) -> None:
    markdown = tmp_path / "table.md"
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--only",
         "no_such_benchmark,tests.torture.bench_fixture_fails,tests.torture.bench_fixture_ok",
         "--timeout", "120", "--markdown", str(markdown)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )
    out = done.stdout
    assert done.returncode == 1, out + done.stderr  # not everything ran: say so
    table = out[out.rindex("module"):]
    assert "no_such_benchmark" in table and "[missing" in table
    assert "tests.torture.bench_fixture_fails" in table and "[failed (exit 1)" in table
    assert "this benchmark broke on purpose" in out
    ok_row = next(line for line in table.splitlines() if "stand-in figure" in line)
    assert "42 ms" in ok_row and "<= 50 ms" in ok_row
    assert "a line of the module's own output" in out
    assert "| tests.torture.bench_fixture_ok | stand-in figure | 42 ms | <= 50 ms |" in (
        markdown.read_text(encoding="utf-8"))
