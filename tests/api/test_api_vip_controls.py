"""Issue 13: the VIP's host controls through POST /api/action (PHONE_API.md "Host controls")."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from host.rules import RULE_FIELDS, HouseRules
from host.rules.controls import RAPID_SECONDS_RANGE
from host.session_controls import CONTROL_ACTIONS
from phone_web import create_app
from tests.clock import Clock

ROOT = Path(__file__).resolve().parents[2]


class Table:
    """A session with presence rules and a fake clock, its test client and the seated tokens."""

    def __init__(self, make_session: Callable[..., Any], house_rules: str = "") -> None:
        self.clock = Clock()
        self.session = make_session(house_rules, presence=True, clock=self.clock)
        self.client = create_app(self.session).test_client()
        self.tokens: dict[str, str] = {}
        self.streams: dict[str, Any] = {}

    def join(self, *names: str, present: bool = True) -> list[str]:
        ids = []
        for name in names:
            answer = self.client.post("/api/join", json={"name": name, "room": "TEST"}).json
            assert answer is not None
            self.tokens[answer["player_id"]] = answer["token"]
            if present:
                self.streams[answer["player_id"]] = self.session.subscribe(answer["player_id"])
            ids.append(answer["player_id"])
        return ids

    def leave(self, pid: str) -> None:
        self.streams.pop(pid).close()

    def view(self, pid: str | None = None) -> dict[str, Any]:
        return self.session.view(pid)  # type: ignore[no-any-return]

    def act(self, pid: str, action: str, step: int | None = None, **extra: Any) -> Any:
        step = self.view()["step"] if step is None else step
        return self.client.post(
            "/api/action",
            json={"action": action, "step": step, **extra},
            headers={"Authorization": f"Bearer {self.tokens[pid]}"},
        )

    def ok(self, pid: str, action: str, **extra: Any) -> dict[str, Any]:
        before = self.view()["step"]
        response = self.act(pid, action, **extra)
        assert response.status_code == 200, response.json
        assert response.json["step"] == before + 1  # exactly one step per applied control
        return response.json  # type: ignore[no-any-return]


@pytest.fixture
def table(make_session: Callable[..., Any]) -> Table:
    return Table(make_session)


def _error(response: Any, status: int, code: str) -> None:
    assert (response.status_code, response.json["error"]) == (status, code), response.json


def test_issue13_set_rules_shows_at_once_and_sets_lives(table: Table) -> None:
    ana, bea, _ = table.join("Ana", "Bea", "Cal")
    view = table.ok(ana, "set_rules", rules=["H3", "H1"])
    assert view["house_rules"] == ["H1", "H3"]
    assert all(p["lives"] == 5 for p in view["players"])  # H1, shown in the lobby already
    assert table.view(bea)["house_rules"] == ["H1", "H3"]
    view = table.ok(ana, "set_rules", rules=["H4"], rapid_seconds=25)
    assert view["house_rules"] == ["H4"] and view["rapid_seconds"] == 25
    assert all(p["lives"] == 3 for p in view["players"])
    view = table.ok(ana, "set_rules", rules=[])
    assert view["house_rules"] == [] and view["rapid_seconds"] is None


def test_issue13_rules_apply_to_the_next_start(table: Table) -> None:
    ana, *_ = table.join("Ana", "Bea", "Cal")
    table.ok(ana, "set_rules", rules=["H1", "H3"])
    view = table.ok(ana, "start")
    assert view["phase"] == "turns" and all(p["lives"] == 5 for p in view["players"])
    assert "set_rules" not in view["can"]  # no rule change mid-game
    _error(table.act(ana, "set_rules", rules=[]), 400, "bad_action")
    assert table.view()["house_rules"] == ["H1", "H3"]


def test_issue13_h7_changes_the_table_cap_at_once(table: Table) -> None:
    names = [f"P{i}" for i in range(10)]
    ana, *_ = table.join(*names)
    assert table.client.post("/api/join", json={"name": "Kim", "room": "TEST"}).status_code == 409
    assert "add_bot" not in table.view(ana)["can"]
    table.ok(ana, "set_rules", rules=["H7"])
    table.join("Kim")
    assert len(table.view()["players"]) == 11
    step = table.view()["step"]
    _error(table.act(ana, "set_rules", rules=[]), 409, "table_full")  # 11 seated: H7 stays
    assert table.view()["house_rules"] == ["H7"] and table.view()["step"] == step


def test_issue13_add_bot_with_a_strategy_and_table_full(table: Table) -> None:
    ana, *_ = table.join("Ana")
    view = table.view(ana)
    assert view["bot_strategies"][0] == "smart" and set(view["bot_strategies"]) >= {"simple"}
    view = table.ok(ana, "add_bot")
    view = table.ok(ana, "add_bot", strategy="simple")
    bots = [p for p in view["players"] if p["bot"]]
    assert len(bots) == 2 and all(p["connected"] for p in bots)
    assert sorted(table.session.bots.values()) == ["simple", "smart"]
    for _ in range(7):
        table.ok(ana, "add_bot")
    step = table.view()["step"]
    assert "add_bot" not in table.view(ana)["can"]
    _error(table.act(ana, "add_bot"), 409, "table_full")
    assert table.view()["step"] == step and len(table.view()["players"]) == 10


def test_issue13_kick_in_the_lobby_and_mid_round_redeals_r16(table: Table) -> None:
    ana, _bea, _cal, dan = table.join("Ana", "Bea", "Cal", "Dan")
    table.ok(ana, "kick", player=dan)
    assert dan not in [p["id"] for p in table.view()["players"]]
    assert (
        table.client.get(
            "/api/state", headers={"Authorization": f"Bearer {table.tokens[dan]}"}
        ).status_code
        == 401
    )
    table.join("Eve")
    table.ok(ana, "start")
    before = table.view()
    victim = next(pid for pid in before["order"] if pid not in (ana, before["dealer"]))
    view = table.ok(ana, "kick", player=victim)
    assert view["phase"] == "turns" and view["round"] == before["round"] == 1
    assert victim not in view["order"] and view["dealer"] == before["dealer"]
    assert (
        any(e["type"] == "misdeal" for e in view["log"]) or view["log"][0]["type"] == "round_dealt"
    )
    _error(table.act(ana, "kick", player=ana), 400, "bad_action")  # not the VIP


def test_issue13_make_vip_only_a_present_person(table: Table) -> None:
    ana, _bea, cal = table.join("Ana", "Bea", "Cal")
    (gone,) = table.join("Dan", present=False)
    table.ok(ana, "add_bot")
    bot = next(p["id"] for p in table.view()["players"] if p["bot"])
    for refused in (bot, gone, ana):
        _error(table.act(ana, "make_vip", player=refused), 400, "bad_action")
    public = table.session.subscribe(None, presence=False)
    view = table.ok(ana, "make_vip", player=cal)
    assert view["vip"] == cal and view["me"]["is_vip"] is False
    assert not set(CONTROL_ACTIONS) & set(view["can"])  # the old VIP has no controls left
    assert "set_rules" in table.view(cal)["can"]
    events = []
    while (update := public.get(timeout=0)) is not None:
        events += update.events
    assert {"type": "vip_changed", "player": cal} in events  # the TV and the voice say so


def test_issue13_skip_an_idle_player_after_10_s_as_a_time_out(table: Table) -> None:
    ana, *_ = table.join("Ana", "Bea", "Cal")
    table.ok(ana, "start")
    current = table.view()["current"]
    assert "skip" not in table.view(ana)["can"]
    _error(table.act(ana, "skip"), 400, "bad_action")
    table.clock.now += 10.5
    assert "skip" in table.view(ana)["can"]
    view = table.ok(ana, "skip")
    kept = [e for e in view["log"] if e["type"] == "kept"][-1]
    assert kept == {
        "type": "kept",
        "player": current,
        "auto": True,
        "timed_out": False,
        "reason": "skipped",  # round 40: the screens say they were skipped
    }


def test_issue13_skip_an_away_player_at_once(table: Table) -> None:
    ana, _bea, _cal = table.join("Ana", "Bea", "Cal")
    table.ok(ana, "start")
    current = table.view()["current"]
    if current == ana:  # the VIP is never the one skipped here: let them play first
        table.ok(ana, "keep")
        current = table.view()["current"]
    table.leave(current)
    assert "skip" in table.view(ana)["can"]
    table.ok(ana, "skip")
    assert table.view()["current"] != current or table.view()["phase"] != "turns"


def test_issue13_misdeal_r16_same_dealer_same_round(table: Table) -> None:
    ana, *_ = table.join("Ana", "Bea", "Cal")
    table.ok(ana, "start")
    before = table.view()
    view = table.ok(ana, "misdeal")
    assert view["round"] == before["round"] and view["dealer"] == before["dealer"]
    assert view["phase"] == "turns" and all(p["lives"] == 3 for p in view["players"])


@pytest.mark.parametrize("phase", ["turns", "reveal"])
def test_issue13_end_game_back_to_the_lobby(table: Table, phase: str) -> None:
    ana, *_ = table.join("Ana", "Bea", "Cal")
    table.ok(ana, "set_rules", rules=["H1"])
    table.ok(ana, "start")
    while phase == "reveal" and table.view()["phase"] == "turns":
        current = table.view()["current"]
        table.tokens.setdefault(current, "")
        table.session.act(current, "keep", table.view()["step"])
    assert table.view()["phase"] == phase
    view = table.ok(ana, "end_game")
    assert view["phase"] == "lobby" and view["round"] == 0
    assert all(p["lives"] == 5 and p["status"] == "active" for p in view["players"])
    assert "start" in view["can"] and view["house_rules"] == ["H1"]


def test_issue13_set_tv_language_and_voice(table: Table) -> None:
    ana, *_ = table.join("Ana")
    view = table.ok(ana, "set_tv", language="fr")
    assert view["tv_language"] == "fr" and view["voice_muted"] is False
    view = table.ok(ana, "set_tv", voice_muted=True)
    assert view["tv_language"] == "fr" and view["voice_muted"] is True
    bad_fields: list[dict[str, Any]] = [{"language": "de"}, {"voice_muted": "yes"}, {}]
    for bad in bad_fields:
        _error(table.act(ana, "set_tv", None, **bad), 400, "bad_request")


def test_issue20_set_tv_music_volume_from_the_vip_phone(table: Table) -> None:
    """Issue 20: the VIP sets the music's volume (percent), saved with the TV's settings."""
    ana, bea, _cal = table.join("Ana", "Bea", "Cal")
    assert table.view()["music_volume"] == 60
    view = table.ok(ana, "set_tv", music_volume=30)
    assert view["music_volume"] == 30 and table.session.to_dict()["tv"]["music_volume"] == 30
    for bad in (-1, 101, 2.5, "30", True):
        _error(table.act(ana, "set_tv", None, music_volume=bad), 400, "bad_request")
    _error(table.act(bea, "set_tv", None, music_volume=50), 400, "bad_action")
    assert table.view()["music_volume"] == 30


def test_issue14_vip_starts_how_to_play_and_a_new_evening(table: Table) -> None:
    """Issue 14: "How to play" (lobby) and a new evening (lobby, game over) from the VIP's phone."""
    ana, _bea, _cal = table.join("Ana", "Bea", "Cal")
    asks = table.session.tutorial_asks
    table.ok(ana, "how_to_play")
    assert table.session.tutorial_asks == asks + 1  # the TV starts the lesson on its next frame
    table.ok(ana, "start")
    assert not {"how_to_play", "new_evening"} & set(table.view(ana)["can"])
    while table.view()["phase"] != "game_over":  # everyone keeps until a winner
        view = table.view()
        actor = view["current"] if view["phase"] == "turns" else view["next_dealer"]
        table.session.act(actor, "keep" if view["phase"] == "turns" else "deal", view["step"])
    assert [line["games"] for line in table.view()["standings"]] == [1, 1, 1]
    assert "how_to_play" not in table.view(ana)["can"]
    table.ok(ana, "new_evening")
    assert table.view()["standings"] == []


