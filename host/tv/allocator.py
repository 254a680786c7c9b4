"""Big pixel buffers in their own mappings, so a surface that leaves a cache gives its memory
back to the system instead of leaving a hole in the C heap (issue 18 item 5: flat memory).

Why: the TV makes and frees surfaces of 30–400 KB all evening (each new caption, banner and
name is rendered, kept in a bounded cache, and pushed out later by newer ones). glibc serves
a block from its own ``mmap`` only above a threshold that it *raises* each time such a block
is freed, up to 32 MB; after the first big free, every later surface comes from the heap,
between long-lived blocks, and the heap keeps the holes they leave. Fixing the threshold at
``THRESHOLD`` (which also stops it sliding) keeps those surfaces out of the heap: measured with
``growth.py``, the TV host's RSS grew less over the evening (see docs/benchmarks-history.md,
"fifteenth pass"). Below it stay Python's objects and the few small surfaces drawn per frame.

Only glibc has ``mallopt``; elsewhere (macOS, Windows, musl) this does nothing. A threshold
set by the person running the party (``MALLOC_MMAP_THRESHOLD_``) is left alone.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
from collections.abc import Mapping

log = logging.getLogger(__name__)

#: Blocks from 32 KiB up get their own mapping: a card face at the seats' width (58 KB), a
#: caption (60–300 KB), a plate. A card mid-flip (29 KB, made every frame of a flip) does not.
THRESHOLD = 32 * 1024
#: glibc's ``M_MMAP_THRESHOLD`` (malloc.h).
M_MMAP_THRESHOLD = -3
ENVIRONMENT_KEY = "MALLOC_MMAP_THRESHOLD_"


def map_big_blocks(environ: Mapping[str, str], threshold: int = THRESHOLD) -> bool:
    """Ask glibc to serve blocks of ``threshold`` bytes and more from their own mappings.
    Returns whether it was set (False: not glibc, or the environment already sets it)."""
    if ENVIRONMENT_KEY in environ:
        return False
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        mallopt = ctypes.CDLL(name).mallopt
    except (OSError, AttributeError):  # not glibc
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    done = bool(mallopt(M_MMAP_THRESHOLD, threshold))
    if not done:
        log.info("the C allocator refused an mmap threshold of %d bytes", threshold)
    return done
