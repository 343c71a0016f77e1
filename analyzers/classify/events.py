"""Classify a bundle's error and warning events, file by file: each line's own reading
(`analyzers.classify.tiers`), then what its file and the bundle say about it.

A line's words give its tier; its place moves it: a rank that went on past it
(`analyzers.classify.recovery`), a wrapper above the exception it carries, a launcher's kill of a
survivor (`analyzers.classify.process_ends`; all read once per file in
`analyzers.classify.file_marks`), the block and cascade yields
(`analyzers.classify.block_context`). This module runs those steps in order, so that order is
read in one place::

    EZ9999: [PID: 8308179] ... there is an exception of fftsplus aivector error ...  -> cause
    RuntimeError: ... AclrtSynchronizeDeviceWithTimeout, error code is 507015        -> wrapper
    [ERROR] 2026-10-22-12:47:24 (PID:8308179, ...) ERR00100 PTA call acl api failed  -> cascade
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.classify.block_context import (
    lead_restated_runs,
    yield_to_anywhere_in_bundle,
    yield_to_block_details,
    yield_to_earlier_in_file,
    yield_to_later_in_file,
    yield_to_named_cause,
    yield_to_nccl_debug_file,
    yield_to_same_process,
)
from analyzers.classify.file_marks import FileMarks
from analyzers.classify.late_blocks import demote_late_blocks
from analyzers.classify.line_matches import LineReadings
from analyzers.classify.matches import Classified
from analyzers.classify.record_leads import lead_unread_records
from analyzers.classify.recovery import (
    mark_recovered,
    pass_over_logged_warnings,
    pass_over_prompt_slips,
)
from analyzers.classify.rule_conditions import (
    keep_rules_announced_earlier,
    keep_rules_of_its_level,
    keep_rules_raised_here,
)
from analyzers.classify.rules import Knowledge
from analyzers.classify.tiers import (
    TIER_CASCADE,
    TIER_GENERIC,
    TIER_NOISE,
    TIER_TEARDOWN_KILL,
    TIER_UNKNOWN,
    TIER_UNMATCHED,
    TIER_WRAPPER,
    TRACEBACK_SOURCE,
    classify_event,
)
from analyzers.core.types import EventKind, FileScan


def classify_scans(
    scans: Sequence[FileScan], knowledge: Knowledge, stack: str | None = None
) -> list[Classified]:
    """Every error and warning event of the bundle, classified, in bundle order; `stack` is
    the accelerator the bundle shows, on which some probes' failures are expected."""
    items: list[Classified] = []
    read = LineReadings(knowledge)
    for order, scan in enumerate(scans):
        items += _classify_file(scan, order, knowledge, read)
    yield_to_same_process(items, TIER_CASCADE)
    yield_to_nccl_debug_file(items, TIER_CASCADE)
    yield_to_anywhere_in_bundle(items, TIER_CASCADE)
    _records_quoting_a_traceback(items)
    _quiet_expected_probes(items, stack)
    return items


def _classify_file(
    scan: FileScan, order: int, knowledge: Knowledge, read: LineReadings
) -> list[Classified]:
    """One file's events, each read, placed by its file's marks, then yielding within it."""
    marks = FileMarks.of(scan)
    items = []
    seen: set[str] = set()  # the rules this file's lines read so far
    for event in scan.events:
        if event.kind in (EventKind.ERROR, EventKind.WARNING):
            item = classify_event(event, order, knowledge, read)
            _keep_rules_that_hold(item, marks, seen)
            item.rank = event.rank if event.rank is not None else scan.info.rank
            item.kind = scan.info.kind
            _place_in_file(item, marks)
            items.append(item)
    pass_over_prompt_slips(items, scan)
    pass_over_logged_warnings(items, scan)
    _carriers_yield_to_what_they_carry(items, scan)
    yield_to_block_details(items, TIER_CASCADE)
    yield_to_earlier_in_file(items, TIER_CASCADE)
    yield_to_named_cause(items, TIER_CASCADE)
    yield_to_later_in_file(items, TIER_GENERIC)
    lead_restated_runs(items, TIER_GENERIC)
    lead_unread_records(items, (TIER_CASCADE, TIER_GENERIC, TIER_UNMATCHED))
    demote_late_blocks(items, TIER_WRAPPER, knowledge.codes)
    return items


