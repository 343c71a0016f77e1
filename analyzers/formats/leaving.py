"""A job log that ends on the rank saying it leaves on purpose.

A rank whose data ran out, or that decides it has nothing more to do, often logs why as it
leaves its loop (`no more batches in shard, finishing`, `data exhausted, exiting`) and returns
with status 0. When that line, logged below error level, is the last line of a log with no
error line, the rank ended its work itself: nothing killed it. Its peers, still in their
collectives, then lose it (docs/labelling.md#a-rank-that-exits-without-a-word). Like
`formats.pending`, this looks at the last few lines of a file once, after the scan
(`leaving_words` and `leaving_failures` in knowledge/prefilter.yaml).
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.formats.base import ParsedLine, last_with_text
from analyzers.formats.severity import Prefilter

# levels a job writes its own failure at: a departure logged there is the rule of
# `other.rank_error_exit_message` (knowledge/signatures.yaml), not a rank leaving on purpose
FAILURE_LEVELS = frozenset({"ERROR", "CRITICAL", "FATAL", "E", "F"})


def left_at_end(
    tail: Sequence[tuple[int, ParsedLine]], prefilter: Prefilter
) -> tuple[int, ParsedLine] | None:
    """The (line number, line) that closes `tail` when the rank says there that it leaves on
    purpose, else None. Blank lines at the end are skipped; the last line with text decides."""
    leaving, failures = prefilter.leaving_words, prefilter.leaving_failures
    last = last_with_text(tail) if leaving is not None else None
    if last is None or (last[1].level or "").upper() in FAILURE_LEVELS:
        return None
    text = last[1].message.strip()
    return last if leaving.search(text) and not (failures and failures.search(text)) else None
