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

import re
from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence

from analyzers.causal.chain import (
    CLOCK_TOLERANCE_S,
    OWN_FAILURE_TIERS,
    CausalChain,
    epoch,
    outwaited,
)
from analyzers.causal.culprits import blame, global_ranks
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
from analyzers.causal.shared_files import NO_WRITER, shared_file_writers
from analyzers.causal.untimed_bound import untimed_bounds
from analyzers.causal.warned_first import (
    announced_before,
    reported_before,
    restated_from,
    skipped_before,
    warned_before,
)
from analyzers.causal.written_before import agent_ceilings
from analyzers.checkpoints.track import track_of
from analyzers.classify.matches import Classified
from analyzers.classify.tiers import (
    CANN_BLOCK_SOURCE,
    TIER_CASCADE,
    TIER_CAUSE,
    TIER_GENERIC,
    TIER_SYMPTOM,
    TIER_UNMATCHED,
    TIER_WRAPPER,
)
from analyzers.core.types import Correlation, FileKind, FileScan, RankSummary

MIN_ERROR_TIER = TIER_GENERIC  # below: unknown warnings and noise, never a first error
WAITING_TIERS = (TIER_SYMPTOM, TIER_WRAPPER)
MAX_BLOCK_LINES = 70  # a CANN block's headline, reason and trace (formats.cann_block)
NEAR_LINES = 30  # lines of one block around the first error that support it
MAX_SUPPORTING = 8
MAX_CASCADES = 8
_KIND_PRIORITY = {FileKind.RANK_LOG: 0, FileKind.PLOG: 1, FileKind.DEVICE_LOG: 1}


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
    ordered = causal_order(errors, offsets, recorded, agent_ceilings(errors, scans))
    if not ordered:
        return CausalChain(first=None)
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
    )
    if warned is not None:
        top = [warned, *top]
    chain = CausalChain(first=top[0], top=top)
    chain.nearby = [item for item in ordered if _near(item, chain.first)]
    if chain.first.rank is None:
        chain.first.rank = _block_rank(chain.nearby, chain.first, offsets)
    chain.supporting = _supporting(chain.first, ordered, chain.nearby)
    chain.cascades = _cascades(ordered, chain)
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
    blamed = blame(chain, judged_in_attempt(chain.first, errors, correlation, scans), scans)
    chain.culprit_ranks, chain.culprit_why = blamed.ranks, blamed.why
    chain.consequence_ranks = _consequence_ranks(ordered, chain)
    return chain


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
    if first.best is None or not first.best.culprits or first.rank is None:
        return list(top)
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


def _later(moment: float | None, reported: float | None) -> bool:
    return moment is not None and reported is not None and moment > reported + CLOCK_TOLERANCE_S


# --- promotion and demotion ----------------------------------------------------------------


def promote_silent_ends(
    items: Sequence[Classified], correlation: Correlation | None, scans: Sequence[FileScan] = ()
) -> None:
    """A launcher's report of how a rank ended is that rank's own failure when the rank
    logged no error line itself: nothing else says what happened to it. A report that already
    yielded to a line saying why the rank ended (`classify.block_context`) stays below it."""
    if correlation is None:
        return
    summaries = {summary.rank: summary for summary in correlation.ranks}
    for item in items:
        best = item.best
        if best is None or not best.signature.cause_if_silent or not best.culprits:
            continue
        if item.demoted:
            continue
        ranks = global_ranks(best.culprits, item, scans)
        if best.signature.signalled_stop and outwaited(items, ranks):
            continue
        named = [summaries.get(rank) for rank in ranks]
        if all(s is not None and _silent(s, item) and s.files for s in named):
            item.tier = max(item.tier, TIER_CAUSE)


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


# --- demotion ------------------------------------------------------------------------------


def demote_explained_waits(
    items: Sequence[Classified],
    offsets: Mapping[int, float],
    everything: Sequence[Classified] = (),
) -> None:
    """A timeout or wrapper on one rank is a cascade when another rank failed on its own
    first (or at an unknown time): the waiting rank was waiting for that one. `everything`
    (warnings too) places late arrivals at the store (`demote_late_store_arrivals`)."""
    earliest = _earliest_own_failure(items, offsets)
    for item in items:
        if item.tier in WAITING_TIERS and item.rank is not None:
            moment = epoch(item, offsets)
            if any(_explains(when, moment) for rank, when in earliest.items() if rank != item.rank):
                item.tier, item.demoted = TIER_CASCADE, True
    demote_waits_after_another_process(items, offsets)
    demote_late_store_arrivals(items, offsets, everything or items)
    demote_waits_behind_another_rank(items)


