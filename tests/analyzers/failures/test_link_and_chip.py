"""Short pastes whose cause is a link, a chip or a model built for another chip: a RoCE error
CQE under a collective, a torch_npu inner error raised by a collective operator, an offline
model compiled for another SoC, and a runtime that cannot tell which chip it is on.

Fixtures are written here in the shapes CANN, torch_npu and glog print (plog header, screen
error-manager block, PTA APP line, glog with the year); hosts, ids and times are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_files


def test_roce_error_cqe_on_screen_and_in_plog_is_an_hccl_link_failure() -> None:
    screen = (
        "[PID: 70211] 2026-04-18-03:12:40.518.002 Execution Error ROCE CQE(EI0013): An error "
        "CQE occurred during operator execution. Local information: server 10.8.1.3, device "
        "ID 5, device IP 10.9.1.3. Peer information: server 10.8.1.4, device ID 5, device IP "
        "10.9.1.4.\n"
        "Possible Cause: 1. The link between the two devices dropped packets.\n"
    )
    plog = "".join(
        f"[ERROR] ROCE(70211,python):2026-04-18-03:12:40.51{i}.100 [hns_roce_lite.c:630]"
        f"hns_roce_lite_handle_error_cqe(630) : error cqe status: 0x15\n"
        for i in range(3)
    )
    for files in ({"screen.log": screen}, {"plog/plog-70211_1.log": plog}):
        diagnosis = diagnose_files(files)
        assert diagnosis.category == "hccl"
        assert diagnosis.first_error is not None
        assert "CQE" in diagnosis.first_error.text or "cqe" in diagnosis.first_error.text


def test_watchdog_carrying_the_named_error_cqe_is_read_as_the_link_failure() -> None:
    # torch_npu's watchdog quotes the error manager's EI0013 message in its own line, under
    # the underscore name; the CQE, not the watchdog, is what failed.
    wrapped = (
        "[rank5]:[E0607 10:02:11.400100200 compiler_depend.ts:1795] To avoid data "
        "inconsistency, we are taking the entire process down.\n"
        "[rank5]:[E0607 10:02:11.400131700 compiler_depend.ts:1693] [Rank 5] HCCL watchdog "
        "thread terminated with exception: [PID: 88] 2026-06-07-10:02:11.512.007 "
        "Execution_Error_ROCE_CQE(EI0013): An error CQE occurred during operator execution. "
        "Local information: server 10.2.0.8, device ID 6, device IP 10.3.0.8. Peer "
        "information: server 10.2.0.9, device ID 6, device IP 10.3.0.9.\n"
        "        Possible Cause: 1. The network between two devices is abnormal.\n"
    )
    diagnosis = diagnose_files({"serve/engine.log": wrapped})
    assert_reads(diagnosis, "hccl", first_error="Execution_Error_ROCE_CQE(EI0013)")
    assert "CQE" in diagnosis.root_cause
    assert diagnosis.confidence >= 0.8
    assert "driver_env" in alternative_labels(diagnosis)


def test_watchdog_carrying_a_timeout_is_not_read_as_an_error_cqe() -> None:
    timeout = (
        "[rank5]:[E0607 10:02:11.400131700 compiler_depend.ts:1693] [Rank 5] HCCL watchdog "
        "thread terminated with exception: [Rank 5] Watchdog caught collective operation "
        "timeout: WorkHCCL(SeqNum=41, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800021 "
        "milliseconds before timing out.\n"
    )
    diagnosis = diagnose_files({"serve/engine.log": timeout})
    assert diagnosis.category == "hccl"
    assert "CQE" not in diagnosis.root_cause


def test_inner_error_naming_a_collective_operator_is_hccl_not_operator() -> None:
    text = "".join(
        f"[ERROR] APP(5120,):2026-05-01-08:00:0{i}.100.200 [log_inner.cpp:78]5133 "
        'build/CMakeFiles/torch_npu.dir/compiler_depend.ts:Enqueue:526: "[PTA]:"Inner error '
        "happened with CAN_EXIT status, detail: the current working operator name is "
        'HcclReduceScatter""\n'
        for i in range(3)
    )
    diagnosis = diagnose_files({"node1/plog.log": text})
    assert diagnosis.category == "hccl"


def test_inner_error_naming_a_compute_operator_stays_operator() -> None:
    text = (
        "RuntimeError: The Inner error is reported as above. The process exits for this inner "
        "error, and the current working operator name is aclnnSoftmax.\n"
    )
    assert diagnose_files({"serve.log": text}).category != "hccl"


def test_offline_model_built_for_another_soc_is_a_config_mismatch() -> None:
    text = (
        "[INFO] acl init success\n"
        "[INFO] open device 0 success\n"
        "[ACL ERROR] EE1001: [PID: 918] 2026-02-11-09:30:00.100.200 The argument is invalid."
        "Reason: ModelCheckCompatibility failed, supported socVersion=Ascend310P3, but the "
        "model socVersion=Ascend910B4\n"
        "        Solution: 1.Check the input parameter range of the function.\n"
        "        TraceBack (most recent call last):\n"
        "        rtModelCheckCompatibility execute failed, reason=[soc version error]"
        "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]\n"
    )
    diagnosis = diagnose_files({"infer.log": text})
    assert_reads(diagnosis, "config", first_error="ModelCheckCompatibility failed")


def test_chip_not_recognised_in_glog_lines_with_the_year_is_environment() -> None:
    text = (
        "I20260311 09:15:01.000100 281470001112222 FileUtils.cpp:339] The input file is empty\n"
        "E20260311 09:15:02.330100 281470001112222 Dvpp.cpp:120] Failed to recognize Ascend "
        'chip. (Code = -1, Message = "ACL: general failure")\n'
        "E20260311 09:15:02.330200 281470001112222 Dvpp.cpp:188] Decode failed. "
        '(Code = -1, Message = "ACL: general failure")\n'
        "Traceback (most recent call last):\n"
        '  File "/srv/app/run.py", line 9, in <module>\n'
        "RuntimeError: [-1][ACL: general failure]\n"
    )
    diagnosis = diagnose_files({"app.log": text})
    assert_reads(diagnosis, "driver_env", first_error="Failed to recognize Ascend chip")


def test_graph_engine_allocation_failure_under_an_operator_is_oom() -> None:
    prefix = "ERROR 05-12 10:04:31 [runner.py:88] "
    text = "".join(
        f"{prefix}{line}\n"
        for line in (
            "        Call rtMalloc fail, purpose: feature map, type = 2, size:2147483648, "
            "device_id:1[FUNC:Alloc][FILE:device_allocator.cc][LINE:72]",
            "        [Exec][Op]Execute op failed. op type = MatMul, ge result = 4294967295"
            "[FUNC:ReportCallError][FILE:acl_op_executor_log_inner.cpp][LINE:124]",
            "RuntimeError: The Inner error is reported as above. The process exits for this "
            "inner error, and the current working operator name is MatMul.",
        )
    )
    diagnosis = diagnose_files({"worker.log": text})
    assert_reads(diagnosis, "oom", first_error="Call rtMalloc fail")
