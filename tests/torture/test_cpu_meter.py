"""The benchmarks' CPU meter splits a process's main thread from the others (issue 18 item 3:
what the TV, which runs on the host's main thread, adds to the rest of the host)."""

from __future__ import annotations

import subprocess
import sys

from benchmarks._host import CpuMeter

#: Spins 0.4 s of CPU on the main thread or on a second thread (the main thread then waits in
#: ``join``), says so, and stays alive until told to end (a thread that ended has no time left
#: to read). The steps follow the test's lines, so a slow machine only makes it slower.
SPINNER = """
import sys, threading, time
def spin(seconds):
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass
def work():
    sys.stdin.readline()
    spin(0.4)
    print("spun", flush=True)
    sys.stdin.readline()
if sys.argv[1] == "main":
    print("ready", flush=True)
    work()
else:
    worker = threading.Thread(target=work)
    worker.start()
    print("ready", flush=True)
    worker.join()
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
        meter = CpuMeter(child.pid)
        meter.start()
        child.stdin.write("go\n")
        child.stdin.flush()
        assert child.stdout.readline().strip() == "spun"
        used, _ = meter.stop()
        child.stdin.write("end\n")
        child.stdin.flush()
        child.wait(30)
    return used, meter.main_ms


def test_issue18_the_meter_tells_the_main_threads_share_from_the_rest() -> None:
    used, main = measured("main")
    assert used >= 390 and main >= 390  # the spin, on the main thread
    used, main = measured("worker")
    assert used >= 390 and main < 50  # the spin, on another thread; main waits in join()
