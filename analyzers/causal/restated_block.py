"""The error line a wrapper or a summary restates, when no rule reads that line.

A wrapper (`RuntimeError: ... NPU function error: ..., error code is 507015`), a summary or
re-raise (`ERR00100 PTA call acl api failed`, `The Inner error is reported as above`) and a bare
headline (`EZ9999: Inner Error!`) only say that something failed; the block printed with them
says what (docs/labelling.md, "Wrappers"). When a rule reads the block's reason it outranks
the wrapper by its role. When the reason is worded as no rule knows, the line is still its
writer's report of a failure, and the wrapper that a rule happens to read must not take its
place by weight alone: the block's earliest error line that no rule reads and that says what
went wrong (a reason, a code headline, a timeout, a refusal; not only that a step or a task
failed, nor the description of the wrapper's own code) leads instead, and the fallback's hints
label it. Which roles restate and which words say what went wrong is data (`restating_roles`,
`what_went_wrong` and `code_descriptions` in `knowledge/blocks.yaml`).

A CANN error-manager block reads the same way whatever its lines' roles: its headline
(`EZ9999: ... The error from device(...), there is an aivec error exception`) states the
failure, and the trace printed under it (`Kernel task happen error, retCode=0x31`,
`rtSetDevice execute failed, reason=[device id error]`) is the calls it passed through on its
way up. A rule that reads a trace line, as a cause even, does not put it before a headline
above it that no rule reads.
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.classify.block_context import RunRules, load_run_rules
from analyzers.classify.events import CANN_BLOCK_SOURCE, TIER_UNMATCHED, Classified
from analyzers.core.types import EventKind

BLOCK_LINES = 30  # lines either side of the restating line that belong to its block
TRACE_LINES = 12  # a CANN headline and the trace lines under it


def restated_reason(first: Classified, items: Sequence[Classified]) -> Classified | None:
    """The earliest unread error line of `first`'s block that says what went wrong, when
    `first` only restates, or None.

    Unread means no rule matched it and its own words or level field still make it an error
    (`classify.events`: at least `TIER_UNMATCHED`); a line another rank wrote is another
    failure, and a line below that floor (a table row, chatter, code) states nothing. A line
    of an operator's tagged run (`[ERROR][OpName] ...`) is read with its run
    (`classify.block_context.lead_restated_runs`): a wrapper that names another operator does
    not restate it."""
    rules = load_run_rules()
    reach = _reach(first, rules)
    if reach is None:
        return None
    above, below = reach
    block = [
        item
        for item in items
        if item is not first
        and _unread_in_block(item, first)
        and -below <= first.event.line - item.event.line <= above
        and rules.says_what_went_wrong(_said(item))
        and rules.tag(_said(item)) is None
    ]
    return min(block, key=lambda item: item.event.line, default=None)


def _reach(first: Classified, rules: RunRules) -> tuple[int, int] | None:
    """(lines above, lines below) of `first` where the line it restates may stand: either side
    of a wrapper, a summary or a headline; only above a trace line, where its headline is."""
    if first.best is None:
        return None
    if first.best.role in rules.restating_roles:
        return BLOCK_LINES, BLOCK_LINES
    return (TRACE_LINES, 0) if _in_trace(first, rules) else None


def _in_trace(item: Classified, rules: RunRules) -> bool:
    """A line of a CANN block's trace: the block's reader wrote it, and it is no headline
    (it carries no code of its own)."""
    return item.event.source == CANN_BLOCK_SOURCE and not rules.names_code(_said(item))


def _said(item: Classified) -> str:
    return item.event.message or item.event.text


def _unread_in_block(item: Classified, first: Classified) -> bool:
    return (
        item.best is None
        and item.event.kind == EventKind.ERROR
        and item.tier >= TIER_UNMATCHED
        and item.order == first.order
        and (item.rank is None or first.rank is None or item.rank == first.rank)
    )
