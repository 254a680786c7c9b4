"""Issue 15 findings 7 and 8, deliverable 4: every damaged or inconsistent save is refused at
start with one clear line and exit 2, the file left untouched; stale temp files are removed;
an unwritable ``--state`` is one clear line and exit 2. And no real save is ever refused."""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from host import persistence
from host.cli import main
from host.rules import HouseRules, game_moves
from host.save_check import check_saved_session
from host.session import SAVE_FORMAT, SAVE_VERSION, Session, SessionError

ROOT = Path(__file__).resolve().parents[2]
Doc = dict[str, Any]


def _good_save(tmp_path: Path) -> Doc:
    """A real save in the middle of a round: three people, a bot, a late joiner waiting."""
    path = tmp_path / "good.json"
    session = Session(HouseRules(), seed=4, room="CAKE", state_path=path, bots=1)
    for name in ("Ana", "Bea", "Cal"):
        session.join(name, "CAKE")
    session.host_next()
    session.join("Dan", "CAKE")
    session.close()
    data: Doc = json.loads(path.read_text(encoding="utf-8"))
    assert data["game"]["phase"] == "turns"
    return data


def _set(*keys: Any, value: Any) -> Callable[[Doc], None]:
    def change(doc: Doc) -> None:
        target = doc
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value

    return change


def _card_twice(doc: Doc) -> None:
    holder = next(p for p in doc["game"]["players"] if p["card"])
    doc["game"]["stock"][0] = holder["card"]


def _waiting_holds_a_card(doc: Doc) -> None:
    waiting = next(p for p in doc["game"]["players"] if p["status"] == "waiting")
    waiting["card"] = doc["game"]["stock"].pop()


def _ghost(doc: Doc) -> None:
    doc["tokens"].pop(next(iter(doc["tokens"])))


def _same_token(doc: Doc) -> None:
    first, *rest = doc["tokens"]
    doc["tokens"][rest[0]] = doc["tokens"][first]


def _too_many_players(doc: Doc) -> None:
    players = doc["game"]["players"]
    for n in range(20, 28):
        players.append(
            {
                "id": f"p{n}",
                "name": f"X{n}",
                "lives": 3,
                "status": "waiting",
                "bot": True,
                "card": None,
            }
        )
        doc["bots"][f"p{n}"] = "smart"
    doc["next_number"] = 40


def _unknown_bot(doc: Doc) -> None:
    doc["bots"] = {}


def _delete(key: str) -> Callable[[Doc], None]:
    def change(doc: Doc) -> None:
        del doc[key]

    return change


def _dealer_not_last(doc: Doc) -> None:
    order = doc["game"]["order"]
    order[0], order[-1] = order[-1], order[0]


def _duplicate_name(doc: Doc) -> None:
    players = doc["game"]["players"]
    players[1]["name"] = players[0]["name"].upper()


def _missing_status(doc: Doc) -> None:
    del doc["game"]["players"][0]["status"]


def _penalty_for_nobody(doc: Doc) -> None:
    doc["game"]["penalties"] = {"p77": 1}


