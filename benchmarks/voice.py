"""How long from a game event to the start of its spoken line (target: <= 300 ms when cached).

Runs the real pipeline — phrases, the queue, the render thread with pyttsx3/espeak-ng and
the WAV cache, ``pygame.mixer`` — and prints figures; it asserts nothing. Uses SDL's dummy
audio driver unless ``--real-audio`` is given, so it runs on a headless machine.

    python benchmarks/voice.py [--lines 20] [--lang fr] [--real-audio]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from host.rules import View

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=20, help="events per measurement")
    parser.add_argument("--lang", default="en", choices=("en", "fr", "it"))
    parser.add_argument("--real-audio", action="store_true", help="play on the sound card")
    args = parser.parse_args(argv)
    if not args.real_audio:
        os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

    from host.i18n import Catalog
    from host.voice import Announcer, Pyttsx3Engine
    from host.voice.playback import MixerPlayer

    class StartOnly(MixerPlayer):
        """Starts each line and moves on at once: we time the start, not the whole line."""

        def busy(self) -> bool:
            return False

    catalog = Catalog.load()
    with tempfile.TemporaryDirectory() as cache:
        announcer = Announcer(
            catalog, args.lang, engine=Pyttsx3Engine(Path(cache)), player=StartOnly()
        )
        announcer.start()
        try:
            print(announcer.voice_status(timeout=10.0))
            # Only what the voice reads of a public view: names, dealer, house rules.
            view = cast(
                "View",
                {
                    "players": [{"id": f"p{i}", "name": f"Guest {i}"} for i in range(500)],
                    "dealer": "p0",
                    "house_rules": [],
                },
            )

            def measure(pids: list[str]) -> tuple[list[float], list[float]]:
                latencies: list[float] = []
                calls: list[float] = []
                for pid in pids:
                    before = len(announcer.said())
                    began = time.perf_counter()
                    announcer.announce([{"type": "turn", "player": pid}], view)
                    calls.append(time.perf_counter() - began)
                    deadline = time.monotonic() + 10.0
                    while len(announcer.said()) == before and time.monotonic() < deadline:
                        time.sleep(0.001)
                    said = announcer.said()[-1]
                    if said.audio:
                        latencies.append(said.started - said.line.born)
                    time.sleep(0.05)  # let the caption settle; keeps lines from piling up
                return latencies, calls

            warm = [f"p{i}" for i in range(1, 4)]
            measure(warm)  # first use: engine start, mixer start, and these lines cached
            cached, cached_calls = measure(warm * (args.lines // len(warm) + 1))
            fresh, fresh_calls = measure([f"p{i}" for i in range(10, 10 + args.lines)])
        finally:
            announcer.close()

    def report(label: str, values: list[float]) -> None:
        if not values:
            print(f"{label:<34} no audio (voice unavailable)")
            return
        ms = sorted(v * 1000 for v in values)
        p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
        print(
            f"{label:<34} n={len(ms):3d}  median {statistics.median(ms):7.1f} ms"
            f"  p95 {p95:7.1f} ms  max {ms[-1]:7.1f} ms"
        )

    report("event -> audio start, cached", cached)
    report("event -> audio start, uncached", fresh)
    report("announce() call (caller's cost)", cached_calls + fresh_calls)
    if cached:
        verdict = "OK" if statistics.median(cached) <= 0.300 else "OVER TARGET"
        print(f"target <= 300 ms with a cached line: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
