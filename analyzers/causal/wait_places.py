"""When every rank that failed only waited, what their waits say about who left the step.

A collective timeout reads the same on every rank, and when the ranks' checkpoints agree
the rank comparison finds no one. Three things still tell the ranks apart:

- where each rank waited: the collective its wait's own lines name (the innermost frame of
  the traceback under its timeout, `in barrier`; the watchdog's `OpType=BROADCAST`, read by
  `causal.waited_collectives`). Ranks that time out together in different collectives were
  not at the same program step, and the few in another collective than most are the ones
  that left it. When the ranks that only lost their peers lost them inside another
  collective than the one the waiters timed out in, they were not late to it but waiting in
  a collective of their own with a longer timeout (a sub-group's, made with torch's long
  default): when they are all but one member of a sub-group, and that member is among the
  waiters, it skipped the group's collective and went on. The frames also show a rank that
  ran out of inputs inside DDP's join hook, and the lone receiver of an all_gather that
  posted the odd buffer itself;
- how each rank's wait ended: the few that only lost their peers while the others timed out
  arrived late, or, beside a rank that printed nothing of the failure, waited with a longer
  timeout for that rank (`causal.late_arrivals`);
- whether each rank got through to the rendezvous store at all, and which peers' keys the
  ranks that did waited for there (`causal.store_waits`).

This module reads the first. All three are read only when the first error is a wait
(`analyzers.causal.culprits`), after the rank comparison and before the launcher's first exit,
which says least.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence

from analyzers.causal.chain import CLOCK_TOLERANCE_S, MIN_WAITERS, Blame, CausalChain, epoch
from analyzers.causal.group_holes import group_hole
from analyzers.causal.late_arrivals import lost_before_waits
from analyzers.causal.waited_collectives import frame_calls, innermost_frames, waited_calls
from analyzers.classify.matches import Classified
from analyzers.core.phrases import say, several
from analyzers.core.types import Correlation, FileScan


def in_other_collective(
    chain: CausalChain, scans: Sequence[FileScan], offsets: Mapping[int, float] | None = None
) -> Blame | None:
    """The few ranks whose wait was in another collective than most ranks' waits.

    The first rank to time out closes its connections, so a peer still waiting in a deadlock
    may hear of that as a lost peer before its own timeout fires: a lost peer timed among the
    timeouts (`offsets` given) is that rank's wait too, in the collective its frames name."""
    calls = waited_calls([*chain.top, *_lost_among_waits(chain, offsets)], scans)
    if len(calls) <= MIN_WAITERS:
        return None
    common, count = Counter(calls.values()).most_common(1)[0]
    odd = sorted(rank for rank, call in calls.items() if call != common)
    if not odd or count * 2 <= len(calls):
        return None
    theirs = ", ".join(sorted({calls[rank] for rank in odd}))
    return Blame(odd, say("waited.other_collective", call=theirs, common=common, many=several(odd)))


def _lost_among_waits(chain: CausalChain, offsets: Mapping[int, float] | None) -> list[Classified]:
    """The lost peers of ranks with no wait of their own at the first's tier, timed no earlier
    than the clocks' tolerance before the first wait and no later than it after the last one.
    Without times none is taken: a lost peer may as well be a late arrival."""
    if offsets is None:
        return []
    waits = [moment for item in chain.top if (moment := epoch(item, offsets)) is not None]
    if not waits:
        return []
    waiters = {item.rank for item in chain.top}
    low, high = min(waits) - CLOCK_TOLERANCE_S, max(waits) + CLOCK_TOLERANCE_S
    return [
        item
        for rank, item in sorted(chain.peer_gone.items())
        if rank not in waiters
        and (moment := epoch(item, offsets)) is not None
        and low <= moment <= high
    ]


# DDP's join hook on a rank that has run out of inputs: it answers the gradient all_reduce of
# every peer still training with one of its own (zeros), from the Join context's exit.
_JOIN_SHADOW = re.compile(
    r'[/\\]torch[/\\]nn[/\\]parallel[/\\]distributed\.py", line \d+, in '
    r"_match_(?:all_reduce_for_bwd_pass|unused_params_allreduce)\s*$"
)