DOCUMENT_DAMAGE: dict[str, Callable[[Doc], None]] = {
    "tokens as a list": _set("tokens", value=["a", "b"]),
    "game as a string": _set("game", value="game"),
    "game as null": _set("game", value=None),
    "turn_index 99": _set("game", "turn_index", value=99),
    "turn_index -1": _set("game", "turn_index", value=-1),
    "players as a string": _set("game", "players", value="Ana"),
    "lives as text": _set("game", "players", 0, "lives", value="3"),
    "lives 99": _set("game", "players", 0, "lives", value=99),
    "a card held twice": _card_twice,
    "a card missing": lambda doc: doc["game"]["stock"].pop(),
    "dealer not last": _dealer_not_last,
    "order names a stranger": _set("game", "order", 0, value="p99"),
    "order as a dict": _set("game", "order", value={"p1": 1}),
    "unknown phase": _set("game", "phase", value="dancing"),
    "negative step": _set("game", "step", value=-1),
    "step true": _set("game", "step", value=True),
    "step as float": _set("game", "step", value=3.5),
    "vip a stranger": _set("game", "vip", value="p42"),
    "token for a stranger": _set("tokens", "p42", value="x" * 43),
    "bot without strategy": _unknown_bot,
    "bot strategy unknown": lambda doc: doc["bots"].update({k: "evil" for k in doc["bots"]}),
    "token as a number": lambda doc: doc["tokens"].update({k: 7 for k in doc["tokens"]}),
    "next_number too small": _set("next_number", value=1),
    "next_number as text": _set("next_number", value="9"),
    "rng garbage": _set("game", "rng", value=[3, [1, 2], None]),
    "rng as text": _set("game", "rng", value="seed"),
    "rng words not base64": _set("game", "rng", 1, value="!!not base64!!"),
    "rng words cut short": _set("game", "rng", 1, value="AAAAAAA="),
    "rng words one word": _set("game", "rng", 1, value="AAAAAA=="),
    "rng words not ascii": _set("game", "rng", 1, value="é" * 8),
    "rng words a number": _set("game", "rng", 1, value=625),
    "rapid_seconds 0": _set("game", "options", "rapid_seconds", value=0),
    "house rule as text": _set("game", "options", "five_lives", value="yes"),
    "options as a list": _set("game", "options", value=[]),
    "unknown event": _set("game", "log", 0, "type", value="explosion"),
    "log as a dict": _set("game", "log", value={}),
    "history as a list": _set("game", "history", value=[]),
    "room as a number": _set("room", value=42),
    "room empty": _set("room", value=" "),
    "unknown format": _set("format", value="someone-else"),
    "version 2": _set("version", value=2),
    "game format 9": _set("game", "format", value=9),
    "no game": _delete("game"),
    "no tokens": _delete("tokens"),
    "cut_king not a card": _set("game", "cut_king", value="ZZ"),
    "stock card as number": _set("game", "stock", 0, value=10),
    "penalty for nobody": _penalty_for_nobody,
    "a waiting player holds a card": _waiting_holds_a_card,
    "the same name twice": _duplicate_name,
    "too many players": _too_many_players,
    "a player without status": _missing_status,
    "a person without a token (ghost)": _ghost,
    "two players, one token": _same_token,
    "cuts_made 5": _set("game", "cuts_made", value=5),
    "pending_bots -3": _set("pending_bots", value=-3),
    "sudden death as strings": _set("game", "sudden_death", value=["x"]),
    "players entry as a list": _set("game", "players", 0, value=[1, 2]),
    "a player id twice": _set("game", "players", 1, "id", value="p1"),
    "vip as an object": _set("game", "vip", value={"id": "p1"}),
    "next_dealer as a list": _set("game", "next_dealer", value=["p1"]),
    "event type as a list": _set("game", "log", 0, "type", value=["turn"]),
    "history emptied mid-round": _set("game", "history", value={}),
}

RAW_DAMAGE: dict[str, bytes] = {
    "truncated JSON": b'{"format": "cuckoo-party-session", "ver',
    "a JSON list": b"[]",
    "a JSON string": b'"save"',
    "not UTF-8": b'{"room": "\xff\xfe"}',
    "deep nesting": b"[" * 5000 + b"]" * 5000,
    "empty file": b"",
    "NUL bytes": b"\x00" * 64,
}


def _write(path: Path, doc: Doc) -> None:
    path.write_text(json.dumps(doc), encoding="utf-8")


