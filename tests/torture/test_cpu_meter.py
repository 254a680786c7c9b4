"""The benchmarks' CPU meter splits a process's main thread from the others (issue 18 item 3:
what the TV, which runs on the host's main thread, adds to the rest of the host)."""

from __future__ import annotations

import subprocess
import sys
import time

from benchmarks._host import CpuMeter

#: Spins for ``seconds`` on the main thread or on a second thread; the other one sleeps.
SPINNER = """
import sys, threading, time
def spin(seconds):
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass
def run():
    spin(0.4)
if sys.argv[1] == "main":
    threading.Thread(target=time.sleep, args=(1.5,)).start()
    print("ready", flush=True); sys.stdin.readline(); run()
else:
    # the worker outlives the meter: a thread that ended has no time left to read
    worker = threading.Thread(target=lambda: (sys.stdin.readline(), run(), time.sleep(1.5)))
    worker.start()
    print("ready", flush=True); worker.join()
"""


def measured(where: str) -> tuple[float, float]:
    """(all threads' ms, the main thread's ms) while the spinner spins on ``where``."""
    with subprocess.Popen(
        [sys.executable, "-c", SPINNER, where],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as child:
        assert child.stdout is not None and child.stdin is not None
        assert child.stdout.readline().strip() == "ready"
        time.sleep(0.2)  # the interpreter's start-up is over, the other thread sleeps
        meter = CpuMeter(child.pid)
        meter.start()
        child.stdin.write("go\n")
        child.stdin.flush()
        time.sleep(1.0)  # the spin ends first: 0.4 s of CPU, however slow the machine
        used, _ = meter.stop()
        child.wait(10)
    return used, meter.main_ms


def test_issue18_the_meter_tells_the_main_threads_share_from_the_rest() -> None:
    used, main = measured("main")
    assert used >= 380 and main >= 380  # the spin, on the main thread
    used, main = measured("worker")
    assert used >= 380 and main < 50  # the spin, on another thread; main waits in join()
