"""The ranks that reached a collective after their peers had timed out in it and gone: they
find the connections closed instead of timing out."""

from __future__ import annotations

from analyzers.causal.chain import CLOCK_TOLERANCE_S, CausalChain
from analyzers.causal.late_arrivals import arrived_late, lost_before_waits
from analyzers.core.types import Correlation, RankStatus, RankSummary
from tests.analyzers.causal.timed_items import CLOSED, WATCHDOG, correlation, item


def _chain(waiters: tuple[int, ...], lost: dict[int, float], at: float = 5.0) -> CausalChain:
    top = [item(WATCHDOG.format(rank=r), rank=r, order=r, seconds=at) for r in waiters]
    gone = {r: item(CLOSED, rank=r, order=r, seconds=s) for r, s in lost.items()}
    return CausalChain(top[0], top=top, peer_gone=gone)


def _failed(*ranks: int) -> Correlation:
    return correlation(dict.fromkeys(ranks, RankStatus.ERROR))


def test_the_rank_that_lost_its_peers_after_they_timed_out_arrived_late():
    chain = _chain((0, 1, 2), {3: 60.0})
    assert arrived_late(chain, _failed(0, 1, 2, 3)).ranks == [3]


def test_a_peer_lost_before_anyone_timed_out_is_no_late_arrival():
    chain = _chain((0, 1, 2), {3: 5.0 - 3 * CLOCK_TOLERANCE_S})
    assert lost_before_waits([3], chain, {})
    assert arrived_late(chain, _failed(0, 1, 2, 3)) is None


def test_as_many_lost_peers_as_waiters_are_no_late_few():
    chain = _chain((0, 1), {2: 60.0, 3: 60.0})
    assert arrived_late(chain, _failed(0, 1, 2, 3)) is None


def test_of_lost_peers_among_the_timeouts_and_after_them_only_the_later_arrived_late():
    chain = _chain((0, 1, 2, 3), {4: 5.5, 5: 90.0})
    assert arrived_late(chain, _failed(0, 1, 2, 3, 4, 5)).ranks == [5]


def test_a_rank_that_printed_nothing_of_the_failure_never_arrived():
    """Rank 4 passed checkpoints and then said nothing: the lost-peer rank 3 was waiting for
    it with a longer timeout, not arriving late."""
    chain = _chain((0, 1, 2), {3: 60.0})
    statuses = {0: RankStatus.ERROR, 1: RankStatus.ERROR, 2: RankStatus.ERROR}
    statuses |= {3: RankStatus.ERROR, 4: RankStatus.HUNG}
    ranks = [RankSummary(r, status, "layer 0 passed", None) for r, status in statuses.items()]
    found = Correlation(ranks=ranks, timeline={}, world_size=5, clock_offsets={})
    assert arrived_late(chain, found).ranks == [4]


def test_without_a_correlation_nobody_is_late():
    assert arrived_late(_chain((0, 1, 2), {3: 60.0}), None) is None
