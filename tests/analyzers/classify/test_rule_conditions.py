"""Rules that hold only where a line stands: a bare exception is read as the wait its
writer announced above it, and stays unrecognised without that announcement."""

from __future__ import annotations

from analyzers.classify.events import classify_scans
from analyzers.classify.rules import load_knowledge
from analyzers.classify.tiers import TIER_SYMPTOM, TIER_UNKNOWN
from analyzers.core.types import Event, EventKind, FileInfo, FileKind, FileScan

KNOWLEDGE = load_knowledge()

ENGINE_LOG = FileInfo(path="serve/engine.log", kind=FileKind.OTHER, rank=None)


def _at(line: int, message: str, kind: EventKind = EventKind.ERROR) -> Event:
    return Event("serve/engine.log", line, message, kind, message, source="traceback")


def test_a_bare_exception_is_read_as_the_wait_its_writer_announced_before_it() -> None:
    """`needs_earlier`: vLLM's bare `TimeoutError` ends the wait the same file announced."""
    announced = Event(
        "serve/engine.log",
        1,
        "No available shared memory broadcast block found in 60 seconds.",
        EventKind.WARNING,
        "No available shared memory broadcast block found in 60 seconds.",
    )
    scan = FileScan(ENGINE_LOG, [announced, _at(9, "TimeoutError")])
    items = classify_scans([scan], KNOWLEDGE)
    assert [item.best.id if item.best else None for item in items] == [
        "hang.shm_broadcast_wait",
        "hang.shm_broadcast_deadline",
    ]
    assert items[1].tier == TIER_SYMPTOM


def test_a_bare_exception_without_the_announcement_above_it_stays_unrecognised() -> None:
    """Counterexample: alone, or with the announcement only after it, the bare type says
    nothing of the engine's wait."""
    alone = FileScan(ENGINE_LOG, [_at(9, "TimeoutError")])
    later = Event(
        "serve/engine.log",
        12,
        "No available shared memory broadcast block found in 60 seconds.",
        EventKind.WARNING,
        "No available shared memory broadcast block found in 60 seconds.",
    )
    after = FileScan(ENGINE_LOG, [_at(9, "TimeoutError"), later])
    for scan in (alone, after):
        bare = classify_scans([scan], KNOWLEDGE)[0]
        assert (bare.best, bare.tier) == (None, TIER_UNKNOWN)
