"""A restarted job's later attempts come after the failure that restarted it.

A launcher with restarts left starts the worker group again after a failure, so one bundle
holds several runs (torchrun's `attempt_<n>/` folders, or one console or appended log they
all wrote into: `analyzers.timeline.attempts`). The first attempt's failure is why the job
restarted; what a later attempt printed (the same failure again, a start-up that met the
failed run's leftovers, another rank's fault) is what the restart made of it. Its lines stay
evidence but rank below every line of the first attempt that failed.

The launcher's report of how a child ended counts as that rank's own failure when the rank
printed nothing else in that attempt: a rank that died silently in attempt 0 and lost its
peers in attempt 1 is still the one that died first.
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.causal.culprits import global_ranks
from analyzers.classify.events import TIER_CAUSE, TIER_GENERIC, Classified
from analyzers.core.types import FileScan
from analyzers.timeline.attempts import Attempts


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
    in_first = [item for number, item in numbered if number == first]
    for item in in_first:
        best = item.best
        if best is None or not best.signature.cause_if_silent or not best.culprits:
            continue
        if item.demoted:
            continue  # it yielded to a line that says why the rank ended
        ranks = global_ranks(best.culprits, item, scans)
        if ranks and all(_silent(rank, item, in_first) for rank in ranks):
            item.tier = max(item.tier, TIER_CAUSE)


def _silent(rank: int, report: Classified, attempt: Sequence[Classified]) -> bool:
    """The rank printed no error line of its own in the attempt (launcher reports aside)."""
    return not any(
        item.rank == rank
        and item is not report
        and not (item.best is not None and item.best.signature.cause_if_silent)
        for item in attempt
    )
