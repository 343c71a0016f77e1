"""Checkpoint lines whose rank or source a logging format sets in a column of its own: the
world size after the rank, a level's first letter with the logger's bracketed rank, rich's
`Console.log` with its right-aligned source and a bare `rank N` before the message."""

from __future__ import annotations

import pytest

from analyzers.checkpoints.patterns import CheckpointMatcher


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # "%(asctime)s | %(levelname)-8s | rank %(rank)d/%(world)d | %(message)s"
        ("17:50:22 | INFO     | rank 4/6 | layer 0 passed", "layer 0 passed"),
        ("17:50:22 | INFO     | rank 4/6 |   norm passed", "norm passed"),
        ("[rank 3/8] attention passed", "attention passed"),
        # "%(asctime)s.%(msecs)03d %(levelname).1s %(name)s[%(rank)d] %(message)s", behind a
        # tqdm bar the record landed on
        ("17:53:18.936 I infer[3] eval step 4 done", "eval step 4 done"),
        (
            "eval r3:  67%|██████▋   | 4/6 [00:00<00:00, 105.79it/s]"
            "17:46:21.771 I infer[3] eval step 4 done",
            "eval step 4 done",
        ),
        # rich's Console.log: time (blank under a repeated second), message, source
        (
            "[17:45:27] rank 3 load weights passed                              infer.py:197",
            "load weights passed",
        ),
        (
            "           rank 3   norm passed                                  infer.py:134",
            "norm passed",
        ),
        ("rank 1 layer 2 passed", "layer 2 passed"),
    ],
)
def test_a_rank_or_source_column_is_cut_from_the_checkpoint(line, expected):
    assert CheckpointMatcher().match(line) == expected


@pytest.mark.parametrize(
    "line",
    [
        # a report on other ranks keeps the rank it names
        "rank 2 waiting for rank 3",
        # no level letter, or no bracketed number after the name
        "17:53:18.936 I think eval is done",
        "eval step 4 failed",
        # a source named inside the message, not in a column after two blanks
        "rank 3 saw a failure in infer.py:197",
    ],
)
def test_lines_that_only_look_like_these_columns_are_no_checkpoints(line):
    assert CheckpointMatcher().match(line) is None


def test_a_source_named_after_one_blank_stays_part_of_the_message():
    assert CheckpointMatcher().match("  norm passed infer.py:12") is None
