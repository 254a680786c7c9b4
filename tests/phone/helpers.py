"""Driving phone pages in Chromium like players do, and checking what each phone may know.

A :class:`Phone` is one browser context (one handset). It records every view the browser
received — JSON answers of ``/api/*`` and each event-stream message, taken from Chromium's
own network events over CDP — so tests can check the network as well as the screen.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from host.rules import game_moves

SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
#: A whole game of three players takes far fewer taps than this.
MAX_TAPS = 400


def tv_plays(app: Any, seconds: float) -> None:
    """The TV app plays ``seconds`` of fake time, taking the session's updates every frame, as
    the host's TV loop does (``TVApp.run``); at least one frame."""
    from host.tv.app import FRAME_SECONDS  # here: only the tests that run a TV load pygame

    for _ in range(max(1, round(seconds / FRAME_SECONDS))):
        app.pump_updates()
        app.play_frame()  # a step, then the phones told what the TV shows, as ``run`` does


def shown(card: str) -> str:
    """A card as the page writes it: ``9H`` → ``9♥``."""
    return card[:-1] + SUIT_SYMBOLS[card[-1]]


#: True once a tap on the action buttons counts as a new tap (``#actions[data-calm]``).
CALM = "() => performance.now() >= Number(document.getElementById('actions').dataset.calm)"


@dataclass
class Phone:
    """One handset: a context, its page, and every view that reached it."""

    context: Any
    page: Any
    views: list[dict[str, Any]] = field(default_factory=list)
    requests: list[Any] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    _responses: list[Any] = field(default_factory=list)
    player_id: str = ""
    stream_messages: int = 0

    def __post_init__(self) -> None:
        self.page.on("request", lambda request: self.requests.append(request))
        self.page.on("response", self._on_response)
        self.page.on("dialog", self._on_dialog)
        cdp = self.context.new_cdp_session(self.page)
        cdp.send("Network.enable")
        cdp.on("Network.eventSourceMessageReceived", self._on_stream_message)

    def _on_response(self, response: Any) -> None:
        if "/api/" in response.url and "/api/events" not in response.url:
            self._responses.append(response)

    def _on_stream_message(self, event: dict[str, Any]) -> None:
        self.stream_messages += 1
        if event.get("eventName", "message") == "message":  # not ``event: replaced``
            self.views.append(json.loads(event["data"]))

    def _on_dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def received_views(self) -> list[dict[str, Any]]:
        """Every view received so far: stream messages plus JSON answers holding a view."""
        for response in self._responses:
            body: Any = None
            with contextlib.suppress(Exception):  # a body no longer available is not a view
                body = response.json()
            if isinstance(body, dict) and "players" in body:
                self.views.append(body)
        self._responses.clear()
        return self.views

    # ---------------------------------------------------------------- actions
    def open(self, url: str) -> None:
        self.page.goto(url)

    def join(self, name: str) -> None:
        self.page.fill("#name-input", name)
        self.page.locator("#join-button").tap()
        self.page.wait_for_selector("#game:not([hidden])")

    def tap(self, action: str) -> None:
        """Tap a button as a person does: not in the instant after this phone's last tap or
        its answer, when the page takes a tap for the second of the last (a double tap).

        The button must be enabled first: while an earlier action (a VIP control's, say) is on
        its way, the buttons are disabled, and the page is calm only 350 ms after its answer.
        Playwright's own wait for an enabled button would tap in that instant, and the page
        would drop the tap (a test failed so once, tapping Start just after "How to play").
        """
        selector = f'#actions button[data-action="{action}"]'
        self.page.wait_for_function(
            "s => { const b = document.querySelector(s); return Boolean(b) && !b.disabled; }",
            arg=selector,
        )
        self.wait_calm()
        self.page.locator(selector).tap()

    def wait_calm(self) -> None:
        self.page.wait_for_function(CALM)

    def close(self) -> None:
        with contextlib.suppress(Exception):  # already gone with the browser
            # A route a test never answers (a lost tap) leaves Playwright's handler pending;
            # closed with it, the task is destroyed later, at some garbage collection, and
            # its error log once ran inside ``ast.parse`` of the next test's Flask app:
            # "SystemError: AST constructor recursion depth mismatch" (CPython 3.11.7).
            self.page.unroute_all(behavior="ignoreErrors")
        with contextlib.suppress(Exception):
            self.context.close()

    # ----------------------------------------------------------------- reads
    def step(self) -> int:
        value = self.page.get_attribute("#main", "data-step")
        return int(value) if value else -1

    def wait_step(self, step: int) -> None:
        try:
            self.page.wait_for_function(
                "s => Number(document.getElementById('main').dataset.step) === s", arg=step
            )
        except Exception as error:  # say what the phone shows and what reached it
            got = [view.get("step") for view in self.received_views()]
            raise AssertionError(
                f"waited for step {step}; the page shows {self.step()}; views received: {got}"
            ) from error

    def wait_past(self, step: int) -> None:
        """Wait until the page shows a step after ``step``: a tap made at ``step`` reached the
        host and its outcome came back. (Reading the host's step straight after a tap races the
        tap: it may not have arrived yet.)"""
        self.page.wait_for_function(
            "s => Number(document.getElementById('main').dataset.step) > s", arg=step
        )

    def buttons(self) -> list[str]:
        return list(
            self.page.eval_on_selector_all("#actions button", "bs => bs.map(b => b.dataset.action)")
        )

    def button_text(self, action: str) -> str:
        return str(self.page.inner_text(f'#actions button[data-action="{action}"]'))

    def text(self, selector: str = "body") -> str:
        return str(self.page.inner_text(selector))

    def card(self) -> str:
        return str(self.page.get_attribute("#card", "data-card") or "")


