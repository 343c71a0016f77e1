"""A kernel launch refused for more blocks than one launch may carry.

docs/labelling.md#a-kernel-launch-over-the-block-limit: a launcher line that names a block
count above 65535 with its launch failure is a documented limit (`op_constraint`, with
`operator` as the alternative), and that line is the first error; the same failure with a
count inside the range names no limit and is not read as one.

Fixtures follow the Ascend C launcher's two-line report as kernel DSLs print it; kernel names,
addresses and counts are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

LAUNCH_OVER_LIMIT = """\
[INFO] chunk count 1024, heads 32, batch 4
[ERROR] [AscPlugin] AscendKernelLaunchWithFlagV2 ret 107000
[ERROR] [AscPlugin] Kernel: [chunk_scan_kernel] Stream: [0x3c21f0a0] BlockDim: [131072] kernel launch failure!
"""


def test_a_launch_over_the_block_limit_is_a_documented_limit() -> None:
    diagnosis = diagnose_text("run/console.txt", LAUNCH_OVER_LIMIT)
    assert_reads(diagnosis, "op_constraint", first_error="BlockDim: [131072]", beside=("operator",))


def test_a_launch_failure_inside_the_block_range_names_no_limit() -> None:
    within_range = LAUNCH_OVER_LIMIT.replace("[131072]", "[48]")
    diagnosis = diagnose_text("run/console.txt", within_range)
    assert_reads(diagnosis, "operator", first_error="BlockDim: [48] kernel launch failure")


# Triton-Ascend's runtime refuses the grid before the launch and states the limit, not the
# count; the traceback's `raise` line quotes the same words as source code.
TRITON_GRID_OVER_LIMIT = """\
[rank1]:   File "/opt/venv/lib/python3.11/site-packages/kernels/conv.py", line 88, in _launch
[rank1]:     depthwise_conv_kernel[grid](
[rank1]:   File "/opt/venv/lib/python3.11/site-packages/triton/runtime/jit.py", line 702, in run
[rank1]:     raise RuntimeError("grid should be less than 65536! You can try \\"export TRITON_ALL_BLOCKS_PARALLEL=1\\" to avoid this problem.")
[rank1]: RuntimeError: grid should be less than 65536! You can try "export TRITON_ALL_BLOCKS_PARALLEL=1" to avoid this problem.
"""


def test_a_triton_grid_refused_over_the_limit_is_a_documented_limit() -> None:
    diagnosis = diagnose_text("run/rank1.log", TRITON_GRID_OVER_LIMIT)
    assert_reads(
        diagnosis, "op_constraint", first_error="RuntimeError: grid should be less than 65536!"
    )
    assert "raise" not in diagnosis.first_error.text
    assert "operator" in {alternative.category for alternative in diagnosis.alternatives}


def test_a_launch_split_to_stay_under_the_grid_limit_is_no_error() -> None:
    text = "[kernels] grid should be less than 65536, splitting the launch into 3 parts\n"
    diagnosis = diagnose_text("run/rank1.log", text)
    assert diagnosis.first_error is None


# The runtime's own argument check names the count as the launch's core dimension, under the
# torch_npu headline that only names the kernel it was running.
RUNTIME_CORE_DIM_OVER_LIMIT = """\
[rank5] RuntimeError: The inner error is reported as above. The process exits for this inner error, and the current working operator name is depthwise_scan_fwd_kernel.
[rank5] Invalid_Argument(EE1003): KernelLaunch failed because value 262400 for parameter coreDim is invalid. Expected value: less than or equal to 65535.
[rank5] TraceBack (most recent call last):
"""


def test_a_core_dimension_the_runtime_refuses_over_the_limit_is_a_documented_limit() -> None:
    diagnosis = diagnose_text("run/rank5.log", RUNTIME_CORE_DIM_OVER_LIMIT)
    assert_reads(
        diagnosis,
        "op_constraint",
        first_error="value 262400 for parameter coreDim",
        beside=("operator",),
    )


def test_a_core_dimension_refused_inside_the_range_names_no_limit() -> None:
    inside = RUNTIME_CORE_DIM_OVER_LIMIT.replace("value 262400", "value 0").replace(
        "less than or equal to 65535", "greater than 0"
    )
    diagnosis = diagnose_text("run/rank5.log", inside)
    assert diagnosis.category == "operator"


# Older runtimes word the same check as an EE1001 refused argument that states the count and
# the bound by name, under the torch_npu line that names the kernel it was running.
OLDER_RUNTIME_CORE_DIM_OVER_LIMIT = """\
RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current working operator name is _rms_gate_fwd_kernel.
[ERROR] 2026-03-11-10:20:31 (PID:7712, Device:1, RankID:-1) ERR00100 PTA call acl api failed.
EE1001: [PID: 7712] 2026-03-11-10:20:31.204.118 The argument is invalid.Reason: coreDim=98304 can't be greater than UINT16_MAX.
        Solution: 1.Check the input parameter range of the function. 2.Check the function invocation relationship.
        TraceBack (most recent call last):
        The argument is invalid.Reason: rtKernelLaunch execute failed, reason=[invalid value]
"""


def test_an_older_runtime_refusing_a_core_dimension_over_uint16_is_the_limit() -> None:
    diagnosis = diagnose_text("run/worker.log", OLDER_RUNTIME_CORE_DIM_OVER_LIMIT)
    assert_reads(
        diagnosis,
        "op_constraint",
        first_error="coreDim=98304 can't be greater than UINT16_MAX",
        rule="opc.kernel_launch_block_limit",
        beside=("operator",),
    )


def test_a_core_dimension_reported_beside_its_bound_is_no_refusal() -> None:
    text = "[INFO] launch plan: coreDim=48, bound UINT16_MAX, 3 waves\n"
    diagnosis = diagnose_text("run/worker.log", text)
    assert "opc.kernel_launch_block_limit" not in rules_of(diagnosis)


# Triton-Ascend's launcher reports the same refusal with the kernel's name in front and a
# colon after the verb, above torch_npu's line that names the kernel again.
LAUNCHER_CORE_DIM_OVER_LIMIT = """\
_gated_mix_fwd_kernel launch failed: because value 81920 for parameter coreDim is invalid. Expected value: less than or equal to 65535.

RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current working operator name is _gated_mix_fwd_kernel.
"""


def test_a_kernel_launcher_refusing_a_core_dimension_over_the_limit_is_the_limit() -> None:
    diagnosis = diagnose_text("run/server.log", LAUNCHER_CORE_DIM_OVER_LIMIT)
    assert_reads(
        diagnosis,
        "op_constraint",
        first_error="launch failed: because value 81920 for parameter coreDim",
        beside=("operator",),
    )


def test_a_kernel_launcher_refusing_a_core_dimension_of_zero_names_no_limit() -> None:
    inside = LAUNCHER_CORE_DIM_OVER_LIMIT.replace("value 81920", "value 0").replace(
        "less than or equal to 65535", "greater than 0"
    )
    diagnosis = diagnose_text("run/server.log", inside)
    assert "opc.kernel_launch_block_limit" not in rules_of(diagnosis)
    assert diagnosis.category != "op_constraint"
