"""A momentum-contrast queue that the batch of keys does not divide.

The model asserts that its queue length is a multiple of the gathered batch; a bare
AssertionError under that statement is read with it: `shape_mismatch`, with `config` beside
it. The statement alone, with no exception under it, is source code and not read.
docs/labelling.md#a-negative-queue-that-the-batch-does-not-divide
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text, rules_of

LAST_BATCH = """\
Traceback (most recent call last):
  File "/home/lab/contrast/train.py", line 214, in train_one_epoch
    loss = model(view_a, view_b)
  File "/home/lab/contrast/builder.py", line 73, in _dequeue_and_enqueue
    assert self.K % batch_size == 0  # for simplicity
AssertionError
"""


def test_a_queue_the_batch_does_not_divide_is_a_shape_mismatch() -> None:
    diagnosis = diagnose_text("train.log", LAST_BATCH)
    assert diagnosis.category == "shape_mismatch"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("AssertionError")
    assert "shape.negative_queue_batch" in rules_of(diagnosis)
    assert "config" in {a.category for a in diagnosis.alternatives}


def test_the_statement_quoted_alone_is_not_read() -> None:
    diagnosis = diagnose_text(
        "train.log", "    assert self.K % batch_size == 0  # for simplicity\n"
    )
    assert "shape.negative_queue_batch" not in rules_of(diagnosis)
