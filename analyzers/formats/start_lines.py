"""A process's start line: the line a rank writes when it joins the job, stating its rank and
the world size before any progress.

    2026-12-05 13:18:14,022 [rank1] INFO init process group: backend=gloo rank=1 world_size=4 ...
    [rank3] Initializing distributed: world_size=8 backend=nccl

A job that logs to its own `log_<rank>.log` in append mode, restarted by its launcher
(`torchrun --max-restarts`) or a retry loop, writes this line again at the top of each attempt,
even when the new attempt dies before its first checkpoint (`analyzers.checkpoints.restarts`).
Only lines with a start word are read: a status line that repeats the sizes every few steps
(`step 400 rank=1 world_size=4 loss=2.1`) is no start.

The scanner hands each block twice: as written and folded (lower case, digits 1-9 as 0, the
same length), so the folded line is the key two starts of one rank share whatever their
numbers (times, ports, an attempt counter), and the rank is read from the written bytes.
"""

from __future__ import annotations

import re

from analyzers.formats.literal_gate import gated

# a folded line stating the world size (digits are 0 after folding)
_WORLD_LINE = gated(rb"(?m)^[^\n]*world_size[\"']?\s*[:=]\s*0+\b[^\n]*$")
_START_WORD = re.compile(rb"\b(?:init|start|launch|join|set ?up)")
# the rank the line states: `rank=1`, `rank: 1`, a logging tag `[rank1]` (never local_rank=)
_RANK = re.compile(rb"\[rank(\d{1,6})\]|(?<![\w.\[])rank[\"']?\s*[:=]\s*(\d{1,6})\b")
START_LINES = "start_lines"  # FileScan.facts key: [(line, rank, folded text)], in file order
MAX_STARTS = 64  # the first start and its repeats; a file with more is not restarted that often


def start_lines(block: bytes, folded: bytes, first_line: int) -> list[tuple[int, int, str]]:
    """(line number, rank, folded text) of each start line in a block."""
    found: list[tuple[int, int, str]] = []
    for match in _WORLD_LINE.finditer(folded):
        text = match.group(0)
        if not _START_WORD.search(text):
            continue
        rank = _RANK.search(block, match.start(), match.end())
        if rank is None:
            continue
        line = first_line + folded.count(b"\n", 0, match.start())
        number = int(rank.group(1) or rank.group(2))
        found.append((line, number, text.decode("utf-8", "replace").strip()))
    return found
