"""How many CPUs this process may use: the scanners and the timeline's JSON both ask."""

from __future__ import annotations

import os


def usable_cpus() -> int:
    """CPUs this process may run on: a container's cpuset, not the host's count."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1
