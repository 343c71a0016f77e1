"""Pasted NPU failures whose first lines only wrap the cause: the FFTS+ timeout under a
synchronize (read like its code), a bare `The argument is invalid.` headline above its
TraceBack, a pinned-memory query of a non-blocking copy that the platform refuses (`config`;
counterexample: an ordinary host copy's refused arguments), and a communicating op's aclnn
call whose block says HCCL under it timed out.

Fixtures are written here in the shapes vLLM workers and torch_npu print (worker prefix,
PTA summary, CANN error-manager block); the values are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

WORKER = "(VllmWorker TP3 pid=4417) ERROR 03-02 17:40:51 [multiproc_executor.py:611] "


def worker_log(lines: list[str]) -> str:
    return "".join(f"{WORKER}{line}\n" for line in lines)


def test_fftsplus_reason_under_a_sync_is_read_like_its_code() -> None:
    """docs/labelling.md#code-only-synchronize-failures: `reason=[fftsplus timeout]` is the
    runtime's name for 507048, so the synchronize is a collective's wait; the device task
    stays on offer as an alternative."""
    text = worker_log(
        [
            "RuntimeError: operator():build/CMakeFiles/torch_npu.dir/compiler_depend.ts:47 NPU "
            "function error: c10_npu::acl::AclrtSynchronizeStreamWithTimeout(copy_stream), "
            "error code is 507048",
            "[ERROR] 2026-03-02-17:40:51 (PID:4417, Device:3, RankID:-1) ERR00100 PTA call acl "
            "api failed",
            "[Error]: The execution of the internal task times out. ",
            "EH9999: Inner Error!",
            "        rtStreamSynchronizeWithTimeout execute failed, reason=[fftsplus timeout]"
            "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]",
            "EH9999: [PID: 4417] 2026-03-02-17:40:51.208.931 synchronize stream failed, runtime "
            "result = 507048[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]",
            "        TraceBack (most recent call last):",
        ]
    )
    diagnosis = diagnose_text("serve/worker.log", text)
    assert_reads(diagnosis, "hccl", first_error="507048", beside=("aicore_timeout",))


def test_collective_notify_timeout_still_reads_as_hccl_next_to_507048() -> None:
    text = worker_log(
        [
            "RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:"
            "479 NPU function error: AclrtSynchronizeDeviceWithTimeout, error code is 507048",
            "EI0002: [PID: 4417] 2026-03-02-17:40:51.208.931 The wait execution of the Notify "
            "register times out. Reason: The Notify register has not received the Notify record "
            "from remote rank: [unknown]. base information: [streamID:[3], taskID[902], "
            "tag[AllReduce_group_name_12]]",
        ]
    )
    diagnosis = diagnose_text("serve/worker.log", text)
    assert diagnosis.category == "hccl"


def test_bare_invalid_argument_headline_yields_to_the_call_that_failed() -> None:
    text = worker_log(
        [
            "RuntimeError: process_non_blocking_copy:build/CMakeFiles/torch_npu.dir/"
            "compiler_depend.ts:246 NPU function error: aclrtPointerGetAttributes, error code is "
            "107000",
            "[ERROR] 2026-03-02-17:40:51 (PID:4417, Device:3, RankID:-1) ERR00100 PTA call acl "
            "api failed",
            "[Error]: Parameter verification failed.",
            "[PID: 4417] 2026-03-02-17:40:51.208.931 Invalid_Argument(EL0003): The argument is "
            "invalid.",
            "        Solution: Try again with a valid argument.",
            "        TraceBack (most recent call last):",
            "        rtsPointerGetAttributes execution failed, reason=driver error:invalid value"
            "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:61]",
        ]
    )
    diagnosis = diagnose_text("serve/worker.log", text)
    assert diagnosis.first_error is not None
    assert "The argument is invalid." not in diagnosis.first_error.text
    assert "aclrtPointerGetAttributes, error code is 107000" in diagnosis.first_error.text


# A pinned-memory query refused by a platform whose driver cannot answer it for host memory.
HOST_POINTER_QUERY_REFUSED = [
    "RuntimeError: process_non_blocking_copy:build/CMakeFiles/torch_npu.dir/"
    "compiler_depend.ts:231 NPU function error: aclrtPointerGetAttributes, error code is 107000",
    "[ERROR] 2026-07-01-08:12:40 (PID:5521, Device:0, RankID:-1) ERR00100 PTA call acl api failed",
    "[PID: 5521] 2026-07-01-08:12:40.301.118 Invalid_Argument(EL0003): The argument is invalid.",
    "        TraceBack (most recent call last):",
    "        rtsPointerGetAttributes execution failed, reason=driver error:invalid value"
    "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:61]",
]


def test_a_refused_pinned_memory_query_is_the_platform_path() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load: the query torch_npu makes before a
    non-blocking copy, refused for host memory, is a platform the release has no path for."""
    diagnosis = diagnose_text("serve/worker.log", worker_log(HOST_POINTER_QUERY_REFUSED))
    assert_reads(diagnosis, "config", first_error="aclrtPointerGetAttributes, error code is 107000")
    assert {"driver_env", "operator"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_refused_host_copy_is_not_the_pinned_memory_query() -> None:
    """Counterexample: an ordinary host copy whose arguments the runtime refuses."""
    lines = [
        line.replace("aclrtPointerGetAttributes", "aclrtMemcpyAsync").replace(
            "rtsPointerGetAttributes", "rtMemcpyAsync"
        )
        for line in HOST_POINTER_QUERY_REFUSED
    ]
    diagnosis = diagnose_text("serve/worker.log", worker_log(lines))
    assert diagnosis.category != "config", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert "PointerGetAttributes" not in diagnosis.first_error.text


def dispatch_failure(block_line: str) -> str:
    return worker_log(
        [
            "RuntimeError: npu_moe_distribute_dispatch: build/CMakeFiles/torch_npu.dir/"
            "compiler_depend.ts:162 NPU function error: call aclnnMoeDistributeDispatchV3 failed, "
            "error code is 561000",
            "[ERROR] 2026-03-02-17:40:51 (PID:4417, Device:3, RankID:-1) ERR00100 PTA call acl "
            "api failed.",
            block_line,
            "        Solution: 1. Check the rank service processes with other errors or no errors "
            "in the cluster.",
        ]
    )


def test_a_dispatch_call_whose_block_says_hccl_timed_out_is_hccl() -> None:
    """docs/labelling.md#wrappers: the aclnn call's code is a summary; the error manager's
    socket timeout printed under it says what failed, and an op that only asked HCCL for its
    communication is `hccl` (the operator stays on offer)."""
    text = dispatch_failure(
        "[PID: 4417] 2026-03-02-17:40:51.208.931 Communication_Error_Get_Socket(EI0006): Getting "
        "socket times out. Reason: No abnormal periods were discovered."
    )
    diagnosis = diagnose_text("serve/worker.log", text)
    assert_reads(diagnosis, "hccl", first_error="EI0006", beside=("operator",))


def test_a_dispatch_call_whose_block_states_an_op_reason_stays_the_operators() -> None:
    """Counterexample: the same call with a parameter check under it and no HCCL line is the
    op's own failure."""
    text = dispatch_failure(
        "[PID: 4417] 2026-03-02-17:40:51.208.931 Invalid_Input(EZ0004): Parameter scales of "
        "MoeDistributeDispatchV3 is required, but it is empty."
    )
    diagnosis = diagnose_text("serve/worker.log", text)
    assert diagnosis.category == "operator"