def joined_phone(
    phone_factory: Callable[..., Phone],
    url: str,
    name: str,
    *,
    device: str = "Pixel 7",
    locale: str = "en-GB",
    init_script: str | None = None,
    **options: Any,
) -> Phone:
    """A new ``device`` phone in ``locale`` (``options`` go to its context) that runs
    ``init_script`` in every page it loads, opens ``url`` and joins as ``name``: the opening
    of :func:`seated_phone` for a caller that has only the address, not the session."""
    phone = phone_factory(device, locale, **options)
    if init_script is not None:
        phone.page.add_init_script(init_script)
    phone.open(url)
    phone.join(name)
    return phone


def seated_phone(
    phone_factory: Callable[..., Phone],
    server: Any,
    name: str = "Ana",
    others: Iterable[str] = ("Bo", "Cy"),
    *,
    device: str = "Pixel 7",
    locale: str = "en-GB",
    lang: str | None = None,
    init_script: str | None = None,
    **options: Any,
) -> Phone:
    """The phone tests' opening: a new ``device`` phone in ``locale`` (``options`` go to its
    context) opens room TEST on ``server`` (with ``&lang=`` when ``lang`` is given, the
    guest's choice), runs ``init_script`` in every page it loads, and joins as ``name``; its
    ``player_id`` is set; then ``others`` sit down through the session, with no phone.

    Why one copy: the tests differ only in these knobs, and a copy per file let them drift
    (one read the first seat's id, another looked the name up). Players without a phone cost
    no browser context, so most tests drive one handset and seat the rest directly.
    """
    url = f"{server.url}/?room=TEST" + (f"&lang={lang}" if lang else "")
    phone = joined_phone(
        phone_factory, url, name, device=device, locale=locale, init_script=init_script, **options
    )
    players = server.session.view(None)["players"]
    phone.player_id = next(str(p["id"]) for p in players if p["name"] == name)
    for other in others:
        server.session.join(other, "TEST")
    return phone


@contextlib.contextmanager
def present(session: Any, *names: str) -> Iterator[list[str]]:
    """Players ``names`` seated through the session and present (each with an open stream,
    as a phone's), closed on leaving; yields their ids in that order.

    Why: a player without a stream is away, and an away player's turn is kept for them;
    tests that need the table as it is at a party seat the players without a phone so.
    """
    streams = [session.subscribe(session.join(name, "TEST").player_id) for name in names]
    try:
        yield [stream.player_id for stream in streams]
    finally:
        for stream in streams:
            stream.close()


def is_action_answer(response: Any) -> bool:
    """The answer to ``POST /api/action`` (for ``page.expect_response``)."""
    return bool(response.url.endswith("/api/action"))


