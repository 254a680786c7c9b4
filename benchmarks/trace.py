"""A differential trace of the engine: record seeded random games, compare after a change.

Why: a refactoring of ``host/rules`` must not change what anybody sees. This plays a few hundred
seeded games covering every house rule, with refusals, time-outs, misdeals, kicks, late joins,
bot moves and save/restore round trips, and after every engine call records a digest of

- the returned events (dict form and audience) or the refusal's reason and message,
- ``game.to_dict()`` (the whole state, RNG included),
- every player's view and the public view.

Digests keep the recording small; a mismatch names the game, the call and the part that
differs, so it can be replayed with ``show``. Views are compared on the keys the recording
had, so fields *added* to the view do not count as a change.

Run: ``python -m benchmarks.trace record /tmp/trace.json``, then after a change
``python -m benchmarks.trace compare /tmp/trace.json`` (exit status 1 on a difference), or
``python -m benchmarks.trace show SEED CALL`` to print one call in full.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path

from host.rules import Event, Game, HouseRules, IllegalAction
from host.rules.bots import choose_action
from host.rules.options import RULE_FIELDS

GAMES = 300
CALLS_PER_GAME = 220
ACTION_WORDS = ("start", "keep", "exchange", "cut", "deal", "new_game", "bogus", "")
NAMES = ("Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kay", "Lu")

Snapshot = dict[str, object]


def options_for(seed: int) -> HouseRules:
    """Each rule alone, none, all, then random mixes: every house rule is covered."""
    names = list(RULE_FIELDS.values())
    if seed < len(names):
        chosen = {names[seed]}
    elif seed == len(names):
        chosen = set()
    elif seed == len(names) + 1:
        chosen = set(names)
    else:
        pick = random.Random(seed * 31 + 7)
        chosen = {name for name in names if pick.random() < 0.4}
    return HouseRules(**{name: True for name in chosen}, rapid_seconds=5)


def play(seed: int) -> Iterator[tuple[str, Snapshot]]:
    """Yield (what was called, snapshot) for every call of one seeded game."""
    driver = random.Random(seed * 7919 + 1)
    game = Game(options_for(seed), random.Random(seed))
    for i in range(3 + seed % 8):
        game.add_player(f"p{i}", NAMES[i % len(NAMES)] + ("" if i < len(NAMES) else str(i)))
    joined = 0
    for _ in range(CALLS_PER_GAME):
        roll = driver.random()
        ids = [p.id for p in game.players]
        call: tuple[str, ...]
        if roll < 0.03 or not ids:
            joined += 1
            name = driver.choice(NAMES) + driver.choice(("", str(joined)))
            call = ("join", f"j{joined}", name, "bot" if driver.random() < 0.5 else "")
        elif roll < 0.045:
            call = ("kick", driver.choice([*ids, "ghost"]))
        elif roll < 0.07:
            call = ("misdeal",)
        elif roll < 0.12:
            call = ("timeout",)
        elif roll < 0.17:
            call = ("apply", driver.choice([*ids, "ghost"]), driver.choice(ACTION_WORDS))
        elif roll < 0.19:
            game = Game.from_dict(json.loads(json.dumps(game.to_dict())))
            call = ("restore",)
        else:
            movers = [p for p in ids if game.legal_actions(p)]
            if not movers:
                joined += 1
                call = ("join", f"j{joined}", f"Late {joined}", "")
            else:
                pid = driver.choice(movers)
                strategy = driver.choice(("random", "simple", "smart"))
                word = choose_action(strategy, game.view(pid), driver)
                call = ("apply", pid, word, strategy)
        yield " ".join(call), snapshot(game, call)


def perform(game: Game, call: tuple[str, ...]) -> list[Event]:
    """Make one engine call; ``call`` is (what, arguments…) as ``play`` chose it."""
    what, *args = call
    if what == "join":
        return game.add_player(args[0], args[1], bot=args[2] == "bot")
    if what == "kick":
        return game.remove_player(args[0])
    if what == "misdeal":
        return game.misdeal()
    if what == "timeout":
        return game.timeout()
    if what == "apply":
        return game.apply(args[0], args[1])
    return []


def snapshot(game: Game, call: tuple[str, ...]) -> Snapshot:
    """What the call returned, then the whole state and every view after it."""
    result: object
    try:
        events = perform(game, call)
    except IllegalAction as refusal:
        result = {"refused": str(refusal.reason.value), "message": refusal.message}
    else:
        result = [
            {
                "event": event.to_dict(),
                "audience": None if event.audience is None else sorted(event.audience),
            }
            for event in events
        ]
    views: dict[str, object] = {"(public)": game.view(None)}
    views.update({p.id: game.view(p.id) for p in game.players})
    return {"result": result, "state": game.to_dict(), "views": views}


def canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(value: object) -> str:
    return hashlib.sha256(canonical(value).encode()).hexdigest()[:16]


def project(view: object, keys: list[str], me_keys: list[str]) -> object:
    """A view restricted to the recorded keys (added view fields do not count)."""
    if not isinstance(view, dict):
        return view
    out = {key: view.get(key, "<missing>") for key in keys}
    if isinstance(out.get("me"), dict):
        me = out["me"]
        out["me"] = {key: me.get(key, "<missing>") for key in me_keys}
    return out


def digests(shot: Snapshot, keys: list[str], me_keys: list[str]) -> list[str]:
    views = shot["views"]
    assert isinstance(views, dict)
    return [
        digest(shot["result"]),
        digest(shot["state"]),
        digest({who: project(view, keys, me_keys) for who, view in views.items()}),
    ]


def view_keys(games: int) -> tuple[list[str], list[str]]:
    game = Game(HouseRules(), random.Random(0))
    for i in range(3):
        game.add_player(f"p{i}", f"P{i}")
    view = game.view("p0")
    assert view["me"] is not None
    return sorted(view), sorted(view["me"])


def record(path: Path, games: int) -> None:
    keys, me_keys = view_keys(games)
    recording: dict[str, object] = {"view_keys": keys, "me_keys": me_keys, "games": {}}
    calls = 0
    for seed in range(games):
        rows = [[label, *digests(shot, keys, me_keys)] for label, shot in play(seed)]
        recording["games"][str(seed)] = rows  # type: ignore[index]
        calls += len(rows)
    path.write_text(json.dumps(recording))
    print(f"recorded {games} games, {calls} calls -> {path}")


def compare(path: Path) -> int:
    recording = json.loads(path.read_text())
    keys, me_keys = recording["view_keys"], recording["me_keys"]
    parts = ("result", "state", "views")
    calls = 0
    for seed_text, rows in recording["games"].items():
        for index, ((label, shot), old) in enumerate(zip(play(int(seed_text)), rows)):
            calls += 1
            new = [label, *digests(shot, keys, me_keys)]
            if new != old:
                differ = [parts[i - 1] for i in range(1, 4) if new[i] != old[i]]
                print(
                    f"DIFFERENT: game {seed_text} call {index}: recorded {old[0]!r}, "
                    f"now {label!r}; differs in {differ or ['the call']}"
                )
                print(f"  see: python -m benchmarks.trace show {seed_text} {index}")
                return 1
    print(f"same: {len(recording['games'])} games, {calls} calls")
    return 0


def show(seed: int, index: int) -> None:
    for i, (label, shot) in enumerate(play(seed)):
        if i == index:
            print(label)
            print(json.dumps(shot, indent=1, sort_keys=True))
            return


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("path", type=Path)
    rec.add_argument("--games", type=int, default=GAMES)
    cmp_ = sub.add_parser("compare")
    cmp_.add_argument("path", type=Path)
    one = sub.add_parser("show")
    one.add_argument("seed", type=int)
    one.add_argument("call", type=int)
    args = parser.parse_args(argv)
    if args.command == "record":
        record(args.path, args.games)
        return 0
    if args.command == "compare":
        return compare(args.path)
    show(args.seed, args.call)
    return 0


if __name__ == "__main__":
    sys.exit(main())
