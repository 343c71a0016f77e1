"""Bisection prints in the shapes users give them: a time since the start and a glued rank
word in the logging format, a note that the device was synchronised before the print, and a
part that names the block it ran in."""

from __future__ import annotations

import re

import pytest

from analyzers.checkpoints.patterns import CheckpointMatcher


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # "%(relativeCreated)9.1f ms %(levelname)-5s rank%(rank)d %(message)s"
        ("    842.7 ms INFO  rank2 layer 5 passed", "layer 5 passed"),
        ("   1310.0 ms WARNING rank0   attention passed", "attention passed"),
        ("  77.25s INFO rank_3 model run success", "model run success"),
        # a count before the words, or a time with neither bar nor level after it, stays
        ("42 INFO layer 1 passed", None),
        ("  842.7 ms layer 5 passed", None),
        # a rank word with a space is cut too when a checkpoint follows it
        ("INFO rank 2 layer 5 passed", "layer 5 passed"),
    ],
)
def test_a_time_since_start_before_the_level_and_a_glued_rank_are_cut(line, expected):
    assert CheckpointMatcher().match(line) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("synchronize then print: layer 4 passed", "layer 4 passed"),
        ("2026-12-07 10:02:11,906 [rank1] INFO synchronized: norm passed", "norm passed"),
        ("[sync] layer 0 passed", "layer 0 passed"),
        ("after cuda sync | attention passed", "attention passed"),
        ("torch.cuda.synchronize() and print: layer 9 passed", "layer 9 passed"),
        # a sync that failed is no marker; without a separator the words stay in the text
        ("synchronize failed: layer 4 passed", None),
        ("sync layer 4 passed", "sync layer 4 passed"),
    ],
)
def test_a_sync_mark_before_the_checkpoint_is_cut(line, expected):
    assert CheckpointMatcher().match(line) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "2026-12-07 09:12:40,517 - infer - INFO - [RANK 1] Block 4: norm passed",
            "layer 4 / norm passed",
        ),
        ("Block 4: all_reduce done", "layer 4 / all_reduce done"),
        ("[blk 2] mlp ok", "layer 2 / mlp ok"),
        ("[rank0] block 3 done", "block 3 done"),
        # a memory block, a kernel's block, a sentence that goes on
        ("freed memory block 3: pool ok", None),
        ("[AIV Block 1/48] vec ok", None),
        ("Block 4: norm passed its input to the cache", None),
    ],
)
def test_a_part_that_names_its_block_is_in_that_layer(line, expected):
    assert CheckpointMatcher().match(line) == expected


def test_the_byte_search_finds_a_block_part_closed_with_done():
    prefilter = re.compile(
        CheckpointMatcher().prefilter_bytes_pattern(), re.MULTILINE | re.IGNORECASE
    )
    assert prefilter.search(b"x\n2026-12-07 09:12:40,517 - INFO - [RANK 1] Block 4: norm done\r\n")
    assert not prefilter.search(b"x\nBlock 4: weights loading\n")