def test_issue13_check_order_401_400_409_400(table: Table) -> None:
    ana, bea, cal = table.join("Ana", "Bea", "Cal")
    post = table.client.post
    # 401 before a malformed field
    _error(post("/api/action", json={"action": "kick", "step": 0}), 401, "unauthorized")
    # 400 bad_request (missing or malformed field) before the stale step, for anyone
    for who in (ana, bea):
        _error(table.act(who, "kick", step=99), 400, "bad_request")
        _error(table.act(who, "kick", step=99, player=7), 400, "bad_request")
        _error(table.act(who, "set_rules", step=99, rules="H1"), 400, "bad_request")
        _error(table.act(who, "set_rules", step=99, rules=["H9"]), 400, "bad_request")
        _error(table.act(who, "set_rules", step=99, rules=[], rapid_seconds=4), 400, "bad_request")
        _error(table.act(who, "set_rules", step=99, rules=[], rapid_seconds=61), 400, "bad_request")
        _error(
            table.act(who, "set_rules", step=99, rules=[], rapid_seconds=True), 400, "bad_request"
        )
        _error(table.act(who, "add_bot", step=99, strategy="genius"), 400, "bad_request")
        _error(table.act(who, "make_vip", step=99, player=""), 400, "bad_request")
    # 409 stale_step before bad_action
    _error(table.act(bea, "kick", step=99, player=cal), 409, "stale_step")
    # bad_action last
    _error(table.act(bea, "kick", player=cal), 400, "bad_action")
    assert table.view()["step"] == 0 and len(table.view()["players"]) == 3


