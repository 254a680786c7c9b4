"""What moves on the table at this instant, so the TV draws a frame only when its picture changes.

Why: a beat is drawn from its elapsed time, and the loop used to redraw and present the whole
1080p frame 60 times a second for every beat — yet many beats hold still for most of their
length (a turn passing, a banner once popped in, a King once turned, the swapped cards once
home, a dealt card once landed). ``pose(stage)`` is a key that is equal at two instants of one
beat exactly when the painters (``host/tv/moves.py``, ``card_look`` in ``host/tv/table.py``,
the life token, the confetti, the H4 countdown) draw the same picture at both; the TV redraws
when the pose changes, or when anything else changed (an update, a key, a caption).

Each entry mirrors its painter's timing through the painter's own constants;
``tests/tv/test_motion.py`` renders every beat kind at many instants and checks that equal
poses give identical pixels, so a painter that starts moving differently fails there.
"""

from __future__ import annotations

from collections.abc import Hashable

from host.tv.moves import (
    CALL_POP_SECONDS,
    CUT_KING_SECONDS,
    swap_travel,
)
from host.tv.stage import (
    DEAL_FLIGHT,
    DEAL_STAGGER,
    FLIP_SECONDS,
    SUDDEN_DEATH_VERDICT_AT,
    Beat,
    Stage,
    reveal_flip_start,
    reveal_marked_at,
)
from host.tv.table import BLOCK_FLIP_SECONDS

#: Beats whose picture does not change while they play (a still banner, or nothing at all:
#: a keep's bubble is the seat's, ``bubbles_pose``).
STILL_KINDS = frozenset({"turn", "kept", "game_started", "eliminated", "game_over"})


def _share(value: float) -> float:
    return min(1.0, max(0.0, value))


def beat_pose(beat: Beat) -> Hashable:
    """The part of ``beat``'s picture that depends on its elapsed time."""
    kind, elapsed = beat.kind, beat.elapsed
    if kind in STILL_KINDS:
        return None
    if kind == "blocked":  # the call pops in while the King turns, then both hold
        return min(elapsed, max(BLOCK_FLIP_SECONDS, CALL_POP_SECONDS))
    if kind == "cut_king":  # the King flies aside turning over, then holds
        return min(elapsed, max(CUT_KING_SECONDS, CALL_POP_SECONDS))
    if kind == "sudden_death":  # the rule, then the verdict: two pictures
        return elapsed >= SUDDEN_DEATH_VERDICT_AT
    if kind == "exchanged":  # the cards wait, cross, then rest at home under the banner
        return swap_travel(beat.progress)
    event = beat.event
    if event["type"] == "round_dealt":  # each card waits in the stock, flies, then has landed
        order = event["order"]
        return tuple(
            _share((elapsed - i * DEAL_STAGGER) / DEAL_FLIGHT) for i, _ in enumerate(order)
        )
    if (
        event["type"] == "reveal"
    ):  # every card waits face down, turns over, then the lowest is marked
        count = len(event["cards"])
        flips = tuple(
            _share((elapsed - reveal_flip_start(i, count)) / FLIP_SECONDS) for i in range(count)
        )
        return flips, elapsed >= reveal_marked_at(count)
    return elapsed  # moves all along: a fading bubble, a rising token, cards in flight


def bubbles_pose(stage: Stage) -> Hashable:
    """The seats' bubbles showing and how opaque each is (``host/tv/moves.draw_bubbles``):
    whole ones hold still, fading ones move; ``None`` with none."""
    shown = tuple((player, alpha) for player, _, alpha in stage.shown_bubbles())
    return shown or None


def pose(stage: Stage) -> Hashable:
    """Equal at two instants (with the stage otherwise unchanged) exactly when the table
    draws the same frame at both; ``None`` when nothing moves at all."""
    beat = stage.beat
    moving = stage.celebrating or (stage.rapid_left() or 0.0) > 0  # confetti, H4's countdown
    clock = stage.time if moving else None
    bubbles = bubbles_pose(stage)
    if beat is None:
        return clock if bubbles is None else (clock, bubbles)
    return beat.seq, beat.kind, beat_pose(beat), clock, bubbles
