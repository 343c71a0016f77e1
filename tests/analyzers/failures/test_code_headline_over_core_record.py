"""A runtime call's error-manager headline that gives only its return code, over the device's
record of the core that failed.

docs/labelling.md#wrappers: the headline (`EZ9903: ... rtXxx failed, runtime error code:
507035`) says a call failed and with what code; the device's core record in its TraceBack says
what failed, so that record is the first error. So is a runtime call reported with the code it
returned (`... failed, runtime result = 207000`), whatever that code alone would say, and an
aclnn launch that returned 507018 over the AI CPU's record of its exception. With no such
record the headline stays first.

The fixtures follow torch_npu's PTA block on an A2 serving node; pids, times, addresses and
the op are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

HEAD = (
    "[rank2]:[E301 10:11:12.000111222 compiler_depend.ts:429] operator():build/CMakeFiles/"
    "torch_npu.dir/compiler_depend.ts:32 NPU function error: call aclnnInplaceNormal failed, "
    "error code is 507035\n"
    "[ERROR] 2026-03-01-10:11:12 (PID:5150, Device:2, RankID:-1) ERR00100 PTA call acl api failed\n"
    "[Error]: The vector core execution is abnormal. \n"
    "        Rectify the fault based on the error information in the ascend log.\n"
    "EZ9903: [PID: 5150] 2026-03-01-10:11:12.004.321 rtGeneralCtrl failed, runtime error code: "
    "507035\n"
    "        Solution: In this scenario, collect the plog when the fault occurs and locate the "
    "fault based on the plog.\n"
    "        TraceBack (most recent call last):\n"
)

RECORD = (
    "        The error from device(chipId:2, dieId:0), serial number is 9, there is an exception "
    "of aivec error, core id is 6, error code = 0, dump info: pc start: 0x12c000010000, "
    "current: 0x12c000010200, vec error info: 0x11, mte error info: 0x22, cube error info: 0, "
    "para base: 0x12c240000400.[FUNC:ProcessStarsCoreErrorInfo][FILE:device_error_core_proc.cc]"
    "[LINE:303]\n"
)


def test_the_core_record_under_a_code_headline_is_the_first_error() -> None:
    diagnosis = diagnose_text("serve/worker_2.log", HEAD + RECORD)
    assert_reads(diagnosis, "aicore_timeout", first_error="there is an exception of aivec error")


def test_a_code_headline_with_no_record_stays_the_first_error() -> None:
    diagnosis = diagnose_text("serve/worker_2.log", HEAD)
    assert diagnosis.first_error is not None
    assert "rtGeneralCtrl failed, runtime error code: 507035" in diagnosis.first_error.text


# A runtime call reported with `runtime result = N` whose code alone names another label:
# 207000 reads "feature not supported" (config) when nothing else is known.
GRANULARITY = (
    "[ggml-cann.cpp:65] CANN error: EH9999: Inner Error!\n"
    "EH9999: 2026-02-01-10:20:30.400.500  Get Allocation Granularity failed, runtime result = "
    "207000[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]\n"
    "        TraceBack (most recent call last):\n"
)

AIVEC_RECORD = (
    "        The error from device(chipId:0, dieId:0), serial number is 4, there is an aivec "
    "error exception, core id is 11, error code = 0, dump info: pc start: 0x1240c0000100, "
    "current: 0x1240c0000180\n"
)


def test_a_call_after_a_core_stopped_yields_to_the_core_record_whatever_its_code() -> None:
    diagnosis = diagnose_text("serve/llama-box.log", GRANULARITY + AIVEC_RECORD)
    assert_reads(
        diagnosis,
        "aicore_timeout",
        first_error="there is an aivec error exception, core id is 11",
        beside=("config",),
    )


def test_the_call_alone_is_read_by_its_code() -> None:
    diagnosis = diagnose_text("serve/llama-box.log", GRANULARITY)
    assert_reads(diagnosis, "config", first_error="Get Allocation Granularity failed")


# The same headline over the device's record of an AI CPU kernel that raised: an aclnn launch
# reported with the code it returned (507018), then, in its TraceBack, the device's account of
# the AI CPU task and the runtime's restatement. The record says what failed; the label is the
# device's (an AI CPU exception reads like an AI Core one), the launch's own reading beside it.
AICPU_HEAD = (
    "[E711 04:05:06.123456789 compiler_depend.ts:444] operator():build/CMakeFiles/torch_npu.dir/"
    "compiler_depend.ts:176 NPU function error: call aclnnGatherV3 failed, error code is 507018\n"
    "[ERROR] 2026-07-11-04:05:06 (PID:3120, Device:1, RankID:-1) ERR00100 PTA call acl api failed\n"
    "[Error]: The aicpu execution is abnormal. \n"
    "        Rectify the fault based on the error information in the ascend log.\n"
    "[PID: 3120] 2026-07-11-04:05:06.101.202 AclNN_Runtime_Error(EZ9903): "
    "aclrtLaunchKernelWithHostArgs failed, return: 507018\n"
    "        Solution: In this scenario, collect the plog when the fault occurs and locate the "
    "fault based on the plog.\n"
    "        TraceBack (most recent call last):\n"
)

AICPU_RECORD = (
    "        The error from device(chipId:1, dieId:0), serial number is 12, an exception occurred "
    "during AICPU execution, stream_id:4, task_id:27, errcode:21008, msg:inner error."
    "[FUNC:ProcessStarsAicpuErrorInfo][FILE:device_error_proc.cc][LINE:1576]\n"
    "        Kernel task happen error, retCode=0x2a, [aicpu exception]."
    "[FUNC:PreCheckTaskErr][FILE:davinci_kernel_task.cc][LINE:1493]\n"
)


def test_an_aicpu_record_under_a_launch_headline_is_the_first_error() -> None:
    diagnosis = diagnose_text("bench/kernels.log", AICPU_HEAD + AICPU_RECORD)
    assert_reads(
        diagnosis,
        "aicore_timeout",
        first_error="an exception occurred during AICPU execution",
        beside=("operator",),
    )


def test_a_launch_headline_with_no_aicpu_record_stays_the_first_error() -> None:
    diagnosis = diagnose_text("bench/kernels.log", AICPU_HEAD)
    assert diagnosis.first_error is not None
    assert "aclrtLaunchKernelWithHostArgs failed, return: 507018" in diagnosis.first_error.text
