"""A job log that ends waiting at the store for ranks that never joined.

    [2026-10-02 11:40:10,502][torch.distributed.distributed_c10d][INFO] - Waiting in store based
    barrier to initialize process group for rank: 0, key: store_based_barrier_key:1
    (world_size=4, worker_count=3, timeout=0:30:00)

torch's store-based barrier repeats that line, logged at INFO, while it waits for every rank of
the world to check in, each time with how many have. A log whose last line is such a wait, with
fewer processes counted than the world holds, stopped while its rank waited for the others to
join: the ranks with no log of their own never reached the store
(docs/labelling.md#a-rank-that-never-reached-the-store). Like `formats.leaving`, this looks at
the last line of a file once, after the scan.
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.core import regex_programs
from analyzers.formats.base import ParsedLine, last_with_text

_BARRIER_WAIT = regex_programs.compile(
    r"\bWaiting in store based barrier to initialize process group for rank: ?\d+,"
    r"[^\n]*?\(world_size=(?P<size>\d+), worker_count=(?P<joined>\d+)"
)


STORE_WAIT = "store_wait_at_end"  # facts key: the wait a file ends on


def waiting_at_store(
    tail: Sequence[tuple[int, ParsedLine]],
) -> tuple[int, ParsedLine, int, int] | None:
    """The (line number, line, processes counted, world size) that closes `tail` when it is the
    store barrier's wait with fewer processes counted than the world holds, else None."""
    last = last_with_text(tail)
    found = _BARRIER_WAIT.search(last[1].message) if last is not None else None
    if last is None or found is None:
        return None
    joined, size = int(found["joined"]), int(found["size"])
    return (last[0], last[1], joined, size) if joined < size else None
