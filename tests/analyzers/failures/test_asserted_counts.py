"""An assertion that states a dimension's count and the different count it expected.

docs/labelling.md#an-assertion-that-quotes-two-shapes-that-differ: a model's own check that a
tensor holds as many rows (tokens, samples) as it should, failing with both numbers in its
message (`attention output has 7 rows, expected 8`), found a dimension that disagrees:
`shape_mismatch`, with `other` beside it, the message being the first error. Equal numbers, a
count of something that is no dimension and a warning that only reports the counts are not
this check. Fixtures are a rank's stderr as torchrun's log directory keeps it, with paths and
values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

ROWS_SHORT = """\
/home/ml/toymoe/train.py:99: UserWarning: rank 3: The 'train_dataloader' does not have many workers which may be a bottleneck.
  warnings.warn(
Traceback (most recent call last):
  File "/home/ml/toymoe/train.py", line 177, in main
    x = run_layer(x, layer)
        ^^^^^^^^^^^^^^^^^^^
  File "/home/ml/toymoe/train.py", line 135, in run_layer
    assert h.size(0) == tokens, f"attention output has {h.size(0)} rows, expected {tokens}"
           ^^^^^^^^^^^^^^^^^^^
AssertionError: attention output has 5 rows, expected 6
"""

EXPECTED_FIRST = """\
[rank2]: Traceback (most recent call last):
[rank2]:   File "/srv/train/packing.py", line 61, in pack
[rank2]:     assert ids.numel() == self.seq_len, f"expected {self.seq_len} tokens, got {ids.numel()}"
[rank2]: AssertionError: expected 2048 tokens, got 2047
"""

SAME_COUNT = """\
Traceback (most recent call last):
  File "/home/ml/toymoe/train.py", line 140, in run_layer
    assert h.dtype == w.dtype, f"attention output has {h.size(0)} rows, expected {tokens} ({h.dtype})"
AssertionError: attention output has 6 rows, expected 6 (torch.float16)
"""

NOT_A_DIMENSION = """\
Traceback (most recent call last):
  File "/srv/train/fetch.py", line 22, in fetch
    assert tries <= limit, f"got {tries} retries, expected {limit}"
AssertionError: got 4 retries, expected 3
"""

WARNING_ONLY = """\
2026-12-06 00:22:34.097 | WARNING  | data:pack:58 - shard 4 has 7 rows, expected 8; padding it
2026-12-06 00:22:34.318 | INFO     | __main__:say:75 - layer 0 passed
"""


def test_an_assertion_of_a_short_dimension_is_a_shape_mismatch() -> None:
    for text in (ROWS_SHORT, EXPECTED_FIRST):
        diagnosis = diagnose_text("stderr.log", text)
        assert_reads(diagnosis, "shape_mismatch", first_error="AssertionError: ")
        assert "shape.asserted_counts_differ" in rules_of(diagnosis)
        assert "other" in {a.category for a in diagnosis.alternatives}


def test_equal_counts_or_other_counts_are_not_this_check() -> None:
    for text in (SAME_COUNT, NOT_A_DIMENSION, WARNING_ONLY):
        diagnosis = diagnose_text("stderr.log", text)
        assert "shape.asserted_counts_differ" not in {
            e.rule for e in diagnosis.evidence if e.rule
        }, text
