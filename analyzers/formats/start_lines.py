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
same length), so the folded line, each run of digits made one `0`, is the key two starts of
one rank share whatever their numbers (times, ports, an attempt counter past 9), and the rank
is read from the written bytes.

A file may hold any number of them (a retry loop that never gives up, or a hostile file that
repeats one line a million times), so `StartLines` keeps, in bounded memory, only what the
cut reads: the first start line, its repeats and whether another rank's start line followed.
In a file several ranks' start lines stand in (a launcher's console), each rank's first start
line and its first `CONSOLE_REPEATS` repeats are kept for up to `CONSOLE_RANKS` ranks.
"""

from __future__ import annotations

from collections import deque

from analyzers.core import regex_programs
from analyzers.formats.literal_gate import gated

# a folded line stating the world size (digits are 0 after folding)
_WORLD_LINE = gated(rb"(?m)^[^\n]*world_size[\"']?\s*[:=]\s*0+\b[^\n]*$")
_START_WORD = regex_programs.compile(rb"\b(?:init|start|launch|join|set ?up)")
# the rank the line states: `rank=1`, `rank: 1`, a logging tag `[rank1]` (never local_rank=),
# or a header's field between bars, `| rank 2 |` (a count, `4 ranks`, is none)
_RANK = regex_programs.compile(
    rb"\[rank(\d{1,6})\]|(?<![\w.\[])rank[\"']?\s*[:=]\s*(\d{1,6})\b|\| ?rank (\d{1,6}) ?\|"
)
_NUMBER = regex_programs.compile(rb"0+")  # a folded number, whatever its width
START_LINES = "start_lines"  # FileScan.facts key: [(line, rank, folded text)], in file order
# FileScan.facts key of a file several ranks' start lines stand in (a launcher's console):
# {rank: [line of its first start line, lines of its repeats]}, only when a rank's repeats
CONSOLE_STARTS = "console_start_lines"
CONSOLE_REPEATS = 64  # repeats kept per rank of a console (its first attempts)
CONSOLE_RANKS = 4096  # ranks followed in a console; a start line of any further rank is left
STARTS_DROPPED = "start_lines_dropped"  # FileScan.facts key: repeats counted but not kept
FIRST_REPEATS = 512  # the earliest repeats kept: where the first attempts end
LAST_REPEATS = 512  # the latest repeats kept: where the last attempts, the ones read, begin


# what every start line holds: a block a pass over it found lacking this has none
GATE = _WORLD_LINE.gate or b"world_size"


def start_lines(
    block: bytes, folded: bytes, first_line: int, lacks_gate: bool = False
) -> list[tuple[int, int, str]]:
    """(line number, rank, folded text) of each start line in a block; `lacks_gate`: the
    folded block is known not to hold `GATE`."""
    if lacks_gate:
        return []
    found: list[tuple[int, int, str]] = []
    line, counted = first_line, 0  # lines are counted on from the last match, not from 0
    for match in _WORLD_LINE.finditer(folded):
        text = match.group(0)
        if not _START_WORD.search(text):
            continue
        rank = _RANK.search(block, match.start(), match.end())
        if rank is None:
            continue
        line += folded.count(b"\n", counted, match.start())
        counted = match.start()
        number = int(rank.group(1) or rank.group(2) or rank.group(3))
        key = _NUMBER.sub(b"0", text).decode("utf-8", "replace").strip()
        found.append((line, number, key))
    return found


class StartLines:
    """One file's start lines as `checkpoints.restarts` reads them, in bounded memory.

    Only the first start line and its repeats (the same rank, the same folded text) can mark
    where a later attempt begins; a start line of another rank makes the file no one rank's,
    and then none does, so reading them stops there, and each rank's own start lines are
    what a console's cut reads (`console`: its first line and at most `CONSOLE_REPEATS`
    repeats, for the first `CONSOLE_RANKS` ranks). A file with more repeats than
    `FIRST_REPEATS + LAST_REPEATS` keeps the earliest (where the first attempts end) and the
    latest (where the last attempt begins: a rank's checkpoints are read from it); the ones
    between are only counted, and the report says so (their attempts read as one)."""

    def __init__(self) -> None:
        self.first: tuple[int, int, str] | None = None
        self.other: tuple[int, int, str] | None = None  # another rank's: the cut needs no more
        self.earliest: list[tuple[int, int, str]] = []
        self.latest: deque[tuple[int, int, str]] = deque(maxlen=LAST_REPEATS)
        self.dropped = 0
        # a console's: each rank's first start line (line, folded text) and its repeats
        self.console: dict[int, tuple[int, str, list[int]]] = {}

    def add(self, found: list[tuple[int, int, str]]) -> None:
        for start in found:
            self._per_rank(start)
            if self.other is not None:
                continue
            if self.first is None:
                self.first = start
            elif start[1] != self.first[1]:
                self.other = start
            elif start[2] == self.first[2]:
                self._repeat(start)

    def _per_rank(self, start: tuple[int, int, str]) -> None:
        """Each rank's own start lines, for a file that turns out to hold several ranks'."""
        line, rank, key = start
        known = self.console.get(rank)
        if known is None:
            if len(self.console) < CONSOLE_RANKS:
                self.console[rank] = (line, key, [])
        elif key == known[1] and len(known[2]) < CONSOLE_REPEATS:
            known[2].append(line)

    def _repeat(self, start: tuple[int, int, str]) -> None:
        if len(self.earliest) < FIRST_REPEATS:
            self.earliest.append(start)
            return
        if len(self.latest) == LAST_REPEATS:
            self.dropped += 1
        self.latest.append(start)

    def store(self, facts: dict[str, object]) -> None:
        """Into a file's facts: the kept lines in file order, and the count of those dropped."""
        if self.first is None:
            return
        if self.other is not None:
            facts[START_LINES] = [self.first, self.other]
            console = {rank: [first, *again] for rank, (first, _, again) in self.console.items()}
            if any(len(lines) > 1 for lines in console.values()):
                facts[CONSOLE_STARTS] = console
            return
        facts[START_LINES] = [self.first, *self.earliest, *self.latest]
        if self.dropped:
            facts[STARTS_DROPPED] = self.dropped
