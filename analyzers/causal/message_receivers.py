"""The sender of a bad message, when the first error is its receiver's abort: the peer the
receiver said it waits for, the receiver itself when it ran ahead through a collective its peers
were still in, or the launcher's first child to exit when that is not one of the receivers.

A receiver's abort names no sender, and its own early exit says nothing of which peer it was::

    waiting for activations of microbatch 0 from rank 1
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.causal.chain import Blame, CausalChain
from analyzers.causal.waited_on import first_to_exit
from analyzers.core.checkpoint_timeline import Timeline
from analyzers.core.phrases import say
from analyzers.core.types import Correlation, FileScan, RankStatus
from analyzers.timeline.divergence import microbatch_stages


def sender_waited_on(receiver: int | None, correlation: Correlation | None) -> int | None:
    """The peer a receiver that aborted on a message longer than it posted had said it waits
    for, in its last progress line (`waiting for activations of microbatch 0 from rank 1`):
    the message came from that peer, so it sent the wrong size. The abort itself names no
    sender."""
    if receiver is None or correlation is None:
        return None
    sender = correlation.waiting_on.get(receiver)
    present = {r.rank for r in correlation.ranks if r.status != RankStatus.MISSING}
    return sender if sender is not None and sender != receiver and sender in present else None


_RUN_AHEAD = 2  # checkpoints past the rank furthest behind: more than a kill can cut short


def receiver_ran_ahead(receiver: int | None, correlation: Correlation | None) -> Blame | None:
    """A receiver that aborted on a message longer than it posted, having logged as many
    checkpoints as the furthest rank and at least `_RUN_AHEAD` more than the rank furthest
    behind: ranks that issue their collectives in step cannot part that far, so it had run
    through a collective its peers were still in (it skipped one), and the longer message was
    a peer's earlier collective arriving in its later, smaller one. The sender was where the
    program put it. Pipeline stages that log their microbatches are apart by the schedule,
    so their counts say nothing."""
    if receiver is None or correlation is None:
        return None
    timeline = correlation.timeline
    if isinstance(timeline, Timeline) and microbatch_stages(timeline):
        return None
    present = [r for r in correlation.ranks if r.status != RankStatus.MISSING]
    mine = next((r for r in present if r.rank == receiver), None)
    if mine is None or len(present) < 2:
        return None
    counts = [r.checkpoints for r in present]
    if mine.checkpoints < max(counts) or mine.checkpoints - min(counts) < _RUN_AHEAD:
        return None
    reached = mine.last_checkpoint_qualified or mine.last_checkpoint
    return Blame([receiver], say("blame.receiver_ran_ahead", rank=receiver, checkpoint=reached))


def exited_first(chain: CausalChain, scans: Sequence[FileScan]) -> Blame | None:
    """The launcher's first child to exit, unless it is the rank that reported the wait or the
    bad message itself: that rank ended because of what a peer did (a size check on data a
    peer sent aborts the receiver), and its exit says nothing about which peer it was. Two
    receivers of one bad collective both abort on it; the first to exit is then any of the
    ranks whose own line reported what a peer sent."""
    first = chain.first
    exited = first_to_exit(scans)
    if exited is None or first is None:
        return exited
    exit_record = any(match.signature.cause_if_silent for match in first.matches)
    if first.rank is None or exit_record:
        return exited
    receivers = {first.rank}
    if any(match.signature.peer_sent for match in first.matches):
        receivers.update(
            item.rank
            for item in chain.top
            if item.rank is not None and any(m.signature.peer_sent for m in item.matches)
        )
    if set(exited.ranks) <= receivers:
        return None
    return exited
