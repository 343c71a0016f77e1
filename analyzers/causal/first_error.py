"""Find the first causal error across all files and ranks, and the ranks that caused it.

A failed job prints a cascade: one root error, then peers time out or lose the connection,
a later synchronize reports the device error, the launcher summarises, Python re-raises.
The first causal error is the earliest line of the highest tier present (see
`analyzers.classify.tiers`), after timeouts that another rank's own failure explains have been
demoted. "Earliest" is by line within one file (one writer's order is the truth even when
its C++ and Python clocks disagree) and by time across files, after the per-rank clock
offsets from the correlation; files without times come after timed ones (a log collector's
stamps count as no time where other lines carry the program's own: another clock).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from analyzers.causal.after_stop import demote_cascades_after_stop, placed_before_stop
from analyzers.causal.chain import CLOCK_TOLERANCE_S, OWN_FAILURE_TIERS, CausalChain, epoch
from analyzers.causal.culprits import blame
from analyzers.causal.explained_waits import demote_explained_waits
from analyzers.causal.frames import own_failures_by_place
from analyzers.causal.interrupted import (
    demote_lost_peers_of_interrupted,
    lead_ranks_interrupted_alone,
)
from analyzers.causal.later_attempts import (
    demote_later_attempts,
    demote_restart_rendezvous,
    judged_in_attempt,
)
from analyzers.causal.line_order import causal_order, record_times
from analyzers.causal.local_ranks import global_ranks
from analyzers.causal.nccl_threads import thread_warned_first
from analyzers.causal.promoted_ends import promote_first_own_ends, promote_silent_ends
from analyzers.causal.supporting_lines import (
    block_rank,
    consequence_ranks,
    first_cascades,
    near_first,
    supporting_lines,
)
from analyzers.causal.warned_first import (
    announced_before,
    reported_before,
    restated_from,
    skipped_before,
    warned_before,
)
from analyzers.causal.written_before import agent_ceilings
from analyzers.classify.matches import Classified
from analyzers.classify.tiers import TIER_CAUSE, TIER_GENERIC, TIER_UNMATCHED
from analyzers.core.types import Correlation, FileScan

MIN_ERROR_TIER = TIER_GENERIC  # below: unknown warnings and noise, never a first error


def find_first_error(
    items: Sequence[Classified],
    correlation: Correlation | None = None,
    scans: Sequence[FileScan] = (),
    floor: float = MIN_ERROR_TIER,
) -> CausalChain:
    """The causal chain of the bundle's classified error/warning events at `floor` or above
    (lower only to read a job that holds nothing better, `unread_errors_chain`)."""
    offsets = correlation.clock_offsets if correlation else {}
    errors = [item for item in items if item.tier >= floor]
    ordered = _in_causal_order(errors, items, correlation, scans)
    if not ordered:
        return CausalChain(first=None)
    top = _first_and_its_peers(ordered, offsets, scans)
    chain = CausalChain(first=top[0], top=top)
    chain.nearby = [item for item in ordered if near_first(item, chain.first)]
    if chain.first.rank is None:
        chain.first.rank = block_rank(chain.nearby, chain.first, offsets)
    _around_the_first(chain, ordered)
    blamed = blame(chain, judged_in_attempt(chain.first, errors, correlation, scans), scans)
    chain.culprit_ranks, chain.culprit_why = blamed.ranks, blamed.why
    chain.consequence_ranks = consequence_ranks(ordered, chain)
    return chain


def _in_causal_order(
    errors: list[Classified],
    items: Sequence[Classified],
    correlation: Correlation | None,
    scans: Sequence[FileScan],
) -> list[Classified]:
    """The errors promoted and demoted by what the job's processes did, then ordered."""
    offsets = correlation.clock_offsets if correlation else {}
    own_failures_by_place(errors, scans)
    promote_silent_ends(errors, correlation, scans)
    promote_first_own_ends(errors, correlation)
    demote_later_attempts(errors, scans)
    demote_restart_rendezvous(errors, scans)
    demote_explained_waits(errors, offsets, items)
    demote_cascades_after_stop(errors, offsets, scans)
    demote_lost_peers_of_interrupted(errors, placed_before_stop(errors, offsets))
    lead_ranks_interrupted_alone(errors)
    recorded = record_times(errors, offsets, scans)
    return causal_order(errors, offsets, recorded, agent_ceilings(errors, scans))


def _first_and_its_peers(
    ordered: list[Classified], offsets: Mapping[int, float], scans: Sequence[FileScan]
) -> list[Classified]:
    """Every line at the best tier, in order, led by a line that said the same earlier."""
    best_tier = max(item.tier for item in ordered)
    top = [item for item in ordered if item.tier == best_tier]
    top = own_words_before_report(top, offsets, scans)
    top = quoted_from_own_log(top, scans)
    warned = (
        warned_before(top[0], ordered)
        or announced_before(top[0], ordered)
        or restated_from(top[0], ordered)
        or reported_before(top[0], ordered)
        or skipped_before(top[0], ordered, offsets)
        or thread_warned_first(top[0], ordered)
    )
    return [warned, *top] if warned is not None else top


