"""Whom a hang with no error line blames: the ranks that stopped earliest, or the few that
ran past the others, never every rank.

Ranks of one job advance together from collective to collective, so when they all stop,
the ones left behind are what the others wait for; a lone rank ahead of a pack that stopped
at one checkpoint went past a collective the others are still in. When every rank stopped
at the same checkpoint the logs single nobody out, and the verdict says so instead of
blaming them all::

    rank 3 stopped making progress after 'layer 1 / MoE passed' while ranks 0, 1, 2 reached
    'layer 2 / MoE passed'
    every rank stopped making progress after 'layer 2 / MoE passed'; no rank stopped earlier
    or went further, so none is singled out
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from analyzers.causal.dumped_stacks import alone_in_dumps, apart_in_dumps, waiting_in_dumps
from analyzers.causal.verdict import Verdict
from analyzers.core.checkpoint_timeline import Timeline
from analyzers.core.phrases import Said, ranks_said, say, several
from analyzers.core.types import Correlation, FileScan, RankStatus, RankSummary
from analyzers.timeline.divergence import microbatch_stages
from analyzers.tree.facts import npu_state

STALLED = (RankStatus.HUNG, RankStatus.MISSING, RankStatus.KILLED)
HANG_RULE = "multirank.hang"
# a point-to-point send that gave up because its receiver never posted the receive (gloo)
_SEND_TIMED_OUT = re.compile(r"Timed out waiting \d+ ?ms for send operation")


def stalled(correlation: Correlation, scans: Sequence[FileScan]) -> Verdict | None:
    """A hang verdict when some rank stopped without error, success or fatal signal."""
    stopped = [r.rank for r in correlation.ranks if r.status in STALLED]
    if not stopped:
        return None
    behind = [r for r in correlation.behind_ranks if r in stopped]
    ranks, reason = _blamed(correlation, stopped, behind, scans)
    npu = npu_state([s for s in scans if s.facts.get("npu_smi")], correlation.world_size)
    waiting = bool(npu and npu.aicore_idle)
    subsystem = "communication" if waiting or not behind else "framework"
    if waiting:
        reason += say("stalled.npu_idle")
    return Verdict(HANG_RULE, "hang", subsystem, 0.55, tuple(ranks), reason)


def stalled_among(
    correlation: Correlation, scans: Sequence[FileScan], stopped: Sequence[int]
) -> Verdict | None:
    """The hang verdict over ranks known to have stopped though their status says otherwise
    (processes a dump timer ended after they hung), when the logs single someone out."""
    behind = [r for r in correlation.behind_ranks if r in stopped]
    ranks, reason = _blamed(correlation, stopped, behind, scans)
    if not ranks:
        return None
    subsystem = "communication" if not behind else "framework"
    return Verdict(HANG_RULE, "hang", subsystem, 0.55, tuple(ranks), reason)


def _blamed(
    correlation: Correlation,
    stopped: Sequence[int],
    behind: Sequence[int],
    scans: Sequence[FileScan] = (),
) -> tuple[list[int], Said]:
    """The peers the stopped ranks' last lines wait for, else the ranks behind the pack,
    else the few ahead of it, else the few whose dumped stacks stand apart (or the few dumped
    alone, each outside any collective), else the ranks
    that logged the fewest checkpoints, else the stopped ranks when others finished (or the
    job's only rank); nobody when every rank stopped at the same place."""
    everyone = len(correlation.ranks)
    peers = named_peers(correlation, scans)
    if peers and len(peers) < everyone:
        return peers, _waits_said(correlation, peers)
    ahead = [r for r in correlation.ahead_ranks if r in stopped] or finished_ahead(
        correlation, stopped
    )
    earliest = fewest_checkpoints(correlation, stopped)
    if behind and len(behind) < everyone:
        return list(behind), _stopped_where(correlation, behind)
    if ahead and len(ahead) * 2 < everyone:
        return ahead, _ran_past(correlation, ahead)
    dumped = apart_in_dumps(scans, stopped) or alone_in_dumps(scans, stopped)
    if dumped:
        return dumped
    if earliest:
        return earliest, _stopped_where(correlation, earliest)
    if len(stopped) < everyone or everyone == 1:
        return list(stopped), _stopped_where(correlation, stopped)
    return [], _nobody_stands_out(correlation, stopped)


def _waits_said(correlation: Correlation, peers: Sequence[int]) -> Said:
    """`rank 2 stopped making progress waiting for rank 1 after 'X'`."""
    waiters = waiting_for(correlation, peers)
    own = _common_last(correlation, waiters)
    values = {"waiters": ranks_said(waiters), "ranks": ranks_said(peers)}
    if own:
        return say("stalled.waits_after", checkpoint=own, **values)
    return say("stalled.waits", **values)


def _nobody_stands_out(correlation: Correlation, stopped: Sequence[int]) -> Said:
    if not any(r.checkpoints for r in correlation.ranks):
        return say("stalled.nobody_unknown")
    where = _common_last(correlation, stopped)
    return say("stalled.nobody_after", checkpoint=where) if where else say("stalled.nobody")


def named_peers(correlation: Correlation, scans: Sequence[FileScan] = ()) -> list[int]:
    """Ranks that stopped ranks' last lines wait for and that are not waiting themselves (in
    a cycle of waits each rank waits on another, and the lines single nobody out). A rank
    whose own failure is a send that timed out was waiting too, on its receiver: the peer it
    served never took the data, so the line naming it as the one waited for is stale (printed
    before a receive that completed) and names no culprit. So is a rank whose own dumped
    stack (`scans`) waits in a collective."""
    waits = correlation.waiting_on
    present = {r.rank for r in correlation.ranks if r.status != RankStatus.MISSING}
    stopped = {r.rank for r in correlation.ranks if r.status != RankStatus.OK}
    busy = set(waits) | blocked_sending(correlation)
    # the reader polling for a file the writer never wrote, while the writer waits in the
    # all_gather for the reader: a cycle the writer's dump shows
    busy |= waiting_in_dumps(scans, sorted(set(waits.values()) - busy)) if scans else set()
    return sorted(
        {p for w, p in waits.items() if w in stopped and p != w and p in present and p not in busy}
    )


def blocked_sending(correlation: Correlation) -> set[int]:
    """Ranks whose own first error is a point-to-point send that timed out: they had their
    data ready and waited for the receiver to take it."""
    return {
        r.rank
        for r in correlation.ranks
        if r.first_error is not None and _SEND_TIMED_OUT.search(r.first_error.text)
    }


def waiting_for(correlation: Correlation, peers: Sequence[int]) -> list[int]:
    """The ranks whose last progress line waits for one of `peers`."""
    return sorted(w for w, p in correlation.waiting_on.items() if p in peers)


def finished_ahead(correlation: Correlation, stopped: Sequence[int]) -> list[int]:
    """The few ranks ahead of the pack that finished (printed their success line) while every
    stopped rank stands at one checkpoint: a rank that completed the forward its peers are
    still inside went past a collective they wait in (it skipped one), so it is what they
    wait for (docs/labelling.md#a-rank-that-finished-while-its-peers-waited). A pack that
    stopped at different places names its own ranks behind instead."""
    finished = [
        r.rank
        for r in correlation.ranks
        if r.rank in correlation.ahead_ranks and r.status == RankStatus.OK
    ]
    if not finished or _common_last(correlation, stopped) is None:
        return []
    return finished


def fewest_checkpoints(correlation: Correlation, among: Sequence[int]) -> list[int]:
    """Ranks (of `among`) that logged fewer checkpoints than every other rank with a log:
    who stopped first when no count is the pack's, as with half the ranks at one place and
    half at another. Pipeline stages that log their microbatches are apart by the schedule,
    so their counts name no one."""
    timeline = correlation.timeline
    if isinstance(timeline, Timeline) and microbatch_stages(timeline):
        return []
    present = [r for r in correlation.ranks if r.status != RankStatus.MISSING]
    least = min((r.checkpoints for r in present), default=0)
    fewest = [r.rank for r in present if r.checkpoints == least and r.rank in among]
    return fewest if 0 < len(fewest) < len(present) else []


def _stopped_where(correlation: Correlation, ranks: Sequence[int]) -> Said:
    """`rank 3 stopped making progress after 'X' while ranks 0, 1 reached 'Y'`."""
    own = _common_last(correlation, ranks)
    if own:
        text = say("stalled.stopped_after", ranks=ranks_said(ranks), checkpoint=own)
    else:
        text = say("stalled.stopped", ranks=ranks_said(ranks))
    others = [r.rank for r in correlation.ranks if r.rank not in ranks and _last(r)]
    reached = {_last(r) for r in correlation.ranks if r.rank in others}
    if others and len(reached) == 1:
        checkpoint = str(reached.pop())
        text += say("stalled.others_reached", ranks=ranks_said(others), checkpoint=checkpoint)
    return text


def _ran_past(correlation: Correlation, ranks: Sequence[int]) -> Said:
    """`rank 2 ran on to 'X' while ranks 0, 1, 3 stopped at 'Y': ...`."""
    own = _common_last(correlation, ranks)
    others = [r.rank for r in correlation.ranks if r.rank not in ranks]
    theirs = _common_last(correlation, others)
    if own:
        text = say("stalled.ran_on_to", ranks=ranks_said(ranks), checkpoint=own)
    else:
        text = say("stalled.ran_on", ranks=ranks_said(ranks))
    if theirs:
        text += say("stalled.others_stopped", ranks=ranks_said(others), checkpoint=theirs)
    return text + say("stalled.went_past", many=several(ranks))


def _common_last(correlation: Correlation, ranks: Sequence[int]) -> str | None:
    lasts = {_last(r) for r in correlation.ranks if r.rank in ranks}
    return lasts.pop() if len(lasts) == 1 and None not in lasts else None


def _last(rank: RankSummary) -> str | None:
    return rank.last_checkpoint_qualified or rank.last_checkpoint
