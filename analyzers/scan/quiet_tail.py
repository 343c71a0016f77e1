"""The last lines of a file with no error line, kept in case no file of the bundle has one.

A job can stop on a line with no error word, which the prefilter never lets through::

    Unknown argument: --origin-rpc-server-main-gpu
    npu is busy, check again

Then the bundle holds no error event, and the report falls back to a stall with no first
error. So a scanned file with no error event keeps its last non-blank lines (at most
`TAIL_LINES` lines and `TAIL_BYTES` bytes, from the blocks the scanner still holds: nothing
is done per line of the file), each as the error event it would be had it passed the gate.
Lines logged at a quiet level, checkpoints and lines that already are events are left out.
`classify.tail_reading` reads them only when the whole bundle yields no error line;
`TailBudget` bounds how many files' tails the parent holds until then.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from analyzers.core.types import EventKind, FileScan

QUIET_TAIL = "quiet_tail"  # facts key: the file's tail lines, as error events
TAIL_SOURCE = "file_tail"  # the source of an event read from a file's tail
TAIL_LINES = 40
TAIL_BYTES = 16 * 1024
MAX_TAIL_FILES = 256
# A level word among a line's first fields (`::16674:17023 [0] NCCL INFO NET/IB : ...`), for
# the writers whose header the formats do not parse into a level
_QUIET_FIELD = re.compile(r"\b(?:INFO|DEBUG|TRACE)\b")
_HEADER_SPAN = 48
# NCCL's own debug header, `<host>:<pid>:<tid> [<device>] NCCL INFO`: a container's or pod's
# host name can push the level word past `_HEADER_SPAN`, so the header is known by its shape
_NCCL_QUIET = re.compile(r"(?:^|\s)[\w.-]+:\d+:\d+ \[\d+\] NCCL (?:INFO|TRACE)\b")
_NCCL_SPAN = 256


def quiet_header(text: str) -> bool:
    """The line says in its header that it was logged at a quiet level."""
    return (
        _QUIET_FIELD.search(text[:_HEADER_SPAN]) is not None
        or _NCCL_QUIET.search(text[:_NCCL_SPAN]) is not None
    )


def last_lines(blocks: Sequence[bytes], last_line: int) -> list[tuple[int, bytes]]:
    """The last non-blank `(line number, raw line)` of the file whose last blocks are
    `blocks` (oldest first, each ending with a line end) and whose last line is `last_line`,
    oldest first: at most `TAIL_LINES` lines, and no line once `TAIL_BYTES` are taken. The
    block before the last may be only its last `TAIL_BYTES`: the line it cuts is never
    reached, since the last block's own lines are taken first."""
    found: list[tuple[int, bytes]] = []
    taken, line_no = 0, last_line
    for block in reversed(blocks):
        end = len(block) - 1
        while end >= 0 and len(found) < TAIL_LINES:
            start = block.rfind(b"\n", 0, end) + 1
            raw = block[start:end]
            taken += len(raw) + 1
            if taken > TAIL_BYTES:
                return found[::-1]
            if raw.strip():
                found.append((line_no, raw))
            line_no, end = line_no - 1, start - 1
    return found[::-1]


class TailBudget:
    """The parent's side: keeps the tails of at most `MAX_TAIL_FILES` files and drops every
    tail once any file holds an error line, since the tails are then never read."""

    def __init__(self, max_files: int = MAX_TAIL_FILES) -> None:
        self.max_files = max_files
        self.kept: list[FileScan] = []
        self.erred = False

    def take(self, scan: FileScan) -> None:
        if not self.erred and any(event.kind == EventKind.ERROR for event in scan.events):
            self.erred = True
            for kept in self.kept:
                kept.facts.pop(QUIET_TAIL, None)
            self.kept = []
        if QUIET_TAIL not in scan.facts:
            return
        if self.erred or len(self.kept) >= self.max_files:
            scan.facts.pop(QUIET_TAIL)
        else:
            self.kept.append(scan)
