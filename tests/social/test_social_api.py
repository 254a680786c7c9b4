"""Issue 14.3: reactions and predictions — their own endpoint, never a game action."""

from __future__ import annotations

import os
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame

from host import social
from host.i18n import Catalog
from host.session import Session
from host.tv.app import TVApp
from host.tv.evening import draw_reactions, reaction_spots
from host.tv.layout import CAPTION_HEIGHT
from host.tv.seats import card_rect
from phone_web import create_app
from tests.clock import Clock


def _party(
    make_session: Any, waiting: int, rules: str = ""
) -> tuple[Session, Any, dict[str, str], Clock]:
    """Three players in a game, ``waiting`` more guests waiting; a fake reaction clock."""
    # The session's own clock stands still (views compared before and after keep the open
    # turn's time left); only the reactions' clock moves.
    session: Session = make_session(rules, clock=Clock())
    clock = Clock()
    session.reactions = social.ReactionDesk(clock)
    tokens: dict[str, str] = {}
    for name in ("Ana", "Bea", "Cal"):
        result = session.join(name, "TEST")
        tokens[result.player_id] = result.token
    session.act("p1", "start", 0)
    for i in range(waiting):
        result = session.join(f"Guest{i}", "TEST")
        assert result.status == "waiting"
        tokens[result.player_id] = result.token
    return session, create_app(session).test_client(), tokens, clock


def _post(client: Any, token: str, body: Any) -> Any:
    return client.post("/api/social", json=body, headers={"Authorization": f"Bearer {token}"})


def test_issue14_reaction_flood_from_one_phone_is_rate_limited(make_session: Any) -> None:
    session, client, tokens, clock = _party(make_session, 2)
    step, views = session.step, {pid: session.view(pid) for pid in ("p1", "p2", "p3")}
    answers = [_post(client, tokens["p4"], {"react": "❤"}) for _ in range(40)]
    assert [a.status_code for a in answers].count(200) == 1
    assert {a.get_json()["error"] for a in answers if a.status_code != 200} == {"too_fast"}
    assert {a.status_code for a in answers[1:]} == {429}
    # Someone else's tap is unaffected by the flood.
    assert _post(client, tokens["p5"], {"react": "★"}).status_code == 200
    clock.now += social.REACTION_INTERVAL
    assert _post(client, tokens["p4"], {"react": "☺"}).status_code == 200
    # Never a game action: the step and every player's view are unchanged.
    assert session.step == step
    assert {pid: session.view(pid) for pid in ("p1", "p2", "p3")} == views
    assert [(r.player, r.emoji) for r in session.reactions.on_screen()] == [
        ("p5", "★"),
        ("p4", "☺"),
    ]


def test_issue14_reaction_refusals(make_session: Any) -> None:
    session, client, tokens, _ = _party(make_session, 1)
    step = session.step
    assert _post(client, tokens["p1"], {"react": "❤"}).get_json()["error"] == "not_allowed_now"
    assert _post(client, tokens["p4"], {"react": "<b>"}).status_code == 400
    assert _post(client, tokens["p4"], {"react": "❤", "predict": "p1"}).status_code == 400
    assert _post(client, tokens["p4"], ["❤"]).status_code == 400
    assert client.post("/api/social", json={"react": "❤"}).status_code == 401
    assert session.reactions.on_screen() == [] and session.step == step


def test_issue14_tv_shows_at_most_the_bound_and_never_over_cards(make_session: Any) -> None:
    session, client, tokens, clock = _party(make_session, 7)
    for pid in [p for p in tokens if p not in ("p1", "p2", "p3")]:
        for _ in range(5):  # everybody floods
            _post(client, tokens[pid], {"react": "⚡"})
    pygame.font.init()
    app = TVApp(session, None, Catalog.load(), lang="en", join_url="http://x/?room=TEST")
    app.pump_updates()
    app.stage.fast_forward()
    reactions = session.reactions.on_screen()
    assert len(reactions) == social.MAX_ON_SCREEN
    surface = pygame.Surface((1920, 1080))
    # The senders wait for the next game: on the bench (round 44), their reactions by it.
    spots = app.table.seating()[0]
    bench = app.table.bench(spots)
    assert draw_reactions(surface, app.props, app.stage, reactions, bench) <= social.MAX_ON_SCREEN
    placed = reaction_spots(app.props, app.stage, reactions, bench)
    assert placed
    cards = [card_rect(spot) for spot in spots.values()]
    for _, rect in placed:
        assert rect.collidelist(cards) == -1
        assert rect.bottom <= 1080 - CAPTION_HEIGHT
    app.render(surface)  # the app draws them too, and nothing breaks
    clock.now += social.REACTION_SECONDS
    assert session.reactions.on_screen() == []
    app.close()


