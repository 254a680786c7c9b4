"""Start the party again, at once, with glibc's per-thread caches off (issue 18 item 5: flat
memory).

Why: glibc gives every thread a cache of up to seven freed chunks of each small size (up to 1 032
bytes), and serves that thread's next allocations from it. The host has about forty threads (the web
server's, the streams', the pacer's, the voice's) over sixteen arenas, so chunks stay parked in one
thread's cache while the heaps they came from cannot shrink around them. Measured side by side over
5 000 taps with the TV (docs/benchmarks-history.md, "twenty-fifth pass"), the RSS grew +5.6 MB with
the caches and +1.7 MB without, flat from tap 1 000 on.

The caches can only be turned off through ``GLIBC_TUNABLES`` before the process starts (there
is no ``mallopt`` for them), so the ``cuckoo-party`` command re-runs itself once, with the
same interpreter, arguments and process id, before it opens anything. A setting the person
running the party gave for ``glibc.malloc.tcache_count`` is left alone (``=7`` brings back
glibc's default); elsewhere than glibc (macOS, Windows, musl), and in a frozen build, nothing
happens.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping, Sequence

log = logging.getLogger(__name__)

ENVIRONMENT_KEY = "GLIBC_TUNABLES"
#: glibc's per-thread cache: how many freed chunks of each size a thread keeps (default 7).
TCACHE_COUNT = "glibc.malloc.tcache_count"
SETTING = f"{TCACHE_COUNT}=0"


def is_glibc() -> bool:
    """Whether this process runs on GNU libc (the only C library that reads the tunables)."""
    try:
        version = os.confstr("CS_GNU_LIBC_VERSION")
    except (AttributeError, ValueError, OSError):  # no confstr, or not glibc
        return False
    return version is not None and version.startswith("glibc")


def tuned_tunables(environ: Mapping[str, str]) -> str | None:
    """``GLIBC_TUNABLES`` with ``SETTING`` added, or None when there is nothing to change (the
    caches are already set, by us on the second start or by the person running the party)."""
    current = environ.get(ENVIRONMENT_KEY, "")
    names = {item.split("=", 1)[0] for item in current.split(":") if item}
    if TCACHE_COUNT in names:
        return None
    return f"{current}:{SETTING}" if current else SETTING


def tuned_environment(environ: Mapping[str, str]) -> dict[str, str] | None:
    """The environment to start again with (``environ`` with ``tuned_tunables``), or None."""
    tunables = tuned_tunables(environ)
    return None if tunables is None else {**environ, ENVIRONMENT_KEY: tunables}


def relaunch_command(orig_argv: Sequence[str], executable: str) -> list[str]:
    """The command line this process was started with, run by the same interpreter."""
    return [executable, *orig_argv[1:]]


def relaunch_with_flat_memory() -> None:
    """Replace this process with the same command under ``SETTING``, or return if that is
    not needed or not possible (then the party runs as it is, just less flat)."""
    if getattr(sys, "frozen", False) or not sys.executable or not is_glibc():
        return
    environment = tuned_environment(os.environ)
    if environment is None:
        return
    command = relaunch_command(sys.orig_argv, sys.executable)
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execve(sys.executable, command, environment)
    except OSError as error:  # e.g. the interpreter was removed since we started
        log.warning("could not start again with %s (%s); going on as is", SETTING, error)
