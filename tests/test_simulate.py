"""``cuckoo-party simulate``: win rates per strategy and seat, and a confidence interval."""

from __future__ import annotations

import pytest

from host.cli import main
from host.rules import HouseRules
from host.simulate import simulate


def test_simulate_reports_rates_and_a_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "simulate",
            "--games",
            "200",
            "--players",
            "4",
            "--strategies",
            "random,simple",
            "--seed",
            "3",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0
    assert "200/200" in err  # the progress bar reached the end
    assert "random:" in out and "simple:" in out and "seat 4:" in out
    assert "95 % CI" in out
    assert "simple is stronger than random." in out  # the seed's advice beats coin flips


def test_simulate_shares_add_up_and_are_reproducible() -> None:
    first = simulate(120, 5, ["simple", "smart"], HouseRules(), seed=9)
    again = simulate(120, 5, ["simple", "smart"], HouseRules(), seed=9)
    assert first.wins_by_seat == again.wins_by_seat
    assert abs(sum(first.wins_by_seat) - 120) < 1e-6  # joint winners split one win
    assert abs(sum(first.wins_by_strategy.values()) - 120) < 1e-6
    # Rotation: even games seat simple 3x and smart 2x, odd games the other way round.
    assert first.seats_by_strategy == {"simple": 300, "smart": 300}
    mean, low, high = first.edge_interval()
    assert low <= mean <= high


def test_simulate_with_house_rules_and_big_table() -> None:
    result = simulate(20, 14, ["random"], HouseRules.parse("H1,H3,H5,H7"), seed=1)
    assert abs(sum(result.wins_by_seat) - 20) < 1e-6
    assert all(w == int(w) for w in result.wins_by_seat)  # H5: never a shared win


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--strategies", "genius"],
        ["simulate", "--players", "2"],
        ["simulate", "--players", "11"],
        ["simulate", "--house-rules", "H9"],
    ],
)
def test_simulate_bad_arguments_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv + ["--no-progress", "--games", "5"]) == 2
    assert capsys.readouterr().err.strip()
