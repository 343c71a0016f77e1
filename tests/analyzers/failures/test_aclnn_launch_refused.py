"""An aclnn op whose kernel launch the runtime did not take.

docs/labelling.md#an-aclnn-kernel-launch-the-runtime-refused: nnopbase's assertion that the
launch returned 0 follows checks that had passed, so alone it stays `operator` with
`aicore_timeout` beside it and advice that points at the device log, not at the op's
arguments. When the block's TraceBack keeps the device's record of the core that stopped, the
record is the first error and decides. An assertion on another nnopbase step is no launch.

Fixtures follow torch_npu's and the error manager's formats; ops, pids and times are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

LAUNCH = (
    "[rank2]:[E1002 14:00:01.200300400 OpParamMaker.cpp:355] call aclnnRopeWithSinCache "
    "failed, detail:[PID: 5120] 2026-10-02-14:00:01.100.200 AclNN_Runtime_Error(EZ9903): "
    "Assert ((NnopbaseExecutorLaunchKernel(executor, stream, numBlocks)) == 0) failed\n"
    "        Solution: In this scenario, collect the plog when the fault occurs and locate the "
    "fault based on the plog.\n"
)
TRACE = (
    "        TraceBack (most recent call last):\n"
    "        The error from device(chipId:2, dieId:0), serial number is 9, there is an "
    "exception of fftsplus aivector error, core id is 4, error code = 0, dump info: pc start: "
    "0x124000200000, current: 0x124000200300.[FUNC:PrintCoreInfo][FILE:device_error_core_proc.cc]"
    "[LINE:645]\n"
)
WORKSPACE = (
    "[rank2]:[E1002 14:00:01.200300400 OpParamMaker.cpp:355] call aclnnRopeWithSinCache "
    "failed, detail:[PID: 5120] 2026-10-02-14:00:01.100.200 AclNN_Runtime_Error(EZ9903): "
    "Assert ((NnopbaseExecutorGetWorkspace(executor)) == 0) failed\n"
)


def test_a_refused_launch_alone_offers_the_device_exception() -> None:
    diagnosis = diagnose_text("vllm_serve.log", LAUNCH)
    assert_reads(
        diagnosis,
        "operator",
        first_error="NnopbaseExecutorLaunchKernel",
        beside=("aicore_timeout",),
    )
    assert diagnosis.confidence < 0.8
    assert "plog" in diagnosis.next_actions[0]


def test_the_core_record_under_a_refused_launch_decides() -> None:
    diagnosis = diagnose_text("vllm_serve.log", LAUNCH + TRACE)
    assert_reads(diagnosis, "aicore_timeout", first_error="fftsplus aivector error")


def test_another_nnopbase_step_is_no_launch() -> None:
    diagnosis = diagnose_text("vllm_serve.log", WORKSPACE)
    assert "aicore_timeout" not in {alt.category for alt in diagnosis.alternatives}
    assert not diagnosis.next_actions or "plog" not in diagnosis.next_actions[0]
