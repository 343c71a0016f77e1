"""Exact facts from every rank's full checkpoint sequence: the last point all ranks reached,
a checkpoint's occurrence number, and how far each rank's clock runs ahead.

Identity is (text, occurrence index on the rank), so rank r reached the k-th `norm passed`
exactly when it logged `norm passed` more than k times: membership is a count comparison,
no set of keys per rank is built. Ranks of one job mostly log the same sequence, so clock
offsets align the common prefix position by position and match keys only after it.

Pipeline stages (ranks holding disjoint sets of layers) print the same sub-module words in
layers of their own: stage 0's `attention passed` is `layer 1 / attention passed`, stage 3's
`layer 7 / attention passed`. Those are different checkpoints, so for stages the identity is
the layer-qualified label, not the text: the last checkpoint all stages reached is one every
stage logged (a step line, a stage-level `bwd passed`), never a layer one stage alone ran.
"""

from __future__ import annotations

import math
import operator
import statistics
from array import array
from collections import Counter

from analyzers.core.checkpoint_timeline import Timeline
from analyzers.timeline.divergence import first_difference, stage_layers


def last_common(timeline: Timeline, ranks: list[int]) -> tuple[int, int] | None:
    """(rank, index) of the last checkpoint every given rank reached, as the lowest of them
    logged it; None when some rank logged none or they share nothing."""
    seqs = {r: timeline.ranks.get(r) for r in ranks}
    if not seqs or not all(seqs.values()):
        return None
    shortest = min(seqs, key=lambda r: (len(seqs[r]), r))  # type: ignore[arg-type]
    labelled = all(len(seq.label) == len(seq.text) for seq in seqs.values())  # type: ignore[union-attr]
    key = "label" if labelled and stage_layers(timeline) else "text"
    counts = {r: Counter(getattr(seq, key)) for r, seq in seqs.items() if r != shortest}
    texts = getattr(seqs[shortest], key)
    remaining = Counter(texts)
    for index in range(len(texts) - 1, -1, -1):
        text = texts[index]
        remaining[text] -= 1
        occurrence = remaining[text]
        if all(count[text] > occurrence for count in counts.values()):
            return min(seqs), _index_of(getattr(seqs[min(seqs)], key), text, occurrence)
    return None


def occurrence(texts: array, index: int) -> int:
    """1-based: the entry at `index` is the n-th with its text."""
    return texts[: index + 1].count(texts[index])


def _index_of(texts: array, text: int, occurrence: int) -> int:
    seen = -1
    for index, value in enumerate(texts):
        if value == text:
            seen += 1
            if seen == occurrence:
                return index
    raise ValueError("occurrence not in sequence")


def clock_offsets(timeline: Timeline) -> dict[int, float]:
    """Seconds each rank's clock runs ahead of the reference rank's (the lowest rank with
    timed checkpoints): the median difference over all checkpoints both logged."""
    timed = [r for r in sorted(timeline.ranks) if any(t == t for t in timeline.ranks[r].time)]
    if not timed:
        return {}
    reference = timed[0]
    offsets = {reference: 0.0}
    for rank in timed[1:]:
        gaps = _gaps(timeline, rank, reference)
        if gaps:
            offsets[rank] = round(statistics.median(gaps), 6)
    return offsets


def _gaps(timeline: Timeline, rank: int, reference: int) -> list[float]:
    a, b = timeline.ranks[rank], timeline.ranks[reference]
    size = min(len(a), len(b))
    same = first_difference(memoryview(a.text.tobytes()), memoryview(b.text.tobytes()), 0, size)
    gaps = _paired_gaps(a.time[:same], b.time[:same])
    if same < len(a) and same < len(b):
        gaps += _keyed_gaps(a, b, same)
    return gaps


def _paired_gaps(times: array, reference: array) -> list[float]:
    """`times[i] - reference[i]` where both lines had a time. A finite sum means no NaN on
    either side, and then the subtraction runs without a Python loop (millions of pairs)."""
    if math.isfinite(sum(times) + sum(reference)):
        return list(map(operator.sub, times, reference))
    return [x - y for x, y in zip(times, reference, strict=True) if x == x and y == y]


def _keyed_gaps(a, b, start: int) -> list[float]:  # type: ignore[no-untyped-def]
    """Past the common prefix, pair checkpoints by identity."""
    before = Counter(a.text[:start])
    ref_times = dict(_keyed(b.text, b.time, start, Counter(before)))
    return [
        t - ref_times[key]
        for key, t in _keyed(a.text, a.time, start, Counter(before))
        if key in ref_times and t == t and ref_times[key] == ref_times[key]
    ]


def _keyed(texts: array, times: array, start: int, seen: Counter[int]):  # type: ignore[no-untyped-def]
    for index in range(start, len(texts)):
        text = texts[index]
        yield (text, seen[text]), times[index]
        seen[text] += 1
