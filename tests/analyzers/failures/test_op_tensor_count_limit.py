"""An op handed more tensors in one call than its kernel takes.

docs/labelling.md#a-tensor-with-more-dimensions-than-the-op-takes: the host check states the
bound on the number of inputs, outputs and workspaces (`num should <=192`): `op_constraint`,
with `operator` beside it. Values are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text


def test_a_tensor_count_over_the_bound_is_a_limit_of_the_op() -> None:
    diagnosis = diagnose_text(
        "train.log", "Error:Input and (output + workspace) num should <=96!\n"
    )
    assert_reads(diagnosis, "op_constraint", first_error="num should <=96", beside=("operator",))


def test_a_bound_on_dimensions_is_not_a_tensor_count() -> None:
    diagnosis = diagnose_text("train.log", "Input dim num should be greater than or equal to 2.\n")
    assert diagnosis.category != "op_constraint"
