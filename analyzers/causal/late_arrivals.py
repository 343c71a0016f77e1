"""How the waits ended: the ranks that arrived after their peers had given up waiting.

    [rank0]: RuntimeError: ... Timed out waiting 1800000ms for recv operation to complete
    [rank3]: RuntimeError: ... Connection closed by peer [10.0.0.2]:1946

Ranks that time out give up and exit, so a rank that reached the collective after that finds
its peers' connections closed instead of timing out: the few whose only failure is such a
lost peer, while the others timed out, arrived late. gloo tells a rank of a lost peer only
inside a collective, so when some rank printed no line of the failure at all, it is the one
that never arrived, and the lost-peer ranks were waiting with a longer timeout. The lines'
times keep a loss among the timeouts (a neighbour that timed out a moment earlier) or well
before them (a peer that went away first) from reading as a late arrival.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from analyzers.causal.chain import CLOCK_TOLERANCE_S, MIN_WAITERS, Blame, CausalChain, epoch
from analyzers.core.phrases import say, several
from analyzers.core.types import Correlation, RankStatus


def arrived_late(chain: CausalChain, correlation: Correlation | None) -> Blame | None:
    """The few ranks that failed only because their peers were gone, while the others timed
    out waiting: they reached the collective after the waiters had given up."""
    if correlation is None:
        return None
    waiters = {item.rank for item in chain.top if item.rank is not None}
    own = {item.rank for item in chain.own_failures if item.rank is not None}
    failed = {r.rank for r in correlation.ranks if r.status == RankStatus.ERROR}
    late = sorted(rank for rank in chain.peer_gone if rank in failed and rank not in waiters | own)
    if len(waiters) < MIN_WAITERS or not late or len(late) >= len(waiters):
        return None
    if lost_before_waits(late, chain, correlation.clock_offsets):
        return None
    late = _after_the_waits(late, chain, correlation.clock_offsets)
    silent = _never_arrived(chain, correlation, waiters | own | set(chain.peer_gone))
    if silent:
        if len(silent) >= len(waiters):
            return None
        return Blame(silent, say("waited.never_arrived", many=several(silent)))
    return Blame(late, say("waited.late", many=several(late)))


def _never_arrived(chain: CausalChain, correlation: Correlation, heard: set[int]) -> list[int]:
    """Ranks with a log of their own that printed no line of the failure at all (neither a
    wait nor a lost peer nor a failure), while the others timed out or lost their peers:
    gloo tells a rank that its peer went away only inside a collective, so a rank that lost
    no peer was still elsewhere when the launcher stopped it, and the ranks that lost their
    peers were waiting in the collective with a longer timeout, not arriving late."""
    lined = {item.rank for item in [*chain.top, *chain.cascades, *chain.waited_behind]}
    return sorted(
        r.rank
        for r in correlation.ranks
        if r.rank not in heard
        and r.rank not in lined
        and r.status in (RankStatus.ERROR, RankStatus.HUNG, RankStatus.KILLED)
        and r.last_checkpoint is not None
    )


def _after_the_waits(
    late: Sequence[int], chain: CausalChain, offsets: Mapping[int, float]
) -> list[int]:
    """The lost-peer ranks that lost their peers after the waiters gave up. A rank waiting in
    the same collective can lose a neighbour that timed out a moment before its own timeout
    fired: its loss stands among the timeouts. When the times show some losses among the
    timeouts and others well after the last of them, only the later ones arrived late."""
    waits = [moment for item in chain.top if (moment := epoch(item, offsets)) is not None]
    if not waits:
        return list(late)
    last_wait = max(waits)
    moments = {rank: epoch(chain.peer_gone[rank], offsets) for rank in late}
    after = [r for r in late if (m := moments[r]) is not None and m > last_wait + CLOCK_TOLERANCE_S]
    among = [
        r for r in late if (m := moments[r]) is not None and m <= last_wait + CLOCK_TOLERANCE_S
    ]
    return after if after and among else list(late)


def lost_before_waits(
    late: Sequence[int], chain: CausalChain, offsets: Mapping[int, float]
) -> bool:
    """Whether a late rank lost its peer before any waiter gave up: then a peer went away
    first and the waits are not what closed the connections."""
    waits = [moment for item in chain.top if (moment := epoch(item, offsets)) is not None]
    if not waits:
        return False
    first_wait = min(waits)
    for rank in late:
        moment = epoch(chain.peer_gone[rank], offsets)
        if moment is not None and moment < first_wait - CLOCK_TOLERANCE_S:
            return True
    return False
