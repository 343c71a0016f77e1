"""An agent's C++ line took place no later than the agent's own Python lines printed after it.

A torchrun agent writes two kinds of timed lines to its stderr: torch's C++ logging, glog's
layout in brackets with nanoseconds (`[W1207 06:50:22.628528723 TCPStore.cpp:138] [c10d]
recvValueWithTimeout failed ...`), and torchelastic's Python logging, the agent's pid after the
time (`W1207 06:50:22.189000 27358 torch/distributed/elastic/multiprocessing/api.py:1028]
Sending process 27420 closing signal SIGTERM`). Both are written unbuffered, so their order in
the agent's console is the order they were written; their clocks are not one (the C++ stamps
were seen running up to half a second ahead of Python's in one process). A C++ line of the
console therefore happened no later than the earliest Python line the same console prints after
it, and that time is its ceiling where its own stamp says later. Without it, an agent that lost
the job's store and then stopped its own ranks sorts after the lost connections its peers
report because of that stop.

Only the agent's own lines count: a launcher's copies of its ranks' lines (`[default0]:...`,
`[rank3]:...`) come through pipes the agent reads when it gets to them.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Mapping, Sequence

from analyzers.classify.matches import Classified
from analyzers.core.checkpoint_timeline import epoch
from analyzers.core.types import FileKind, FileScan

_CPP_LINE = re.compile(r"^\[[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d{9} [\w.]+:\d+\]")
_AGENT_LINE = re.compile(r"^[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d{6} \d+ \S+:\d+\]")


def agent_ceilings(
    items: Sequence[Classified], scans: Sequence[FileScan]
) -> Mapping[tuple[int, int], float]:
    """{(file order, line): latest moment} for the C++ lines of a launcher's console that one
    of the agent's Python lines below them places earlier than their own stamp."""
    wanted = {
        item.order
        for item in items
        if item.event.timestamp is not None and _CPP_LINE.match(item.event.text)
    }
    ceilings: dict[tuple[int, int], float] = {}
    for order in wanted:
        if order >= len(scans) or scans[order].info.kind != FileKind.LAUNCHER:
            continue
        later = _agent_times(scans[order])
        if not later:
            continue
        lines = [line for line, _ in later]
        for item in items:
            if item.order != order or item.event.timestamp is None:
                continue
            if not _CPP_LINE.match(item.event.text):
                continue
            below = _first_after(lines, item.event.line)
            if below is None:
                continue
            ceiling = later[below][1]
            if ceiling < epoch(item.event.timestamp):
                ceilings[(order, item.event.line)] = ceiling
    return ceilings


def _agent_times(scan: FileScan) -> list[tuple[int, float]]:
    """The agent's Python lines, each with the earliest time printed at or after it."""
    timed = [
        (event.line, epoch(event.timestamp))
        for event in sorted(scan.events, key=lambda e: e.line)
        if event.timestamp is not None and _AGENT_LINE.match(event.text)
    ]
    out: list[tuple[int, float]] = []
    low = float("inf")
    for line, moment in reversed(timed):
        low = min(low, moment)
        out.append((line, low))
    out.reverse()
    return out


def _first_after(lines: list[int], line: int) -> int | None:
    index = bisect_right(lines, line)
    return index if index < len(lines) else None
