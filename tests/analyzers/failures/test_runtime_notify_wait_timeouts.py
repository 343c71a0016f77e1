"""A notify wait that the runtime itself reports as run out, and reason words without brackets.

docs/labelling.md#hang-or-hccl-when-a-stall-ends-in-a-notify-timeout: when the host call that
waits on a notify gives up, the runtime's TraceBack says so in its own words (`Notify wait
failed, notify_id=N, time_out = Ns`, `rtNotifyWaitWithTimeOut execution failed, reason=task
timeout`) before the bare return code (107020). A notify wait is a collective's wait for its
peers, so the block is read as the error manager's EI0002 record is: `hccl`, `hang` beside
it, and the notify line is the first error rather than the code line after it.

Newer CANN prints every runtime reason word without the brackets older releases put around it
(`reason=task timeout[FUNC:...]`); the reasons keep their reading.

The fixtures follow the block a vLLM worker re-prints under its executor prefix on 300I Duo
serving nodes; pids, ids, times and the timeout are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

PREFIX = "(Worker_TP1 pid=4417) ERROR 03-14 09:12:55 [multiproc_executor.py:940]        "

NOTIFY_BLOCK = (
    PREFIX + "Failed to submit event reset task, retCode=0x7150059![FUNC:RevisedWait]"
    "[FILE:notify.cc][LINE:266]\n"
    + PREFIX
    + "Notify wait failed, notify_id=512, time_out = 1200s, retCode=0x7150059."
    "[FUNC:NotifyWait][FILE:api_impl.cc][LINE:4590]\n"
    + PREFIX
    + "rtNotifyWaitWithTimeOut execution failed, reason=task timeout"
    "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:65]\n"
    + PREFIX
    + "call rtsNotifyWaitAndReset failed, runtime result = 107020"
    "[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:148]\n"
)


def test_a_notify_wait_the_runtime_gave_up_on_is_the_collective_wait() -> None:
    diagnosis = diagnose_text("serve/worker.log", NOTIFY_BLOCK)
    assert_reads(
        diagnosis, "hccl", first_error="Notify wait failed, notify_id=512", beside=("hang",)
    )


def test_the_notify_reason_alone_is_read_the_same_way() -> None:
    text = (
        PREFIX + "rtNotifyWaitWithTimeOut execution failed, reason=task timeout"
        "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:65]\n"
        + PREFIX
        + "call rtsNotifyWaitAndReset failed, runtime result = 107020"
        "[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:148]\n"
    )
    diagnosis = diagnose_text("serve/worker.log", text)
    assert_reads(diagnosis, "hccl", first_error="rtNotifyWaitWithTimeOut")


def test_a_stream_wait_that_ran_out_without_brackets_is_named_by_its_reason() -> None:
    """Counterexample to the notify reading: a stream's wait names no collective. The block is
    cut after the reason, as a pasted excerpt often is, so no return code labels it."""
    text = (
        "EE9999: Inner Error!\n"
        "EE9999[PID: 3310] 2026-05-19-02:44:10.118.205 (EE9999):  rtStreamSynchronizeWithTimeout "
        "execution failed, reason=task timeout[FUNC:FuncErrorReason][FILE:error_message_manage.cc]"
        "[LINE:65]\n"
    )
    diagnosis = diagnose_text("serve/worker.log", text)
    assert_reads(diagnosis, "stream_sync", first_error="reason=task timeout", beside=("hccl",))


def test_an_aicpu_timeout_reason_without_brackets_is_the_kernel_timeout() -> None:
    text = (
        PREFIX + "rtEventSynchronize execution failed, reason=aicpu timeout"
        "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:65]\n"
    )
    diagnosis = diagnose_text("serve/worker.log", text)
    assert_reads(diagnosis, "aicore_timeout", first_error="reason=aicpu timeout", beside=("hang",))
