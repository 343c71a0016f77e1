"""The lines cited around the first error: its block (which names its rank when its
headline does not), the lines that wrap or detail it or report it from other files, the first
consequence per file, and the ranks whose errors are all consequences.

They are the evidence a reader checks the first error against, chosen once the first error is::

    RuntimeError: ... AclrtSynchronizeDeviceWithTimeout, error code is 507015
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from analyzers.causal.chain import CLOCK_TOLERANCE_S, CausalChain, epoch
from analyzers.classify.matches import Classified
from analyzers.classify.tiers import TIER_CASCADE, TIER_WRAPPER

NEAR_LINES = 30  # lines of one block around the first error that support it

MAX_SUPPORTING = 8

MAX_CASCADES = 8


def block_rank(
    block: Sequence[Classified], first: Classified, offsets: Mapping[int, float]
) -> int | None:
    """The rank of an error block whose headline has none (a CANN line inside a rank's
    exception text): the one rank the block's other lines name, if they agree. A line
    printed seconds apart from the headline is another writer's, not the block's (in a
    combined stdout, a rank's own error a few lines below a c10d line without a rank)."""
    at = epoch(first, offsets)
    ranks = {
        item.rank
        for item in block
        if item.rank is not None and not _apart_in_time(item, at, offsets)
    }
    return ranks.pop() if len(ranks) == 1 else None


def _apart_in_time(item: Classified, at: float | None, offsets: Mapping[int, float]) -> bool:
    moment = epoch(item, offsets)
    return at is not None and moment is not None and abs(moment - at) > CLOCK_TOLERANCE_S


def near_first(item: Classified, first: Classified) -> bool:
    return item.order == first.order and abs(item.event.line - first.event.line) <= NEAR_LINES


def supporting_lines(
    first: Classified, ordered: Sequence[Classified], nearby: Sequence[Classified]
) -> list[Classified]:
    """Lines of the same block that wrap or detail the first error, then lines of other
    files that report the same failure (other ranks, the Python side of a plog error)."""
    near = [
        item
        for item in nearby
        if item is not first and item.tier >= TIER_WRAPPER and item.best is not None
    ]
    elsewhere = [
        item
        for item in ordered
        if item is not first
        and item.order != first.order
        and item.tier >= TIER_WRAPPER
        and item.category == first.category
    ]
    return _one_per_text(near + elsewhere)[:MAX_SUPPORTING]


def first_cascades(ordered: Sequence[Classified], chain: CausalChain) -> list[Classified]:
    """The first consequence line per file (demoted timeouts first), for citing."""
    taken = {id(item) for item in [chain.first, *chain.supporting]}
    pool = [
        item
        for item in ordered
        if id(item) not in taken and item.best is not None and item.tier <= TIER_CASCADE
    ]
    pool.sort(key=lambda item: (not item.demoted, -item.tier))
    seen: set[int] = set()
    picked = []
    for item in pool:
        if item.order not in seen:
            seen.add(item.order)
            picked.append(item)
    return picked[:MAX_CASCADES]


def consequence_ranks(ordered: Sequence[Classified], chain: CausalChain) -> list[int]:
    """Ranks whose error lines are all consequences (not the culprits, not the reporter)."""
    own = {i.rank for i in ordered if i.tier > TIER_CASCADE}
    later = {i.rank for i in ordered if i.tier <= TIER_CASCADE and i.best is not None}
    first_rank = chain.first.rank if chain.first else None
    ranks = later - own - set(chain.culprit_ranks) - {first_rank, None}
    return sorted(r for r in ranks if r is not None)


def _one_per_text(items: Iterable[Classified]) -> list[Classified]:
    seen: set[str] = set()
    kept = []
    for item in items:
        text = item.event.message or item.event.text
        if text not in seen:
            seen.add(text)
            kept.append(item)
    return kept
