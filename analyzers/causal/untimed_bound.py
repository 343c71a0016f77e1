"""When a rank's own failure, in a file without times, must have come before timed ones.

A rank that logs with plain prints leaves its error without a time, and by itself such a line
sorts after every timed line of its tier. But a peer that reports its connection closed or
reset under it at a time T says that some rank was already gone by T. When every timed own
failure of the bundle came clearly after T (beyond the clocks' tolerance), none of them
explains that loss, and the untimed rank's own failure did: it happened no later than T.
That bound is the untimed failure's place in the causal order. When a timed own failure lies
at or near T, nothing tells the two apart and the untimed line keeps its place after it.

gloo's abort of a receiver on a message longer than it posted (`op.preamble.length <=
op.nbytes`, a signature that marks what a peer sent) is read as that peer's doing, not as the
receiver's own failure, but it still ends the receiver's process, and C++ prints it with no
time: the peers that lost the receiver bound it the same way. A timeout on another rank
whose wait only began as the job fell apart then no longer sorts ahead of it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from analyzers.causal.chain import CLOCK_TOLERANCE_S, OWN_FAILURE_TIERS, epoch
from analyzers.classify.matches import Classified


def untimed_bounds(items: Sequence[Classified], offsets: Mapping[int, float]) -> dict[int, float]:
    """{file order: latest moment its own failure can have happened}, for the files without
    any time (a traceback line inside a timed file keeps its file's times) whose rank a timed
    lost peer on another rank bounds."""
    timed_files = {i.order for i in items if i.event.timestamp is not None}
    untimed = [
        i
        for i in items
        if (i.tier in OWN_FAILURE_TIERS or _ends_on_what_was_sent(i))
        and i.rank is not None
        and i.order not in timed_files
    ]
    if not untimed:
        return {}
    gone = [
        (moment, i.rank)
        for i in items
        if i.rank is not None
        and any(m.signature.peer_gone for m in i.matches)
        and (moment := epoch(i, offsets)) is not None
    ]
    timed_own = [
        moment
        for i in items
        if i.tier in OWN_FAILURE_TIERS and (moment := epoch(i, offsets)) is not None
    ]
    bounds: dict[int, float] = {}
    for item in untimed:
        lost = [moment for moment, rank in gone if rank != item.rank]
        if not lost:
            continue
        bound = min(lost)
        if any(moment <= bound + CLOCK_TOLERANCE_S for moment in timed_own):
            continue  # a timed failure at or before the loss may be what the peer lost
        bounds.setdefault(item.order, bound)
    return bounds


def _ends_on_what_was_sent(item: Classified) -> bool:
    """A receiver's abort on a peer's message: no own failure, but the end of its process."""
    return not item.demoted and any(match.signature.peer_sent for match in item.matches)
