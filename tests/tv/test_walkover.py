"""Round 46: a game that ends because everyone else was removed or left is no win on the TV.

R14 still names the last one at the table the winner, and the TV still shows the game's end
(the dimmed table, the board with the final standings), but without confetti and with a line
that says what happened: "Ana is the last one at the table", not "Ana wins!". A game won at
a reveal is celebrated as before.
"""

from __future__ import annotations

from typing import Any

from host.i18n import Catalog
from host.rules import HouseRules
from host.session import Session
from host.tv.app import TVApp
from host.tv.final import final_board

from .overlap import Canvas, recording_frames
from .views import StillSession, player, view


def _drawn_kinds(app: TVApp) -> set[str]:
    """What one frame of the table paints, piece by piece (``overlap.Canvas``)."""
    app.table.keep_still = False  # every piece painted on the recording canvas, in order
    canvas = Canvas()
    with recording_frames():
        app.render(canvas)
    return {box.kind for box in canvas.boxes}


def test_round46_r14_the_last_one_at_the_table_gets_no_confetti_and_a_true_line(
    catalog: Catalog,
) -> None:
    """The VIP removes Bea and Cal mid-round: Ana is the last one at the table."""
    session = Session(HouseRules(), seed=3, room="TEST")
    ana, bea, cal = (session.join(name, "TEST").player_id for name in ("Ana", "Bea", "Cal"))
    app = TVApp(session, None, catalog, lang="en", join_url="http://x/?room=TEST")
    session.act(ana, "start", 0)
    for pid in (bea, cal):
        session.kick(pid)
    for _ in range(20):  # bounded: the TV plays every update it was sent
        if not app.pump_updates():
            break
        app.stage.fast_forward()
    app.stage.fast_forward()
    stage = app.stage
    assert stage.phase == "game_over" and stage.winners == [ana] and stage.walkover
    assert stage.celebrating_since is not None and stage.winner_board_up  # the board is up…
    assert not stage.celebrating  # … with nothing to cheer
    kinds = _drawn_kinds(app)
    assert "draw_final_board" in kinds and "confetti" not in kinds
    texts = final_board(app.props, stage).texts()
    assert "Ana is the last one at the table" in texts
    assert not any("wins" in text for text in texts)
    app.close()
    session.close()


def test_round46_r14_a_game_won_at_a_reveal_still_gets_its_confetti(
    make_app: Any,
) -> None:
    """The control: a sole survivor by lives (R14) is still "Ana wins!" under confetti."""
    seated = [player(0, lives=2, card="QD"), player(1, lives=0, status="eliminated", card="2S")]
    final = view("game_over", seated, winners=["p0"], eliminated=["p1"])
    app: TVApp = make_app(session=StillSession(final))[0]
    app.stage.receive(
        final, [{"type": "game_over", "winners": ["p0"], "joint": False, "walkover": False}]
    )
    app.stage.fast_forward()
    assert app.stage.celebrating
    assert "confetti" in _drawn_kinds(app)
    winner = app.stage.name_of("p0")
    assert f"{winner} wins!" in final_board(app.props, app.stage).texts()
