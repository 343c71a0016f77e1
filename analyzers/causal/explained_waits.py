"""Waits another failure explains become cascades: a timeout or wrapper on one rank after
another rank (or another process of a serving log) failed on its own, a rank that reached the
rendezvous store only after the others' waits ran out, a wait behind another rank's logged wait.

The waiting rank is no culprit: it waited for the one that failed, whichever line came first::

    [Rank 0] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=42, OpType=ALLREDUCE, ...)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from analyzers.causal.chain import CLOCK_TOLERANCE_S, OWN_FAILURE_TIERS, epoch
from analyzers.classify.matches import Classified
from analyzers.classify.tiers import TIER_CASCADE, TIER_SYMPTOM, TIER_WRAPPER

WAITING_TIERS = (TIER_SYMPTOM, TIER_WRAPPER)


def demote_explained_waits(
    items: Sequence[Classified],
    offsets: Mapping[int, float],
    everything: Sequence[Classified] = (),
) -> None:
    """A timeout or wrapper on one rank is a cascade when another rank failed on its own
    first (or at an unknown time): the waiting rank was waiting for that one. `everything`
    (warnings too) places late arrivals at the store (`demote_late_store_arrivals`)."""
    earliest = _earliest_own_failure(items, offsets)
    for item in items:
        if item.tier in WAITING_TIERS and item.rank is not None:
            moment = epoch(item, offsets)
            if any(_explains(when, moment) for rank, when in earliest.items() if rank != item.rank):
                item.tier, item.demoted = TIER_CASCADE, True
    demote_waits_after_another_process(items, offsets)
    demote_late_store_arrivals(items, offsets, everything or items)
    demote_waits_behind_another_rank(items)


# the connect timeout a store client quotes: "timed out after 6000ms while trying to connect"
_CONNECT_TIMEOUT_MS = re.compile(r"\bafter (\d+) ?ms\b")


def demote_late_store_arrivals(
    items: Sequence[Classified], offsets: Mapping[int, float], everything: Sequence[Classified]
) -> None:
    """A rank that could not connect to the rendezvous store is the one the others waited
    behind only when it tried while they waited. A connect that began (its failure's time
    less the timeout it quotes) after another rank's wait inside the store had already run
    out came too late: the store had given up on it and closed, and the waits are what
    failed first. That rank's connect failures (its untimed exception too, dated by its
    earliest timed one) are then a cascade of them, still read as the late rank's (its rank
    stays the one the others waited for). The waits' times come from any
    of their lines, c10d's timed warnings (`waitForInput: ... timed out after 6000ms`)
    included, as the exceptions under them often carry no time."""
    ended = [
        (moment, item.rank)
        for item in everything
        if item.rank is not None
        and item.best is not None
        and item.best.signature.waits_behind
        and (moment := epoch(item, offsets)) is not None
    ]
    if not ended:
        return
    began: dict[int, float] = {}  # rank -> when its earliest timed failed connect began
    for item in everything:
        if item.rank is None or item.best is None or not item.best.signature.unreached:
            continue
        moment = epoch(item, offsets)
        quoted = _CONNECT_TIMEOUT_MS.search(item.event.message or item.event.text)
        if moment is not None and quoted is not None:
            start = moment - int(quoted.group(1)) / 1000
            began[item.rank] = min(began.get(item.rank, start), start)
    late = set()
    for rank, start in began.items():
        others = [when for when, waiter in ended if waiter != rank]
        if others and min(others) + CLOCK_TOLERANCE_S < start:
            late.add(rank)
    for item in items:
        best = item.best
        if (
            item.rank in late
            and best is not None
            and best.signature.unreached
            and item.tier in WAITING_TIERS
        ):
            item.tier, item.demoted = TIER_CASCADE, True


def demote_waits_behind_another_rank(items: Sequence[Classified]) -> None:
    """A wait is a cascade when another rank logged the wait it stood behind (a store
    client's key wait behind the store's count of clients, that count behind a rank that
    never reached the store): each ends when its own timeout runs out, so their times do not
    say which waited for which, their words do."""
    logged: dict[str, set[int]] = {}
    for item in items:
        if item.best is not None and item.rank is not None and item.tier in WAITING_TIERS:
            logged.setdefault(item.best.signature.id, set()).add(item.rank)
    for item in items:
        best = item.best
        if best is None or item.rank is None or item.tier not in WAITING_TIERS:
            continue
        behind = best.signature.waits_behind
        if any(logged.get(sig_id, set()) - {item.rank} for sig_id in behind):
            item.tier, item.demoted = TIER_CASCADE, True


def demote_waits_after_another_process(
    items: Sequence[Classified], offsets: Mapping[int, float]
) -> None:
    """The same reading where no rank is known: a serving log tags each worker process's lines
    `(NAME pid=N)` and leaves its driver's untagged, so two lines of one file with different
    tags (or one tagged, one not) come from two processes. A wait is a cascade when another
    process of its file failed on its own clearly before it (beyond the clocks' tolerance:
    a failure printed with the wait may be its consequence)."""
    earliest: dict[tuple[int, str | None, int | None], float] = {}
    for item in items:
        if item.tier in OWN_FAILURE_TIERS and not item.demoted:
            moment = epoch(item, offsets)
            if moment is not None:
                key = (item.order, item.event.process, item.rank)
                earliest[key] = min(moment, earliest.get(key, moment))
    if not earliest:
        return
    for item in items:
        if item.tier not in WAITING_TIERS or item.demoted:
            continue
        moment = epoch(item, offsets)
        if moment is not None and any(
            order == item.order
            and process != item.event.process
            and (rank is None or item.rank is None or rank != item.rank)
            and when + CLOCK_TOLERANCE_S < moment
            for (order, process, rank), when in earliest.items()
        ):
            item.tier, item.demoted = TIER_CASCADE, True


def _earliest_own_failure(
    items: Sequence[Classified], offsets: Mapping[int, float]
) -> dict[int, float | None]:
    """Per rank, the time of its earliest own failure (None: one without time)."""
    earliest: dict[int, float | None] = {}
    for item in items:
        if item.tier in OWN_FAILURE_TIERS and item.rank is not None:
            moment = epoch(item, offsets)
            known = earliest.get(item.rank, float("inf"))
            earliest[item.rank] = None if moment is None or known is None else min(known, moment)
    return earliest


def _explains(owner_time: float | None, waiter_time: float | None) -> bool:
    if owner_time is None or waiter_time is None:
        return True
    return owner_time <= waiter_time + CLOCK_TOLERANCE_S
