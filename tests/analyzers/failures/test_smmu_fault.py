"""The runtime's system-MMU check for a failed device task.

docs/labelling.md#an-access-the-system-mmu-refused: `isSmmuFault is 1` says a task touched an
unmapped device address. With the device's record of the failing core in the same block the
record is the first error (`aicore_timeout`) and the SMMU line offers `device_fault`; alone it is
the first error and `device_fault`; `isSmmuFault is 0` says nothing.

The fixtures follow a plog's RUNTIME lines; pids, thread ids, times and addresses are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

TASK = (
    "[ERROR] RUNTIME(7001,):2026-04-02-11:22:31.100.200 [stars_engine.cc:1548]7090 "
    "ProcLogicCqReport:Task run failed, device_id=3, stream_id=12, task_id=640, sqe_type=0(ffts), "
    "errType=0x1(task exception), sqSwStatus=0\n"
)


def _smmu(flag: int) -> str:
    return (
        "[ERROR] RUNTIME(7001,):2026-04-02-11:22:32.300.400 [device_error_core_proc.cc:399]7090 "
        f"CheckSmmuFault:Get isSmmuFault is {flag}.\n"
    )


RECORD = (
    "[ERROR] RUNTIME(7001,):2026-04-02-11:22:32.300.450 [device_error_core_proc.cc:645]7090 "
    "PrintCoreInfo:The error from device(chipId:3, dieId:0), serial number is 2, there is an "
    "exception of aivec error, core id is 17, error code = 0x800000, dump info: pc start: "
    "0x124000100000, current: 0x124000100400, vec error info: 0x11, mte error info: 0x22.\n"
)


def test_a_core_record_next_to_an_smmu_fault_keeps_the_core() -> None:
    diagnosis = diagnose_text("plog/plog-7001.log", TASK + _smmu(1) + RECORD)
    assert_reads(
        diagnosis,
        "aicore_timeout",
        first_error="there is an exception of aivec error",
        beside=("device_fault",),
    )


def test_an_smmu_fault_alone_is_a_device_fault() -> None:
    diagnosis = diagnose_text("plog/plog-7001.log", TASK + _smmu(1))
    assert_reads(diagnosis, "device_fault", first_error="isSmmuFault is 1")


def test_a_negative_smmu_answer_is_not_a_fault() -> None:
    diagnosis = diagnose_text("plog/plog-7001.log", TASK + _smmu(0))
    assert diagnosis.first_error is None or "isSmmuFault" not in diagnosis.first_error.text


# The trace recorder (ATRACE) writes its own complaints into the same plog when it cannot open
# its schedule-trace files; they are the tracer's bookkeeping and come before the runtime's
# report, so they must not take the first error from the fault that follows.
TRACER_NOISE = (
    "[ERROR] ATRACE(7001,):2026-04-02-11:22:30.010.020 [trace_recorder.c:397](tid:7088) open file "
    "failed, file=/home/svc/ascend/atrace/trace_51_7001_20260402102230/schedule_event_7001_"
    "20260402112229/schedule_tracer_ts_2.txt, strerr=No such file or directory.\n"
    "[ERROR] ATRACE(7001,):2026-04-02-11:22:30.010.024 [atrace_client_core.c:42](tid:7088) get "
    "event fd failed, event name=ts_2.\n"
)


def test_tracer_file_complaints_before_an_smmu_fault_are_not_the_first_error() -> None:
    diagnosis = diagnose_text("plog/plog-7001.log", TRACER_NOISE + _smmu(1))
    assert_reads(diagnosis, "device_fault", first_error="isSmmuFault is 1")


def test_grep_prefixed_plog_lines_are_read_like_the_plog() -> None:
    # A plog quoted through `grep -n` keeps each line's file and line number in front.
    prefix = "/home/svc/ascend/log/debug/plog/plog-7001_20260402112229.log:{n}:"
    lines = (TRACER_NOISE + _smmu(1)).splitlines(keepends=True)
    text = "".join(prefix.format(n=40 + i) + line for i, line in enumerate(lines))
    diagnosis = diagnose_text("plog_grep.txt", text)
    assert_reads(diagnosis, "device_fault", first_error="isSmmuFault is 1")