# the connect timeout a store client quotes: "timed out after 6000ms while trying to connect"
_CONNECT_TIMEOUT_MS = re.compile(r"\bafter (\d+) ?ms\b")


def demote_late_store_arrivals(
    items: Sequence[Classified], offsets: Mapping[int, float], everything: Sequence[Classified]
) -> None:
    """A rank that could not connect to the rendezvous store is the one the others waited
    behind only when it tried while they waited. A connect that began (its failure's time
    less the timeout it quotes) after another rank's wait inside the store had already run
    out came too late: the store had given up on it and closed, and the waits are what
    failed first. That rank's connect failures (its untimed exception too, dated by its
    earliest timed one) are then a cascade of them, still read as the late rank's (its rank
    stays the one the others waited for). The waits' times come from any
    of their lines, c10d's timed warnings (`waitForInput: ... timed out after 6000ms`)
    included, as the exceptions under them often carry no time."""
    ended = [
        (moment, item.rank)
        for item in everything
        if item.rank is not None
        and item.best is not None
        and item.best.signature.waits_behind
        and (moment := epoch(item, offsets)) is not None
    ]
    if not ended:
        return
    began: dict[int, float] = {}  # rank -> when its earliest timed failed connect began
    for item in everything:
        if item.rank is None or item.best is None or not item.best.signature.unreached:
            continue
        moment = epoch(item, offsets)
        quoted = _CONNECT_TIMEOUT_MS.search(item.event.message or item.event.text)
        if moment is not None and quoted is not None:
            start = moment - int(quoted.group(1)) / 1000
            began[item.rank] = min(began.get(item.rank, start), start)
    late = set()
    for rank, start in began.items():
        others = [when for when, waiter in ended if waiter != rank]
        if others and min(others) + CLOCK_TOLERANCE_S < start:
            late.add(rank)
    for item in items:
        best = item.best
        if (
            item.rank in late
            and best is not None
            and best.signature.unreached
            and item.tier in WAITING_TIERS
        ):
            item.tier, item.demoted = TIER_CASCADE, True


def demote_waits_behind_another_rank(items: Sequence[Classified]) -> None:
    """A wait is a cascade when another rank logged the wait it stood behind (a store
    client's key wait behind the store's count of clients, that count behind a rank that
    never reached the store): each ends when its own timeout runs out, so their times do not
    say which waited for which, their words do."""
    logged: dict[str, set[int]] = {}
    for item in items:
        if item.best is not None and item.rank is not None and item.tier in WAITING_TIERS:
            logged.setdefault(item.best.signature.id, set()).add(item.rank)
    for item in items:
        best = item.best
        if best is None or item.rank is None or item.tier not in WAITING_TIERS:
            continue
        behind = best.signature.waits_behind
        if any(logged.get(sig_id, set()) - {item.rank} for sig_id in behind):
            item.tier, item.demoted = TIER_CASCADE, True


def demote_cascades_after_stop(
    items: Sequence[Classified], offsets: Mapping[int, float], scans: Sequence[FileScan] = ()
) -> None:
    """A lost peer or a re-raise printed after the job was stopped from outside (the agent's
    signal record, a scheduler's cancel) is what the stop did to the ranks: an interrupted
    rank drops its connections and its peers report them closed. On a job of several nodes
    the stopped agent's node is not the one whose ranks report the loss, and their lines
    often carry no time: a line with none is after the stop when the lines its file printed
    before it are already no earlier than the stop, within the clocks' tolerance."""
    stops = [i for i in items if i.best is not None and i.best.signature.outside_stop]
    if not stops:
        return
    stop = min(stops, key=lambda i: (i.order, i.event.line))
    copies = _copies_in(items, stop)
    stopped = epoch(stop, offsets)
    floors = _untimed_floors(items, scans) if stopped is not None else {}
    if stopped is not None:
        for key, when in _timed_twins(items, offsets).items():
            floors[key] = max(floors.get(key, when), when)
    for item in items:
        if (
            item.tier <= TIER_CASCADE
            and item.tier > stop.tier
            and (
                _after(item, stop, offsets, copies)
                or (
                    stopped is not None
                    and item.order != stop.order
                    and floors.get(id(item), stopped - 2 * CLOCK_TOLERANCE_S)
                    >= stopped - CLOCK_TOLERANCE_S
                )
            )
        ):
            item.tier, item.demoted = stop.tier - 0.5, True