def _finish_round(session: Session) -> None:
    for _ in range(20):
        view = session.view(None)
        if view["phase"] != "turns":
            return
        current = view["current"]
        assert current is not None
        session.act(current, "keep", view["step"])


def test_issue14_predictions_scored_from_the_reveal(make_session: Any) -> None:
    session, client, tokens, _ = _party(make_session, 3)
    step = session.step
    first = _post(client, tokens["p4"], {"predict": "p1"})
    assert first.status_code == 200 and first.get_json()["me"]["prediction"] == "p1"
    assert first.get_json() == session.view("p4")  # the caller's own view: nothing more
    assert _post(client, tokens["p4"], {"predict": "p2"}).get_json()["me"]["prediction"] == "p2"
    assert _post(client, tokens["p5"], {"predict": "p3"}).status_code == 200
    assert _post(client, tokens["p6"], {"predict": "p1"}).status_code == 200
    assert session.step == step
    sub = session.subscribe(None, presence=False)
    _finish_round(session)
    events = []
    while (update := sub.get(0)) is not None:
        events += update.events
    losers = next(e for e in events if e["type"] == "reveal")["losers"]
    rows = {r["player"]: r for r in session.view(None)["standings"]}
    assert (rows["p4"]["guesses"], rows["p4"]["good_guesses"]) == (1, int("p2" in losers))
    assert (rows["p5"]["guesses"], rows["p5"]["good_guesses"]) == (1, int("p3" in losers))
    assert (rows["p6"]["guesses"], rows["p6"]["good_guesses"]) == (1, int("p1" in losers))
    assert sum(rows[p]["good_guesses"] for p in ("p4", "p5", "p6")) == len(losers) >= 1
    if len(losers) == 1:  # the only one right is the best guesser
        assert (
            rows[next(p for p, t in (("p4", "p2"), ("p5", "p3"), ("p6", "p1")) if t in losers)][
                "titles"
            ].count("best_guesser")
            == 1
        )
    me = session.view("p4")["me"]
    assert me is not None and me["prediction"] is None  # a new round, a new guess


def test_issue14_prediction_refused_once_the_dealer_acts(make_session: Any) -> None:
    session, client, tokens, _ = _party(make_session, 1, "H3")
    view = session.view(None)
    target = view["order"][0]
    assert _post(client, tokens[view["order"][0]], {"predict": target}).status_code == 409
    assert _post(client, tokens["p4"], {"predict": "p4"}).status_code == 400  # not dealt in
    for pid in view["order"][:-1]:
        session.act(pid, "keep", session.step)
    dealer = view["order"][-1]
    assert _post(client, tokens["p4"], {"predict": target}).status_code == 200  # not yet
    session.act(dealer, "cut", session.step)  # H3: the dealer acted, may still cut again
    step = session.step
    refused = _post(client, tokens["p4"], {"predict": dealer})
    assert refused.status_code == 409 and refused.get_json()["error"] == "not_allowed_now"
    me = session.view("p4")["me"]
    assert me is not None and me["prediction"] == target and session.step == step
    session.act(dealer, "keep", session.step)
    assert _post(client, tokens["p4"], {"predict": target}).status_code == 409  # the reveal


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_issue14_social_errors_are_translated(make_session: Any, lang: str) -> None:
    _, client, tokens, _ = _party(make_session, 1)
    _post(client, tokens["p4"], {"react": "❤"})
    answer = client.post(
        "/api/social",
        json={"react": "❤"},
        headers={"Authorization": f"Bearer {tokens['p4']}", "Accept-Language": lang},
    )
    expected = Catalog.load().t(lang, "social.error_too_fast")
    assert answer.status_code == 429 and answer.get_json()["message"] == expected