def _refused_at_start(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """Start the real command in-process on ``path``: exit 2, one line, nothing else said."""
    before = path.read_bytes() if path.is_file() else None
    status = main(["--headless", "--port", "0", "--bind", "127.0.0.1", "--state", str(path)])
    out, err = capsys.readouterr()
    assert status == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    if before is not None:
        assert path.read_bytes() == before  # the file is left untouched
    return lines[0]


@pytest.mark.parametrize("kind", sorted(DOCUMENT_DAMAGE))
def test_issue15_damaged_save_is_refused_with_one_line(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = copy.deepcopy(_good_save(tmp_path))
    DOCUMENT_DAMAGE[kind](doc)
    path = tmp_path / "state.json"
    _write(path, doc)
    line = _refused_at_start(path, capsys)
    assert str(path) in line and "--fresh" in line


@pytest.mark.parametrize("kind", sorted(RAW_DAMAGE))
def test_issue15_unreadable_save_is_refused_with_one_line(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "state.json"
    path.write_bytes(RAW_DAMAGE[kind])
    assert str(path) in _refused_at_start(path, capsys)


def test_issue15_a_folder_as_the_save_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "state.json"
    path.mkdir()
    (path / "keep.txt").write_text("mine", encoding="utf-8")
    assert "folder" in _refused_at_start(path, capsys)
    assert (path / "keep.txt").read_text(encoding="utf-8") == "mine"


def test_issue15_unwritable_state_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    line = _refused_at_start(blocker / "state.json", capsys)  # a file stands in the way
    assert "Cannot save the game to" in line and "--state" in line
    assert blocker.read_text(encoding="utf-8") == "not a folder"


def test_issue15_unwritable_state_on_read_only_mount(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    readonly = Path("/proc/cuckoo-party-state.json")  # a file system nobody may write
    line = _refused_at_start(readonly, capsys)
    assert "Cannot save the game to" in line


def _start_on(path: Path, *more: str) -> subprocess.CompletedProcess[str]:
    """The real command, headless, on the save at ``path``."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "host.cli",
            "--headless",
            "--port",
            "0",
            "--bind",
            "127.0.0.1",
            "--state",
            str(path),
            *more,
        ],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def test_issue15_damaged_save_from_the_real_command_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    doc = _good_save(tmp_path)
    doc["tokens"] = ["a"]
    _write(path, doc)
    before = path.read_bytes()
    done = _start_on(path)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert done.stdout == ""
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("lang", "damage", "problem", "detail"),
    [
        ("fr", {"tokens": ["a"]}, "save_damaged", "tokens: expected an object"),
        ("it", {"version": 999}, "save_unknown_version", "known version"),
    ],
)
def test_a_save_that_cannot_be_read_is_told_in_the_hosts_language_details_in_the_log(
    tmp_path: Path, lang: str, damage: Doc, problem: str, detail: str
) -> None:
    """Play-test: the one line was French or Italian around the check's English words
    ("tokens: expected an object, found list"). Now the host reads what is wrong in their
    language, and where the details are; the check's words go to the party's log."""
    from host.i18n import Catalog
    from host.logs import log_path_for

    path = tmp_path / "state.json"
    _write(path, {**_good_save(tmp_path), **damage})
    done = _start_on(path, "--lang", lang)
    catalog = Catalog.load()
    log = log_path_for(path)
    told = catalog.t(
        lang,
        "cli.bad_state",
        path=str(path),
        problem=catalog.t(lang, f"cli.{problem}"),
        log=str(log),
    )
    assert done.returncode == 2
    assert done.stderr.strip() == told
    assert detail not in done.stderr
    assert detail in log.read_text(encoding="utf-8")


def test_issue15_stale_temp_files_are_removed_at_start(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    Session(HouseRules(), room="CAKE", state_path=path).close()
    stale = [tmp_path / f".state.json.{n}abc.tmp" for n in range(3)]
    for temp in stale:
        temp.write_text('{"tokens": "secret"}', encoding="utf-8")
    other = tmp_path / ".other.json.1.tmp"
    other.write_text("not ours", encoding="utf-8")
    resumed = Session(HouseRules(), state_path=path)
    try:
        assert resumed.resumed
        assert not any(temp.exists() for temp in stale)
        assert other.exists()  # only our own save's temp files
    finally:
        resumed.close()


def test_issue15_every_real_save_is_accepted(tmp_path: Path) -> None:
    """No false refusal: every state of many played games (kicks, late joins, every house
    rule) passes the check and resumes to the same views."""
    rng = random.Random(15)
    for rules in ("", "H1,H3", "H2,H4,H5", "H6,H7,H8", "H3,H5"):
        session = Session(HouseRules.parse(rules), seed=rng.randrange(1000), room="CAKE", bots=2)
        people = [session.join(name, "CAKE").player_id for name in ("Ana", "Bea")]
        for move in range(600):
            doc = session.to_dict()
            game = check_saved_session(json.loads(json.dumps(doc)), SAVE_FORMAT, SAVE_VERSION)
            assert game.to_dict() == doc["game"]
            view = session.view(None)
            if view["phase"] in ("lobby", "reveal", "game_over"):
                if move % 97 == 5 and len(view["players"]) < 8:
                    people.append(session.join(f"Late{move}", "CAKE").player_id)
                if view["phase"] != "lobby" or len(view["players"]) >= 3:
                    session.host_next()
                continue
            current = view["current"]
            assert current is not None  # in turns
            if move % 131 == 7 and current in people and len(view["players"]) > 3:
                session.kick(current)
                people.remove(current)
                continue
            if move % 53 == 11:
                session.misdeal()
                continue
            can = session.view(current)["can"]
            session.act(current, rng.choice(game_moves(can)), session.step)
        session.close()


_VALUES: list[Any] = [None, 0, 1, -1, 99, True, "x", "", [], {}, ["p1"], {"a": 1}, 2.5, "p1", "KS"]


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(obj, dict):
        for key, value in obj.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(obj, list):
        for index, value in enumerate(obj[:4]):
            found += _paths(value, (*prefix, index))
    return found


def test_issue15_random_damage_is_refused_or_plays_on(tmp_path: Path) -> None:
    """Any field set to any odd value: the host refuses the save at start, or resumes it and
    every request afterwards is answered (a refusal at most), never a crash."""
    rng = random.Random(1515)
    base = _good_save(tmp_path)
    paths = [p for p in _paths(base) if p and p[:2] != ("game", "rng")]
    refused = resumed = 0
    for trial in range(150):
        doc = copy.deepcopy(base)
        for _ in range(rng.choice((1, 2))):
            *parents, last = rng.choice(paths)
            target: Any = doc
            try:
                for key in parents:
                    target = target[key]
                target[last] = rng.choice(_VALUES)
            except (KeyError, IndexError, TypeError):
                pass  # an earlier change removed the way there
        path = tmp_path / f"state-{trial}.json"
        _write(path, doc)
        try:
            session = Session(HouseRules(), state_path=path)
        except persistence.CorruptSave:
            refused += 1
            continue
        resumed += 1
        try:
            for seat in session.view(None)["players"]:
                session.view(seat["id"])
            for _ in range(40):
                current = session.view(None)["current"]
                if current is None:
                    session.host_next()
                    continue
                can = session.view(current)["can"]
                session.act(current, rng.choice(game_moves(can)), session.step)
        except SessionError:
            pass  # a refusal is an answer
        finally:
            session.close()
    assert refused > 50 and resumed > 10


def test_issue15_damaged_tv_settings_keep_the_defaults_and_the_party(tmp_path: Path) -> None:
    """Found by the random damage test once round 40's colours moved the bytes: a save whose
    TV settings are not an object stopped the host with an AttributeError. The TV's language,
    voice and music are not worth refusing a party over: the defaults, the game resumed."""
    from host.rules import HouseRules
    from host.session import Session

    path = tmp_path / "s.json"
    first = Session(HouseRules(), room="ROOM", seed=3, state_path=path)
    pid = first.join("Ana", "ROOM").player_id
    first.close()
    saved = json.loads(path.read_text())
    saved["tv"] = "garbage"
    path.write_text(json.dumps(saved))
    again = Session(HouseRules(), room="ROOM", seed=3, state_path=path)
    assert again.resumed and again.view(None)["players"][0]["id"] == pid
    again.close()
