"""A collective's FFTS+ task that ran out, reported by a plog line cut short.

docs/labelling.md#code-only-synchronize-failures: the runtime reports a collective's FFTS+
task whose notify waits never finished through `ProcessStarsHcclFftsPlusTimeoutErrorInfo`, and
the plog prints that function's name before the message. When the line was cut (a paste, a
collector's line limit) the name alone still says it is HCCL's timeout, so the runtime's core
timeout dump printed just above it for the same task (`aicore task timeout dfx ... timeout and
own_bitmap=0`, `task kernel is null`) yields to it instead of reading as a kernel's timeout.
A host process whose event query gave up on the same kind of task earlier keeps its place as
the first error. Counterexample: a core timeout dump with no HCCL report beside it stays the
device's.

Fixtures follow the plog and torch_npu line formats; values are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text

PLOG = "plog/plog-40712_20260119220531000.log"

TASK_FAILED = (
    "[ERROR] RUNTIME(40712,):2026-01-19-22:05:31.478.930 [stars_engine.cc:1534]40788 "
    "ProcLogicCqReport:Task run failed, device_id=6, stream_id=21, task_id=3307, "
    "sqe_type=0(ffts), errType=0x20(sq sw status error), sqSwStatus=0x111\n"
)
CORE_DUMP = (
    "[ERROR] RUNTIME(40712,):2026-01-19-22:05:31.480.101 [device_error_proc.cc:1878]40788 "
    "ProcessStarsCoreTimeoutDfxInfo:The error from device(chipId:6, dieId:0), serial number is "
    "13, aicore task timeout dfx, falut_stream_id=21, falut_task_id=3307, falut_slot_id=0, "
    "timeout and own_bitmap=0\n"
    "[ERROR] RUNTIME(40712,):2026-01-19-22:05:31.480.109 [device_error_proc.cc:1898]40788 "
    "ProcessStarsCoreTimeoutDfxInfo:task kernel is null, stream_id=21, task_id=3307\n"
)
CUT_HCCL_REPORT = (
    "[ERROR] RUNTIME(40712,):2026-01-19-22:05:31.480.117 [device_error_proc.cc:1767]40788 "
    "ProcessStarsHcclFftsPlusTimeoutErrorInfo:The error from device(chipId:6, dieId:0), serial "
    "number is 14, hc\n"
)


def test_a_cut_hccl_ffts_report_makes_the_core_dump_above_it_a_collective_timeout() -> None:
    diagnosis = diagnose_text(PLOG, TASK_FAILED + CORE_DUMP + CUT_HCCL_REPORT)
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error is not None
    assert "aicore task timeout dfx" not in diagnosis.first_error.text
    assert "hang" in {alt.category for alt in diagnosis.alternatives}


def test_a_host_event_query_that_gave_up_earlier_stays_the_first_error() -> None:
    worker = (
        "[51230] [2026-01-19 22:05:29:402] torch.distributed: [ERROR] [51377] Find exception "
        "when finishedNPUExecutionInternal, query:build/CMakeFiles/torch_npu.dir/"
        "compiler_depend.ts:61 NPU function error: acl::AclQueryEventRecordedStatus(event_, "
        "&currStatus), error code is 507048\n"
        "[ERROR] 2026-01-19-22:05:29 (PID:51230, Device:2, RankID:-1) ERR00100 PTA call acl api "
        "failed\n"
        "[Error]: The execution of the internal task times out. \n"
        "        Rectify the fault based on the error information in the ascend log.\n"
        "EE9999: Inner Error!\n"
        "EE9999[PID: 51230] 2026-01-19-22:05:29.401.877 (EE9999):  rtEventQueryStatus execution "
        "failed, reason=fftsplus timeout[FUNC:FuncErrorReason][FILE:error_message_manage.cc]"
        "[LINE:61]\n"
    )
    diagnosis = diagnose_files(
        {"worker.log": worker, PLOG: TASK_FAILED + CORE_DUMP + CUT_HCCL_REPORT}
    )
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.file == "worker.log"


def test_a_core_timeout_dump_with_no_hccl_report_beside_it_stays_the_devices() -> None:
    diagnosis = diagnose_text(PLOG, TASK_FAILED + CORE_DUMP)
    assert_reads(diagnosis, "aicore_timeout", first_error="aicore task timeout dfx")
