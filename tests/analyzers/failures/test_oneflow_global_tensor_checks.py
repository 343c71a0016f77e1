"""OneFlow's own checks on a global (consistent) tensor's split over its placement.

OneFlow raises its C++ checks as a Python exception whose headline may carry no message
(`oneflow._oneflow_internal.exception.CheckFailedException: `); the C++ frames follow, and the
innermost one holds the failed condition, indented under its `File "...cpp", line N, in F`
line. A condition that the split axis of a tensor divides by the number of ranks it is cut
over (`shape.At(out_split_axis) % out_parallel_num == 0`) is a split that does not divide:
`shape_mismatch`, with `config` beside it, and the condition is the first error, not the empty
headline. docs/labelling.md#an-activation-split-that-does-not-divide-over-the-group. Values
and paths are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

SPLIT_NOT_DIVIDING = """\
Traceback (most recent call last):
  File "train_global.py", line 31, in <module>
    y = x.to_global(placement=placement, sbp=flow.sbp.split(0))
oneflow._oneflow_internal.exception.CheckFailedException: 
  File "/work/oneflow/oneflow/core/functional/impl/global_cast.cpp", line 343, in operator()
    GlobalToGlobal(x, parallel_desc, sbp_parallels, grad_sbp_parallels)
  File "/work/oneflow/oneflow/user/ops/eager_b_to_s_op.cpp", line 36, in TensorDescInfer
    Check failed: shape.At(out_split_axis) % out_parallel_num == 0
Error Type: oneflow.ErrorProto.check_failed_error
"""


def test_a_split_axis_that_does_not_divide_is_the_tensors_shape() -> None:
    diagnosis = diagnose_text("rank0.log", SPLIT_NOT_DIVIDING)
    assert_reads(
        diagnosis,
        "shape_mismatch",
        first_error="out_split_axis) % out_parallel_num == 0",
        beside=("config",),
    )


def test_a_check_that_the_split_axis_is_in_range_is_not_this() -> None:
    text = SPLIT_NOT_DIVIDING.replace(
        "shape.At(out_split_axis) % out_parallel_num == 0", "out_split_axis < shape.NumAxes()"
    )
    diagnosis = diagnose_text("rank0.log", text)
    assert diagnosis.category != "shape_mismatch"


# OneFlow words torch's mixed-device refusal after its own check and names each operand's
# position; CPU tensors of a distributed run carry the rank's index, so two CPU devices can
# disagree. Two devices of one kind keep the op's reading:
# docs/labelling.md#a-tensor-left-on-the-cpu-of-an-npu-job
TWO_CPU_DEVICES = """\
Traceback (most recent call last):
  File "/work/ddp_add.py", line 9, in <module>
    c = oneflow.add(a, b)
RuntimeError: Check failed: *default_device == *input_device Expected all tensors to be on the same device, but found at least two devices, cpu:1 (positional 0) and cpu:0 (positional 1)!
"""


def test_two_devices_of_one_kind_in_oneflows_words_keep_the_ops_reading() -> None:
    diagnosis = diagnose_text("rank1.log", TWO_CPU_DEVICES)
    assert_reads(
        diagnosis, "operator", first_error="cpu:1 (positional 0) and cpu:0", beside=("config",)
    )


def test_a_cuda_tensor_beside_a_cpu_one_in_oneflows_words_is_not_two_of_one_kind() -> None:
    text = TWO_CPU_DEVICES.replace("cpu:0 (positional 1)", "cuda:0 (positional 1)")
    diagnosis = diagnose_text("rank1.log", text)
    assert "op.tensors_on_two_accelerators" not in rules_of(diagnosis)
