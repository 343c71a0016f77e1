"""An AI CPU exception whose error-manager block recorded a notify wait that ran out.

docs/labelling.md#ai-cpu-exceptions-that-carry-a-notify-wait-timeout: HCCL runs a
collective's notify waits as AI CPU tasks, so a 507018 reported to the next kernel launch,
with the EI0002 record of the wait in the same block, is the collective's failure (`hccl`);
without that record, or when a core is named, the exception keeps `aicore_timeout`.

The fixtures follow the operator log and PTA summary shapes torch_npu prints on A3 serving
nodes (`[ERROR] OP(pid,):<time> [file:line][NNOP][...]`, the PTA block with the error
manager's record appended); pids, op ids and times are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

LAUNCH = (
    "[ERROR] OP(7104,):2026-05-02-10:20:30.418.020 [rts_arg.cpp:871][NNOP][LaunchKernelFromCache]"
    "[7150] errno[361001] OpName:[aclnnGroupedMatmul_8812_GroupedMatmul] "
    "aclrtLaunchKernelWithHostArgs failed: 507018\n"
    "[ERROR] OP(7104,):2026-05-02-10:20:30.418.051 [rts_arg.cpp:952][NNOP][RunFromCache][7150] "
    "errno[361001] OpName:[aclnnGroupedMatmul_8812_GroupedMatmul] Kernel launch from cache failed.\n"
    '[ERROR] APP(7104,):2026-05-02-10:20:30.419.377 7150 ExecFuncOpApi:OpParamMaker.cpp:458: "[PTA]:'
    '"Custom hand error:operator():../third_party/op-plugin/op_plugin/utils/op_api_common.h:192 '
    "NPU function error: call failed, error code is 507018\n"
    "[ERROR] 2026-05-02-10:20:30 (PID:7104, Device:5, RankID:-1) ERR00100 PTA call acl api failed\n"
    "[Error]: The aicpu execution is abnormal. \n"
    "        Rectify the fault based on the error information in the ascend log.\n"
)

NOTIFY_RECORD = (
    "[PID: 7104] 2026-05-02-10:20:30.417.209 Communication_Error_Timeout(EI0002): An timeout "
    "occurs when the Notify register waits for execution. Waiting peer end: 4294967295\n"
)


def test_an_aicpu_exception_with_a_notify_wait_record_is_the_collective() -> None:
    diagnosis = diagnose_text("node/p_node.log", LAUNCH + NOTIFY_RECORD)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Communication_Error_Timeout(EI0002)",
        beside=("aicore_timeout",),
    )


def test_an_aicpu_exception_alone_stays_a_device_kernel_failure() -> None:
    diagnosis = diagnose_text("node/p_node.log", LAUNCH)
    assert_reads(diagnosis, "aicore_timeout", first_error="507018")


# A process group's watchdog line that names the collective library: the bundle shows a
# collective, so the AI CPU exception could be one of its tasks.
HCCL_WATCHDOG = (
    "[rank3]:[E623 17:20:44.503368705 ProcessGroupHCCL.cpp:1869] [Rank 3] HCCL watchdog "
    "thread terminated with exception: \n"
)


def test_an_aicpu_exception_with_nothing_of_a_collective_does_not_offer_hccl() -> None:
    """No HCCL line, no collective op, no notify wait: the guide makes `hccl` the reading
    only with such evidence, so it is not offered beside the kernel's failure."""
    diagnosis = diagnose_text("node/p_node.log", LAUNCH)
    assert "hccl" not in {alternative.category for alternative in diagnosis.alternatives}


def test_an_aicpu_exception_beside_a_collective_line_offers_hccl() -> None:
    diagnosis = diagnose_text("node/p_node.log", LAUNCH + HCCL_WATCHDOG)
    assert diagnosis.category == "aicore_timeout"
    hccl = next(alt for alt in diagnosis.alternatives if alt.category == "hccl")
    assert hccl.score < diagnosis.confidence


