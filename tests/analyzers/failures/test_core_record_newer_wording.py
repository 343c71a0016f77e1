"""The device's record of a failed core in the newer runtimes' wording.

Older runtimes print the record as `The error from device(chipId:N, dieId:N), serial number is
N, there is an aivec error exception, core id is N, ...`; newer ones as `An error occurs on the
device(chipId:N, dieId:N), the serial number is N, the error is aivec error, core id is N, ...`.
Both say which core stopped, so the record is the first error and the label is the device's
(`aicore_timeout` by the corpus rule, docs/labelling.md#an-operator-name-decides-nothing), ahead
of the kernel task's `retCode=0x31` summary printed after it. The fixtures follow a serving
worker's error lines; pids, times and addresses are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

WORKER = "(Worker_TP1 pid=9120) ERROR 05-02 10:11:12 [multiproc_executor.py:959]        "

RECORD_THEN_TASK = (
    WORKER + "An error occurs on the device(chipId:1, dieId:0), the serial number is 17, the error "
    "is aivec error, core id is 3, error code = 0, dump info: pc start: 0x12c0c1600000, current: "
    "0x12c0c16006c0, vec error info: 0x1a, mte error info: 0x2b, aic cond: 0.\n"
    + WORKER
    + "An error occurred in the kernel task, retCode=0x31, [vector core exception]."
    "[FUNC:PreCheckTaskErr][FILE:davinci_kernel_task.cc][LINE:1520]\n"
)

RECORD_ONLY = (
    "[ERROR] RUNTIME(40211,python3):2026-05-02-10:11:12.131.415 [device_error_proc.cc:1502]40211 "
    "ProcessStarsCoreErrorInfo:An error occurs on the device(chipId:5, dieId:1), the serial number "
    "is 4, the error is aicore error, core id is 12, error code = 0x800000, dump info: pc start: "
    "0x12c0c1600000, current: 0x12c0c1600a40, aic cond: 0.\n"
)


def test_the_newer_core_record_leads_over_the_task_summary() -> None:
    diagnosis = diagnose_text("serve.log", RECORD_THEN_TASK)
    assert_reads(diagnosis, "aicore_timeout", first_error="the error is aivec error, core id is 3")


def test_the_newer_core_record_alone_is_read_by_a_rule() -> None:
    diagnosis = diagnose_text("plog/plog-40211_1.log", RECORD_ONLY)
    assert diagnosis.category == "aicore_timeout"
    assert "aicore.fftsplus_exception" in rules_of(diagnosis)


def test_another_engine_in_the_newer_wording_is_no_core_record() -> None:
    text = RECORD_ONLY.replace(
        "the error is aicore error, core id is 12", "the error is sdma error"
    )
    diagnosis = diagnose_text("plog/plog-40211_1.log", text)
    assert "aicore.fftsplus_exception" not in rules_of(diagnosis)