def _every_control(target: str) -> list[dict[str, Any]]:
    return [
        {"action": "set_rules", "rules": ["H1"]},
        {"action": "set_rules", "rules": []},
        {"action": "add_bot"},
        {"action": "add_bot", "strategy": "random"},
        {"action": "kick", "player": target},
        {"action": "make_vip", "player": target},
        {"action": "skip"},
        {"action": "misdeal"},
        {"action": "end_game"},
        {"action": "set_tv", "language": "it"},
        {"action": "set_tv", "voice_muted": True},
        {"action": "how_to_play"},
        {"action": "new_evening"},
    ]


def _comparable(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("can", "me")}


def test_issue13_safety_a_non_vip_never_triggers_a_control(table: Table) -> None:
    ana, bea, cal, dan = table.join("Ana", "Bea", "Cal", "Dan")
    table.clock.now += 1000  # everyone "deciding" for ages: skip would be allowed for the VIP

    def probe(phase: str) -> None:
        assert table.view()["phase"] == phase
        for who in (bea, cal, dan):
            assert not set(CONTROL_ACTIONS) & set(table.view(who)["can"]), (phase, who)
            for target in (ana, bea, cal, dan):
                for body in _every_control(target):
                    before = _comparable(table.view())
                    step = before["step"]
                    response = table.act(who, body.pop("action"), step, **body)
                    _error(response, 400, "bad_action")
                    assert _comparable(table.view()) == before, (phase, who, body)

    probe("lobby")
    table.ok(ana, "start")
    table.clock.now += 1000
    probe("turns")
    while table.view()["phase"] == "turns":
        current = table.view()["current"]
        table.session.act(current, "keep", table.view()["step"])
    probe(table.view()["phase"])  # reveal (or game_over)
    while table.view()["phase"] == "reveal":
        view = table.view()
        table.session.act(view["next_dealer"], "deal", view["step"])
        while table.view()["phase"] == "turns":
            table.session.act(table.view()["current"], "keep", table.view()["step"])
    probe("game_over")


