"""A concatenation op that compares one dimension of each input with the first input's.

The aclnn concatenation op checks every input against input 0 before it runs, one dimension
at a time, and names the dimension, the two inputs by position and both sizes (`dim 3 of
tensor 1 is [7], should be equal to tensor 0 [11]`). A backend that passes its tensors in
another layout than the op expects (a ggml backend's test run, a framework's own concat)
meets it. The op refusing its inputs on the host: `operator`, with `shape_mismatch` beside,
the same reading as the op's count-of-dimensions check. The test run prints each case indented,
its parameters in parentheses before a colon and the result; that line is the program's output,
not pasted source code, even though it opens like a call.

docs/labelling.md#shape-inference-that-finds-the-inputs-disagree
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

BACKEND_TEST_CONCAT_REFUSED = """\
Backend 1/2: NPU0
  Device description: Ascend910B3

  CONCAT(type=f32,ne_a=[5,6,7,8],ne_b_d=3,dim=0,v=0): CANN error: EZ1001: 2026-03-04-05:06:07.080.090 dim 3 of tensor 1 is [3], should be equal to tensor 0 [5].

  current device: 0, in function concat at /src/backend/npu_ops.cpp:227
  aclnnCatGetWorkspaceSize(tensorList, concat_dim, acl_dst, &workspaceSize, &executor)
"""

# Counterexample: a dimension the op reports as agreeing is no refusal.
DIMENSION_AGREES = """\
  CONCAT(type=f32,ne_a=[5,6,7,8],ne_b_d=3,dim=1,v=0): dim 3 of tensor 1 is [5], equal to tensor 0 [5]: OK
"""


def test_a_concat_dimension_that_disagrees_is_the_op_with_the_shapes_beside_it() -> None:
    diagnosis = diagnose_text("tests/backend-ops.log", BACKEND_TEST_CONCAT_REFUSED)
    assert_reads(
        diagnosis,
        "operator",
        first_error="dim 3 of tensor 1 is [3], should be equal to tensor 0 [5]",
        rule="op.tensor_shapes_disagree",
        beside=("shape_mismatch",),
    )


def test_a_dimension_that_agrees_is_no_refusal() -> None:
    diagnosis = diagnose_text("tests/backend-ops.log", DIMENSION_AGREES)
    assert diagnosis.category != "operator"
