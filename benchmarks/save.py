"""The durable save per change (issue 18 item 2): the old whole-file atomic save against the
journal, interleaved in one run, with where the old save's time goes.

Both save the same real session (ten players in the middle of a game) as ``Session._save``
does after a change, including ``to_dict``; the data is durable when each call returns.

- old: ``persistence.save_atomic`` — JSON, a temporary file, fsync, chmod, rename, fsync of
  the folder.
- new: ``SaveFile.write`` — one journal record (``<seq> <crc32> <json>``: what changed since
  the record before, ``journal.session_patch``) with one write and ``fdatasync``, and a
  snapshot (the old save plus emptying the journal) every ``journal.COMPACT_EVERY`` records,
  counted in the figures where it falls.

A move is played between two saves (the session's own, in memory), so each record holds what
one real change changed.

Each run alternates old and new change by change so a noisy moment hits both; the figures are
medians of the runs' medians (and p99s) with their spread. The files go in a temporary folder
on the file system given by ``--dir`` (default: the system's temporary folder; the real save
lives in ``host.paths.state_path()``).

The mean counts the compactions where they fall (one change in ``COMPACT_EVERY``), so run at
least that many changes. Also timed: reading back the longest journal at start.

Run: ``python -m benchmarks.save [--changes 1000] [--runs 3] [--dir DIR]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from host import persistence
from host.journal import COMPACT_EVERY, PATCH_KEY, SaveFile, encode_record, session_patch
from host.rules import HouseRules, game_moves
from host.session import Session

Row = tuple[str, str, str]


def _party() -> Session:
    """Ten players (three bots) in the middle of a game, in memory."""
    session = Session(HouseRules(), seed=18, room="CAKE", bots=3)
    for name in ("Ana", "Bea", "Cal", "Dan", "Eve", "Fay", "Gus"):
        session.join(name, "CAKE")
    session.host_next()
    rng = random.Random(18)
    for _ in range(40):
        _change(session, rng)
    return session


def _change(session: Session, rng: random.Random) -> None:
    """One change: a random legal move, or the host's button between rounds and games."""
    current = session.view(None)["current"]
    if current is None:
        session.host_next()
        return
    session.act(current, rng.choice(game_moves(session.view(current)["can"])), session.step)


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000.0


def _old_parts(path: Path, data: dict[str, Any]) -> dict[str, float]:
    """``save_atomic``'s steps timed one by one (the same steps, in the same order)."""
    parts: dict[str, float] = {}
    start = time.perf_counter()
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    parts["json"] = _ms(start)
    start = time.perf_counter()
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.write(fd, payload)
    parts["temp file + write"] = _ms(start)
    start = time.perf_counter()
    os.fsync(fd)
    os.close(fd)
    parts["fsync"] = _ms(start)
    start = time.perf_counter()
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)
    parts["chmod + rename"] = _ms(start)
    start = time.perf_counter()
    persistence.fsync_directory(path.parent)
    parts["fsync of the folder"] = _ms(start)
    return parts


def _new_parts(
    save: SaveFile, before: dict[str, Any], data: dict[str, Any], seq: int
) -> dict[str, float]:
    """One journal record's steps timed one by one, as ``SaveFile.write`` does them."""
    parts: dict[str, float] = {}
    start = time.perf_counter()
    patch = session_patch(before, data)
    parts["compare (the patch)"] = _ms(start)
    start = time.perf_counter()
    record = encode_record(seq, data if patch is None else {PATCH_KEY: patch})
    parts["json + crc"] = _ms(start)
    parts["record bytes"] = len(record)
    start = time.perf_counter()
    fd = os.open(save.journal, os.O_WRONLY | os.O_APPEND)
    os.write(fd, record)
    parts["open + write"] = _ms(start)
    start = time.perf_counter()
    getattr(os, "fdatasync", os.fsync)(fd)
    os.close(fd)
    parts["fdatasync"] = _ms(start)
    return parts


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def one_run(session: Session, folder: Path, changes: int) -> dict[str, float]:
    """Alternate old and new saves ``changes`` times; medians and p99s in ms."""
    old_path, new_path = folder / "old.json", folder / "new.json"
    save = SaveFile(new_path)
    save.write(session.to_dict())  # the first write is the start's snapshot
    old: list[float] = []
    new: list[float] = []
    rng = random.Random(changes)
    for _ in range(changes):
        _change(session, rng)
        start = time.perf_counter()
        persistence.save_atomic(old_path, session.to_dict())
        old.append(_ms(start))
        start = time.perf_counter()
        save.write(session.to_dict())
        new.append(_ms(start))
    return {
        "old p50": statistics.median(old),
        "old p99": _percentile(old, 0.99),
        "old mean": statistics.fmean(old),
        "new p50": statistics.median(new),
        "new p99": _percentile(new, 0.99),
        "new mean": statistics.fmean(new),
    }


