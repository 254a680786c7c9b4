"""The benchmarks' CPU meter splits a process's main thread from the others (issue 18 item 3:
what the TV, which runs on the host's main thread, adds to the rest of the host)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

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


#: Prepended to ``SPINNER``: the child on the core given after its mode, at nice 3, where a
#: neighbour at nice 0 gets about two thirds of that core (weights 1024 and 526).
PINNED = """
import os, sys
os.sched_setaffinity(0, {int(sys.argv[2])})
os.nice(3)
"""


def spin_once(child: subprocess.Popen[str]) -> tuple[float, CpuMeter]:
    """Meters ``child`` (a ``SPINNER``) over its one spin, then lets it end: all its threads'
    ms, and the meter."""
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
    return used, meter


def measured(where: str) -> tuple[float, float]:
    """(all threads' ms, the main thread's ms) while the spinner spins on ``where``."""
    with subprocess.Popen(
        [sys.executable, "-c", SPINNER, where],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as child:
        used, meter = spin_once(child)
    return used, meter.main_ms


def test_issue18_the_meter_tells_the_main_threads_share_from_the_rest() -> None:
    used, main = measured("main")
    assert used >= 390 and main >= 390  # the spin, on the main thread
    used, main = measured("worker")
    assert used >= 390 and main < 50  # the spin, on another thread; main waits in join()


#: Spins on one core until told to end: a neighbour that wants the same core.
NEIGHBOUR = """
import os, sys, threading
os.sched_setaffinity(0, {int(sys.argv[1])})
done = threading.Event()
threading.Thread(target=lambda: (sys.stdin.readline(), done.set()), daemon=True).start()
print("spinning", flush=True)
while not done.is_set():
    pass
"""


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="pins to a core (Linux)")
def test_issue18_the_meter_sees_a_thread_wait_for_a_core_a_neighbour_holds() -> None:
    core = min(os.sched_getaffinity(0))
    with subprocess.Popen(
        [sys.executable, "-c", NEIGHBOUR, str(core)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as neighbour:
        assert neighbour.stdout is not None and neighbour.stdin is not None
        assert neighbour.stdout.readline().strip() == "spinning"
        with subprocess.Popen(
            [sys.executable, "-c", PINNED + SPINNER, "worker", str(core)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        ) as child:
            used, meter = spin_once(child)
        neighbour.stdin.write("end\n")
        neighbour.stdin.flush()
        neighbour.wait(30)
    # The spinning thread had about a third of the core: it waited about twice as long as it
    # ran (more if anything else wanted that core). A meter that read the time on a core as
    # the time waiting would find them equal.
    spun = used - meter.main_ms
    assert spun >= 390
    assert meter.waited_ms >= 1.3 * spun
    assert meter.main_waited_ms < meter.waited_ms / 4  # the main thread only waited in join()
