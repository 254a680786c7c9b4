"""Load: what the host serves while 20 phones hold streams and a crowd hammers it.

Why: a party is bursty — twenty phones reconnecting after the Wi-Fi hiccups, everyone
reloading at once. The real headless host (child process, H7 for 20 seats) gets 20 open event
streams, then for a fixed time ``--seconds`` several keep-alive clients send ``GET /api/state``
as fast as they can while one phone keeps tapping; we report the requests served per second,
their latency, and the tap → other phones' streams latency *under* that load. Bounded: fixed
duration, fixed number of client threads, 127.0.0.1 only, and the host is stopped at the end.

Run: ``python -m benchmarks.load [--seconds S] [--clients N]``.
"""

from __future__ import annotations

import argparse
import random
import threading
import time

from benchmarks._host import (
    HostProcess,
    Http,
    load_average,
    one_tap,
    percentile,
    phones_streaming,
    print_table,
)

Row = tuple[str, str, str]


def flood(seconds: float, clients: int, phones: int = 20, seed: int = 5) -> dict[str, list[float]]:
    """Latency samples (ms) of the flood's reads and of taps reaching the other phones."""
    rng = random.Random(seed)
    reads: list[float] = []
    taps: list[float] = []
    errors: list[str] = []
    with (
        HostProcess("--house-rules", "H7") as host,
        phones_streaming(host, phones) as (http, tokens, hub),
    ):
        deadline = time.monotonic() + seconds
        lock = threading.Lock()

        def reader(token: str) -> None:
            client = Http(host.port)
            mine: list[float] = []
            try:
                while time.monotonic() < deadline:
                    began = time.perf_counter()
                    status, _ = client.call("GET", "/api/state", token=token)
                    mine.append((time.perf_counter() - began) * 1000.0)
                    if status != 200:
                        errors.append(f"state answered {status}")
            except OSError as error:
                errors.append(repr(error))
            finally:
                client.close()
                with lock:
                    reads.extend(mine)

        workers = [
            threading.Thread(target=reader, args=(token,), daemon=True)
            for token in list(tokens.values())[:clients]
        ]
        for worker in workers:
            worker.start()
        while time.monotonic() < deadline:
            arrivals, _ = one_tap(http, tokens, hub, rng)
            taps += arrivals
            time.sleep(0.05)
        for worker in workers:
            worker.join(10)
    if errors:
        raise RuntimeError(f"{len(errors)} failed requests, e.g. {errors[0]}")
    return {"reads": reads, "taps": taps}


def main(argv: list[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args(argv)
    print(f"load average at start: {load_average()}", flush=True)
    got = flood(args.seconds, args.clients)
    reads, taps = got["reads"], got["taps"]
    label = f"{args.clients} clients reading, 20 streams"
    rows: list[Row] = [
        (
            f"GET /api/state served per second ({label})",
            f"{len(reads) / args.seconds:,.0f}/s",
            "(no target)",
        ),
        (
            "GET /api/state latency under that load, p50",
            f"{percentile(reads, 50):.1f} ms",
            "(no target)",
        ),
        (
            "GET /api/state latency under that load, p99",
            f"{percentile(reads, 99):.1f} ms",
            "(no target)",
        ),
        (
            "tap -> other phones' streams under that load, p50",
            f"{percentile(taps, 50):.1f} ms",
            "p99 <= 15 ms (unloaded)",
        ),
        (
            "tap -> other phones' streams under that load, p99",
            f"{percentile(taps, 99):.1f} ms",
            "p99 <= 15 ms (unloaded)",
        ),
    ]
    print_table(rows)
    print(f"load average at end: {load_average()}")
    return rows


if __name__ == "__main__":
    main()
