"""Keep freed 1 MiB buffers in the process instead of handing them back to the kernel.

Streaming a bundle allocates and frees a few 1 MiB `bytes` per MiB read (inflate, tar,
pipe, block, folded copy). With glibc's defaults each such buffer is either mapped fresh or
trimmed off the heap top as soon as it is freed, so every MiB costs hundreds of page faults:
about a second of system time per 700 MB on the benchmark machine. Raising the mmap and trim
thresholds above the chunk size lets the heap reuse the same pages; it bounds retained free
memory at TRIM_BYTES. A no-op where glibc's `mallopt` is missing (macOS, musl).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
MMAP_BYTES = 4 * 1024 * 1024  # allocations above this still get their own mapping
TRIM_BYTES = 32 * 1024 * 1024  # free heap kept for reuse before it is returned


@functools.cache
def reuse_freed_buffers() -> bool:
    """Tune this process's allocator once; True when it took effect."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_BYTES) and mallopt(_M_TRIM_THRESHOLD, TRIM_BYTES))
