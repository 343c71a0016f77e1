"""A crash whose stack runs through an operator's host-side tiling or workspace code.

docs/labelling.md#native-only-crashes: a segfault is `device_fault`, and the signal line (or the
innermost frame of a backtrace) stays the first error. When the stack's frames show the crash
happened while an op worked out its launch parameters on the host (the op framework's tiling or
workspace step, an op package's tiling function, an aclnn op's first phase), `operator` is the
neighbour the report offers. A crash stack through other code offers no such neighbour.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_files

PROGRESS = "".join(f"2026-03-01 10:00:{i:02d} INFO step {i} done\n" for i in range(6))
HALF = "".join(f"2026-03-01 10:00:{i:02d} INFO step {i} done\n" for i in range(3))

# A Ray actor's fault handler (abseil form), deduplicated across the cluster's workers.
RAY_ACTOR_CRASH_IN_TILING = """\
(TrainActor pid=5120) [2026-03-01 10:00:04,100 E 5120 5120] logging.cc:501: *** SIGSEGV received at time=1772359204 on cpu 12 *** [repeated 3x across cluster]
(TrainActor pid=5120) [2026-03-01 10:00:04,101 E 5120 5120] logging.cc:501: PC: @     0xffff10a0b0c4  (unknown)  (unknown) [repeated 3x across cluster]
(TrainActor pid=5120) [2026-03-01 10:00:04,102 E 5120 5120] logging.cc:501:     @     0xffff22b1c2d0         80  pybind11::cpp_function::dispatcher() [repeated 9x across cluster]
(TrainActor pid=5120) [2026-03-01 10:00:04,102 E 5120 5120] logging.cc:501:     @     0xffff33c2d3e4        144  op::internal::OpRunContextMgr::Tiling() [repeated 3x across cluster]
(TrainActor pid=5120) [2026-03-01 10:00:04,102 E 5120 5120] logging.cc:501:     @     0xffff33c2d5f8        176  op::internal::OpKernelBin::GetWorkspace() [repeated 3x across cluster]
"""

# The same crash under gdb: the innermost frame is in a custom op package's tiling function.
GDB_CRASH_IN_OP_TILING = """\
Program terminated with signal SIGSEGV, Segmentation fault.
#0  0x0000ffff7a1b2c3d in optiling::TilingForChunkScan(gert::TilingContext*) () from /usr/local/Ascend/ascend-toolkit/latest/opp/vendors/custom/op_impl/ai_core/tbe/op_tiling/liboptiling.so
#1  0x0000ffff7a0f1122 in aclnnChunkScanGetWorkspaceSize () from /usr/local/Ascend/ascend-toolkit/latest/opp/vendors/custom/op_api/lib/libcust_opapi.so
"""

# Counterexample: a crash in the runtime's copy, with no op's host code on the stack.
GLOG_CRASH_IN_RUNTIME = """\
*** SIGSEGV (@0x18) received by PID 5120 (TID 0x7f11aa) from PID 24; stack trace: ***
    @     0x7f11bb0c1420 (unknown)
    @     0x7f11a2f00b11 aclrtMemcpy
"""


def _crash(text: str) -> tuple[str, str, set[str]]:
    diagnosis = diagnose_files({"job/rank0.log": PROGRESS, "job/rank1.log": HALF + text})
    assert diagnosis.first_error is not None
    return (
        diagnosis.category,
        diagnosis.first_error.text,
        {alt.category for alt in diagnosis.alternatives},
    )


def test_a_crash_in_an_ops_tiling_offers_the_operator_beside_the_crash() -> None:
    category, first, offered = _crash(RAY_ACTOR_CRASH_IN_TILING)
    assert category == "device_fault"
    assert "*** SIGSEGV received at time=" in first  # the frame does not take the first error
    assert "operator" in offered


def test_a_gdb_backtrace_through_an_op_package_tiling_offers_the_operator() -> None:
    category, first, offered = _crash(GDB_CRASH_IN_OP_TILING)
    assert category == "device_fault"
    assert "Program terminated with signal SIGSEGV" in first
    assert "operator" in offered


def test_a_crash_stack_outside_op_host_code_offers_no_operator() -> None:
    category, first, offered = _crash(GLOG_CRASH_IN_RUNTIME)
    assert category == "device_fault"
    assert "*** SIGSEGV" in first
    assert "operator" not in offered
