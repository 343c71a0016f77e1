"""The DETAIL wrapper's shape check on a collective that ranks call with other tensor sizes.

docs/labelling.md#ranks-that-run-one-collective-with-other-shapes: with
TORCH_DISTRIBUTED_DEBUG=DETAIL the wrapper process group first all-gathers each rank's input
shapes and stops with `Error when verifying shape tensors for collective <OP> on rank N` when
they differ. The ranks disagree inside one collective: `hccl`, with `shape_mismatch` beside it.
Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

SHAPE_CHECK = """\
    work = group.allgather([out], [tensor])
RuntimeError: Error when verifying shape tensors for collective ALLGATHER on rank 3. This likely indicates that input shapes into the collective are mismatched across ranks. Got shapes:  64
[ torch.LongTensor{1} ]
"""


def test_the_wrappers_shape_check_is_a_collective_the_ranks_disagree_on() -> None:
    diagnosis = diagnose_text("rank3.log", SHAPE_CHECK)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="verifying shape tensors for collective ALLGATHER",
        rule="hccl.collective_shape_check_failed",
        beside=("shape_mismatch",),
    )


PLAIN_SHAPE_ERROR = """\
RuntimeError: The size of tensor a (64) must match the size of tensor b (32) at non-singleton dimension 0
"""


def test_a_shape_error_outside_a_collective_is_not_the_check() -> None:
    diagnosis = diagnose_text("rank0.log", PLAIN_SHAPE_ERROR)
    assert "hccl.collective_shape_check_failed" not in rules_of(diagnosis)
