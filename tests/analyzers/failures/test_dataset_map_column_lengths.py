"""A data-set map whose batch came back with columns of different lengths.

docs/labelling.md#a-data-set-map-that-returns-columns-of-different-lengths: a batched map that
changes the number of rows (packing texts into fixed blocks) while the input columns are kept
hands Arrow a batch whose new columns are shorter or longer than the old ones, and Arrow refuses
to build the table, naming the column and both lengths. The job's preprocessing is at fault:
`other`, with `config` and `shape_mismatch` beside it, and Arrow's refusal is the first error.
Counterexample: Arrow's refusal to open a file is a missing input, not this. Fixtures are ours.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "other.dataset_map_columns_unequal"

# A pre-training script packs tokenized texts into blocks in a pool of map workers.
PACKING_MAP = """\
Packing texts into blocks of 1024 (num_proc=8):   0%|          | 0/52000 [00:00<?, ? examples/s]
multiprocess.pool.RemoteTraceback:
\"\"\"
Traceback (most recent call last):
  File "/opt/env/lib/python3.10/site-packages/datasets/arrow_dataset.py", line 3412, in _map_single
    writer.write_batch(batch)
  File "/opt/env/lib/python3.10/site-packages/datasets/arrow_writer.py", line 571, in write_batch
    pa_table = pa.Table.from_arrays(arrays, schema=schema)
  File "pyarrow/error.pxi", line 91, in pyarrow.lib.check_status
pyarrow.lib.ArrowInvalid: Column 2 named labels expected length 500 but got length 212
\"\"\"
"""

OPEN_REFUSED = (
    "pyarrow.lib.ArrowInvalid: Failed to open local file '/data/cache/train-00001.arrow'. "
    "Detail: [errno 2] No such file or directory\n"
)


def test_columns_of_different_lengths_are_the_jobs_preprocessing() -> None:
    diagnosis = diagnose_text("pretrain.log", PACKING_MAP)
    assert_reads(
        diagnosis,
        "other",
        first_error="Column 2 named labels expected length 500 but got length 212",
        rule=RULE,
        beside=["config", "shape_mismatch"],
    )


def test_a_file_arrow_cannot_open_is_not_this() -> None:
    assert RULE not in rules_of(diagnose_text("pretrain.log", OPEN_REFUSED))