def hold_action_answers(
    page: Any, *, first_only: bool = False, path: str = "/api/action"
) -> list[tuple[Any, Any]]:
    """Slow Wi-Fi: each action reaches the host, and its answer is held as (route, response)
    until the test fulfils it. ``first_only``: only the first answer; later actions go on.
    ``path``: another endpoint's answers (``/api/social``)."""
    held: list[tuple[Any, Any]] = []

    def hold(route: Any) -> None:
        if first_only and held:
            route.continue_()
        else:
            held.append((route, route.fetch()))

    page.route("**" + path, hold)
    return held


def slow_link(page: Any, one_way_seconds: float) -> None:
    """A slow link (a relay between phone and host): each API request waits
    ``one_way_seconds`` on its way to the host and its answer as long on the way back. The
    event stream is left alone: a route can hold only an answer that ends, and a stream never
    does; its views arrive at once, so the host's time they say is left is the time left."""

    def delay(route: Any) -> None:
        time.sleep(one_way_seconds)
        answer = route.fetch()
        time.sleep(one_way_seconds)
        route.fulfill(response=answer)

    page.route(lambda url: "/api/" in url and "/api/events" not in url, delay)


def wait_held(page: Any, held: list[tuple[Any, Any]]) -> None:
    """Until an action's answer is held; bounded (the request reaches the route at once)."""
    for _ in range(100):
        if held:
            return
        page.wait_for_timeout(20)
    raise AssertionError("the action never left the phone")


def known_cards(view: dict[str, Any]) -> set[str]:
    """Cards the holder of ``view`` may know before the reveal (RULES.md, hidden information)."""
    cards = {view["me"]["card"]} if view["me"]["card"] else set()
    for event in view["me"].get("history", []):
        cards.update(str(event[k]) for k in ("card", "gave", "got", "discarded") if event.get(k))
    cards.update(view.get("shown", {}).values())
    for event in view.get("log", []):
        if event.get("king"):
            cards.add(str(event["king"]))
    return cards


def assert_view_private(view: dict[str, Any]) -> None:
    """Before the reveal a view holds no card of another player except a shown King."""
    if view["phase"] not in ("lobby", "turns"):
        return
    me = view["me"]["id"] if view["me"] else None
    for player in view["players"]:
        if player["id"] != me and player["card"] is not None:
            assert player["card"].startswith("K"), f"{me} was sent {player['id']}'s card"
            assert view["shown"].get(player["id"]) == player["card"]


def assert_screen_private(phone: Phone, session: Any, players: Iterable[str]) -> None:
    """The phone's text holds no card another player holds now, unless this phone may know it."""
    view = session.view(phone.player_id)
    if view["phase"] != "turns":
        return
    allowed = known_cards(view)
    text = phone.text()
    for pid in players:
        card = session.view(pid)["me"]["card"]
        if pid != phone.player_id and card and card not in allowed:
            assert shown(card) not in text, f"{phone.player_id} shows {pid}'s {card}"


def simple_choice(view: dict[str, Any]) -> str:
    """Exchange or cut a low card, keep a high one; start/deal/new_game when offered."""
    can = view["can"]
    for action in ("start", "deal", "new_game"):
        if action in can:
            return action
    card = view["me"]["card"] or "KS"
    low = card[:-1] in ("A", "2", "3", "4", "5", "6", "7")
    for action in ("exchange", "cut"):
        if low and action in can:
            return action
    return "keep"


def king_seeker(session: Any) -> Callable[[dict[str, Any]], str]:
    """Like :func:`simple_choice`, but asks for an exchange whenever the neighbour holds a King.

    The test is the host and may peek; it makes R7's block (and its lines) happen early.
    """

    def choose(view: dict[str, Any]) -> str:
        me = view["me"]["id"]
        if "exchange" in view["can"]:
            target = view["order"][view["order"].index(me) + 1]
            if str(session.view(target)["me"]["card"]).startswith("K"):
                return "exchange"
        return simple_choice(view)

    return choose


