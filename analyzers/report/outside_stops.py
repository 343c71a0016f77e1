"""A hang read behind a stop: the job was stopped or aborted from outside, or ended by a dump
timer, after its ranks had stopped advancing.

The stop is then the consequence, not the cause, and the ranks' checkpoints or stack dumps say
who stalled; `diagnose` asks `stall_before_stop` before it reads the first error's line.
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.causal.chain import CLOCK_TOLERANCE_S, CausalChain, epoch
from analyzers.causal.dumped_stacks import dumped_without_error, timer_dump_only
from analyzers.causal.killed_together import aborted_together, killed_together, stopped_together
from analyzers.causal.later_attempts import judged_in_attempt
from analyzers.causal.stalled import STALLED, stalled, stalled_among
from analyzers.causal.verdict import Verdict
from analyzers.classify.matches import Classified
from analyzers.core.types import Correlation, FileScan, RankStatus


def stall_before_stop(
    chain: CausalChain, correlation: Correlation, scans: Sequence[FileScan]
) -> Verdict | None:
    """The hang verdict when a stop from outside (or a dump timer) only ended ranks that had
    already stalled, in the order the readings are tried; None when the stop stands."""
    return (
        _stalled_before_stop(chain, correlation, scans)
        or _ended_by_dump_timer(chain, correlation, scans)
        or _lost_to_dumped_peers(chain, correlation, scans)
        or _aborted_before_stop(chain, correlation, scans)
    )


def _stalled_before_stop(
    chain: CausalChain, correlation: Correlation, scans: Sequence[FileScan]
) -> Verdict | None:
    """The hang verdict when the job was stopped from outside and the ranks' checkpoints single
    out who stalled: the stop ended a job that had already stopped advancing, so it is not the
    cause. When every rank was stopped together, judged in the attempt the first error comes
    from (a retry's peers lost to its own stop are that retry's), the job is a hang even when
    no rank stands apart, and nobody is blamed."""
    judged = judged_in_attempt(chain.first, _chain_items(chain), correlation, scans)
    together = not killed_together(correlation, scans) and stopped_together(
        _chain_items(chain), judged or correlation, scans
    )
    if not (only_outside_stops(chain) or killed_together(correlation, scans) or together):
        return None
    if (only_outside_stops(chain) or together) and cut_off_advancing(chain, correlation):
        return None
    verdict = stalled(judged or correlation, scans) if together else stalled(correlation, scans)
    if verdict and (verdict.culprits or together):
        # every rank stopped together by the stop, none with an error of its own: the job had
        # stopped advancing, a hang even where no rank stands apart to blame
        return verdict
    return None


def _aborted_before_stop(
    chain: CausalChain, correlation: Correlation, scans: Sequence[FileScan]
) -> Verdict | None:
    """The hang verdict when every rank was aborted at once from outside with no error of its
    own (`causal.killed_together.aborted_together`) and the checkpoints or dumps single out who
    stalled: the abort only ended a job that had stopped advancing."""
    if not aborted_together(chain, correlation):
        return None
    return stalled_among(correlation, scans, [r.rank for r in correlation.ranks])


def _chain_items(chain: CausalChain) -> list[Classified]:
    first = [chain.first] if chain.first is not None else []
    return first + chain.top + chain.supporting + chain.cascades


def _ended_by_dump_timer(
    chain: CausalChain, correlation: Correlation, scans: Sequence[FileScan]
) -> Verdict | None:
    """The hang verdict when the first error is only a launcher's record of a rank's exit
    status and that rank's own lines are a stack dump its dump timer printed, with no error:
    `faulthandler.dump_traceback_later(..., exit=True)` ends the process after the dump, so the
    status is the timer's, set to end a job that stopped advancing. The ranks' checkpoints (or
    their dumps) then say who stalled, as for a job stopped from outside."""
    first = chain.first
    best = first.best if first else None
    if first is None or best is None or not best.signature.cause_if_silent:
        return None
    if first.rank is None or not timer_dump_only(scans, first.rank):
        return None
    stopped = [r.rank for r in correlation.ranks if r.status != RankStatus.OK]
    return stalled_among(correlation, scans, stopped)


def _lost_to_dumped_peers(
    chain: CausalChain, correlation: Correlation, scans: Sequence[FileScan]
) -> Verdict | None:
    """The hang verdict when the only errors are a few ranks losing their peers, and every
    other rank printed nothing but a stack dump: those ranks were ended after the dump (their
    dump timer's `exit=True`, or the SIGTERM their handler dumped under), and a rank still
    waiting with them in a collective saw the connection close before its own dump came. The
    lost connections are the stop's consequence; the ranks' checkpoints or dumps say who
    stalled. docs/labelling.md, "A peer lost to ranks a dump ended"."""
    lost = {item.rank for item in chain.peer_gone.values()}
    top = [chain.first, *chain.top] if chain.first is not None else []
    for item in top:
        best = item.best
        if item in chain.peer_gone.values() or (
            best is not None and best.signature.cause_if_silent
        ):
            continue
        return None
    errored = [r.rank for r in correlation.ranks if r.status == RankStatus.ERROR]
    rest = [r.rank for r in correlation.ranks if r.rank not in errored]
    if not errored or not set(errored) <= lost or len(errored) * 2 >= len(correlation.ranks):
        return None
    if not all(dumped_without_error(scans, rank) for rank in rest):
        return None
    return stalled_among(correlation, scans, [r.rank for r in correlation.ranks])


def cut_off_advancing(chain: CausalChain, correlation: Correlation) -> bool:
    """The stop came while the ranks that went quiet were still advancing: each printed a
    progress line within the clocks' tolerance before the stop's record (an agent stopped on
    one node of several ends its ranks mid-step). They did not stall before it; the stop is
    what ended them. A rank with no timed progress line says nothing and keeps the reading."""
    assert chain.first is not None
    stopped_at = epoch(chain.first, correlation.clock_offsets)
    quiet = [r.rank for r in correlation.ranks if r.status in STALLED]
    if stopped_at is None or not quiet:
        return False
    for rank in quiet:
        seq = correlation.timeline.ranks.get(rank)
        last = seq.time[-1] if seq is not None and len(seq.time) else float("nan")
        if last != last or not 0 <= stopped_at - last <= CLOCK_TOLERANCE_S:
            return False
    return True


def only_outside_stops(chain: CausalChain) -> bool:
    """The only errors say the job was stopped from outside (a scheduler's time limit)."""
    first = chain.first
    best = first.best if first else None
    if best is None or not best.signature.outside_stop:
        return False
    return all(item.best is not None and item.best.signature.outside_stop for item in chain.top)
