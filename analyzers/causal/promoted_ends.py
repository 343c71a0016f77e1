"""A rank's end raised to a cause: a launcher's report of how a rank ended, when the rank
logged no error line itself, and a process's own record of its end (faulthandler's abort dump)
that is the first error line its rank wrote.

Either is the only word of what happened to that rank, so it must outrank the peers' lost
connections that followed from it before the first error is chosen::

    Fatal Python error: Aborted
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.causal.chain import failed_by_itself, outwaited
from analyzers.causal.local_ranks import global_ranks
from analyzers.classify.matches import Classified
from analyzers.classify.tiers import TIER_CAUSE
from analyzers.core.types import Correlation, FileScan, RankSummary
from analyzers.timeline.attempts import Attempts


def promote_silent_ends(
    items: Sequence[Classified], correlation: Correlation | None, scans: Sequence[FileScan] = ()
) -> None:
    """A launcher's report of how a rank ended is that rank's own failure when the rank
    logged no error line itself: nothing else says what happened to it. A report that already
    yielded to a line saying why the rank ended (`classify.block_context`) stays below it.
    A stop from outside of a rank that printed nothing is no failure of its own when another
    rank, in the same try, failed by itself or timed out waiting for it."""
    if correlation is None:
        return
    summaries = {summary.rank: summary for summary in correlation.ranks}
    attempts = Attempts(scans)
    for item in items:
        best = item.best
        if best is None or not best.signature.cause_if_silent or not best.culprits:
            continue
        if item.demoted:
            continue
        ranks = global_ranks(best.culprits, item, scans)
        if best.signature.signalled_stop and _stopped_behind(item, items, ranks, attempts):
            continue
        named = [summaries.get(rank) for rank in ranks]
        if all(s is not None and _silent(s, item) and s.files for s in named):
            item.tier = max(item.tier, TIER_CAUSE)


def _stopped_behind(
    report: Classified, items: Sequence[Classified], ranks: Sequence[int], attempts: Attempts
) -> bool:
    """The stopped ranks were waiting on another rank in the report's try: a rank timed out
    waiting for them, or failed by itself first. A later try's lines say nothing of it."""
    number = attempts.placed(report.event.file, report.event.line)
    same = [item for item in items if _not_after(item, number, attempts)]
    return outwaited(same, ranks) or failed_by_itself(same, ranks)


def _not_after(item: Classified, number: int | None, attempts: Attempts) -> bool:
    placed = attempts.placed(item.event.file, item.event.line)
    return number is None or placed is None or placed <= number


def promote_first_own_ends(items: Sequence[Classified], correlation: Correlation | None) -> None:
    """A process's own record of its end (faulthandler's `Fatal Python error: Aborted`) that
    is the first error line its rank wrote is that rank's failure: nothing of the rank came
    before it to be echoed, and the peers' lost connections follow from it. Under an earlier
    error of the same rank (a timeout, `terminate called after throwing ...`) it stays the
    echo of that error."""
    if correlation is None:
        return
    firsts = {summary.rank: summary.first_error for summary in correlation.ranks}
    for item in items:
        best = item.best
        if best is None or not best.signature.own_if_first or item.demoted:
            continue
        first = firsts.get(item.rank) if item.rank is not None else None
        if first is not None and (first.file, first.line) == (item.event.file, item.event.line):
            item.tier = max(item.tier, TIER_CAUSE)


def _silent(summary: RankSummary, report: Classified) -> bool:
    """The rank left no error line of its own: none at all, or only the launcher's report
    itself while its own progress lines are there (a combined `[defaultN]:` stdout holds the
    agent's lines beside the ranks', and its exit line is counted as the rank it names). A
    rank with no line at all but that report was cut out of the paste: it says nothing."""
    first = summary.first_error
    if first is None:
        return True
    is_report = (first.file, first.line) == (report.event.file, report.event.line)
    return is_report and summary.checkpoints > 0