def test_issue13_controls_are_listed_only_when_allowed(table: Table) -> None:
    ana, bea, _cal = table.join("Ana", "Bea", "Cal")
    lobby = table.view(ana)["can"]
    assert lobby == [
        "start",
        "set_rules",
        "add_bot",
        "kick",
        "make_vip",
        "set_tv",
        "how_to_play",
        "new_evening",
    ]
    table.ok(ana, "start")
    turns = table.view(ana)["can"]
    assert {"kick", "make_vip", "misdeal", "end_game"} <= set(turns)
    assert not {"set_rules", "add_bot", "set_tv", "how_to_play", "new_evening"} & set(turns)
    assert table.view(bea)["can"] in ([], ["keep", "exchange"], ["keep", "cut"])


def test_issue13_controls_survive_a_kill_9(tmp_path: Any, host_processes: list[Any]) -> None:
    from tests.host_process import HostProcess, without_connected

    state = tmp_path / "s.json"
    host = HostProcess(state, "--house-rules", "H2")
    host_processes.append(host)
    tokens = [host.http.join(name)["token"] for name in ("Ana", "Bea", "Cal", "Dan")]
    host.present(tokens)
    vip = tokens[0]

    def control(action: str, **extra: Any) -> dict[str, Any]:
        step = host.http.state(vip)["step"]
        status, body = host.http.call(
            "POST", "/api/action", {"action": action, "step": step, **extra}, token=vip
        )
        assert status == 200, body
        assert body["step"] == step + 1
        return body  # type: ignore[no-any-return]

    assert host.http.state(vip)["house_rules"] == ["H2"]  # --house-rules: the first choice
    control("set_rules", rules=["H1", "H3"])
    control("add_bot", strategy="simple")
    control("kick", player="p4")
    control("set_tv", language="it", voice_muted=True)
    control("make_vip", player="p2")
    vip = tokens[1]
    before = [without_connected(host.http.state(token)) for token in tokens[:3]]
    host.kill_9()
    host = HostProcess(state, "--house-rules", "H2")
    host_processes.append(host)
    host.present(tokens[:3])
    after = [without_connected(host.http.state(token)) for token in tokens[:3]]
    assert after == before
    assert after[0]["house_rules"] == ["H1", "H3"] and after[0]["vip"] == "p2"
    assert after[0]["tv_language"] == "it" and after[0]["voice_muted"] is True
    assert [p["bot"] for p in after[0]["players"]] == [False, False, False, True]
    status, _ = host.http.call("GET", "/api/state", token=tokens[3])
    assert status == 401  # the kicked player stays out


def test_issue16_item2_the_rules_on_offer_come_in_the_view(table: Table) -> None:
    """H1–H8 and H4's seconds are stated once, in host/rules: the VIP's phone reads them."""
    ana, *_ = table.join("Ana")
    view = table.view(ana)
    assert view["house_rule_ids"] == list(RULE_FIELDS) == [f"H{n}" for n in range(1, 9)]
    limits = view["rapid_seconds_range"]
    assert (limits["min"], limits["max"]) == (RAPID_SECONDS_RANGE[0], RAPID_SECONDS_RANGE[-1])
    assert limits["default"] == HouseRules().rapid_seconds
    table.ok(ana, "set_rules", rules=["H4"], rapid_seconds=limits["max"])
    _error(
        table.act(ana, "set_rules", rules=["H4"], rapid_seconds=limits["max"] + 1),
        400,
        "bad_request",
    )
    script = (ROOT / "phone_web" / "static" / "vip.js").read_text(encoding="utf-8")
    assert not re.search(r'"H[1-8]"', script) and "60" not in script
