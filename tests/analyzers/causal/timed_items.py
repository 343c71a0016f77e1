"""Classified lines placed in a file at a time, for the tests of the causal stages: each line is
read by the real signatures, then given its rank, file order and time as a scan would.

    >>> item("ValueError: bad batch", rank=1, order=1, seconds=5).rank
    1
"""

from __future__ import annotations

from datetime import datetime, timedelta

from analyzers.classify.matches import Classified
from analyzers.classify.rules import load_knowledge
from analyzers.classify.tiers import classify_event
from analyzers.core.types import Correlation, Event, EventKind, FileKind, RankStatus, RankSummary
from analyzers.formats.codes import extract_codes

KNOWLEDGE = load_knowledge()

T0 = datetime(2026, 11, 29, 7, 24, 27)

WATCHDOG = (
    "[Rank {rank}] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=42, "
    "OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800101 milliseconds before timing out."
)

OOM = (
    "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 1; 60.96 GiB total "
    "capacity; 58.10 GiB already allocated; 1.20 GiB free; 58.90 GiB reserved in total by PyTorch)"
)

CLOSED = (
    "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer "
    "[127.0.0.1]:1946. This is typically caused by a remote worker crashing."
)


def item(
    message: str,
    *,
    rank: int | None,
    order: int,
    line: int = 10,
    seconds: float | None = None,
    kind: FileKind = FileKind.RANK_LOG,
) -> Classified:
    stamp = T0 + timedelta(seconds=seconds) if seconds is not None else None
    event = Event(
        file=f"job/file_{order}.log",
        line=line,
        text=message,
        kind=EventKind.ERROR,
        message=message,
        rank=rank,
        timestamp=stamp,
        codes=extract_codes(message),
    )
    classified = classify_event(event, order, KNOWLEDGE)
    classified.rank, classified.kind = rank, kind
    return classified


def correlation(statuses: dict[int, RankStatus], offsets: dict[int, float] | None = None):
    ranks = [RankSummary(r, status, None, None) for r, status in statuses.items()]
    return Correlation(ranks=ranks, timeline={}, world_size=len(ranks), clock_offsets=offsets or {})
