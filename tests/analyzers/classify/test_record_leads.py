"""Lines in wording no rule knows that still lead the lines reporting on them, told by form: an
error-manager record under torch_npu's wrapper, the first line of a CANN log's run of one
process's errors, and a line that later lines quote word for word.

The rule ablation (`analyzers.ablation`) holds back every rule that reads a first error; these
tests do the same with `signatures_disabled`, or word the leading line as no rule words it.
Formats are CANN's, torch_npu's and torch's; codes, pids, times and reasons are made up.
"""

from __future__ import annotations

import pytest

from analyzers.ablation import rules_reading
from analyzers.classify.record_leads import is_bare_failure, record_states_reason
from analyzers.classify.rules import signatures_disabled
from analyzers.core.report import Diagnosis
from tests.analyzers.excerpts import diagnose_text

WRAPPER = (
    "[rank1]: RuntimeError: InnerRunOpApi:torch_npu/csrc/framework/OpParamMaker.cpp:495 OPS "
    "function error: HcclAllreduce, error code is 6\n"
    "[rank1]: [ERROR] 2026-02-20-04:04:28 (PID:2531699, Device:1, RankID:1) ERR01100 OPS call "
    "acl api failed.\n"
)
RECORD = (
    "[rank1]: EI0006: [PID: 2531699] 2026-02-20-04:04:28.999.536 Getting socket times out. "
    "Reason: Remote Rank did not send the data in time.\n"
)


def first_text(diagnosis: Diagnosis) -> str:
    assert diagnosis.first_error is not None
    return diagnosis.first_error.text


def test_a_record_in_unknown_wording_is_cited_before_the_wrapper_that_carries_it() -> None:
    held = rules_reading(RECORD.strip())
    assert "tail.cann_block_line" in held  # the form alone is read by a rule too

    with signatures_disabled(held):
        diagnosis = diagnose_text("rank1.log", WRAPPER + RECORD)

    assert "EI0006" in first_text(diagnosis)
    assert diagnosis.category == "hccl"  # the code's family names the communication library


def test_an_inner_error_headline_alone_does_not_lead() -> None:
    headline = "[rank1]: EZ9999: Inner Error!\n"
    with signatures_disabled(rules_reading(RECORD.strip())):
        diagnosis = diagnose_text("rank1.log", WRAPPER + headline)

    assert "OPS function error" in first_text(diagnosis)


def test_a_record_under_a_bare_headline_is_cited_before_the_headline() -> None:
    block = (
        "0.11.204.310 E CANN error: EZ9999: Inner Error!\n"
        "EZ9999[PID: 40112] 2026-05-06-07:08:09.100.200 AclNN_Inner_Error(EZ9999):  The tiling "
        "table of RotaryMix holds no entry for this shape!\n"
        "        TraceBack (most recent call last):\n"
        "        Check NnopbaseExecutorDoTiling(executor) failed\n"
    )
    with signatures_disabled(rules_reading(block.splitlines()[1])):
        diagnosis = diagnose_text("llama-server.log", block)

    assert "holds no entry for this shape" in first_text(diagnosis)


def test_a_caller_that_only_reports_a_code_does_not_outrank_the_record() -> None:
    block = (
        "[PID: 3310] 2026-05-14-09:41:07.512.880 Memory_Allocation_Failure(EL0004): The pool of "
        "the collective module ran dry.\n"
        "        TraceBack (most recent call last):\n"
        "        alloc memory failed, runtime result = 207001[FUNC:ReportCallError]"
        "[FILE:log_inner.cpp][LINE:148]\n"
    )
    with signatures_disabled(rules_reading(block.splitlines()[0])):
        diagnosis = diagnose_text("worker.log", block)

    assert "EL0004" in first_text(diagnosis)


PLOG_RUN = """\
[ERROR] OP(4410,python):2026-02-11-07:41:03.512.201 [op_bin.cc:88] No kernel archive holds \
MoeGatingTopKSoftmax for key 0/1/|float16/ND/float16/ND/
[ERROR] OP(4410,python):2026-02-11-07:41:03.512.260 [op_exec.cc:140] Kernel Run failed. \
opType: 31, MoeGatingTopKSoftmax
"""


def test_the_first_line_of_a_plog_run_leads_the_callers_that_report_it() -> None:
    diagnosis = diagnose_text("plog/plog-4410_20260211074103.log", PLOG_RUN)

    assert "No kernel archive holds" in first_text(diagnosis)


