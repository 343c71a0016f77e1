"""A restarted job's later attempts come after the failure that restarted it.

A launcher with restarts left starts the worker group again after a failure, so one bundle
holds several runs (torchrun's `attempt_<n>/` folders, or one console or appended log they
all wrote into: `analyzers.timeline.attempts`). The first attempt's failure is why the job
restarted; what a later attempt printed (the same failure again, a start-up that met the
failed run's leftovers, another rank's fault) is what the restart made of it. Its lines stay
evidence but rank below every line of the first attempt that failed.

The launcher's report of how a child ended counts as that rank's own failure when the rank
printed nothing else in that attempt: a rank that died silently in attempt 0 and lost its
peers in attempt 1 is still the one that died first. Who else went quiet is judged in that
attempt too (`judged_in_attempt`): a rank the launcher stopped in a later attempt, without a
word, did not go quiet in the run that failed first:

    attempt_0/4/stdout.log   ... step 2 | layer 3 done       (then SIGTERM: no error)
    launcher.log             failed (exitcode: -15) local_rank: 4     <- the incident
    attempt_1/1/stdout.log   ... step 0 | layer 0 done       (stopped by the launcher)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from analyzers.causal.chain import failed_by_itself, outwaited
from analyzers.causal.local_ranks import global_ranks
from analyzers.classify.matches import Classified
from analyzers.classify.tiers import TIER_CAUSE, TIER_GENERIC
from analyzers.core.types import Correlation, EventKind, FileScan, RankStatus, RankSummary
from analyzers.timeline.attempts import Attempts

# torchrun's report of a child that failed: `failed (exitcode: 1) local_rank: 2 (pid: ...)`
_CHILD_FAILED = re.compile(r"\bfailed \(exitcode: -?\d+\) local_rank: \d+")


def demote_restart_rendezvous(items: Sequence[Classified], scans: Sequence[FileScan]) -> None:
    """A rendezvous an agent gave up on after it reported a failed child of its own: with
    restarts left the agent meets the other nodes again, and its wait for a node that went away
    times out there. The run had failed already, so the line is the restart's, not a start that
    never happened, and ranks below that run's own lines. Before any such report the rules that
    read a launcher that never started its workers (`before_workers`) keep their reading."""
    reported = {scan.info.path: min(lines) for scan in scans if (lines := _child_reports(scan))}
    for item in items:
        best = item.best
        if best is None or not best.signature.before_workers:
            continue
        first_report = reported.get(item.event.file)
        after = first_report is not None and item.event.line > first_report
        if after and item.tier > TIER_GENERIC:
            item.tier, item.demoted = TIER_GENERIC, True


def _child_reports(scan: FileScan) -> list[int]:
    return [
        event.line
        for event in scan.events
        if event.kind == EventKind.ERROR and _CHILD_FAILED.search(event.message or event.text)
    ]


def demote_later_attempts(items: Sequence[Classified], scans: Sequence[FileScan]) -> None:
    attempts = Attempts(scans)
    if not attempts.restarted:
        return
    numbered = [(attempts.of(item.event.file, item.event.line), item) for item in items]
    known = [number for number, _ in numbered if number is not None]
    if not known:
        return
    first = min(known)
    for number, item in numbered:
        if number is not None and number > first and item.tier > TIER_GENERIC:
            item.tier, item.demoted = TIER_GENERIC, True
    # the agent's reports beside an attempt tree are placed for judging silence, not demoted
    in_first = [i for i in items if attempts.placed(i.event.file, i.event.line) == first]
    for item in in_first:
        best = item.best
        if best is None or not best.signature.cause_if_silent or not best.culprits:
            continue
        if item.demoted:
            continue  # it yielded to a line that says why the rank ended
        ranks = global_ranks(best.culprits, item, scans)
        stopped_behind = outwaited(in_first, ranks) or failed_by_itself(in_first, ranks)
        if best.signature.signalled_stop and stopped_behind:
            continue  # its peers timed out waiting for it, or another rank failed first
        if ranks and all(_silent(rank, item, in_first) for rank in ranks):
            item.tier = max(item.tier, TIER_CAUSE)


def judged_in_attempt(
    first: Classified | None,
    items: Sequence[Classified],
    correlation: Correlation | None,
    scans: Sequence[FileScan],
) -> Correlation | None:
    """The ranks' ends as the attempt the first error comes from saw them, for choosing its
    culprits: a rank that printed an error of its own in that attempt failed, one that printed
    none there went quiet, whatever it did in the runs after. Where each rank stopped (its
    checkpoints) is still the last attempt's; ranks killed, missing or done keep their reading.
    The correlation is returned as it is for a job run once or an incident of its last run."""
    if first is None or correlation is None:
        return correlation
    attempts = Attempts(scans)
    number = attempts.placed(first.event.file, first.event.line) if attempts.restarted else None
    if number is None or number >= attempts.last:
        return correlation
    in_attempt = [i for i in items if attempts.placed(i.event.file, i.event.line) == number]
    ranks = [_judged(summary, number, in_attempt, attempts) for summary in correlation.ranks]
    return replace(correlation, ranks=ranks)


def _judged(
    summary: RankSummary, number: int, attempt: Sequence[Classified], attempts: Attempts
) -> RankSummary:
    if summary.status not in (RankStatus.ERROR, RankStatus.HUNG):
        return summary
    if not any(attempts.holds(path, number) for path in summary.files):
        return summary  # no file of that attempt: it says nothing about the rank there
    own = [item for item in attempt if item.rank == summary.rank and not _exit_summary(item)]
    if not own:
        return replace(summary, status=RankStatus.HUNG, first_error=None)
    lead = min(own, key=lambda item: (item.order, item.event.line))
    return replace(summary, status=RankStatus.ERROR, first_error=lead.event.ref())


def _exit_summary(item: Classified) -> bool:
    """A launcher's report of how a rank ended that was not read as the rank's own failure."""
    best = item.best
    return best is not None and best.signature.cause_if_silent and item.tier < TIER_CAUSE


def _silent(rank: int, report: Classified, attempt: Sequence[Classified]) -> bool:
    """The rank printed no error line of its own in the attempt (launcher reports aside)."""
    return not any(
        item.rank == rank
        and item is not report
        and not (item.best is not None and item.best.signature.cause_if_silent)
        for item in attempt
    )