def play_until(
    phones: dict[str, Phone],
    session: Any,
    done: Callable[[dict[str, Any]], bool],
    choose: Callable[[dict[str, Any]], str] = simple_choice,
    on_step: Callable[[dict[str, Any]], None] | None = None,
) -> int:
    """Tap the real buttons of whoever may act until ``done(public view)``; returns the taps.

    Before every tap it checks that every phone shows the current step, that only the actor
    has buttons (exactly its ``can``), and that no phone shows or received a hidden card.
    """
    for taps in range(MAX_TAPS):
        table = session.view(None)
        for phone in phones.values():
            phone.wait_step(table["step"])
        if on_step is not None:
            on_step(table)
        if done(table):
            return taps
        for phone in phones.values():
            assert_screen_private(phone, session, phones)
            for view in phone.received_views():
                assert_view_private(view)
        actors = [pid for pid in phones if game_moves(session.view(pid)["can"])]
        assert len(actors) == 1, f"exactly one player may act, not {actors}"
        actor = phones[actors[0]]
        view = session.view(actor.player_id)
        assert sorted(actor.buttons()) == sorted(game_moves(view["can"]))
        for pid, phone in phones.items():
            if pid != actor.player_id:
                assert phone.buttons() == []
        actor.tap(choose(view))
        actor.wait_step(table["step"] + 1)
    raise AssertionError("the game did not end")


def rig_round(
    session: Any,
    cards: dict[str, str],
    lives: dict[str, int] | None = None,
    dealer: str | None = None,
) -> None:
    """Deal ``cards`` (player id → card) with the lives given, by ``dealer`` (else the current
    one); the test is the dealer and sets them through the session's game under its lock."""
    from tests.rules.helpers import rig

    table = session.view(None)
    if table["phase"] == "lobby":
        session.act(table["vip"], "start", table["step"])
    with session._lock:
        game = session._game
        for pid, count in (lives or {}).items():
            game.player(pid).lives = count
        rig(game, dealer or game.dealer, cards)


def rigged_reveal(
    session: Any, cards: dict[str, str], lives: dict[str, int] | None = None, max_turns: int = 12
) -> dict[str, Any]:
    """Deal ``cards`` (player id → card) with the lives given, everyone keeps: the reveal.

    The test is the dealer: it starts the game when in the lobby, sets the cards and lives
    through the session's game under its lock (like tests/phone/test_phone_sudden_death.py),
    then keeps for every player through the session. Returns the public view after it.
    """
    rig_round(session, cards, lives)
    for _ in range(max_turns):
        table = session.view(None)
        if table["phase"] != "turns":
            return dict(table)
        session.act(table["current"], "keep", table["step"])
    raise AssertionError("the round did not end")


class SilentRelay:
    """A TCP relay on 127.0.0.1 between phones and a host that can fall silent.

    ``cut()`` stops relaying every connection open now, without closing any (no FIN, no reset):
    what a phone sees when the host loses its power or its Wi-Fi. Connections made after it go
    to ``backend``, which a test may point at a restarted host. Why: on loopback a host that
    stops closes its sockets, so the phone always hears of it; a real power cut is silence.
    """

    def __init__(self, backend: int) -> None:
        import socket
        import threading

        self.backend = backend
        self._generation = 0
        self._held: list[Any] = []  # every socket, closed only by ``close``
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._closed = False
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, name="silent-relay", daemon=True).start()

    def cut(self) -> None:
        with self._lock:
            self._generation += 1

    def _accept(self) -> None:
        import socket
        import threading

        while not self._closed:
            try:
                phone_side, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                generation = self._generation
                self._held.append(phone_side)
            try:
                host_side = socket.create_connection(("127.0.0.1", self.backend), timeout=5)
            except OSError:
                continue  # no host there yet: the phone's request hangs, as over the air
            host_side.settimeout(None)
            with self._lock:
                self._held.append(host_side)
            for source, target in ((phone_side, host_side), (host_side, phone_side)):
                threading.Thread(
                    target=self._pump, args=(source, target, generation), daemon=True
                ).start()

    def _pump(self, source: Any, target: Any, generation: int) -> None:
        while True:
            try:
                data = source.recv(65536)
            except OSError:
                return
            if not data or generation != self._generation:
                return  # silence: nothing relayed, nothing closed
            try:
                target.sendall(data)
            except OSError:
                return

    def close(self) -> None:
        self._closed = True
        self._listener.close()
        with self._lock:
            for sock in self._held:
                with contextlib.suppress(OSError):
                    sock.close()
