"""Ranks whose own start lines give another world size than the rest.

A job's ranks each state the world size they were started with (`init process group: ...
rank=3 world_size=5`). When a launch script hands one rank (or node) another value, that
rank waits in the store for peers that do not exist (a key of rank 4 in a job of four) while
the others wait for it, and every line is a wait. The sizes the ranks state say who was
started wrong: the few whose size differs from the one most ranks give. Only files that
belong to one rank count (a shared stdout mixes ranks), at least three ranks must state a
size, and the odd ones must be fewer than half of them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from analyzers.core.types import FileScan


def _rank(scan: FileScan) -> int | None:
    rank = scan.info.rank
    if rank is None:
        rank = scan.facts.get("rank_hint")
    return rank if isinstance(rank, int) else None


def odd_world_sizes(scans: Sequence[FileScan]) -> tuple[tuple[int, ...], int, int] | None:
    """(the odd ranks, the size most ranks state, the odd ranks' size), or None when the
    ranks agree, too few state a size, or no size has a clear majority."""
    sizes: dict[int, set[int]] = {}
    for scan in scans:
        rank, size = _rank(scan), scan.facts.get("world_size")
        if rank is not None and isinstance(size, int) and size > 0:
            sizes.setdefault(rank, set()).add(size)
    stated = {rank: next(iter(s)) for rank, s in sizes.items() if len(s) == 1}
    if len(stated) < 3:
        return None
    counts = Counter(stated.values()).most_common()
    if len(counts) != 2:
        return None
    (size, many), (theirs, few) = counts
    if few * 2 >= len(stated) or many == few:
        return None
    odd = tuple(sorted(rank for rank, s in stated.items() if s == theirs))
    return odd, size, theirs
