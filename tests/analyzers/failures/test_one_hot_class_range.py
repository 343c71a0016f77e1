"""A one-hot encoding handed a class id outside the count it was given.

`F.one_hot(ids, num_classes=N)` checks every id against the range before it writes: an id of N
or more stops it with `Class values must be smaller than num_classes.`, a negative one with
`Class values must be non-negative.` It is the bound check of an index past a dimension's
size: `shape_mismatch`, with `other` (ids the job computed wrongly, as a router's expert ids or a
data set's labels) and `config` (a class or expert count set smaller than the ids) beside it.
(docs/labelling.md#a-one-hot-encoding-handed-a-class-past-its-count)
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text, rules_of

# An expert-parallel rank whose router's expert ids run past the expert count; torchrun's
# per-rank stderr with the job's logged failure, the traceback and torch's `[rank5]:` copy.
RANK5 = """\
2026-12-07 04:14:00,272 [rank5] INFO   norm passed
2026-12-07 04:14:00,298 [rank5] INFO   attention passed
2026-12-07 04:14:00,299 [rank5] ERROR model run failed: Class values must be smaller than num_classes.
Traceback (most recent call last):
  File "/work/llm/decoder.py", line 96, in route
    mask = F.one_hot(idx, num_classes=C["experts"]).sum(1)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
RuntimeError: Class values must be smaller than num_classes.
[rank5]: Traceback (most recent call last):
[rank5]:   File "/work/llm/decoder.py", line 96, in route
[rank5]:     mask = F.one_hot(idx, num_classes=C["experts"]).sum(1)
[rank5]: RuntimeError: Class values must be smaller than num_classes.
"""


def test_a_class_past_the_count_is_the_bound_check() -> None:
    """docs/labelling.md#a-one-hot-encoding-handed-a-class-past-its-count"""
    diagnosis = diagnose_files({"attempt_0/5/stderr.log": RANK5})
    assert_reads(
        diagnosis, "shape_mismatch", first_error="Class values must be smaller than num_classes"
    )
    assert "shape.one_hot_class_out_of_range" in rules_of(diagnosis)
    assert {"other", "config"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_negative_class_reads_the_same() -> None:
    """docs/labelling.md#a-one-hot-encoding-handed-a-class-past-its-count"""
    diagnosis = diagnose_text("train.log", "RuntimeError: Class values must be non-negative.\n")
    assert diagnosis.category == "shape_mismatch"
    assert "shape.one_hot_class_out_of_range" in rules_of(diagnosis)


def test_a_note_on_class_values_is_no_failure() -> None:
    diagnosis = diagnose_text(
        "train.log", "INFO class values must be smaller than num_classes; checked 128 labels\n"
    )
    assert "shape.one_hot_class_out_of_range" not in rules_of(diagnosis)
