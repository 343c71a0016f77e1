"""Inner-error block lines printed after a recognised failure are its aftermath.

CANN prints an error-manager block (`EE9999: Inner Error!` and a line of text) whenever a
runtime call fails, including the calls a process makes while it is already going down:
destroying streams, freeing memory, a later synchronize. Such a block after a failure that a
signature recognised (a shape check, a collective timeout) reports the teardown, not the
cause, even though its inner code reads as a root failure::

    [rank0]: ... Watchdog caught collective operation timeout: WorkHCCL(...)   <- first error
    [rank0]: EE9999: [PID: 441] ... rtStreamDestroy execution failed, reason=unknown

Only the generic block line yields (its words matched no specific signature, only one flagged
`generic_record`, and its code is one `internal_errors` of error_codes.yaml names); a block line
that a signature reads (an AI Core exception, a tiling check) keeps its tier, and a block
that follows a wrapper (`NPU function error`) is the wrapper's explanation and keeps it too.
The labelling guide states the rule: docs/labelling.md#late-device-blocks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from analyzers.core.report import UNLABELLED
from analyzers.core.types import EventKind

if TYPE_CHECKING:
    from analyzers.classify.errorcodes import CodeTable
    from analyzers.classify.matches import Classified

OWN_ROLES = frozenset({"cause", "symptom"})
CLOCK_TOLERANCE_S = 2.0


def demote_late_blocks(items: Sequence[Classified], wrapper_tier: float, codes: CodeTable) -> None:
    """In one file's classified lines, lower generic inner-error block lines (a code the table
    calls internal) that come after a recognised failure of the same writer to `wrapper_tier`
    (they stay citable)."""
    first_own = next((item for item in items if _recognised_failure(item)), None)
    if first_own is None:
        return
    for item in items:
        late = item.event.line > first_own.event.line and not _earlier_in_time(item, first_own)
        if late and _generic_block(item, wrapper_tier, codes):
            item.tier = wrapper_tier


def _recognised_failure(item: Classified) -> bool:
    best = item.best
    return (
        best is not None
        and item.event.kind == EventKind.ERROR
        and best.role in OWN_ROLES
        and not best.signature.generic_record
        and best.category != UNLABELLED
        and not item.recovered
    )


def _generic_block(item: Classified, wrapper_tier: float, codes: CodeTable) -> bool:
    best = item.best
    return (
        best is not None
        and best.signature.generic_record
        and item.tier > wrapper_tier
        and any(codes.internal(code) for code in item.event.codes)
    )


def _earlier_in_time(block: Classified, failure: Classified) -> bool:
    """The block's own time puts it before the failure (a device error logged first)."""
    a, b = block.event.timestamp, failure.event.timestamp
    if a is None or b is None:
        return False
    try:
        return (b - a).total_seconds() > CLOCK_TOLERANCE_S
    except TypeError:  # one aware, one naive: no safe comparison
        return False
