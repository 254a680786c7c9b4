"""Latency: a tap → every other phone's event stream (20 phones), and a tap → the TV's next frame.

Why these two: they are what a player feels. A tap must show on every other phone and on the
TV before anyone notices a delay.

- Phones: the real headless host runs as a child process (house rule H7 seats 20) and saves
  after every change, as at a party. 20 phones join and hold ``/api/events`` streams; the phone
  whose turn it is taps (``POST /api/action``) and we time from just before the request is sent
  to the moment each *other* phone's stream delivers the view with the new step. One sample per
  (tap, receiving phone). Target: p99 <= 15 ms on loopback.
- TV: in one process, as in the party, a session, the waitress server and the TV's ``TVApp``
  (SDL dummy driver, 1920×1080 canvas) running its real loop and clock. A thread taps over HTTP
  and we time from the request *returning* to the end of the first frame rendered after the TV
  received that step. Target: within one frame (16.7 ms at 60 fps).

Run: ``python -m benchmarks.latency [--taps N] [--tv-taps N]``.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks._host import (
    HostProcess,
    Http,
    actor_of,
    load_average,
    one_tap,
    percentile,
    phones_streaming,
)
from host.rules import EventDict, View, game_moves

PHONE_TARGET_MS = 15.0
FRAME_MS = 1000.0 / 60.0
#: A RAM-backed directory: the same host with saves that never wait for a disk.
TMPFS = "/dev/shm"
Row = tuple[str, str, str]


def tap_to_phones(
    taps: int, phones: int = 20, seed: int = 1, state_dir: str | None = None
) -> dict[str, list[float]]:
    """Milliseconds from a tap's send: ``all`` to each other phone's stream receiving the new
    step; per tap, the ``first`` and ``last`` phone to get it; ``round_trip`` of the tap's own
    request. The spread between first and last is the per-stream cost of the fan-out."""
    rng = random.Random(seed)
    samples: list[float] = []
    firsts: list[float] = []
    lasts: list[float] = []
    round_trips: list[float] = []
    with (
        HostProcess("--house-rules", "H7", state_dir=state_dir) as host,
        phones_streaming(host, phones) as (http, tokens, hub),
    ):
        time.sleep(0.3)  # let the 'connected' presence updates settle
        for _ in range(taps):
            these, round_trip = one_tap(http, tokens, hub, rng)
            round_trips.append(round_trip)
            samples += these
            firsts.append(min(these))
            lasts.append(max(these))
    return {"all": samples, "first": firsts, "last": lasts, "round_trip": round_trips}


def act_cost(saved: bool, taps: int = 200, phones: int = 20, seed: int = 3) -> list[float]:
    """ms inside ``Session.act`` alone (20 subscribers, no HTTP), with or without the save.

    Context for the phone figure: it shows how much of a tap is the atomic, fsynced save.
    """
    from host.rules import HouseRules
    from host.session import Session

    rng = random.Random(seed)
    samples: list[float] = []
    with tempfile.TemporaryDirectory(prefix="cuckoo-bench-") as tmp:
        session = Session(
            HouseRules.parse("H7"),
            seed=seed,
            room="BENCH",
            turn_timeout=0,
            state_path=Path(tmp) / "state.json" if saved else None,
        )
        try:
            pids = [session.join(f"Phone {i + 1}", "BENCH").player_id for i in range(phones)]
            subscriptions = [session.subscribe(pid) for pid in pids]
            for _ in range(taps):
                table = session.view(None)
                who = actor_of(table)
                assert who is not None, table["phase"]
                began = time.perf_counter()
                session.act(who, rng.choice(game_moves(session.view(who)["can"])), table["step"])
                samples.append((time.perf_counter() - began) * 1000.0)
                for subscription in subscriptions:
                    while subscription.get(0.0) is not None:
                        pass
        finally:
            session.close()
    return samples


def tap_to_tv_frame(taps: int, players: int = 10, seed: int = 2) -> tuple[list[float], list[float]]:
    """(ms from a tap's response to the end of the TV frame showing it, ms of TV work per frame).

    The TV runs its own ``run`` loop on this (main) thread with the real clock and frame pacing;
    the tapper is a thread of this process, so it competes for the GIL like the web server does.
    """
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from host.i18n import Catalog
    from host.network import BackgroundServer
    from host.rules import HouseRules
    from host.session import Session
    from host.tv.app import TVApp, open_window
    from phone_web import create_app

    catalog = Catalog.load()
    with tempfile.TemporaryDirectory(prefix="cuckoo-bench-") as tmp:
        session = Session(
            HouseRules(),
            seed=seed,
            room="BENCH",
            state_path=Path(tmp) / "state.json",
            turn_timeout=0,
        )
        server = BackgroundServer(create_app(session, catalog), "127.0.0.1", 0).start()
        screen = open_window(False, "bench")
        app = TVApp(
            session,
            None,
            catalog,
            lang="en",
            join_url=f"http://127.0.0.1:{server.port}/?room=BENCH",
        )
        returned: dict[int, float] = {}
        received: dict[int, float] = {}
        shown: dict[int, float] = {}
        render_ms: list[float] = []
        receive = app.stage.receive
        render = app.render

        def timed_receive(view: View, events: Sequence[EventDict]) -> None:
            receive(view, events)
            received.setdefault(view["step"], time.perf_counter())

        def timed_render(target: Any) -> None:
            began = time.perf_counter()
            render(target)
            done = time.perf_counter()
            render_ms.append((done - began) * 1000.0)
            for step, at in received.items():
                if step not in shown and at <= began:
                    shown[step] = done

        app.stage.receive = timed_receive  # type: ignore[method-assign]
        app.render = timed_render  # type: ignore[method-assign,assignment]
        failure: list[BaseException] = []

        def tapper() -> None:
            rng = random.Random(seed)
            http = Http(server.port)
            try:
                tokens = dict(http.join(f"Player {i + 1}", "BENCH") for i in range(players))
                for _ in range(taps):
                    time.sleep(rng.uniform(0.05, 0.25))  # people do not tap in lockstep
                    table = session.view(None)
                    who = actor_of(table)
                    assert who is not None, table["phase"]
                    mine = session.view(who, paced=False)  # the real table, not the TV's pace
                    status, body = http.call(
                        "POST",
                        "/api/action",
                        {"action": rng.choice(game_moves(mine["can"])), "step": mine["step"]},
                        tokens[who],
                    )
                    assert status == 200, body
                    returned[body["step"]] = time.perf_counter()
            except BaseException as error:  # noqa: BLE001 - reported by the main thread
                failure.append(error)
            finally:
                http.close()
                app.running = False

        thread = threading.Thread(target=tapper, daemon=True)
        thread.start()
        try:
            app.run(screen=screen, max_frames=taps * 100)
        finally:
            app.running = False
            thread.join(10)
            app.close()
            session.close()
            server.stop()
            screen.close()
        if failure:
            raise RuntimeError(f"the tapper failed: {failure[0]!r}")
    latencies = [(shown[s] - at) * 1000.0 for s, at in returned.items() if s in shown]
    return latencies, render_ms


def main(argv: list[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--taps", type=int, default=300)
    parser.add_argument("--tv-taps", type=int, default=150)
    args = parser.parse_args(argv)
    print(f"load average at start: {load_average()}", flush=True)
    rows: list[Row] = []
    phones = tap_to_phones(args.taps)
    rows += [
        (
            f"tap -> 19 other phones' streams (20 connected), {name}",
            f"{percentile(phones['all'], pct):.1f} ms",
            f"p99 <= {PHONE_TARGET_MS:.0f} ms",
        )
        for name, pct in (("p50", 50), ("p95", 95), ("p99", 99))
    ]
    rows += [
        (f"{label}, p50", f"{percentile(phones[key], 50):.1f} ms", "(context)")
        for key, label in (
            ("round_trip", "tap's own POST /api/action round trip"),
            ("first", "tap -> the first of the 19 phones"),
            ("last", "tap -> the last of the 19 phones"),
        )
    ]
    if os.path.isdir(TMPFS):
        in_memory = tap_to_phones(args.taps, state_dir=TMPFS)["all"]
        rows += [
            (
                f"same, state file on tmpfs ({TMPFS}: no disk wait), {name}",
                f"{percentile(in_memory, pct):.1f} ms",
                f"p99 <= {PHONE_TARGET_MS:.0f} ms",
            )
            for name, pct in (("p50", 50), ("p99", 99))
        ]
    for saved in (True, False):
        cost = act_cost(saved)
        which = "with" if saved else "without"
        rows.append(
            (
                f"Session.act alone, 20 subscribers, {which} the fsynced save, p50",
                f"{percentile(cost, 50):.1f} ms",
                "(context)",
            )
        )
    tv, render_ms = tap_to_tv_frame(args.tv_taps)
    rows += [
        (
            f"tap -> TV frame showing it (request returned), {name}",
            f"{percentile(tv, pct):.1f} ms",
            f"p99 <= {FRAME_MS:.1f} ms (1 frame)",
        )
        for name, pct in (("p50", 50), ("p99", 99))
    ]
    rows.append(
        (
            "TV render work per frame during that game, p99",
            f"{percentile(render_ms, 99):.1f} ms",
            "(context)",
        )
    )
    print_rows(rows)
    print(f"load average at end: {load_average()}")
    return rows


def print_rows(rows: list[Row]) -> None:
    width = max(len(r[0]) for r in rows)
    print(f"{'figure':<{width}}  {'measured':>12}  target")
    for figure, measured, target in rows:
        print(f"{figure:<{width}}  {measured:>12}  {target}")


if __name__ == "__main__":
    main()
