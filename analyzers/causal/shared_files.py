"""Ranks that write into one file: when their own clocks, not the line order, say who failed first.

One file is one writer's order as a rule (`analyzers.causal.line_order.causal_order`): a
process's C++ and Python clocks may disagree, its lines never lie about their order. A console
that several ranks print into (a launcher's combined stdout, a paste of several ranks' blocks)
is several writers, though: each rank's block lands when that rank flushed it or when the user
pasted it, so a rank that failed a second earlier may stand further down. Where the ranks' own
times say so by more than the clocks' tolerance, the file is read writer by writer, and each
writer's lines keep their order. docs/labelling.md#ranks-that-share-one-file
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from analyzers.causal.chain import CLOCK_TOLERANCE_S, epoch
from analyzers.classify.matches import Classified

NO_WRITER = -1  # a line of a file read as one writer, or before any rank's line


def shared_file_writers(
    top: Sequence[Classified], items: Sequence[Classified], offsets: Mapping[int, float]
) -> dict[tuple[int, int], int]:
    """{(file order, line): writer rank} for the lines of the files in which a top-tier line of
    one rank stands below another rank's top-tier line that it precedes in time by more than
    the clocks' tolerance. A line that names no rank belongs to the ranked line above it (the
    continuation of that rank's block)."""
    split = _files_out_of_order(top, offsets)
    if not split:
        return {}
    writers: dict[tuple[int, int], int] = {}
    current: dict[int, int] = {}
    for item in sorted(items, key=lambda i: (i.order, i.event.line)):
        if item.order not in split:
            continue
        if item.rank is not None:
            current[item.order] = item.rank
        writers[(item.order, item.event.line)] = current.get(item.order, NO_WRITER)
    return writers


def _files_out_of_order(top: Sequence[Classified], offsets: Mapping[int, float]) -> set[int]:
    timed: dict[int, list[tuple[int, float, int]]] = {}
    for item in top:
        moment = epoch(item, offsets)
        if item.rank is None or moment is None or item.event.collected:
            continue
        timed.setdefault(item.order, []).append((item.event.line, moment, item.rank))
    return {order for order, lines in timed.items() if _earlier_rank_below(sorted(lines))}


def _earlier_rank_below(lines: Sequence[tuple[int, float, int]]) -> bool:
    """Whether some line is followed, further down, by another rank's line that is earlier
    than it by more than the tolerance. One pass from the bottom keeps the two earliest
    moments of different ranks seen so far, so a console of thousands of ranks' failures
    costs no more than reading it."""
    earliest: tuple[float, int] | None = None  # the earliest moment below, and its rank
    other: float | None = None  # the earliest moment below of a rank other than that one
    for _, moment, rank in reversed(lines):
        if earliest is not None:
            below = earliest[0] if earliest[1] != rank else other
            if below is not None and below < moment - CLOCK_TOLERANCE_S:
                return True
        if earliest is None or moment < earliest[0]:
            if earliest is not None and earliest[1] != rank:
                other = earliest[0]
            earliest = (moment, rank)
        elif rank != earliest[1] and (other is None or moment < other):
            other = moment
    return False