def _around_the_first(chain: CausalChain, ordered: list[Classified]) -> None:
    """The lines that back the first error, the ones it explains, and the waits behind it."""
    chain.supporting = supporting_lines(chain.first, ordered, chain.nearby)
    chain.cascades = first_cascades(ordered, chain)
    chain.own_failures = [i for i in ordered if i.tier in OWN_FAILURE_TIERS and not i.demoted]
    for item in ordered:
        if item.rank is not None and any(m.signature.peer_gone for m in item.matches):
            chain.peer_gone.setdefault(item.rank, item)
    chain.waited_behind = [
        item
        for item in ordered
        if item.demoted
        and item.best
        and (item.best.signature.waits_behind or item.best.signature.unreached)
    ]


def unread_errors_chain(
    items: Sequence[Classified],
    correlation: Correlation | None = None,
    scans: Sequence[FileScan] = (),
) -> CausalChain:
    """The chain of the error lines no rule reads (`TIER_UNMATCHED`), for a job none of whose
    lines reaches a first error's tier: its earliest such line is the only trace of what
    failed. Lines a rank carried on after have already dropped below them."""
    unread = [item for item in items if item.tier == TIER_UNMATCHED and item.best is None]
    return find_first_error(unread, correlation, scans, floor=TIER_UNMATCHED)


def quoted_from_own_log(top: list[Classified], scans: Sequence[FileScan]) -> list[Classified]:
    """A rank's failure that every rank's log quotes is cited from the failed rank's own log.

    torch's distributed checkpoint gathers each failed rank's traceback into the one
    `CheckpointException` all ranks raise, under `Traceback ...: (RANK 3)`: rank 0's log
    then holds rank 3's `OSError: [Errno 28] No space left on device` as a quote, with the
    same words and no time of its own, and the file order alone would cite that copy. The
    copy in rank 3's own log is the same line where its rank wrote it."""
    if not top or not scans:
        return top
    first = top[0]
    rank = first.event.rank
    if rank is None or _file_rank(first, scans) in (None, rank):
        return top
    words = first.event.message or first.event.text
    for item in top[1:]:
        if (
            item.event.rank == rank
            and _file_rank(item, scans) == rank
            and (item.event.message or item.event.text) == words
        ):
            return [item, *(other for other in top if other is not item)]
    return top


def _file_rank(item: Classified, scans: Sequence[FileScan]) -> int | None:
    return scans[item.order].info.rank if 0 <= item.order < len(scans) else None


def own_words_before_report(
    top: Sequence[Classified], offsets: Mapping[int, float], scans: Sequence[FileScan] = ()
) -> list[Classified]:
    """A launcher's report of how a rank ended (a line naming the rank it is about) comes
    after whatever that rank printed as it died: a rank's own line of the same kind (the
    fault handler's `Fatal Python error: Segmentation fault` in its stderr file) goes first
    though the report weighs more and its file may carry times where the rank's has none.
    A plain exit status (`failed (exitcode: 1) local_rank: 0`) that stands among the ranks'
    lost connections, all of them consequences, is a summary of the lost connection the rank
    itself logged, which goes first whatever its kind."""
    first = top[0]
    if first.best is None or not first.best.culprits:
        return list(top)
    if first.rank is None:
        return _report_beside_unranked_console(top, offsets)
    if global_ranks(first.best.culprits, first, scans) != [first.rank]:
        return list(top)  # a rank's report of another rank (a barrier naming who is missing)
    reported = epoch(first, offsets)
    # a plain exit status says only that the rank ended: whatever the rank printed as it
    # failed, of any kind, is what it is a summary of
    status_only = first.best.signature.cause_if_silent and first.tier < TIER_CAUSE
    own = [
        item
        for item in top
        if item.order != first.order
        and item.rank == first.rank
        and (item.category == first.category or status_only)
        and not (item.best is not None and item.best.signature.culprit)
        and not _later(epoch(item, offsets), reported)
    ]
    if not own:
        return list(top)
    lead = min(own, key=lambda i: (i.order, i.event.line))
    return [lead, *(item for item in top if item is not lead)]


def _report_beside_unranked_console(
    top: Sequence[Classified], offsets: Mapping[int, float]
) -> list[Classified]:
    """A launcher's report of how a rank ended (PALS' `rank 0 died from signal 11`), where no
    line at this tier names its rank and neither the report nor the other lines carry a time:
    the file order says nothing of which came first. A console that holds a line of the same
    kind (the crash the report is about, `Segfault encountered`) is the rank's own record, and
    in that console its own order decides: its earliest line at this tier goes first."""
    first = top[0]
    if epoch(first, offsets) is not None or any(item.rank is not None for item in top):
        return list(top)
    own = [
        item
        for item in top
        if item.order != first.order
        and item.category == first.category
        and epoch(item, offsets) is None
        and not (item.best is not None and item.best.signature.culprit)
    ]
    if not own:
        return list(top)
    console = min(own, key=lambda i: (i.order, i.event.line)).order
    lead = min(
        (item for item in top if item.order == console and epoch(item, offsets) is None),
        key=lambda i: i.event.line,
    )
    return [lead, *(item for item in top if item is not lead)]


def _later(moment: float | None, reported: float | None) -> bool:
    return moment is not None and reported is not None and moment > reported + CLOCK_TOLERANCE_S