def test_a_plog_run_that_opens_with_a_bare_step_failure_keeps_its_reading() -> None:
    bare = PLOG_RUN.replace(
        "No kernel archive holds MoeGatingTopKSoftmax for key 0/1/|float16/ND/float16/ND/",
        "GetKernel failed.",
    )
    assert "GetKernel failed." in bare
    diagnosis = diagnose_text("plog/plog-4410_20260211074103.log", bare)

    assert "Kernel Run failed" in first_text(diagnosis)


def test_a_later_line_of_the_run_read_as_a_failure_of_its_own_decides() -> None:
    run = """\
[ERROR] RUNTIME(5120,python):2026-03-02-10:20:31.114.901 [engine.cc:1103]5120 \
ReportExceptProc:Task exception! device_id=1, stream_id=2, task_id=9, type=13, retCode=0x91
[ERROR] RUNTIME(5120,python):2026-03-02-10:20:31.114.990 [device_error_proc.cc:648]5120 \
PrintErrorInfo:Memory async copy failed, device_id=1, stream_id=4, task_id=17, copy_type=2
"""
    diagnosis = diagnose_text("plog/plog-5120_20260302102031.log", run)

    assert "Memory async copy failed" in first_text(diagnosis)


WATCHDOG = """\
[rank1]:[E324 13:00:25.428029551 compiler_depend.ts:660] [Rank 1] The ring stalled behind \
WorkHCCL(SeqNum=630, OpType=ALLREDUCE) for 9228580 milliseconds.
[rank1]:[E324 13:00:25.428092542 compiler_depend.ts:202] Some HCCL operations have failed or \
timed out. Due to the asynchronous nature of ASCEND kernels, subsequent NPU operations might run \
on corrupted/incomplete data.
[rank1]:[E324 13:00:25.429344265 compiler_depend.ts:9708] [Rank 1] HCCL watchdog thread \
terminated with exception: [Rank 1] The ring stalled behind WorkHCCL(SeqNum=630, \
OpType=ALLREDUCE) for 9228580 milliseconds.
"""


def test_a_line_that_later_lines_quote_is_what_they_report() -> None:
    diagnosis = diagnose_text("rank1.log", WATCHDOG)

    assert "compiler_depend.ts:660" in first_text(diagnosis)
    assert diagnosis.category == "hccl"


@pytest.mark.parametrize(
    ("line", "states_reason"),
    [
        ("EI0006: [PID: 25] 2026-02-20-04:04:28.999.536 Getting socket times out.", True),
        ("EZ9999[PID: 57] 2026-07-10-14:37:28.138.485 (EZ9999):  HCCL_BUFFSIZE is too SMALL", True),
        ("[PID: 56] 2026-09-15-07:30:08.505 Invalid_Argument(EE1001): The argument is bad", True),
        ("EH9999  [Init][Env]init env failed![FUNC:ReportInnerError][FILE:log_inner.cpp]", True),
        ("E10001: Value [1,3] for parameter [--input_shape] is invalid.", True),
        (
            "[PID: 959] 2026-08-06-05:15:23.957 Device_Absent/Abnormal(EL0001): Device not found",
            True,
        ),
        ("EZ9999: Inner Error!", False),
        ("AclNN_Runtime_Error(EZ9903):", False),
        ("EZ9999[PID: 42] 2026-02-03-04:05:06.070.080 (EZ9999):  [AIC_INFO] after execute", False),
        ("E1106 03:33:04.959369693 compiler_depend.ts:187] Warning: Waiting for pending", False),
        ("ERR01100 OPS call acl api failed.", False),
        ("EH9999[PID: 7] wait for compute device to finish failed, runtime result = 507035", False),
    ],
)
def test_an_error_manager_record_is_told_by_its_form(line: str, states_reason: bool) -> None:
    assert record_states_reason(line) is states_reason


@pytest.mark.parametrize(
    ("line", "bare"),
    [
        ("[5200][Wait][LinksEstablishCompleted] is failed. ret[9].", True),
        ("LaunchKernelV2:LaunchKernel failed.", True),
        ("MoeDistributeDispatchV2 do tiling failed, ret is -1.", True),
        ("aclrtLaunchKernelImpl:rtsLaunchKernel failed, runtime result = 507015.", True),
        ("FuncErrorReason:report error module_name=EE1001", True),
        ("rtGetDevMsg execute failed, reason=[context pointer null]", False),
        ("[5200][Wait][LinkEstablish]wait socket establish timeout, role[1] rank[3]", False),
        ("Cannot find bin of op MoeGatingTopKSoftmax, integral key 0/1", False),
    ],
)
def test_a_step_that_only_failed_states_no_reason(line: str, bare: bool) -> None:
    assert is_bare_failure(line) is bare