def start_reading(session: Session, folder: Path) -> float:
    """ms to read back the longest journal there can be (a snapshot, then ``COMPACT_EVERY``
    - 1 records), as a start after a kill does before its checks."""
    path = folder / "start.json"
    save = SaveFile(path)
    rng = random.Random(COMPACT_EVERY)
    for _ in range(COMPACT_EVERY):
        _change(session, rng)
        save.write(session.to_dict())
    start = time.perf_counter()
    SaveFile(path).load()
    return _ms(start)


def breakdown(session: Session, folder: Path, changes: int) -> dict[str, float]:
    """Median ms of each step of the old save and of a journal record."""
    samples: dict[str, list[float]] = {}
    save = SaveFile(folder / "parts.json")
    before = session.to_dict()
    save.write(before)
    rng = random.Random(changes + 1)
    for i in range(changes):
        _change(session, rng)
        data = session.to_dict()
        found = {
            "to_dict": _to_dict_ms(session),
            **{f"old: {k}": v for k, v in _old_parts(folder / "old.json", data).items()},
            **{f"new: {k}": v for k, v in _new_parts(save, before, data, i + 2).items()},
        }
        for key, value in found.items():
            samples.setdefault(key, []).append(value)
        before = data
    return {key: statistics.median(values) for key, values in samples.items()}


def _to_dict_ms(session: Session) -> float:
    start = time.perf_counter()
    session.to_dict()
    return _ms(start)


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} ms [{min(values):.3f}–{max(values):.3f}]"


def main(argv: list[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--changes", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dir", default=None, help="where the temporary folder goes")
    args = parser.parse_args(argv)
    session = _party()
    size = len(json.dumps(session.to_dict(), ensure_ascii=False, separators=(",", ":")))
    folder = Path(tempfile.mkdtemp(prefix="cuckoo-save-", dir=args.dir))
    try:
        print(f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(f"session JSON: {size} bytes; {args.changes} changes per run, {args.runs} runs")
        runs = [one_run(session, folder, args.changes) for _ in range(max(1, args.runs))]
        parts = breakdown(session, folder, min(args.changes, 400))
        reading = start_reading(session, folder)
        print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        session.close()
    print("where one save's time goes (medians):")
    for key, value in parts.items():
        unit = " bytes" if key.endswith("bytes") else " ms"
        print(f"  {key:<28} {value:7.3f}{unit}")
    rows: list[Row] = []
    for key in ("old p50", "new p50", "old p99", "new p99", "old mean", "new mean"):
        rows.append(
            (f"save per change, {key} (median of runs)", _spread([r[key] for r in runs]), "")
        )
    ratio = [r["old p50"] / r["new p50"] for r in runs]
    rows.append(("save per change, old/new p50", f"{statistics.median(ratio):.1f}x", "> 1"))
    rows.append((f"start: read a snapshot + {COMPACT_EVERY - 1} records", f"{reading:.1f} ms", ""))
    print(f"{'figure':<48} {'measured':>30} {'target':>6}")
    for row in rows:
        print(f"{row[0]:<48} {row[1]:>30} {row[2]:>6}")
    return rows


if __name__ == "__main__":
    main()
