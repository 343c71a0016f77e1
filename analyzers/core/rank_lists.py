"""Lists of ranks as launchers and collective errors write them.

A line names the ranks it blames in several shapes: `ranks: 8-10,13`, `[3, 5]`, `Ranks 0 1`.
Every reader turns them into the same tuple, so a rank named by a launcher's exit record and
by a collective's timeout compares equal.
"""

from __future__ import annotations

from analyzers.core import regex_programs

_SPAN = regex_programs.compile(r"(\d+)(?:\s*-\s*(\d+))?")
MAX_SPAN = 4096  # a range wider than any job is no list of ranks


def ranks_named(text: str | None) -> tuple[int, ...]:
    """`8-10,13` -> (8, 9, 10, 13), in the order written, each rank once. A range wider
    than any job (or written backwards) is garbled or no rank list: only its first number is
    kept, so no rank the job never had enters the rank table."""
    ranks: list[int] = []
    for low, high in _SPAN.findall(text or ""):
        first = int(low)
        last = int(high) if high else first
        ranks += range(first, last + 1) if 0 <= last - first < MAX_SPAN else (first,)
    return tuple(dict.fromkeys(ranks))