def joined_early(chain: CausalChain, scans: Sequence[FileScan]) -> Blame | None:
    """The few ranks whose failure came inside DDP's join hook while the others still trained.

    Under `model.join()` a rank that has run out of inputs leaves its loop and shadows the
    gradient all_reduces of the ranks still training. join shadows only DDP's own
    collectives: any other collective the training ranks still run (a loss or metric
    all_reduce each step) meets the joined rank's shadow instead, and the job fails with a
    size abort or a timeout on some rank. The joined ranks are the ones their data gave fewer
    batches; when they are fewer than the ranks that failed elsewhere, they are the culprits."""
    by_path = {scan.info.path: scan for scan in scans}
    frames: dict[str, dict[int, str]] = {}
    failed: set[int] = set()
    joined: set[int] = set()
    items = [*chain.top, *chain.own_failures, *chain.peer_gone.values(), *chain.cascades]
    for item in items:
        if item.rank is None:
            continue
        failed.add(item.rank)
        scan = by_path.get(item.event.file)
        if scan is None:
            continue
        if item.event.file not in frames:
            frames[item.event.file] = innermost_frames(scan)
        frame = frames[item.event.file].get(item.event.line)
        if frame is not None and _JOIN_SHADOW.search(frame):
            joined.add(item.rank)
    if not joined or len(joined) * 2 >= len(failed):
        return None
    ranks = sorted(joined)
    return Blame(ranks, say("waited.joined_early", many=several(ranks)))


# Collectives in which every rank receives every other rank's message directly (gloo sends
# each rank's buffer to all the others), unlike the ring of an all_reduce.
_EVERYONE_RECEIVES = frozenset(
    {"all_gather", "all_gather_object", "all_to_all", "all_to_all_single"}
)


def lone_gather_receiver(chain: CausalChain, scans: Sequence[FileScan]) -> Blame | None:
    """The rank that alone aborted on a message longer than it posted, while the other
    ranks died inside an all_gather. There every rank receives every other rank's message, so
    a peer that sent a longer one would have aborted every receiver: a single receiver
    posted the short buffer itself (a tensor of a smaller size or dtype). In an all_reduce
    the message passes round a ring and only the sender's successor receives it, so a lone
    receiver there may be the victim and is not read so."""
    first = chain.first
    if first is None or first.rank is None:
        return None
    receivers = {
        item.rank
        for item in [*chain.top, *chain.own_failures, *chain.cascades]
        if item.rank is not None and any(m.signature.peer_sent for m in item.matches)
    }
    if receivers != {first.rank}:
        return None
    calls = frame_calls([*chain.peer_gone.values(), *chain.cascades], scans)
    calls.pop(first.rank, None)
    if len(calls) < MIN_WAITERS or not set(calls.values()) <= _EVERYONE_RECEIVES:
        return None
    call = Counter(calls.values()).most_common(1)[0][0]
    return Blame([first.rank], say("blame.lone_gather_receiver", rank=first.rank, call=call))


def skipped_group_collective(
    chain: CausalChain, correlation: Correlation | None, scans: Sequence[FileScan]
) -> Blame | None:
    """The one member of a sub-group that went on past the group's collective. The waiters
    timed out together in one collective; the ranks that only lost their peers did so, after
    the waits, inside another one, so they were not late to the waiters' collective but
    waiting in their own, whose longer timeout had not run out (a group made with `new_group`
    keeps torch's long default). When those ranks are all the members but one of a sub-group
    (an aligned block or a strided set, `analyzers.causal.group_holes.group_hole`) and the
    missing member is among the waiters, it never entered the group's collective. Lost peers
    in the same collective as the waits are late arrivals (`arrived_late`), and lost-peer
    ranks that fill a whole group, or leave two out, single no one out."""
    if correlation is None:
        return None
    waits = frame_calls(chain.top, scans)
    lost = {
        rank: call
        for rank, call in frame_calls(list(chain.peer_gone.values()), scans).items()
        if rank not in waits
    }
    if len(waits) < MIN_WAITERS or len(lost) < MIN_WAITERS:
        return None
    if len(set(waits.values())) != 1 or len(set(lost.values())) != 1:
        return None
    waited, held = next(iter(waits.values())), next(iter(lost.values()))
    if waited == held:
        return None
    if lost_before_waits(sorted(lost), chain, correlation.clock_offsets):
        return None
    found = group_hole(set(lost), len(correlation.ranks))
    if found is None or found[0] not in waits:
        return None
    hole, group = found
    members = ", ".join(str(rank) for rank in sorted(lost))
    why = say("waited.group_skipped", ranks=members, group=group, held=held, waited=waited)
    return Blame([hole], why)
