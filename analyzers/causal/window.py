"""Which ranks failed on their own together with the first causal error: the causal window.

Ranks run the same code on the same data layout, so one bug often hits several of them at
once: two tensor-parallel ranks splitting the same weight wrongly fail 49 ms apart::

    2026-11-29 07:24:22,190 [rank2] ERROR model run failed: start (70656) + length (35328) ...
    2026-11-29 07:24:22,239 [rank3] ERROR model run failed: start (105984) + length (35328) ...

Both started the job's failure, so both are culprits. A peer that only lost the failed rank
(connection closed by peer, a collective timeout, a watchdog) reports with a wait or cascade
line, which never counts here however soon it comes; an unrelated failure of its own counts
only inside the window (`CAUSAL_WINDOW_S`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from analyzers.causal.chain import OWN_FAILURE_TIERS, epoch
from analyzers.classify.matches import Classified
from analyzers.classify.tiers import TIER_WRAPPED_CAUSE
from analyzers.core.phrases import Said, say

CAUSAL_WINDOW_S = 5.0
"""Seconds from the first causal error within which another rank's own failure of any
known kind started the job's failure with it. Ranks running in lockstep reach a fault
within a fraction of a second of each other, and after clock correction their clocks and
write buffering still disagree by up to about two seconds (`causal.CLOCK_TOLERANCE_S`).
Five seconds covers both and stays well below the collective timeouts (gloo's and HCCL's
are tens of seconds to minutes) after which ranks that waited on a dead peer start failing
in ways of their own. A failure of the same kind as the first one is the same fault on
that rank whenever it comes (a rank loading its shards at its own pace hits the bad split
later), so it needs no window."""


class Together(NamedTuple):
    """A rank's own failure in the window, and its seconds after the first error (None:
    one of the two lines has no time)."""

    item: Classified
    gap: float | None


def failed_together(
    first: Classified, own_failures: Sequence[Classified], offsets: Mapping[int, float]
) -> dict[int, Together]:
    """Rank -> its first own failure in the causal window, the first error's rank included."""
    stamped = _stamped_before(own_failures, offsets)
    start = stamped.get(id(first), epoch(first, offsets))
    ranks: dict[int, Together] = {}
    for item in own_failures:
        if item.rank is None or item.rank in ranks or item.tier not in OWN_FAILURE_TIERS:
            continue
        moment = stamped.get(id(item))
        gap = None if start is None or moment is None else moment - start
        if item is first or _counts(item, first, gap):
            ranks[item.rank] = Together(item, 0.0 if item is first else gap)
    return ranks


def _stamped_before(
    items: Sequence[Classified], offsets: Mapping[int, float]
) -> dict[int, float | None]:
    """id(item) -> its time, or for a line without one (a traceback under a logged error)
    the time of the nearest timed line before it in the same file."""
    times: dict[int, float | None] = {}
    last: dict[int, tuple[int, float]] = {}  # file order -> (line, time) of the latest timed
    for item in sorted(items, key=lambda i: (i.order, i.event.line)):
        moment = epoch(item, offsets)
        if moment is not None:
            last[item.order] = (item.event.line, moment)
        times[id(item)] = moment if moment is not None else last.get(item.order, (0, None))[1]
    return times


def _counts(item: Classified, first: Classified, gap: float | None) -> bool:
    """The same kind of failure as the first error, or any failure a signature knows as a
    root cause inside the window."""
    if same_failure(item, first):
        return True
    in_window = gap is not None and abs(gap) <= CAUSAL_WINDOW_S
    return in_window and item.tier >= TIER_WRAPPED_CAUSE


def same_failure(item: Classified, first: Classified) -> bool:
    """Same label at a tier that reports it as strongly (or as a known root failure)."""
    strong = item.tier >= min(first.tier, TIER_WRAPPED_CAUSE)
    return item.category == first.category and strong


def gap_said(gaps: Sequence[float | None]) -> Said | None:
    """`49 ms later`, `1.2 s earlier`, `within 120 ms` (and in Chinese), or None when no
    time is known."""
    known = [g for g in gaps if g is not None]
    if not known or len(known) < len(gaps):
        return None
    if len(known) > 1:
        return say("gap.within", duration=_duration(max(abs(g) for g in known)))
    gap = known[0]
    if abs(gap) < 0.0005:
        return say("gap.same_moment")
    return say("gap.later" if gap > 0 else "gap.earlier", duration=_duration(abs(gap)))


def _duration(seconds: float) -> str:
    if seconds < 1:
        return f"{round(seconds * 1000)} ms"
    return f"{seconds:.1f} s"