_STATED = re.compile(r"(?:Error|Exception|error|failed): (?P<what>.{24,})$")


def _timed_twins(items: Sequence[Classified], offsets: Mapping[int, float]) -> dict[int, float]:
    """{id(item): time} for an untimed line (torch's `[rank0]: RuntimeError: ...` traceback in
    a torchrun `stderr.log`) whose rank also logged the same error with a time in another
    file (`... [local_rank0] ERROR model run failed: ...` in its `stdout.log`): a rank logs an
    exception while handling it, and the uncaught traceback is printed after that, so the
    logged time is a floor for the traceback's line."""
    timed: dict[tuple[int, str], list[tuple[str, float]]] = {}
    for item in items:
        when = epoch(item, offsets)
        if when is not None and item.rank is not None and item.best is not None:
            key = (item.rank, item.best.signature.id)
            timed.setdefault(key, []).append((item.event.message or item.event.text, when))
    twins: dict[int, float] = {}
    for item in items:
        if item.event.timestamp is not None or item.rank is None or item.best is None:
            continue
        stated = _STATED.search((item.event.message or item.event.text).rstrip())
        if stated is None:
            continue
        what = stated.group("what")
        times = [
            when
            for text, when in timed.get((item.rank, item.best.signature.id), ())
            if what in text
        ]
        if times:
            twins[id(item)] = min(times)
    return twins


def _untimed_floors(items: Sequence[Classified], scans: Sequence[FileScan]) -> dict[int, float]:
    """{id(item): the latest time its file printed before it}, for lines without a time of
    their own in files whose progress lines carry one: the line was written after those.
    One pass over each such file's progress lines (a running maximum), then a bisection per
    line, so a long file costs its length once."""
    wanted = {item.order for item in items if item.event.timestamp is None}
    peaks_of: dict[int, tuple[list[int], list[float]]] = {}
    for order in wanted:
        track = track_of(scans[order]) if order < len(scans) else None
        if track is not None:
            peaks_of[order] = _running_peaks(track.line, track.time)
    floors: dict[int, float] = {}
    for item in items:
        if item.event.timestamp is not None or item.order not in peaks_of:
            continue
        lines, peaks = peaks_of[item.order]
        before = bisect_left(lines, item.event.line)  # progress lines above this one
        if before:
            floors[id(item)] = peaks[before - 1]
    return floors


def _running_peaks(lines: Iterable[int], times: Iterable[float]) -> tuple[list[int], list[float]]:
    """The timed progress lines of a file in order, each with the latest time up to it."""
    kept, peaks, peak = [], [], float("-inf")
    for line, time in zip(lines, times, strict=True):
        if time == time:  # NaN: an untimed progress line
            peak = time if time > peak else peak
            kept.append(line)
            peaks.append(peak)
    return kept, peaks


def placed_before_stop(items: Sequence[Classified], offsets: Mapping[int, float]) -> set[int]:
    """Ids of the lines that the clock, their own file or the launcher's copy of them places
    before the job's stop record (the mirror of `_after`); none without a record."""
    stops = [i for i in items if i.best is not None and i.best.signature.outside_stop]
    if not stops:
        return set()
    stop = min(stops, key=lambda i: (i.order, i.event.line))
    copies = _copies_in(items, stop)
    return {id(item) for item in items if item is not stop and _before(item, stop, offsets, copies)}


def _before(
    item: Classified,
    stop: Classified,
    offsets: Mapping[int, float],
    copies: Mapping[tuple[int | None, str], Sequence[int]],
) -> bool:
    when, stopped = epoch(item, offsets), epoch(stop, offsets)
    if when is not None and stopped is not None and _one_clock(item, stop):
        return when < stopped
    if item.order == stop.order:
        return item.event.line < stop.event.line
    if (when is not None and stopped is None) or item.rank is None:
        return False
    lines = copies.get((item.rank, item.event.message), ())
    return bool(lines) and min(lines) < stop.event.line


