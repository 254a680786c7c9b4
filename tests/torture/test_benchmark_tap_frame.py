"""``benchmarks/tap_frame.py`` reads where each tap landed in the TV's frames (issue 18.1)."""

from __future__ import annotations

import pytest

from benchmarks.tap_frame import where_taps_land


def test_issue18_a_tap_is_matched_with_the_frame_it_lands_in_and_its_own_work() -> None:
    renders = [  # (start, end, cpu) seconds: a 2 ms frame every 16 ms, one of 4 ms at 1.000
        (0.968, 0.970, 0.002),
        (0.984, 0.986, 0.002),
        (1.000, 1.004, 0.004),
        (1.016, 1.018, 0.002),
        (1.032, 1.034, 0.002),
    ]
    acts = [(0.500, 0.503, 0.002), (1.003, 1.008, 0.003)]  # an earlier tap, then this one
    figures = where_taps_land([(1.001, 1.010)], renders, acts)
    assert figures["render at the tap"] == pytest.approx(4.0)  # not the 2 ms frames around it
    assert figures["render p50"] == pytest.approx(2.0)
    assert figures["tap after render start"] == pytest.approx(1.0)
    assert figures["wait before act"] == pytest.approx(2.0)
    assert figures["act wall"] == pytest.approx(5.0)
    assert figures["act cpu"] == pytest.approx(3.0)


def test_a_tap_between_frames_lands_in_none_and_medians_span_the_taps() -> None:
    renders = [(0.0, 0.002, 0.002), (0.100, 0.103, 0.003)]
    figures = where_taps_land([(0.050, 0.052), (0.101, 0.104)], renders, [])
    assert figures["render at the tap"] == pytest.approx((0.0 + 3.0) / 2)  # 0 for the first
    assert figures["tap after render start"] == pytest.approx((50.0 + 1.0) / 2)
    assert figures["wait before act"] != figures["wait before act"]  # NaN: no act was timed
