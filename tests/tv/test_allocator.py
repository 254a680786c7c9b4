"""Issue 18 item 5 (flat memory): the TV asks glibc to keep big pixel buffers in their own
mappings, so a surface pushed out of a cache gives its memory back instead of leaving a hole
in the heap (``host/tv/allocator.py``). Each check runs in a fresh interpreter: the setting
lasts for the whole process."""

from __future__ import annotations

import platform
import subprocess
import sys
from pathlib import Path

import pytest

from host.tv.allocator import ENVIRONMENT_KEY, map_big_blocks

pytestmark = pytest.mark.skipif(
    platform.libc_ver()[0] != "glibc", reason="mallopt and mallinfo2 are glibc's"
)

ROOT = Path(__file__).resolve().parents[2]

#: The TV's pattern in small: surfaces of 30–300 KB kept in a cache bounded at 3 MB (oldest
#: out first) while small long-lived blocks are made among them. Prints the heap's size, the
#: bytes in mapped blocks and the free bytes the heap keeps (glibc's ``mallinfo2``).
PROBE = """
import ctypes, random, sys
from collections import OrderedDict
from host.tv.allocator import map_big_blocks
class Info(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in ("arena", "ordblks", "smblks", "hblks", "hblkhd",
                "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]
libc = ctypes.CDLL("libc.so.6")
libc.mallinfo2.restype = Info
libc.malloc.restype = ctypes.c_void_p
libc.malloc.argtypes = [ctypes.c_size_t]
libc.free.argtypes = [ctypes.c_void_p]
if sys.argv[1] == "set":
    assert map_big_blocks({})
rng = random.Random(7)
cache, held, small = OrderedDict(), 0, []
for i in range(3000):
    size = rng.randint(30_000, 300_000)
    cache[i] = (libc.malloc(size), size)
    held += size
    small.append(libc.malloc(rng.randint(200, 3000)))
    if len(small) > 500:
        libc.free(small.pop(rng.randrange(len(small))))
    while held > 3 << 20:
        _, (block, gone) = cache.popitem(last=False)
        libc.free(block)
        held -= gone
info = libc.mallinfo2()
print(info.arena, info.hblkhd, info.fordblks)
"""


def churn(mode: str) -> tuple[int, int, int]:
    """(heap bytes, mapped bytes, free bytes kept in the heap) after the churn."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, mode],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    heap, mapped, kept = (int(word) for word in done.stdout.split())
    return heap, mapped, kept


def test_issue18_cached_surfaces_churned_leave_no_holes_in_the_heap() -> None:
    as_is, mapped_big = churn("as-is"), churn("set")
    # glibc as it is: once a big block is freed, the next ones come from the heap, and the
    # heap keeps the holes they leave between the small blocks (megabytes of free bytes).
    assert as_is[2] > 1_000_000
    # With the TV's setting the big blocks have their own mappings: the heap keeps a small
    # fraction of those holes, and the process holds less memory in all.
    assert mapped_big[2] < as_is[2] / 4
    assert mapped_big[1] > as_is[1]
    assert sum(mapped_big[:2]) < sum(as_is[:2])


def test_issue18_a_threshold_set_by_the_host_s_owner_is_left_alone() -> None:
    assert map_big_blocks({ENVIRONMENT_KEY: "131072"}) is False