def _copies_in(
    items: Sequence[Classified], stop: Classified
) -> dict[tuple[int | None, str], list[int]]:
    """Lines of the stop's own file by rank and words: a launcher that tees its ranks' output
    (torchrun's `--tee`, `[default0]:` before each line) holds a copy of every line a rank
    wrote to its own file, placed among the launcher's own lines in the order they came."""
    copies: dict[tuple[int | None, str], list[int]] = {}
    for item in items:
        if item.order == stop.order and item.rank is not None:
            copies.setdefault((item.rank, item.event.message), []).append(item.event.line)
    return copies


def _after(
    item: Classified,
    stop: Classified,
    offsets: Mapping[int, float],
    copies: Mapping[tuple[int | None, str], Sequence[int]] | None = None,
) -> bool:
    """Later than the stop by the clock when both lines carry time on one clock, else later in
    its file, else (a line of a rank's own file) when the copy of the same line that the
    stop's file holds comes after the stop.

    A collector's stamp in front of a line (`kubectl logs --timestamps`, the journal: when it
    read the line) and a time the program wrote itself are not on one clock: the program's
    zone and the hosts' offset are not in the lines."""
    when, stopped = epoch(item, offsets), epoch(stop, offsets)
    if when is not None and stopped is not None and _one_clock(item, stop):
        return when > stopped
    if item.order == stop.order:
        return item.event.line > stop.event.line
    if (when is not None and stopped is None) or item.rank is None or not copies:
        return False
    lines = copies.get((item.rank, item.event.message), ())
    return bool(lines) and min(lines) > stop.event.line


def _one_clock(item: Classified, other: Classified) -> bool:
    return item.event.collected == other.event.collected


def demote_waits_after_another_process(
    items: Sequence[Classified], offsets: Mapping[int, float]
) -> None:
    """The same reading where no rank is known: a serving log tags each worker process's lines
    `(NAME pid=N)` and leaves its driver's untagged, so two lines of one file with different
    tags (or one tagged, one not) come from two processes. A wait is a cascade when another
    process of its file failed on its own clearly before it (beyond the clocks' tolerance:
    a failure printed with the wait may be its consequence)."""
    earliest: dict[tuple[int, str | None, int | None], float] = {}
    for item in items:
        if item.tier in OWN_FAILURE_TIERS and not item.demoted:
            moment = epoch(item, offsets)
            if moment is not None:
                key = (item.order, item.event.process, item.rank)
                earliest[key] = min(moment, earliest.get(key, moment))
    if not earliest:
        return
    for item in items:
        if item.tier not in WAITING_TIERS or item.demoted:
            continue
        moment = epoch(item, offsets)
        if moment is not None and any(
            order == item.order
            and process != item.event.process
            and (rank is None or item.rank is None or rank != item.rank)
            and when + CLOCK_TOLERANCE_S < moment
            for (order, process, rank), when in earliest.items()
        ):
            item.tier, item.demoted = TIER_CASCADE, True


def _earliest_own_failure(
    items: Sequence[Classified], offsets: Mapping[int, float]
) -> dict[int, float | None]:
    """Per rank, the time of its earliest own failure (None: one without time)."""
    earliest: dict[int, float | None] = {}
    for item in items:
        if item.tier in OWN_FAILURE_TIERS and item.rank is not None:
            moment = epoch(item, offsets)
            known = earliest.get(item.rank, float("inf"))
            earliest[item.rank] = None if moment is None or known is None else min(known, moment)
    return earliest


def _explains(owner_time: float | None, waiter_time: float | None) -> bool:
    if owner_time is None or waiter_time is None:
        return True
    return owner_time <= waiter_time + CLOCK_TOLERANCE_S


# --- ordering ------------------------------------------------------------------------------


