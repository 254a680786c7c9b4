"""The TV follows the join address (``host/join_address.py``): the lobby's QR code is always
the address phones can reach now, and with no network the lobby says what to do instead of
showing a code that leads nowhere."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pygame
import pytest

from host.i18n import LANGUAGES, Catalog
from host.join_address import JoinLink
from host.tv.app import FRAME_SECONDS, TVApp
from host.tv.lobby import QR_BOX
from host.tv.rehearsal import Rehearsal

from .overlap import Canvas, recording_frames

OFFLINE = JoinLink("http://127.0.0.1:8000/?room=CAKE", offline=True)
HOME = JoinLink("http://192.168.1.20:8000/?room=CAKE")
ELSEWHERE = JoinLink("http://10.0.0.7:8000/?room=CAKE")
#: zbarimg's exit status when the picture holds no code at all.
NO_CODE_FOUND = 4


def tv(
    catalog: Catalog,
    links: list[JoinLink],
    lang: str = "en",
    people: tuple[str, ...] = ("Ana", "Bo"),
) -> TVApp:
    """A TV in the lobby whose join address is the last of ``links``."""
    table = Rehearsal(room="CAKE", people=people)
    return TVApp(table.session, None, catalog, lang=lang, join_url="unused", join=lambda: links[-1])


def shown_code(app: TVApp, path: Path) -> str | None:
    """What a phone's camera reads on the TV now (None: no code at all)."""
    canvas = pygame.Surface((1920, 1080))
    app.render(canvas)
    pygame.image.save(canvas, str(path))
    found = subprocess.run(
        ["zbarimg", "--quiet", "--raw", str(path)],
        check=False,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert found.returncode in (0, NO_CODE_FOUND), found.stderr
    return found.stdout.strip() if found.returncode == 0 else None


def test_the_lobby_code_follows_the_address_and_the_table_is_told_where_it_moved(
    catalog: Catalog, tmp_path: Path
) -> None:
    links = [HOME]
    app = tv(catalog, links)
    assert shown_code(app, tmp_path / "home.png") == HOME.url
    assert app.props.join_url == HOME.url
    links.append(ELSEWHERE)  # the laptop moved to another Wi-Fi
    app.step(FRAME_SECONDS)
    assert app.needs_render
    assert app._toast is not None and app._toast[0] == catalog.t(
        "en", "tv.join_moved", url=ELSEWHERE.url
    )
    assert shown_code(app, tmp_path / "elsewhere.png") == ELSEWHERE.url
    links.append(OFFLINE)  # the Wi-Fi dropped
    app.step(FRAME_SECONDS)
    assert app._toast is not None and app._toast[0] == catalog.t("en", "tv.network_lost")
    assert shown_code(app, tmp_path / "offline.png") is None  # no code that leads nowhere
    links.append(HOME)  # back: the code comes by itself
    app.step(FRAME_SECONDS)
    assert shown_code(app, tmp_path / "back.png") == HOME.url


@pytest.mark.parametrize("lang", LANGUAGES)
def test_with_no_network_the_lobby_says_what_to_do_inside_the_codes_place(
    catalog: Catalog, lang: str
) -> None:
    """Every line of the message lies inside the box where the code goes, in every language;
    neither the code nor the unreachable address is drawn, and the room code still is."""
    app = tv(catalog, [OFFLINE], lang)
    canvas = Canvas()
    with recording_frames():
        app.render(canvas)
    told = [box for box in canvas.boxes if box.kind == "_draw_no_network"]
    assert len(told) >= 4  # the panel, its edge, the title and the message's lines
    assert all(QR_BOX.contains(box.rect) for box in told), [b.rect for b in told]
    kinds = {box.kind for box in canvas.boxes}
    assert "_draw_code" not in kinds
    assert app.lobby._qr is None  # no code was even made
    assert "_draw_join" in kinds  # the room code, beside it


def test_with_no_network_and_nobody_seated_the_lobby_does_not_ask_to_scan_a_code_it_hides(
    catalog: Catalog, phrases_asked: Any
) -> None:
    """ "Nobody has joined yet — scan the code!" is for a lobby with a code to scan."""
    for link, asks in ((HOME, True), (OFFLINE, False)):
        app = tv(catalog, [link], people=())
        asked = phrases_asked(app)
        app.render(pygame.Surface((1920, 1080)))
        assert ("nobody_yet" in asked) is asks, link
