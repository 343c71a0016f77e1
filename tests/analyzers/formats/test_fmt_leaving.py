"""A job log that ends on the rank saying it leaves on purpose (`analyzers.formats.leaving`).

docs/labelling.md#a-rank-that-exits-without-a-word: a rank that logs below error level that it
leaves (its data ran out, its work is done) and stops there ended on its own; the same words at
ERROR, a line naming a failure, or a word that goes on say something else. Lines follow a gloo
job's Python logging (`%(asctime)s - %(levelname)s - rank N - %(message)s`); values made up.
"""

from __future__ import annotations

import pytest

from analyzers.formats.leaving import left_at_end
from analyzers.formats.lines import parse_line
from analyzers.formats.severity import load_prefilter

STAMP = "2026-12-07 09:32:54,039"


@pytest.mark.parametrize(
    ("text", "leaving"),
    [
        (f"{STAMP} - INFO - rank 1 - no more batches in shard, finishing", True),
        (f"{STAMP} [rank3] INFO trainer: data exhausted, exiting", True),
        ("rank 2: nothing left to train on, leaving the training loop", True),
        (f"{STAMP} - WARNING - rank 1 - shard 5 is short, stopping early", True),
        (f"{STAMP} - ERROR - rank 1 - no more batches in shard, exiting", False),
        (f"{STAMP} - INFO - rank 1 - allreduce failed, exiting", False),
        (f"{STAMP} - INFO - rank 1 - exiting epoch early", False),
        (f"{STAMP} - INFO - rank 1 - step 2 done loss=6.9454", False),
        (f"{STAMP} - INFO - rank 1 - iteration 3 finished", False),
        ("", False),
    ],
)
def test_only_a_departure_below_error_level_is_a_rank_leaving(text: str, leaving: bool) -> None:
    line = parse_line(text)
    assert (left_at_end([(40, line)], load_prefilter()) == (40, line)) is leaving


def test_the_last_line_with_text_decides() -> None:
    texts = [f"{STAMP} - INFO - rank 1 - no more batches in shard, finishing", "", " "]
    tail = [(n, parse_line(text)) for n, text in enumerate(texts, 1)]
    assert left_at_end(tail, load_prefilter()) == tail[0]
    later = [*tail, (4, parse_line(f"{STAMP} - INFO - rank 1 - layer 0 norm passed"))]
    assert left_at_end(later, load_prefilter()) is None