def record_times(
    items: Sequence[Classified], offsets: Mapping[int, float], scans: Sequence[FileScan]
) -> dict[tuple[int, int], float]:
    """{(file order, exception line): moment} for an exception without a time whose traceback
    header stands right under a timed error record of the same writer: Python logging's
    `logger.exception(...)` prints the record's line, then the traceback, in one write, so the
    exception happened at the record's time. The lines of a CANN error-manager block under a
    timed record take its time likewise (`block_times`)."""
    found = block_times(items, offsets)
    timed = {
        (item.order, item.event.line): (moment, item.rank)
        for item in items
        if (moment := epoch(item, offsets)) is not None and not item.event.collected
    }
    copies: dict[tuple[int | None, str], set[int]] = {}
    for item in items:
        copies.setdefault((item.rank, _words_of(item)), set()).add(item.order)
    headers = {
        (order, record["line"]): record["header"]
        for order, scan in enumerate(scans)
        for record in scan.facts.get("tracebacks") or ()
        if record.get("header")
    }
    shared: dict[tuple[int | None, str], float] = {}
    for item in items:
        header = headers.get((item.order, item.event.line))
        if item.event.timestamp is not None or header is None:
            continue
        above = timed.get((item.order, header - 1))
        if above is None or (above[1] is not None and above[1] != item.rank):
            continue
        words = (item.rank, _words_of(item))
        if copies[words] - {item.order}:
            # the rank printed the same exception elsewhere too: every copy takes the record's
            # time, so the copies keep their order among themselves while the ranks are
            # ordered by their records
            if item.rank is not None:
                shared[words] = min(shared.get(words, above[0]), above[0])
            continue
        found[(item.order, item.event.line)] = above[0]
    for item in items:
        moment = shared.get((item.rank, _words_of(item)))
        if moment is not None and item.event.timestamp is None:
            found.setdefault((item.order, item.event.line), moment)
    return found


def block_times(
    items: Sequence[Classified], offsets: Mapping[int, float]
) -> dict[tuple[int, int], float]:
    """{(file order, line): moment} for the untimed lines of a CANN error-manager block (its
    TraceBack, a headline's reason) printed under a timed record of the same writer: a plog
    line that quotes an `EZ9903` headline, then `Solution:`, `TraceBack (most recent call
    last):` and the indented trace (`there is an exception of fftsplus aivector error`). The
    runtime writes the record and its block at once, so the trace happened at the record's
    time; by itself the untimed line would sort after every timed line of another file."""
    found: dict[tuple[int, int], float] = {}
    record: tuple[int, int, int | None, float] | None = None  # order, line, rank, moment
    for item in sorted(items, key=lambda i: (i.order, i.event.line)):
        moment = epoch(item, offsets)
        if moment is not None and not item.event.collected:
            record = (item.order, item.event.line, item.rank, moment)
            continue
        if (
            record is not None
            and item.event.timestamp is None
            and item.event.source == CANN_BLOCK_SOURCE
            and record[0] == item.order
            and record[2] in (None, item.rank)
            and 0 < item.event.line - record[1] <= MAX_BLOCK_LINES
        ):
            found[(item.order, item.event.line)] = record[3]
        else:
            record = None  # another untimed line between: the block is not the record's
    return found


def _words_of(item: Classified) -> str:
    return (item.event.message or item.event.text).strip()


def causal_order(
    items: Sequence[Classified],
    offsets: Mapping[int, float],
    recorded: Mapping[tuple[int, int], float] | None = None,
    ceilings: Mapping[tuple[int, int], float] | None = None,
) -> list[Classified]:
    """Events ordered file by file (by each file's earliest top-tier line), lines in order; a
    file whose ranks' own times contradict its line order is ordered rank by rank instead
    (`analyzers.causal.shared_files`).

    Where some top-tier line carries a time the program wrote, a line timed only by a log
    collector's stamp is ordered like an untimed one: the two clocks are not one. An untimed
    exception printed under a timed log record takes that record's time (`record_times`), and
    an agent's C++ line no later than its own Python lines printed after it (`ceilings`,
    `analyzers.causal.written_before`)."""
    if not items:
        return []
    best_tier = max(item.tier for item in items)
    bounds = dict(untimed_bounds(items, offsets))
    for item in items:
        moment = (recorded or {}).get((item.order, item.event.line))
        if moment is not None and item.tier == best_tier:
            bounds[item.order] = min(bounds.get(item.order, moment), moment)
    top = [item for item in sorted(items, key=lambda i: i.event.line) if item.tier == best_tier]
    own_clock = any(item.event.timestamp is not None and not item.event.collected for item in top)
    writers = shared_file_writers(top, items, offsets)

    def writer(item: Classified) -> tuple[int, int]:
        return (item.order, writers.get((item.order, item.event.line), NO_WRITER))

    file_keys: dict[object, tuple[int, float, int, int, int]] = {}
    for item in top:
        for group in (item.order, writer(item)):
            if group not in file_keys:
                if own_clock and item.event.collected:
                    file_keys[group] = _file_key(item, offsets, timed=False)
                else:
                    ceiling = (ceilings or {}).get((item.order, item.event.line))
                    file_keys[group] = _file_key(
                        item, offsets, bounds.get(item.order), ceiling=ceiling
                    )
    last = (2, 0.0, 0, 0, 0)
    return sorted(
        items,
        key=lambda i: (
            file_keys.get(writer(i), file_keys.get(i.order, last)),
            writer(i),
            i.event.line,
        ),
    )


