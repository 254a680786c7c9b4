"""The queue's staleness rule: late lines are dropped so the voice stays with the game."""

from __future__ import annotations

import pytest

from host.voice.lines import MAX_WAITING, Line, LineQueue


def line(text: str, kind: str, born: float, batch: int) -> Line:
    return Line(text, "en", kind, born, batch)


def drain(queue: LineQueue, now: float) -> list[str]:
    said = []
    while (taken := queue.take(now)) is not None:
        said.append(taken.text)
    return said


def test_fresh_lines_are_said_in_order() -> None:
    queue = LineQueue(max_lag_s=2.0)
    queue.put([line("Cuckoo!", "blocked", 10.0, 1), line("Chloé shows…", "blocked", 10.0, 1)])
    queue.put([line("Dan?", "turn", 10.5, 2)])
    assert drain(queue, 11.0) == ["Cuckoo!", "Chloé shows…", "Dan?"]
    assert queue.dropped() == []


def test_late_routine_lines_are_dropped_once_something_newer_waits() -> None:
    queue = LineQueue(max_lag_s=2.0)
    queue.put([line("Bo swaps with Chloé.", "exchanged", 10.0, 1)])
    queue.put([line("Chloé keeps.", "kept", 11.0, 2)])
    queue.put([line("Marie, keep or cut?", "turn", 12.9, 3)])
    # At 13.5 the first two are more than 2 s old and newer lines wait behind them.
    assert drain(queue, 13.5) == ["Marie, keep or cut?"]
    assert [dropped.text for dropped in queue.dropped()] == ["Bo swaps with Chloé.", "Chloé keeps."]


def test_r7_r11_moments_of_the_game_outlive_routine_lines() -> None:
    queue = LineQueue(max_lag_s=2.0)
    queue.put(
        [
            line("Marie cuts the deck…", "cut", 10.0, 1),
            line("…and takes it.", "cut_taken", 10.0, 1),
            line("Cards up!", "reveal", 10.0, 1),
            line("Bo loses a life: 2 left.", "life_lost", 10.0, 1),
        ]
    )
    queue.put(
        [line("Round 4 — Chloé deals.", "round_dealt", 11.5, 2), line("Dan?", "turn", 11.5, 2)]
    )
    # 4 s late: the routine half of the cut goes, the reveal and the lost life stay.
    assert drain(queue, 14.0) == [
        "Cards up!",
        "Bo loses a life: 2 left.",
        "Round 4 — Chloé deals.",
        "Dan?",
    ]
    queue.put([line("Cuckoo!", "blocked", 20.0, 3)])
    queue.put([line("Eve?", "turn", 23.0, 4)])
    # A moment more than 2 × 2 s late, with a newer moment waiting, is finally let go.
    assert drain(queue, 24.1) == ["Eve?"]


def test_the_newest_line_is_said_however_late() -> None:
    queue = LineQueue(max_lag_s=2.0)
    queue.put([line("Marie wins the game!", "game_over", 0.0, 1)])
    assert drain(queue, 30.0) == ["Marie wins the game!"]


def test_a_turn_prompt_is_dropped_when_a_later_turn_began() -> None:
    queue = LineQueue(max_lag_s=2.0)
    queue.put([line("Bo keeps.", "kept", 10.0, 1), line("Chloé?", "turn", 10.0, 1)])
    queue.put([line("Chloé keeps.", "kept", 10.3, 2), line("Dan?", "turn", 10.3, 2)])
    assert drain(queue, 10.4) == ["Bo keeps.", "Chloé keeps.", "Dan?"]


def test_important_lines_of_the_latest_moment_survive_but_routine_ones_do_not() -> None:
    queue = LineQueue(max_lag_s=2.0)
    queue.put(
        [
            line("Cards up!", "reveal", 10.0, 1),
            line("Bo keeps.", "kept", 10.0, 1),
            line("Bo is out!", "eliminated", 10.0, 1),
            line("Chloé?", "turn", 10.0, 1),
        ]
    )
    assert drain(queue, 13.0) == ["Cards up!", "Bo is out!", "Chloé?"]


def test_the_queue_is_bounded() -> None:
    queue = LineQueue(max_lag_s=2.0)
    queue.put([line(str(i), "kept", 0.0, i) for i in range(MAX_WAITING + 10)])
    assert len(queue) == MAX_WAITING
    assert len(queue.dropped()) == 10


def test_bad_lag_is_refused() -> None:
    with pytest.raises(ValueError):
        LineQueue(max_lag_s=0)


def test_closed_queue_wakes_a_waiter_at_once() -> None:
    queue = LineQueue()
    queue.close()
    assert queue.wait_take(lambda: 0.0, timeout=5.0) is None


def test_issue18_dropped_lines_are_remembered_within_a_bound() -> None:
    """Issue 18 item 5 (flat memory): an evening drops thousands of stale lines; the queue
    keeps only the latest ``MAX_REMEMBERED_DROPS`` of them, and counts them all."""
    from host.voice.lines import MAX_REMEMBERED_DROPS

    queue = LineQueue(max_lag_s=2.0)
    for batch in range(100):
        queue.put([line(f"{batch}.{i}", "kept", 0.0, batch) for i in range(MAX_WAITING)])
    assert len(queue) == MAX_WAITING
    assert queue.dropped_total == 99 * MAX_WAITING
    kept = queue.dropped()
    assert len(kept) == MAX_REMEMBERED_DROPS
    assert kept[-1].text == f"98.{MAX_WAITING - 1}"  # the newest drops are the ones kept


def test_issue12_a_line_no_longer_true_is_withdrawn_unsaid() -> None:
    """ "Zoé is away…" waiting behind other lines when her phone comes back: the TV withdraws
    it by its text; the lines around it stay, in order, and the withdrawn one counts as dropped."""
    queue = LineQueue(max_lag_s=2.0)
    away = "Zoé is away — kept in 9 s."
    queue.put([line("Cuckoo!", "blocked", 10.0, 1), line(away, "player_away", 10.0, 1)])
    queue.put([line("Dan?", "turn", 10.5, 2)])
    assert queue.withdraw(away) == 1
    assert queue.withdraw(away) == 0  # nothing left to withdraw: a no-op
    assert drain(queue, 11.0) == ["Cuckoo!", "Dan?"]
    assert [dropped.text for dropped in queue.dropped()] == [away]
