"""The runtime's record of a failed device task when the task is a notify wait.

docs/labelling.md#hang-or-hccl-when-a-stall-ends-in-a-notify-timeout: the STARS engine reports
every failed task in one form (`ProcLogicCqReport:Task run failed, device_id=N, ...,
sqe_type=<n>(<kind>), errType=...`). When the kind is a notify wait no kernel ran: a collective
waited for its peers and the runtime ended the wait, so the line alone is `hccl` with `hang`
beside it, like the runtime's other notify-wait reports. A core exception printed with it in the
same block says what failed on the device and decides (`aicore_timeout`, the corpus rule); the
notify wait is then the collective reading offered beside it. Counterexample: the same record of
a kernel task (`sqe_type=0(ffts)`) keeps the generic reading, a device task that failed.

The lines follow the plog of an eight-card inference node in graph mode; pids, thread ids,
stream and task ids, times and addresses are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

HEAD = "[ERROR] RUNTIME(50210,all__):2026-02-03-11:20:31.{ms}.220 [{src}]50377 "

NOTIFY_TASK = HEAD.format(ms="104", src="stars_engine.cc:1502") + (
    "ProcLogicCqReport:Task run failed, device_id=2, stream_id=840, task_id=3310, "
    "sqe_type=7(notify wait), errType=0x20(sq sw status error), sqSwStatus=0x11ab0028\n"
)
CORE_EXCEPTION = (
    HEAD.format(ms="105", src="device_error_core_proc.cc:333")
    + "ProcessStarsCoreErrorInfo:report error module_type=5, module_name=EZ9999\n"
    + HEAD.format(ms="105", src="device_error_core_proc.cc:333")
    + "ProcessStarsCoreErrorInfo:The error from device(chipId:2, dieId:0), serial number is 7, "
    "there is an exception of fftsplus aivector error, core id is 12, error code = 0x10, dump "
    "info: pc start: 0x12c000210000, current: 0x12c000210400, para base: 0x12c000300000.\n"
)
FFTS_TASK = HEAD.format(ms="104", src="stars_engine.cc:1502") + (
    "ProcLogicCqReport:Task run failed, device_id=2, stream_id=46, task_id=3310, "
    "sqe_type=0(ffts), errType=0x1(task exception), sqSwStatus=0x2110\n"
)
PLOG = "plog/plog-50210_20260203111502001.log"


def test_a_failed_notify_wait_task_alone_is_the_collective_wait() -> None:
    diagnosis = diagnose_text(PLOG, NOTIFY_TASK)
    assert_reads(diagnosis, "hccl", first_error="sqe_type=7(notify wait)", beside=("hang",))


def test_a_core_exception_beside_it_decides_and_the_collective_is_offered() -> None:
    diagnosis = diagnose_text(PLOG, NOTIFY_TASK + CORE_EXCEPTION)
    assert_reads(
        diagnosis, "aicore_timeout", first_error="fftsplus aivector error", beside=("hccl",)
    )


def test_a_failed_kernel_task_keeps_the_device_task_reading() -> None:
    diagnosis = diagnose_text(PLOG, FFTS_TASK)
    assert diagnosis.category == "aicore_timeout"
    assert "hccl" not in {alt.category for alt in diagnosis.alternatives}
