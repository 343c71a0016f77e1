"""Native serving components write their own logs with a bracketed header and a level field:
ATB (the fused-operator library under MindIE, xLLM and lmdeploy's dicp backend) checks an
operation's input tensors on the host and logs the refusal, and MindIE's server logs that its
endpoint could not open the address it was configured with. Neither carries an error code a
caller would print; the header's level and the wording say what failed. C++ engines that check
an HCCL status with glog's CHECK_EQ print the HCCL return code left of `vs.`. Excerpts are in
those formats with values of our own; each is scanned and diagnosed end to end.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

ATB_INPUT_REFUSED = """\
[2026-03-02 11:12:13.455100] [info] [9021] [operation_base.cpp:301] RmsNormOperation infer shape start
[2026-03-02 11:12:13.456789] [error] [9021] [tensor_check.cpp:28] tensor dimNum 9 is invalid, should >0 && <= MAX_DIM(8)
[2026-03-02 11:12:13.457120] [error] [9021] [operation_base.cpp:182] RmsNormOperation inTensor [1] CheckTensorShape failed. ErrorType: 8
[2026-03-02 11:12:13.457131] [error] [9021] [operation_base.cpp:300] RmsNormOperation Check in tensor desc fail, ErrorType: 8
[2026-03-02 11:12:13.457139] [error] [9021] [operation_base.cpp:340] RmsNormOperation infer shape check fail, error code: 8
"""

ATB_CHECKS_PASSED = """\
[2026-03-02 11:12:13.455100] [info] [9021] [operation_base.cpp:301] RmsNormOperation infer shape start
[2026-03-02 11:12:13.455160] [debug] [9021] [operation_base.cpp:338] RmsNormOperation infer shape check success
"""

MINDIE_ENDPOINT = """\
[2026-04-01 08:09:10.111+08:00] [31] [402] [server] [ERROR] [http_server.cpp:163] : [MIE04E02041C] [endpoint] Failed to listen 10.1.2.3:1025, please check if business ip and port are legal.
[2026-04-01 08:09:10.112+08:00] [31] [36] [server] [INFO] [http_server.cpp:344] : [endpoint] Https server stop.
[2026-04-01 08:09:10.112+08:00] [31] [36] [server] [ERROR] [endpoint.cpp:99] : [MIE04E02011C] [endpoint] Failed to start http wrapper
"""

HCCL_LISTEN = """\
[ERROR] HCCL(7710,python3):2026-04-01-08:09:10.300.100 [hccl_socket.cc:532] [7710][HcclSocket][Listen] socket type[1], listen on ip[10.1.2.3] and specific port[60001] fail.
"""


def test_an_atb_operation_refusing_its_inputs_is_an_operator_failure() -> None:
    diagnosis = diagnose_text("atb/atb_9021_20260302111213.log", ATB_INPUT_REFUSED)
    assert_reads(
        diagnosis, "operator", first_error="tensor dimNum 9 is invalid", beside=("shape_mismatch",)
    )


def test_atb_lines_that_report_success_are_no_failure() -> None:
    diagnosis = diagnose_text("atb/atb_9021_20260302111213.log", ATB_CHECKS_PASSED)
    assert diagnosis.first_error is None


def test_a_server_that_cannot_open_its_address_is_a_setting_of_the_service() -> None:
    diagnosis = diagnose_text("mindie/log/debug/mindie-server.log", MINDIE_ENDPOINT)
    assert_reads(diagnosis, "config", first_error="Failed to listen 10.1.2.3:1025")


def test_the_collective_layer_failing_to_listen_stays_a_communication_failure() -> None:
    diagnosis = diagnose_text("plog/plog-7710_20260401080910.log", HCCL_LISTEN)
    assert diagnosis.category == "hccl"


def test_a_device_id_the_visible_set_does_not_hold_is_the_jobs_setting() -> None:
    """The guide's rule for refused visible-device values covers this CANN wording too; a
    host offering fewer NPUs than the job expects stays the alternative."""
    text = (
        "[ERROR] 2026-04-02-11:20:31 (PID:731, Device:0, RankID:-1) ERR00100 PTA call acl api failed\n"
        "[Error]: Invalid device ID.\n"
        "        Check whether the device ID is valid.\n"
        "EE1001: [PID: 731] 2026-04-02-11:20:31.118.204 The argument is invalid.Reason: Set visible "
        "device failed, invalid device=2, input visible devices:2\n"
        "        TraceBack (most recent call last):\n"
        "        rtSetDevice execute failed, reason=[device id error][FUNC:FuncErrorReason]"
        "[FILE:error_message_manage.cc][LINE:53]\n"
    )
    diagnosis = diagnose_text("serving/log.txt", text)
    assert_reads(diagnosis, "config", first_error="invalid device=2", beside=("driver_env",))


GLOG_HCCL_CHECK = """\
I20260105 10:11:12.120001 2210 worker_server.cpp:72] Create worker server with device: 3
F20260105 10:11:12.131415 2201 comm_setup.cpp:58] Check failed: ret == HCCL_SUCCESS (7 vs. 0) HcclCommInitRootInfo failed.
*** Check failure stack trace: ***
    @           0x6c1a2f  google::LogMessage::SendToLog()
    @           0x6be392  google::LogMessage::Flush()
"""

GLOG_ACL_CHECK = """\
F20260105 10:11:12.131415 2201 worker.cpp:91] Check failed: status == ACL_SUCCESS (507899 vs. 0) aclrtSetDevice failed.
*** Check failure stack trace: ***
"""


def test_a_glog_check_on_an_hccl_status_reads_the_hccl_return_code() -> None:
    diagnosis = diagnose_text("logs/node_0.log", GLOG_HCCL_CHECK)
    assert_reads(diagnosis, "hccl", first_error="HCCL_SUCCESS (7 vs. 0)")
    assert "HCCL_E_UNAVAIL" in diagnosis.error_codes


def test_a_glog_check_on_another_status_is_not_read_as_hccl() -> None:
    diagnosis = diagnose_text("logs/node_0.log", GLOG_ACL_CHECK)
    assert diagnosis.category != "hccl"


VLLM_ENGINE_REFUSAL = """\
(VllmWorkerProcess pid=5120) INFO 06-11 08:30:01 multiproc_worker_utils.py:215] Worker ready; processing jobs
(VllmWorkerProcess pid=5120) ERROR 06-11 08:30:04 multiproc_worker_utils.py:233] Block pool reports slot 41 owned by sequence 9 and sequence 12
ERROR 06-11 08:30:04 [engine.py:409] Engine step aborted; request queue drained
"""

VLLM_ENGINE_WARNINGS = """\
(VllmWorkerProcess pid=5120) INFO 06-11 08:30:01 multiproc_worker_utils.py:215] Worker ready; processing jobs
WARNING 06-11 08:30:04 [engine.py:409] Block pool reports slot 41 owned by sequence 9 and sequence 12
"""


def test_a_vllm_engine_line_marked_error_is_cited_even_in_unknown_wording() -> None:
    """vLLM's logger puts the level first, with or without its worker's tag (labelling.md,
    "First causal error": a line its writer marked ERROR in a level field)."""
    diagnosis = diagnose_text("logs/engine.log", VLLM_ENGINE_REFUSAL)
    assert diagnosis.first_error is not None
    assert "slot 41 owned by sequence 9" in diagnosis.first_error.text


def test_the_same_vllm_words_at_warning_level_are_no_first_error() -> None:
    diagnosis = diagnose_text("logs/engine.log", VLLM_ENGINE_WARNINGS)
    assert diagnosis.first_error is None
