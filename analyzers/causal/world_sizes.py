"""Ranks whose own start lines give another world size than the rest.

A job's ranks each state the world size they were started with (`init process group: ...
rank=3 world_size=5`). When a launch script hands one rank (or node) another value, that
rank waits in the store for peers that do not exist (a key of rank 4 in a job of four) while
the others wait for it, and every line is a wait. The sizes the ranks state say who was
started wrong: the few whose size differs from the one most ranks give. Only files that
belong to one rank count (a shared stdout mixes ranks), at least three ranks must state a
size, and the odd ones must be fewer than half of them.

A rank given a larger size often fails inside `init_process_group` before its start line is
printed, so it states no size at all. Its wait still says it: gloo's set-up waits for each
peer's address under a key ending in that peer's rank, and a key of a rank at or past the
world size the other ranks state (or the environment dump counts) names a peer that does not
exist. The few ranks waiting on such keys were started with a larger world size.

Two launches (one per node) can also split the ranks evenly between two sizes, and then no
size is the odd few. A size that cannot hold a rank that states it (`rank=4 world_size=4`)
is the wrong one: every rank that states it was started with it.

A launch can also hand one rank's number to two processes (a rank list `0 1 1 3`): the store
counts enough clients, nobody publishes the missing rank's address, and every process waits
for it. The start lines say who: a file named for one rank whose start line states the number
of another file's rank, which states it too, belongs to a process given that other number.

The same start line often states the process-group timeout (`timeout=20s`). A rank started
with a shorter one than the rest times out first in any wait its peers would have sat out (a
slow peer's first barrier); the few ranks stating a shorter timeout than the one most ranks
state are read the same way as an odd world size.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from analyzers.classify.matches import Classified
from analyzers.core.types import FileScan

# gloo's address key for one rank of a group: <group prefix>//cpu//<n>/<rank>
_PEER_KEY = re.compile(r"\bkeys: .*?//cpu//\d+/(?P<rank>\d+)\b")


def _rank(scan: FileScan) -> int | None:
    rank = scan.info.rank
    if rank is None:
        rank = scan.facts.get("rank_hint")
    return rank if isinstance(rank, int) else None


def _stated(scans: Sequence[FileScan]) -> dict[int, int]:
    """Each rank's world size, from the files of that rank that state exactly one."""
    sizes: dict[int, set[int]] = {}
    for scan in scans:
        rank, size = _rank(scan), scan.facts.get("world_size")
        if rank is not None and isinstance(size, int) and size > 0:
            sizes.setdefault(rank, set()).add(size)
    return {rank: next(iter(s)) for rank, s in sizes.items() if len(s) == 1}


def _job_world(scans: Sequence[FileScan]) -> int | None:
    """The world size the job was started with: the one every rank that states a size gives
    (at least two), else the one the environment dumps agree on."""
    stated = _stated(scans)
    sizes = set(stated.values())
    if len(sizes) == 1 and len(stated) > 1:
        return sizes.pop()
    counts = {
        str((scan.facts.get("env") or {}).get("WORLD_SIZE") or "").strip() for scan in scans
    } - {""}
    if len(counts) == 1 and (only := counts.pop()).isdigit():
        return int(only)
    return None


def waits_past_world(
    items: Iterable[Classified], scans: Sequence[FileScan]
) -> tuple[tuple[int, ...], int] | None:
    """(the ranks that waited for a peer's key at or past the job's world size, that size),
    when they are fewer than half the world: those ranks were started with a larger one."""
    world = _job_world(scans)
    if world is None:
        return None
    odd = {
        item.rank
        for item in items
        if item.rank is not None
        and any(
            int(m["rank"]) >= world
            for m in _PEER_KEY.finditer(item.event.message or item.event.text)
        )
    }
    if not odd or len(odd) * 2 >= world:
        return None
    return tuple(sorted(odd)), world


def odd_world_sizes(scans: Sequence[FileScan]) -> tuple[tuple[int, ...], int, int] | None:
    """(the odd ranks, the size most ranks state, the odd ranks' size), or None when the
    ranks agree, too few state a size, or no size has a clear majority."""
    stated = _stated(scans)
    if len(stated) < 3:
        return None
    counts = Counter(stated.values()).most_common()
    if len(counts) != 2:
        return None
    (size, many), (theirs, few) = counts
    if few * 2 >= len(stated) or many == few:
        impossible = _impossible_sizes(stated)
        if len(impossible) != 1:
            return None
        theirs = impossible.pop()
        size = next(s for s, _ in counts if s != theirs)
    odd = tuple(sorted(rank for rank, s in stated.items() if s == theirs))
    return odd, size, theirs


def odd_timeouts(scans: Sequence[FileScan]) -> tuple[tuple[int, ...], float, float] | None:
    """(the ranks whose start lines state a shorter timeout than most ranks', that timeout in
    seconds, theirs), when at least three ranks state one, the ranks stating the most common
    value are more than half of them and the others all state one shorter value."""
    said: dict[int, set[float]] = {}
    for scan in scans:
        rank, timeout = _rank(scan), scan.facts.get("start_timeout_s")
        if rank is not None and isinstance(timeout, float) and timeout > 0:
            said.setdefault(rank, set()).add(timeout)
    stated = {rank: next(iter(t)) for rank, t in said.items() if len(t) == 1}
    if len(stated) < 3:
        return None
    counts = Counter(stated.values()).most_common()
    if len(counts) != 2:
        return None
    (usual, _), (theirs, few) = counts
    if few * 2 >= len(stated) or theirs >= usual:
        return None
    return tuple(sorted(r for r, t in stated.items() if t == theirs)), usual, theirs


def _impossible_sizes(stated: dict[int, int]) -> set[int]:
    """The sizes that some rank stating them cannot be part of (rank 4 of a world of four):
    with the ranks split evenly between two sizes, such a size is the wrong one, and every
    rank that states it was started with it."""
    return {size for rank, size in stated.items() if rank >= size}


def ranks_started_twice(scans: Sequence[FileScan]) -> tuple[int, ...] | None:
    """The ranks (as their files name them) whose start line states another rank's number that
    the other rank's own file states as well, when at least three ranks' files state one and
    the repeats are fewer than half of them; None otherwise."""
    said: dict[int, set[int]] = {}
    for scan in scans:
        rank, start = scan.info.rank, scan.facts.get("start_rank")
        if isinstance(rank, int) and isinstance(start, int):
            said.setdefault(rank, set()).add(start)
    stated = {rank: next(iter(s)) for rank, s in said.items() if len(s) == 1}
    if len(stated) < 3:
        return None
    odd = tuple(
        sorted(
            rank for rank, start in stated.items() if start != rank and stated.get(start) == start
        )
    )
    if not odd or len(odd) * 2 >= len(stated):
        return None
    return odd
