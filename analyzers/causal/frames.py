"""Where an error was raised, from the traceback frames the scanner kept above it, and what
that place alone says.

A lost connection (`ConnectionResetError: [Errno 104] Connection reset by peer`) reads as a
peer of a collective that went away, but the same words come from any socket a process holds.
When the frames above the line name a place whose other end is no rank (torch rebuilding a
tensor a DataLoader worker or another process shared with this one: `rebuild_storage_fd`), the
line is this rank's own failure, not a lost peer: the process that should have handed the
tensor over died. The places are data (`frame_keywords` in `knowledge/fallback.yaml`);
docs/labelling.md, "A tensor whose sending process died".
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.classify.hints import place_vote
from analyzers.classify.matches import Classified
from analyzers.classify.tiers import FRAME_SOURCE, TIER_UNKNOWN
from analyzers.core.types import EventKind, FileScan

FRAME_WINDOW = 60  # lines above the first error searched for its traceback frame


def own_failures_by_place(items: Sequence[Classified], scans: Sequence[FileScan]) -> None:
    """A lost peer raised where the frames name a place of their own is the rank's own failure
    of a kind no signature reads (`TIER_UNKNOWN`): its matches are dropped, so it neither
    counts as a lost peer nor keeps the collective's label, and the fallback's vote, which
    reads the same frames, labels it."""
    for item in items:
        if not any(match.signature.peer_gone for match in item.matches):
            continue
        frames = [*frames_above(item, scans), *traceback_field(item, scans, "caller")]
        if frames and place_vote(frames):
            item.matches, item.tier = (), max(item.tier, TIER_UNKNOWN)


def traceback_field(first: Classified, scans: Sequence[FileScan], field: str) -> list[str]:
    """A field the traceback reader kept for the first error's exception line: `caller`, the
    installed library's frame that called the job's own code it was raised in (an object
    collective's `_object_to_tensor` above a class's `__getstate__`), or `statement`, the line
    Python printed under the innermost frame (`float(os.environ[...])`), where the refused value
    came from when the exception's words do not say."""
    if first.order >= len(scans):
        return []
    records = scans[first.order].facts.get("tracebacks") or ()
    line = first.event.line
    return [record[field] for record in records if record["line"] == line and record.get(field)]


def frames_above(first: Classified, scans: Sequence[FileScan]) -> list[str]:
    """The traceback frame the scanner kept just above the first error (where it was).

    A frame another rank wrote (ranks sharing one console print their tracebacks between each
    other's lines) is where that rank was, not this error, and is left out like its lines."""
    if first.order >= len(scans):
        return []
    line, rank = first.event.line, first.event.rank
    return [
        event.message or event.text
        for event in scans[first.order].events
        if event.kind == EventKind.WARNING
        and event.source == FRAME_SOURCE
        and 0 < line - event.line <= FRAME_WINDOW
        and (rank is None or event.rank is None or event.rank == rank)
    ]
