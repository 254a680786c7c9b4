"""A table of computer players has a VIP that starts nothing (``host/bot_runner.py``): the TV
must not tell guests to wait for it. Round 38's play-test: the host's phone left the lobby,
the role went to the bot Ada, and the TV read "Ada (VIP) can press Start — or press Space
here" under a table where nobody would ever press Start but the host at the TV."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import pygame
import pytest

from host.i18n import Catalog
from host.tv.app import TVApp
from host.tv.final import final_board
from tests.tv.views import StillSession, player, view


def _app(catalog: Catalog, shown: Any) -> TVApp:
    app = TVApp(cast(Any, StillSession(shown)), None, catalog, lang="en", join_url="http://x/")
    app.stage.fast_forward()
    return app


def _drawn(app: TVApp) -> list[str]:
    """Every text drawn in one frame."""
    drawn: list[str] = []
    real: Callable[..., Any] = app.props.theme.text

    def spy(text: str, *args: Any, **kwargs: Any) -> Any:
        drawn.append(text)
        return real(text, *args, **kwargs)

    app.props.theme.text = spy  # type: ignore[method-assign]
    app.render(pygame.Surface((1920, 1080)))
    return drawn


@pytest.mark.parametrize("vip_is_a_bot", [True, False])
def test_issue13_the_lobby_asks_the_host_not_a_bot_vip_to_start(
    catalog: Catalog, vip_is_a_bot: bool
) -> None:
    players = [player(i, bot=vip_is_a_bot or i > 0) for i in range(3)]
    app = _app(catalog, view("lobby", players, vip="p0", current=None))
    drawn = " ".join(_drawn(app))
    if vip_is_a_bot:
        assert catalog.t("en", "tv.next_space_bots") in drawn
        assert "(VIP) can press Start" not in drawn
    else:
        assert catalog.t("en", "tv.next_vip", name=players[0]["name"]) in drawn


def test_round43_a_lobby_of_bots_only_asks_guests_to_scan(catalog: Catalog) -> None:
    """round 43 / --bots: the bots sit down at once; the lobby still says that people join by
    the code and that the first of them will be the VIP, puts no VIP star on a computer
    player, and says that Space would start a game of computer players only."""
    players = [player(i, bot=True) for i in range(3)]
    drawn = _drawn(_app(catalog, view("lobby", players, vip="p0", current=None)))
    said = " ".join(drawn)
    assert catalog.t("en", "tv.guests_scan").split()[0] in said
    assert "person to join is the VIP." in said  # wrapped over two lines
    assert not any("\u2605" in text for text in drawn)
    assert catalog.t("en", "tv.next_space_bots") in drawn
    people = [player(0), *players[1:]]  # a person sits: the usual star and no scan hint
    drawn = _drawn(_app(catalog, view("lobby", people, vip="p0", current=None)))
    assert any("\u2605" in text for text in drawn)
    assert "person to join is the VIP." not in " ".join(drawn)


@pytest.mark.parametrize("vip_is_a_bot", [True, False])
def test_issue13_game_over_asks_for_space_when_the_vip_is_a_bot(
    catalog: Catalog, vip_is_a_bot: bool
) -> None:
    players = [player(0, lives=2, bot=vip_is_a_bot)] + [
        player(i, lives=0, status="eliminated", out_round=2 + i, bot=True) for i in (1, 2)
    ]
    app = _app(catalog, view("game_over", players, vip="p0", winners=["p0"], current=None))
    board = " ".join(final_board(app.props, app.stage).texts())
    wanted = "tv.new_game_space" if vip_is_a_bot else "tv.new_game_hint"
    assert catalog.t("en", wanted) in board
