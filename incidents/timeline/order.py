"""Put every rank's checkpoints on shared axes: one logical order, one corrected clock.

Ranks are compared by checkpoint identity (normalised text, occurrence index), never by
raw time: clocks on different hosts disagree and many logs carry no time at all.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable, Iterable, Mapping, Sequence
from statistics import median
from typing import TypeVar

K = TypeVar("K", bound=Hashable)

SKEW_ROUNDS = 2


def merge_sequences(sequences: Iterable[Sequence[K]]) -> list[K]:
    """One global order that keeps every rank's own order wherever the ranks agree.

    A topological sort of the "comes right after" graph of all sequences; ties go to the
    identity seen first, so a rank that took its own branch lands after the common path
    it left. Where ranks contradict each other (a cycle) the earliest-seen identity wins.
    """
    ids: dict[K, int] = {}
    edges: set[tuple[int, int]] = set()
    for seq in _unique(sequences):
        prev = -1
        for item in seq:
            node = ids.setdefault(item, len(ids))
            if prev >= 0 and prev != node:
                edges.add((prev, node))
            prev = node
    order = _kahn(len(ids), edges)
    keys = list(ids)
    return [keys[node] for node in order]


def _unique(sequences: Iterable[Sequence[K]]) -> Iterable[Sequence[K]]:
    """Most ranks of a job log the same sequence: walk each distinct one once."""
    seen: set[tuple[K, ...]] = set()
    for seq in sequences:
        key = tuple(seq)
        if key not in seen:
            seen.add(key)
            yield key


def _kahn(size: int, edges: set[tuple[int, int]]) -> list[int]:
    successors: list[list[int]] = [[] for _ in range(size)]
    indegree = [0] * size
    for a, b in edges:
        successors[a].append(b)
        indegree[b] += 1
    ready = [node for node in range(size) if indegree[node] == 0]
    heapq.heapify(ready)
    placed = [False] * size
    order: list[int] = []
    cursor = 0  # the lowest node that may still be unplaced: breaks cycles in O(size)
    while len(order) < size:
        if not ready:
            while placed[cursor]:
                cursor += 1
            ready.append(cursor)
            indegree[cursor] = 0
        node = heapq.heappop(ready)
        if placed[node]:
            continue
        placed[node] = True
        order.append(node)
        for nxt in successors[node]:
            indegree[nxt] -= 1
            if indegree[nxt] == 0 and not placed[nxt]:
                heapq.heappush(ready, nxt)
    return order


def estimate_clock_offsets(times: Mapping[int, Mapping[K, float]]) -> dict[int, float]:
    """Each rank's clock error in seconds, from when ranks passed the same checkpoints.

    Ranks of one job pass a shared checkpoint at nearly the same moment (collectives keep
    them in step), so the median gap between a rank's time and the job's median time at
    the checkpoints it shares is its clock offset. Subtract it to correct. Ranks sharing
    no timed checkpoint keep offset 0. Offsets are centred so the typical rank keeps its
    own clock.
    """
    offsets = {rank: 0.0 for rank in times}
    for _ in range(SKEW_ROUNDS):
        reference = _reference_times(times, offsets)
        offsets = {rank: _rank_offset(ts, reference) for rank, ts in times.items()}
    if not offsets:
        return offsets
    centre = median(offsets.values())
    return {rank: offset - centre for rank, offset in offsets.items()}


def _reference_times(
    times: Mapping[int, Mapping[K, float]], offsets: Mapping[int, float]
) -> dict[K, float]:
    """Median corrected time of every checkpoint that at least two ranks passed."""
    samples: dict[K, list[float]] = {}
    for rank, ts in times.items():
        offset = offsets[rank]
        for key, t in ts.items():
            samples.setdefault(key, []).append(t - offset)
    return {key: median(values) for key, values in samples.items() if len(values) > 1}


def _rank_offset(ts: Mapping[K, float], reference: Mapping[K, float]) -> float:
    gaps = [t - reference[key] for key, t in ts.items() if key in reference]
    return median(gaps) if gaps else 0.0
