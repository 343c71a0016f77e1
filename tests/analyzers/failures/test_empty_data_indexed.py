"""A job that indexes the first item of data that came out empty.

docs/labelling.md#a-rank-handed-no-data-files: NumPy refuses to index an axis that holds
nothing and says the size is 0 (`IndexError: index 0 is out of bounds for axis 0 with size 0`).
A dataset or a sample list the job built from its data came out empty (a split the config points
at that holds no samples, a pattern that matched nothing), so the data or the setting that
names it has to change: `config`, with `other` beside it and the answer below the confident
band, since the line says nothing of files. Counterexample: an index past the end of an axis
that holds items (`with size 4`) is the code's own indexing and keeps the fallback's reading.
The excerpts follow the real shapes with paths and numbers of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

EMPTY_SPLIT = """\
==> building the evaluation split
Traceback (most recent call last):
  File "tools/train.py", line 90, in <module>
    main(cfg)
  File "tools/train.py", line 64, in main
    loader = build_loader(cfg.eval)
  File "/opt/ocr/data/lmdb_set.py", line 52, in __init__
    first = self.order[0]
IndexError: index 0 is out of bounds for axis 0 with size 0
"""

PAST_THE_END = """\
Traceback (most recent call last):
  File "infer.py", line 31, in <module>
    box = boxes[4]
IndexError: index 4 is out of bounds for axis 0 with size 4
"""


def test_the_first_item_of_empty_data_is_the_data_the_job_was_given() -> None:
    diagnosis = diagnose_text("train.log", EMPTY_SPLIT)
    assert_reads(
        diagnosis,
        "config",
        first_error="index 0 is out of bounds for axis 0 with size 0",
        rule="cfg.empty_array_indexed",
        beside=("other",),
    )
    assert diagnosis.confidence < 0.8


def test_an_index_past_the_end_of_items_is_not_empty_data() -> None:
    diagnosis = diagnose_text("infer.log", PAST_THE_END)
    assert "cfg.empty_array_indexed" not in rules_of(diagnosis)