def test_a_vector_core_exception_next_to_a_notify_record_keeps_the_core() -> None:
    text = (
        "[ERROR] RUNTIME(7104,python3):2026-05-02-10:20:30.416.900 [task_info.cc:1067]7104 "
        "Kernel task happen error, retCode=0x31, [vector core exception].\n" + NOTIFY_RECORD
    )
    diagnosis = diagnose_text("node/p_node.log", text)
    assert_reads(diagnosis, "aicore_timeout", first_error="vector core exception")


def test_the_runtime_reason_for_an_aicpu_exception_is_read_as_a_core_failure() -> None:
    text = (
        "EH9999: Inner Error!\n"
        "        rtDeviceSynchronizeWithTimeout execute failed, reason=[aicpu exception]"
        "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]\n"
        "EH9999: [PID: 30411] 2026-02-11-06:16:22.730.302 wait for compute device to finish "
        "failed, runtime result = 507018.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]\n"
    )
    diagnosis = diagnose_text("node/worker.log", text)
    assert diagnosis.category == "aicore_timeout"


def test_the_runtime_reason_steps_aside_for_a_notify_record_in_its_block() -> None:
    """docs/labelling.md#code-only-synchronize-failures: the synchronize under the reason
    steps aside too."""
    text = (
        "EI0002: [PID: 30411] 2026-02-11-06:16:21.904.115 The wait execution of the Notify "
        "register times out. Reason: The Notify register has not received the Notify record "
        "from remote rank: [unknown].\n"
        "        TraceBack (most recent call last):\n"
        "        rtStreamSynchronize execute failed, reason=[aicpu exception]"
        "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]\n"
        "        synchronize stream failed, runtime result = 507018"
        "[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]\n"
    )
    diagnosis = diagnose_text("node/worker.log", text)
    assert_reads(diagnosis, "hccl", first_error="Notify register times out")


KERNEL_LIBRARY_NOT_OPENED = """\
call aclnnUnique2 failed, detail:E39999: Inner Error!
E39999: [PID: 30512] 2026-01-14-08:21:55.310.402 The error from device(chipId:3, dieId:0), serial number is 12, an exception occurred during AICPU execution, stream_id:9, task_id:611, errcode:11002, msg:open so failed.[FUNC:ProcessStarsAicpuErrorInfo][FILE:device_error_proc.cc][LINE:1479]
        TraceBack (most recent call last):
       Kernel task happen error, retCode=0x2a, [aicpu exception].[FUNC:PreCheckTaskErr][FILE:davinci_kernel_task.cc][LINE:1356]
       Aicpu kernel execute failed, device_id=3, stream_id=9, task_id=611, errorCode=2a.[FUNC:PrintAicpuErrorInfo][FILE:davinci_kernel_task.cc][LINE:1120]
"""


def test_an_aicpu_kernel_library_that_does_not_open_offers_the_installation() -> None:
    diagnosis = diagnose_text("serve.log", KERNEL_LIBRARY_NOT_OPENED)
    assert_reads(diagnosis, "aicore_timeout", first_error="msg:open so failed")
    offered = {alternative.category for alternative in diagnosis.alternatives}
    assert "driver_env" in offered
    assert "hccl" not in offered


AICPU_INNER_ERROR = KERNEL_LIBRARY_NOT_OPENED.replace(
    "errcode:11002, msg:open so failed", "errcode:21003, msg:inner error"
)


def test_an_aicpu_exception_with_another_message_does_not_offer_the_installation() -> None:
    diagnosis = diagnose_text("serve.log", AICPU_INNER_ERROR)
    assert diagnosis.category == "aicore_timeout"
    assert "driver_env" not in {alternative.category for alternative in diagnosis.alternatives}


def test_the_error_managers_aicpu_record_offers_hccl_only_beside_a_collective() -> None:
    alone = diagnose_text("serve.log", AICPU_INNER_ERROR)
    beside = diagnose_text("serve.log", AICPU_INNER_ERROR + HCCL_WATCHDOG)
    assert alone.category == beside.category == "aicore_timeout"
    assert alone.confidence == beside.confidence
    assert "hccl" not in {alternative.category for alternative in alone.alternatives}
    assert "hccl" in {alternative.category for alternative in beside.alternatives}