def _file_key(
    item: Classified,
    offsets: Mapping[int, float],
    bound: float | None = None,
    *,
    timed: bool = True,
    ceiling: float | None = None,
) -> tuple[int, float, int, int, int]:
    seconds = epoch(item, offsets) if timed else None
    if seconds is not None and ceiling is not None:
        seconds = min(seconds, ceiling)  # printed before a line of its writer stamped earlier
    if seconds is None and item.event.timestamp is None:
        seconds = bound  # an untimed failure that a peer's timed loss places
    weight = item.best.weight if item.best else 0
    untimed = 1 if seconds is None else 0
    return (untimed, seconds or 0.0, -weight, _KIND_PRIORITY.get(item.kind, 2), item.order)


# --- supporting lines and cascades ---------------------------------------------------------


def _block_rank(
    block: Sequence[Classified], first: Classified, offsets: Mapping[int, float]
) -> int | None:
    """The rank of an error block whose headline has none (a CANN line inside a rank's
    exception text): the one rank the block's other lines name, if they agree. A line
    printed seconds apart from the headline is another writer's, not the block's (in a
    combined stdout, a rank's own error a few lines below a c10d line without a rank)."""
    at = epoch(first, offsets)
    ranks = {
        item.rank
        for item in block
        if item.rank is not None and not _apart_in_time(item, at, offsets)
    }
    return ranks.pop() if len(ranks) == 1 else None


def _apart_in_time(item: Classified, at: float | None, offsets: Mapping[int, float]) -> bool:
    moment = epoch(item, offsets)
    return at is not None and moment is not None and abs(moment - at) > CLOCK_TOLERANCE_S


def _near(item: Classified, first: Classified) -> bool:
    return item.order == first.order and abs(item.event.line - first.event.line) <= NEAR_LINES


def _supporting(
    first: Classified, ordered: Sequence[Classified], nearby: Sequence[Classified]
) -> list[Classified]:
    """Lines of the same block that wrap or detail the first error, then lines of other
    files that report the same failure (other ranks, the Python side of a plog error)."""
    near = [
        item
        for item in nearby
        if item is not first and item.tier >= TIER_WRAPPER and item.best is not None
    ]
    elsewhere = [
        item
        for item in ordered
        if item is not first
        and item.order != first.order
        and item.tier >= TIER_WRAPPER
        and item.category == first.category
    ]
    return _one_per_text(near + elsewhere)[:MAX_SUPPORTING]


def _cascades(ordered: Sequence[Classified], chain: CausalChain) -> list[Classified]:
    """The first consequence line per file (demoted timeouts first), for citing."""
    taken = {id(item) for item in [chain.first, *chain.supporting]}
    pool = [
        item
        for item in ordered
        if id(item) not in taken and item.best is not None and item.tier <= TIER_CASCADE
    ]
    pool.sort(key=lambda item: (not item.demoted, -item.tier))
    seen: set[int] = set()
    picked = []
    for item in pool:
        if item.order not in seen:
            seen.add(item.order)
            picked.append(item)
    return picked[:MAX_CASCADES]


def _consequence_ranks(ordered: Sequence[Classified], chain: CausalChain) -> list[int]:
    """Ranks whose error lines are all consequences (not the culprits, not the reporter)."""
    own = {i.rank for i in ordered if i.tier > TIER_CASCADE}
    later = {i.rank for i in ordered if i.tier <= TIER_CASCADE and i.best is not None}
    first_rank = chain.first.rank if chain.first else None
    ranks = later - own - set(chain.culprit_ranks) - {first_rank, None}
    return sorted(r for r in ranks if r is not None)


def _one_per_text(items: Iterable[Classified]) -> list[Classified]:
    seen: set[str] = set()
    kept = []
    for item in items:
        text = item.event.message or item.event.text
        if text not in seen:
            seen.add(text)
            kept.append(item)
    return kept
