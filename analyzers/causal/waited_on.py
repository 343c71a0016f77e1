"""When the first error is only a wait (a timeout, a lost peer), the ranks waited on.

The waiting rank's line rarely names whom it waited for, so the rank comparison decides:
killed or missing ranks, then ranks that left the common checkpoint path, then the few
ranks ahead of or behind the pack (one skipped a collective, or never reached it), then the
few that went quiet at the same place while every other rank failed, then the few whose
process-group watchdog gave up on another work than the others' (`causal.watchdog_works`),
then the ranks with the fewest checkpoints, and as a last resort the first process the
launcher saw exit. This module keeps that order and reads the ranks' own states and waits;
the pipeline stages' readings are `causal.stage_waits`, a sub-group's missing member
`causal.group_holes`, the quiet ranks `causal.quiet_ranks`, and the ranks ahead, behind or
with the fewest checkpoints `causal.apart_ranks`. Each answer says why, as a clause about the
blamed ranks::

    it stopped at 'layer 3 / norm passed' while the others went on to 'layer 3 / MoE passed'
    it ran on to 'layer 1 / attention passed' while the others stopped at 'layer 1 / norm
    passed', skipping a collective they waited in
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from analyzers.causal.apart_ranks import apart, first_stopped
from analyzers.causal.chain import Blame
from analyzers.causal.group_holes import left_group
from analyzers.causal.quiet_ranks import quiet_not_apart, silent
from analyzers.causal.stage_waits import (
    first_stage_behind,
    ran_without_input,
    upstream_stage,
    wrong_peer,
)
from analyzers.causal.stalled import named_peers, waiting_for
from analyzers.causal.watchdog_works import TimedOutWork, out_of_step
from analyzers.core.checkpoint_timeline import Timeline
from analyzers.core.phrases import Said, ranks_said, say, several
from analyzers.core.types import Correlation, FileScan, RankStatus
from analyzers.timeline.divergence import stage_order


def singled_out(
    correlation: Correlation | None,
    size_stated: bool,
    quiet_suspect: bool = True,
    spared: Collection[int] = frozenset(),
    stopped: Collection[int] = frozenset(),
    works: Sequence[TimedOutWork] = (),
) -> Blame | None:
    """Killed or missing ranks (missing only when the world size is stated, else an
    excerpt of one rank would blame all the others), then ranks that left the common
    path, then the few ranks ahead of or behind the pack, then the few whose timed-out
    `works` are not the pack's, before the guesses from counts. Ranks that only went quiet
    are suspects unless the first error says a peer was running when it failed it
    (`quiet_suspect` false: a message that arrived too long was sent by a live peer). Such a
    first error also spares the pipeline stage that ran ahead of the next one: the receiver
    aborted on the message, it did not starve, and its upstream stages went on by schedule.
    Nor does a stage's place single anyone out then: downstream stages are behind by the
    schedule, so the receiver's few checkpoints do not make it the one that stopped first.
    `spared` ranks were killed by their launcher while it stopped the job after another
    rank had failed (`causal.agent_teardown.teardown_killed`): that kill is not why they stopped.
    `stopped` ranks the launcher stopped after a first error that says a peer process went
    away (`causal.agent_teardown.agent_stopped`): they were alive then, so no quiet suspect."""
    if correlation is None:
        return None
    everyone = len(correlation.ranks)
    timeline = correlation.timeline
    staged = isinstance(timeline, Timeline) and bool(stage_order(timeline))
    choosers = (
        _killed,
        _missing,
        wrong_peer,
        _waited_for,
        _closed_cycle,
        _diverged,
        upstream_stage,
        first_stage_behind,
        ran_without_input,
        left_group,
        quiet_not_apart,
        apart,
        silent,
        out_of_step,
        first_stopped,
    )
    for choose in choosers:
        if choose in (silent, quiet_not_apart, upstream_stage) and not quiet_suspect:
            continue
        if choose in (apart, first_stopped) and staged and not quiet_suspect:
            continue
        if choose is _killed:
            blame = _killed(correlation, size_stated, spared)
        elif choose in (silent, quiet_not_apart):
            blame = choose(correlation, size_stated, stopped)
        elif choose is out_of_step:
            blame = out_of_step(works)
        else:
            blame = choose(correlation, size_stated)
        if blame and len(blame.ranks) < everyone:
            return blame
    return None


def _killed(
    correlation: Correlation, size_stated: bool, spared: Collection[int] = frozenset()
) -> Blame | None:
    dead = [
        r.rank for r in correlation.ranks if r.status == RankStatus.KILLED and r.rank not in spared
    ]
    return Blame(dead, say("waited.killed", many=several(dead))) if dead else None


def _missing(correlation: Correlation, size_stated: bool) -> Blame | None:
    missing = correlation.missing_ranks if size_stated else []
    return Blame(missing, say("waited.no_log", many=several(missing))) if missing else None


def _waited_for(correlation: Correlation, size_stated: bool) -> Blame | None:
    """The peers a rank's last progress line says it waits for (`waiting for kv from rank
    3`): a point-to-point exchange whose other half was never posted. The waiting rank is
    the one behind; the rank it names went on."""
    peers = named_peers(correlation)
    if not peers:
        return None
    waiters = waiting_for(correlation, peers)
    return Blame(peers, say("waited.named", waiters=ranks_said(waiters), many=several(peers)))


def _closed_cycle(correlation: Correlation, size_stated: bool) -> Blame | None:
    """A cycle of waits among some ranks while the rest wait on no one they name: two ranks
    that each post their receive before their send wait for each other, and every other rank
    then waits for them in the next collective. The cycle singles no one out within it, but
    it is what the rest of the job waits on, so its ranks are the culprits. It holds only when
    every stopped rank outside the cycle logged no wait and the checkpoints set no one apart;
    a cycle round every rank (a ring whose waits all fail) names no one."""
    waits = correlation.waiting_on
    if not waits or correlation.ahead_ranks or correlation.behind_ranks:
        return None
    if correlation.divergent_ranks:
        return None
    members = set()
    for start in waits:
        seen, rank = [], start
        while rank in waits and rank not in seen:
            seen.append(rank)
            rank = waits[rank]
        if rank == start and len(seen) >= 2:
            members.update(seen)
    present = [r for r in correlation.ranks if r.status != RankStatus.MISSING]
    stopped = {r.rank for r in present if r.status != RankStatus.OK}
    others = [r.rank for r in present if r.rank not in members]
    if not members or not others or not members <= stopped:
        return None
    if any(rank in waits or rank not in stopped for rank in others):
        return None
    cycle = sorted(members)
    return Blame(
        cycle, say("waited.cycle", ranks=ranks_said(cycle), others=ranks_said(sorted(others)))
    )


def _diverged(correlation: Correlation, size_stated: bool) -> Blame | None:
    ranks = correlation.divergent_ranks
    if not ranks:
        return None
    return Blame(ranks, divergence_said(correlation) or say("waited.diverged"))


def divergence_said(correlation: Correlation) -> Said | None:
    """Where a rank left the common path, as the timeline said it in both languages."""
    english = correlation.divergence
    return Said(english, correlation.divergence_zh or english) if english else None


def first_to_exit(scans: Sequence[FileScan]) -> Blame | None:
    """Last resort: the rank torch elastic calls "Root Cause". It is only the first child
    to exit, so it counts only when nothing else points anywhere."""
    ranks = {
        record.get("rank")
        for scan in scans
        for record in scan.facts.get("elastic_failures") or ()
        if record.get("root_cause")
    } - {None}
    if len(ranks) != 1:
        return None
    return Blame(sorted(ranks), say("waited.exit_first"))
