"""Failures of a kernel-building framework that records an op as a graph on the host, tiles
it, generates device code and compiles it, and of the device code it launches.

Its own checks stop with an upper-case `ASSERTION FAILED: <condition>` followed by the
reason and the place; the kernel compiler it calls refuses a kernel whose stack is over the
core's limit; it asks for the device to be set when none was; and the AI CPU side reports a
kernel entry it found in the library but could not bind, which a toolkit or driver older
than the framework needs causes.

docs/labelling.md#a-kernel-building-frameworks-own-checks
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text

# The framework's check on a tile shape, with the reason on the next line.
TILE_CHECK = """\
C++ exception with description "ASSERTION FAILED: tile[lastAxis] * elemBytes % 32 == 0
Reduce op: the last axis of the tile must be a multiple of 32 bytes, func Reduce, file reduce.cpp, line 88
libtile_fwk_interface.so(npu::tile_fwk::Reduce(npu::tile_fwk::Tensor const&)+0x410) [0xffff80001000]
"""

# Counterexample: Python's own assertion keeps its reading (not the framework's check).
PYTHON_ASSERT = """\
Traceback (most recent call last):
  File "/srv/train.py", line 12, in <module>
    assert world_size == 8
AssertionError
"""

# The kernel compiler's refusal, then the framework's restatement through std::terminate.
STACK_OVER = """\
error: stack frame size (40960) exceeds limit (32768) in function 'KERNEL_loop_Unroll2_PATH1_3_0_17'
1 error generated.
terminate called after throwing an instance of 'npu::tile_fwk::Error'
  what():  ASSERTION FAILED: ret == 0
CompileCCE failed. errCode = 256, cce file: out/kernel_aicore/KERNEL_loop_Unroll2_PATH1_3_0_17_aiv.cpp
"""

# Counterexample: a compiler warning about a large frame is no failure.
STACK_WARNING = """\
warning: stack frame size (20480) exceeds the recommended size in function 'kernel_main'
step 1 loss 2.31
"""

DEVICE_NOT_SET = """\
2026-01-05 09:10:11.100 E | fail get device id, check if set device id
2026-01-05 09:10:11.101 E | RuntimeAgent::AllocDevAddr failed for size 4096
2026-01-05 09:10:11.102 E | aclmdlRICaptureGetInfo failed, return[100000]
"""

# Counterexample: an informational line naming the device is progress.
DEVICE_SET = """\
2026-01-05 09:10:11.100 I | get device id 3, device set by the caller
"""

KERNEL_ENTRY_UNBOUND = {
    "run/screen.log": """\
ErrorTracking callback in, task_id = 4, stream_id = 2.
[ERROR] Exception Type: exception invalid error
taskid: 4, streamid: 2, tid: 801, deviceid: 1, retcode: 507018
kernelName = (null)
""",
    "run/device-801.log": """\
[ERROR] CCECPU(700,aicpu_scheduler):2026-01-05-09:12:00.100.200 [ae_kernel_lib_aicpu_kfc.cpp:105][CallKernelApi][tid:702][AICPU_PROCESSER] Get KFC SomeKernelServerInit api success, but func is nullptr: (null)
""",
}


def test_the_frameworks_own_check_is_the_operators() -> None:
    diagnosis = diagnose_text("run/op.log", TILE_CHECK)
    assert_reads(
        diagnosis,
        "operator",
        first_error="ASSERTION FAILED: tile[lastAxis]",
        beside=("op_constraint",),
    )


def test_pythons_assertion_is_not_the_frameworks_check() -> None:
    diagnosis = diagnose_text("run/train.log", PYTHON_ASSERT)
    assert diagnosis.category != "operator"


def test_a_kernel_over_the_stack_limit_is_the_operators_build() -> None:
    diagnosis = diagnose_text("run/build.log", STACK_OVER)
    assert_reads(
        diagnosis, "operator", first_error="stack frame size (40960) exceeds limit (32768)"
    )


def test_a_stack_size_warning_is_no_failure() -> None:
    diagnosis = diagnose_text("run/build.log", STACK_WARNING)
    assert diagnosis.first_error is None


def test_a_device_never_set_is_the_setting() -> None:
    diagnosis = diagnose_text("run/op.log", DEVICE_NOT_SET)
    assert_reads(diagnosis, "config", first_error="fail get device id")


def test_a_device_set_is_progress() -> None:
    diagnosis = diagnose_text("run/op.log", DEVICE_SET)
    assert diagnosis.first_error is None


def test_an_ai_cpu_kernel_entry_it_could_not_bind_is_the_device_with_the_setting_beside() -> None:
    diagnosis = diagnose_files(KERNEL_ENTRY_UNBOUND)
    assert_reads(diagnosis, "aicore_timeout", first_error="but func is nullptr", beside=("config",))


TILE_RANK = """\
2026-01-05 09:00:00.100 E | [ExpandFunction][Function][ERROR]: FUnction[TENSOR_k_loop_Unroll1_PATH0_hiddenfunc2] ExpandFunction failed: Tile shape size 2 is not matched the output shape size 3.
2026-01-05 09:00:00.100 E | Run pass [ExpandFunction] failed.
"""


def test_a_tile_with_fewer_axes_than_the_output_is_the_operators_tiling() -> None:
    diagnosis = diagnose_text("run/op.log", TILE_RANK)
    assert_reads(
        diagnosis,
        "operator",
        first_error="Tile shape size 2 is not matched",
        beside=("shape_mismatch",),
    )
