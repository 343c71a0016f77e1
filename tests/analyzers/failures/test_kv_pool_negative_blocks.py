"""A KV cache pool whose block count came out negative because no memory was left for it.

docs/labelling.md#a-cache-pool-sized-below-zero: an engine that sizes its cache pool from the
memory left after loading gets a negative block count when its runtime reserve is larger than
what is free, and allocating the pool fails with torch's message for a negative size, quoting
a block layout with a negative leading count. Device memory ran short: `oom`, with `config` and
`shape_mismatch` beside it, and the line is the first error. Counterexamples: a negative size
on another axis, or in a shape of two axes, is size arithmetic and not read as memory.

The fixtures are written in the shape of a serving engine's console output, with our own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

NEGATIVE_POOL = """\
2025-03-11 09:02:17,441 - lmdeploy - WARNING - Lmdeploy with turbomind engine is not installed correctly. Falling back to the pytorch engine.
Loading checkpoint shards: 100%|██████████| 17/17 [00:41<00:00,  2.44s/it]
RuntimeError: Trying to create tensor with negative dimension -27: [-27, 64, 8, 128]
"""


def test_a_negative_block_count_is_the_cache_out_of_memory() -> None:
    diagnosis = diagnose_text("console.log", NEGATIVE_POOL)
    assert_reads(
        diagnosis,
        "oom",
        first_error="negative dimension -27",
        rule="oom.cache_pool_negative_blocks",
        beside=["config", "shape_mismatch"],
    )


def test_a_five_axis_layout_reads_the_same() -> None:
    line = "RuntimeError: Trying to create tensor with negative dimension -4: [-4, 2, 16, 8, 64]\n"
    assert_reads(diagnose_text("serve.log", line), "oom", first_error="negative dimension -4")


def test_a_negative_size_on_another_axis_is_not_memory() -> None:
    line = "RuntimeError: Trying to create tensor with negative dimension -1: [16, -1, 8, 128]\n"
    diagnosis = diagnose_text("train.log", line)
    assert diagnosis.category != "oom"


def test_a_two_axis_shape_is_not_memory() -> None:
    line = "RuntimeError: Trying to create tensor with negative dimension -3: [-3, 4096]\n"
    diagnosis = diagnose_text("train.log", line)
    assert diagnosis.category != "oom"
