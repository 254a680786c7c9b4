"""The game's end benchmark (``benchmarks/game_end.py``, issue 18 item 3) times what it says:
a real game played to its end, the TV showing the final board while its confetti falls."""

from __future__ import annotations

from benchmarks import game_end


def test_issue18_the_game_end_benchmark_times_frames_of_falling_confetti() -> None:
    median, falling = game_end.one_run(frames=5)
    assert falling  # the figure is not that of a still board
    assert 0 < median < 1000
