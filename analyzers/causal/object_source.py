"""The rank whose pickled object every other rank failed to load.

torch's object collectives pickle each object on the rank that holds it and unpickle it on
the ranks that receive it (`_tensor_to_object`). A broadcast's source never unpickles what it
sent, so an object the receivers cannot load (an instance of a class from a module only the
source imported, `ModuleNotFoundError: No module named ...`, or a class only it defined)
fails on every rank but the source, each in `_tensor_to_object`, while the source goes on to
its next collective and loses them there. The receivers are where it showed, not where it
came from: the one rank left is the culprit (docs/labelling.md, "An object every receiver of
a broadcast fails to load"). An all-gather unpickles every object on every rank, the sender's
own too, so there every rank fails and no one is left over.
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.causal.chain import Blame, CausalChain
from analyzers.causal.frames import frames_above
from analyzers.classify.matches import Classified
from analyzers.core.phrases import say
from analyzers.core.types import Correlation, FileScan, RankStatus
from analyzers.formats.exception_events import FRAME_SOURCE

UNPICKLE_FRAME = "in _tensor_to_object"  # torch's frame that loads a received object
MIN_RECEIVERS = 2  # one failed receiver may have its own reason


def unpickled_from_one(
    chain: CausalChain,
    failed: Sequence[int],
    correlation: Correlation | None,
    scans: Sequence[FileScan],
) -> Blame | None:
    """The one rank that did not fail while every other rank failed loading an object a
    collective delivered, or None."""
    if correlation is None or len(failed) < MIN_RECEIVERS:
        return None
    present = {r.rank for r in correlation.ranks if r.status != RankStatus.MISSING}
    left = present - set(failed)
    if len(left) != 1 or not set(failed) <= present:
        return None
    firsts = {}
    for item in chain.own_failures:
        if item.rank in failed and item.rank not in firsts:
            firsts[item.rank] = item
    if set(firsts) != set(failed):
        return None
    for item in firsts.values():
        frame = _innermost(item, scans)
        if frame is None or UNPICKLE_FRAME not in frame:
            return None
    source = left.pop()
    received = ", ".join(str(rank) for rank in sorted(failed))
    return Blame([source], say("blame.object_source", ranks=received))


def _innermost(item: Classified, scans: Sequence[FileScan]) -> str | None:
    """The innermost frame of the traceback that ended in the item's line, or that Python
    logging's `logger.exception(...)` wrote right under its record; else the frame just above
    the line."""
    if item.order >= len(scans):
        return None
    scan = scans[item.order]
    line = item.event.line
    frames = {e.line: e.message or e.text for e in scan.events if e.source == FRAME_SOURCE}
    for record in scan.facts.get("tracebacks") or ():
        header = record.get("header")
        if record["line"] == line or (header is not None and header - 1 == line):
            frame = frames.get(record.get("frame_line"))
            if frame:
                return frame
    above = frames_above(item, scans)
    return above[-1] if above else None
