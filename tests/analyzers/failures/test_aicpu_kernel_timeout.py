"""An AI CPU kernel that ran out of time, recorded by the error manager as E30008.

docs/labelling.md#an-ai-cpu-kernel-that-runs-out-of-time: the record at the head of the block
is the first error, the runtime's `Aicpu kernel execute failed` line under it restates it; the
label is `aicore_timeout` with `hang` beside it (a data-feeding kernel starved by its host
pipeline). The excerpt follows the error manager's block shape; ids and times are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

BLOCK = (
    "Error Message is :\n"
    "E30008: AI CPU operator execution time out.\n"
    "        Possible Cause: 1. For the GetNext operator, its preprocessing duration may be too long.\n"
    "        TraceBack (most recent call last):\n"
    "        Aicpu kernel execute failed, device_id=2, stream_id=7, task_id=11, "
    "fault op_name=aicpu_getnext_IteratorGetNext[FUNC:GetError][FILE:stream.cc][LINE:1133]\n"
    "        rtStreamSynchronizeWithTimeout execute failed, reason=[aicpu timeout]"
    "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:49]\n"
)


def test_the_error_manager_record_is_the_first_error() -> None:
    diagnosis = diagnose_text("job/train.log", BLOCK)
    assert_reads(
        diagnosis,
        "aicore_timeout",
        first_error="E30008: AI CPU operator execution time out",
        beside=("hang",),
    )


def test_the_reason_word_alone_reads_as_the_same_timeout() -> None:
    text = (
        "EE9999: [PID: 6210] 2026-08-02-09:14:03.220.118 rtStreamSynchronizeWithTimeout "
        "execute failed, reason=[aicpu timeout]\n"
    )
    diagnosis = diagnose_text("job/train.log", text)
    assert_reads(diagnosis, "aicore_timeout", first_error="aicpu timeout", beside=("hang",))


def test_an_aicpu_exception_is_not_read_as_a_timeout() -> None:
    text = "rtStreamSynchronize execute failed, reason=[aicpu exception]\n"
    diagnosis = diagnose_text("job/train.log", text)
    assert diagnosis.category == "aicore_timeout"
    assert "hang" not in {alt.category for alt in diagnosis.alternatives}


# The AI CPU scheduler's own monitor records the same timeout in the device log before the
# task daemon restarts it, naming the op it stopped.
MONITOR = (
    "[ERROR] CCECPU(30512,aicpu_scheduler):2026-04-11-22:10:05.118.402 "
    "[aicpusd_monitor.cpp:437][HandleTaskTimeout][tid:30520] Send timeout to tsdaemon, "
    "tsdaemon will kill aicpu-sd process, thread index[1], op name[Cumsum], serialNo=88, "
    "stream_id=4, task_id=310, nowTick:905512330018, startTick:904112330018, "
    "timeOut:1400000000, tickFreq:50000000.\n"
)


def test_the_schedulers_monitor_record_reads_as_the_kernel_timeout() -> None:
    diagnosis = diagnose_text("device-0/device-30512_1.log", MONITOR)
    assert_reads(
        diagnosis,
        "aicore_timeout",
        first_error="Send timeout to tsdaemon",
        rule="aicore.aicpu_timeout",
    )


def test_the_daemon_restarting_the_scheduler_alone_is_no_timeout() -> None:
    text = (
        "[WARNING] TSDAEMON(1201,tsdaemon):2026-04-11-22:10:06.002.118 [tsd.cpp:512] "
        "tsdaemon will kill aicpu-sd process and start it again\n"
    )
    diagnosis = diagnose_text("device-0/device-1201_1.log", text)
    assert diagnosis.category != "aicore_timeout", diagnosis.root_cause