def _keep_rules_that_hold(item: Classified, marks: FileMarks, seen: set[str]) -> None:
    """Drop the rules whose conditions the line's place does not meet (raised in a package,
    logged at a level, announced by an earlier line); `seen` gathers the rules read so far."""
    event = item.event
    if any(match.signature.raised_in or match.signature.unframed for match in item.matches):
        keep_rules_raised_here(item, marks.raised_in(event.line))
    if any(match.signature.levels for match in item.matches):
        keep_rules_of_its_level(item, event.level)
    if any(match.signature.needs_earlier for match in item.matches):
        keep_rules_announced_earlier(item, seen)
    seen.update(match.signature.id for match in item.matches)


def _place_in_file(item: Classified, marks: FileMarks) -> None:
    """Move a line's tier by what its file says about it."""
    line = item.event.line
    if line in marks.ignored:
        # printed by the unraisable hook and passed over: it stopped nothing, so it is cited
        # only when the file shows nothing better
        item.tier = min(item.tier, TIER_GENERIC)
    elif item.tier == TIER_UNKNOWN and line in marks.carriers:
        item.tier = TIER_GENERIC  # only carries the exception printed below it
    elif item.tier == TIER_UNKNOWN and line in marks.reraised:
        item.tier = TIER_CASCADE  # raised while handling an earlier exception
    elif line in marks.failed_writes and item.tier > TIER_CASCADE:
        # the handler could not write down the failure it was handling
        item.tier = TIER_CASCADE
    elif line in marks.teardown and item.tier >= TIER_CASCADE:
        # the launcher's own kill of a survivor: below the status records of the ranks that
        # failed first, and naming no culprit
        item.tier, item.demoted = TIER_TEARDOWN_KILL, True
    # a rank the console reports dead did not carry on after its error, nor after the
    # agent's own report of its end (`failed (exitcode: -11) local_rank: 3`): its progress
    # below either was copied there late
    if line not in marks.threads and item.rank not in marks.copied_late:
        mark_recovered(item, marks.progress_after(line))


RECORD_SOURCES = frozenset({"jsonlines", "keyvalue", "logging"})


def _records_quoting_a_traceback(items: Sequence[Classified]) -> None:
    """A rank's log record that quotes an exception no rule knows (`{"event":
    "model_run_failed", "error": "AttributeError: ..."}`, `ERROR model run failed:
    AttributeError: ...`) carries the exception its own traceback ends with, in the same file
    or in the rank's other stream (torchrun's `--redirects` puts the record in stdout.log and
    the traceback in stderr.log). The traceback's line, whose frames say where it was raised,
    is the one read; the record only carries it, as a wrapper carries a child's exception."""
    raised: dict[int | None, list[str]] = {}
    for item in items:
        if item.event.source == TRACEBACK_SOURCE and item.tier == TIER_UNKNOWN:
            said = (item.event.message or item.event.text).strip()
            if said:
                raised.setdefault(item.rank, []).append(said)
    if not raised:
        return
    for item in items:
        if (
            item.tier == TIER_UNKNOWN
            and item.event.source in RECORD_SOURCES
            and item.rank is not None
            and any(
                said in (item.event.message or item.event.text)
                for said in raised.get(item.rank, ())
            )
        ):
            item.tier = TIER_GENERIC


def _carriers_yield_to_what_they_carry(items: Sequence[Classified], scan: FileScan) -> None:
    """A wrapper's sentence can match a rule by the name of the exception it caught (`Caught
    MemoryError in DataLoader worker process 1.` reads as a host allocation refused): the
    carried exception under it is still the error, so the wrapper yields to it whenever that
    line was read at least as surely. A wrapper over an exception no rule knows keeps its
    reading."""
    carried = {
        record["line"]: record["root_line"]
        for record in scan.facts.get("tracebacks") or ()
        if record.get("type") == "re-raise" and (record.get("root_line") or 0) > record["line"]
    }
    if not carried:
        return
    tiers = {item.event.line: item.tier for item in items}
    for item in items:
        root = carried.get(item.event.line)
        if root is not None and item.tier > TIER_GENERIC and tiers.get(root, 0.0) >= item.tier:
            item.tier = TIER_GENERIC


def _quiet_expected_probes(items: Sequence[Classified], stack: str | None) -> None:
    """A failed probe for another vendor's library is noise on a stack that never needed it
    (serving software looks for NCCL on an NPU too and carries on without it)."""
    if stack is None:
        return
    for item in items:
        best = item.best
        if best is not None and stack in best.signature.harmless_on:
            item.tier = TIER_NOISE
