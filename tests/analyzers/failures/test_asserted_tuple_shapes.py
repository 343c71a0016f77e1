"""An assertion that prints the two shapes it compared as tuples, and they differ.

docs/labelling.md#an-assertion-that-quotes-two-shapes-that-differ: a model's own check often
prints `tuple(x.shape)` rather than `x.shape` (`AssertionError: residual shape (24, 32) !=
branch output shape (18, 32)`). Two different tuples in an assertion that names a shape are
dimensions that disagree: `shape_mismatch`, `other` beside it, the message the first error.
Equal tuples, tuples in an assertion that names no shape, and a print without an assertion are
not this reading. Fixtures are a custom layer's traceback with paths and values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text, rules_of

RESIDUAL = """\
Traceback (most recent call last):
  File "/srv/moe/layers.py", line 41, in forward
    assert x.shape == residual.shape, f"residual shape {tuple(residual.shape)} != branch output shape {tuple(x.shape)}"
           ^^^^^^^^^^^^^^^^^^^^^^^^^
AssertionError: residual shape (48, 64) != branch output shape (41, 64)
"""

SAME = """\
Traceback (most recent call last):
  File "/srv/moe/layers.py", line 44, in forward
    assert x.dtype == residual.dtype, f"residual shape {tuple(residual.shape)} vs {tuple(x.shape)}, {x.dtype}"
AssertionError: residual shape (48, 64) vs (48, 64), torch.float16
"""

NO_SHAPE = """\
Traceback (most recent call last):
  File "/srv/kernels/launch.py", line 12, in launch
    assert grid == expected, f"launch grid {grid} does not match {expected}"
AssertionError: launch grid (2, 3) does not match (2, 4)
"""


def test_an_assertion_quoting_two_different_tuple_shapes_is_a_shape_mismatch() -> None:
    diagnosis = diagnose_text("rank3.log", RESIDUAL)
    assert diagnosis.category == "shape_mismatch", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("AssertionError: residual shape (48, 64)")
    assert "shape.asserted_tuple_shapes_differ" in rules_of(diagnosis)
    assert "other" in {a.category for a in diagnosis.alternatives}
    assert diagnosis.confidence >= 0.5, diagnosis.confidence


def test_equal_tuples_or_tuples_that_are_no_shape_are_not_this_reading() -> None:
    for text in (SAME, NO_SHAPE):
        diagnosis = diagnose_text("rank3.log", text)
        assert "shape.asserted_tuple_shapes_differ" not in rules_of(diagnosis)
