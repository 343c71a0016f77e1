"""A capture-mode refusal carried into a later device-exception block.

A synchronous copy refused while a graph was being captured (`rtMemcpy execution failed,
reason=the current capture mode does not support this operation`, 107030) is kept by the
error manager and printed at the head of the next error block, stamped with its own time -
here a day before the synchronize that raised the block. The refused copy put nothing on the
device, so when the same block carries the device's report of a failed vector core, that
report is the first error and the refusal is baggage. Counterexample: a block where the
refusal is followed only by a synchronize that names no core keeps the refusal as its cause.
Fixtures are written here in the real shapes with their own values.

docs/labelling.md#late-device-blocks
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

PREFIX = "(Worker pid=5120) (Worker_DP0_TP3_EP3 pid=5120) ERROR 07-19 13:05:41 [multiproc_executor.py:880]"

STALE_REFUSAL_IN_VECTOR_BLOCK = (
    "\n".join(
        f"{PREFIX} {line}"
        for line in (
            "RuntimeError: synchronize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:361 NPU function error: c10_npu::acl::AclrtSynchronizeStreamWithTimeout(stream()), error code is 507011",
            "EE9999: Inner Error!",
            "EE9999[PID: 5120] 2026-07-18-22:14:09.330.127 (EE9999):  rtMemcpy execution failed, reason=the current capture mode does not support this operation[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:61]",
            "        TraceBack (most recent call last):",
            "       synchronized memcpy failed, kind = 1, runtime result = 107030[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:148]",
            "       The error from device(chipId:3, dieId:0), serial number is 4, there is an exception of fftsplus aivector error, core id is 8, error code = 0x800000, dump info: pc start: 0x12c0a0f10200, current: 0x12c0a0f1177c",
        )
    )
    + "\n"
)

REFUSAL_BEFORE_A_CODE_ONLY_EVENT_WAIT = (
    "\n".join(
        f"{PREFIX} {line}"
        for line in (
            "EE9999: Inner Error!",
            "EE9999[PID: 5120] 2026-07-19-12:58:30.004.611 (EE9999):  rtMemcpy execution failed, reason=the current capture mode does not support this operation[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:61]",
            "        TraceBack (most recent call last):",
            "       synchronized memcpy failed, kind = 1, runtime result = 107030[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:148]",
            "       rtEventSynchronize execution failed, reason=the model stream execute failed[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:61]",
            "       wait event to be complete failed, runtime result = 507011[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:148]",
        )
    )
    + "\n"
)


def test_the_vector_core_report_outranks_the_older_capture_refusal() -> None:
    diagnosis = diagnose_text("serve/worker_3.log", STALE_REFUSAL_IN_VECTOR_BLOCK)
    assert_reads(
        diagnosis, "aicore_timeout", first_error="fftsplus aivector error", beside=("stream_sync",)
    )


def test_the_refusal_stays_the_cause_when_no_core_is_named() -> None:
    diagnosis = diagnose_text("serve/worker_8.log", REFUSAL_BEFORE_A_CODE_ONLY_EVENT_WAIT)
    assert_reads(diagnosis, "stream_sync", first_error="capture mode does not support")
