"""Lines that only make sense next to their neighbours.

Some lines name a failure kind on their own but, inside a block, merely restate a
neighbour: the runtime's ``reason=[fftsplus timeout]`` after an HCCL block that says its
FFTS+ collective task timed out is that collective, not a kernel; a bare
``The error from device(chipId:..)`` headline whose detail was wrapped onto the next line
is whatever that detail says. A signature lists such neighbours under ``yields_to``; when
one of them is in the same file within a few lines, the line becomes a cascade of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from analyzers.classify import Classified

BLOCK_LINES = 12  # a CANN block with its TraceBack lines rarely spans more


def yield_to_block_details(items: Sequence[Classified], cascade_tier: float) -> None:
    """Demote, in one file's items, each line whose signature yields to a nearby one."""
    by_id: dict[str, list[int]] = {}
    for item in items:
        if item.best is not None:
            by_id.setdefault(item.best.id, []).append(item.event.line)
    for item in items:
        targets = item.best.signature.yields_to if item.best is not None else ()
        lines = (line for target in targets for line in by_id.get(target, ()))
        if any(abs(line - item.event.line) <= BLOCK_LINES for line in lines):
            item.tier, item.demoted = min(item.tier, cascade_tier), True
