"""Log shapes quoted on vendor troubleshooting pages and forum posts: lines without a level
field or error word (an HCCL op-retry ack from the wrong server, an AI Core report's
conclusion), a grep hit whose path and line number precede a device kernel line, a plog
SDMA copy failure followed by a generic stream-synchronize tail, and torch_npu's lookup of
a CANN function the toolkit lacks. Fixtures are written here in those formats.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# HCCL op-retry link set-up as printed without a log prefix: the ack line has no error word;
# the advice text below it quotes the same words and must not be taken for the failure.
OPRETRY_ACK = """\
[OpRetryConnection][RecvAckTag] Recv unmatched ack  [2790014455] expect [16]
call trace: hcclRet -> 4
[OpRetryConnection][Init] Connect to server failed, serverIp_[10.3.0.21]  serverPort [60000]
[OpRetryConnection][Init] group[hccl_world_group] rankId [3] rankSize [16] serverIp [10.3.0.21] localIp [10.3.0.22] rootRank [0] failed
There maybe some reasons to cause this error:
   1. The port may have been used so we will bind error.
     and we will meet: 'Recv unmatched ack' error
"""

# A plog: the runtime reports the task exception, the SDMA error banner and the failed copy,
# then the stream synchronize that observed it.
SDMA_COPY = """\
[ERROR] RUNTIME(5120,python):2026-03-02-10:20:31.114.901 [engine.cc:1103]5120 ReportExceptProc:Task exception! device_id=1, stream_id=2, task_id=9, type=13, retCode=0x91, [the model stream execute failed].
[ERROR] RUNTIME(5120,python):2026-03-02-10:20:31.114.980 [device_error_proc.cc:648]5120 ProcessSdmaErrorInfo:report error module_type=3, module_name=EE8888
[ERROR] RUNTIME(5120,python):2026-03-02-10:20:31.115.402 [task.cc:1582]5120 PrintErrorInfo:Memory async copy failed, device_id=1, stream_id=4, task_id=17, flip_num=0, copy_type=2, memcpy_type=0, copy_data_type=0, length=8192.
[ERROR] RUNTIME(5120,python):2026-03-02-10:20:31.115.711 [stream.cc:929]5120 GetError:Stream Synchronize failed, stream_id=2, retCode=0x91, [the model stream execute failed].
"""

# `grep -rn` over a collected slog tree: path:line: before an EVENT-level kernel line that
# carries the driver's own [ERROR].
VM_FAULT_GREP = """\
2026-01-14-09-40-55/slog/dev-os-3/debug/device-os/device-os_20260114093301112.log:208:[EVENT] KERNEL(2210,sklogd):2026-01-14-09:41:07.338.120 [klogd.c:253][1187.204411] [ascend] [ERROR] [devmm] [devmm_svm_device_fault 438] <kworker/u16:3:701,701> Vm fault failed. (hostpid=51220; devid=3; vfid=0; ret=64; fault_addr=0x12410a200000; start=0x12410a200000)
"""

# The conclusion of an AI Core error report, then its memory section; no error word anywhere.
ARGS_REPORT = """\
"**********************Root cause conclusion******************"
If the arguments are inconsistent before and after operator execution, memory access may be out of bounds.
****************4. Operator Input/Output Memory*******************
input[0] addr: 0x124080090000 end_addr:0x124080090400 size: 0x400
args before execute: [[0x124080090000, 0x1240800a0000, 0x1240800b0000]]
args after execute: [[0x124080090000, 0x0, 0x0]]
"""

SYMBOL_LOOKUP = """\
Traceback (most recent call last):
  File "/opt/app/train.py", line 41, in <module>
    torch.distributed.init_process_group(backend="hccl")
RuntimeError: Failed to find function HcclCommSetMemoryRange
"""


def test_an_op_retry_ack_from_a_wrong_server_is_the_hccl_cause() -> None:
    diagnosis = diagnose_text("plog/plog-77_20260211031407.log", OPRETRY_ACK)
    assert_reads(diagnosis, "hccl", first_error="Recv unmatched ack  [2790014455]")


def test_an_sdma_copy_failure_outranks_the_stream_synchronize_tail() -> None:
    diagnosis = diagnose_text("plog/plog-5120_20260302102031.log", SDMA_COPY)
    assert_reads(diagnosis, "device_fault", first_error="ProcessSdmaErrorInfo")


def test_a_grep_hit_on_a_device_page_fault_is_a_device_fault() -> None:
    diagnosis = diagnose_text("grep_result.txt", VM_FAULT_GREP)
    assert_reads(diagnosis, "device_fault", first_error="Vm fault failed")


def test_an_ai_core_report_on_overwritten_arguments_names_the_kernel_failure() -> None:
    diagnosis = diagnose_text("aicerror/info.txt", ARGS_REPORT)
    assert_reads(diagnosis, "aicore_timeout", first_error="inconsistent before and after")


def test_a_missing_cann_entry_point_is_a_version_fit_problem() -> None:
    diagnosis = diagnose_text("train.log", SYMBOL_LOOKUP)
    assert_reads(diagnosis, "config", first_error="HcclCommSetMemoryRange")


# docs/labelling.md#config-driver_env-or-weight_load: the versions are the answer, the host's
# toolkit the alternative.
COMM_INIT_LOOKUP = "RuntimeError: Failed to find function HcclCommInitClusterInfoConfig\n"


def test_a_missing_cann_entry_point_offers_the_host_toolkit_as_alternative() -> None:
    diagnosis = diagnose_text("worker_3.log", COMM_INIT_LOOKUP)
    assert diagnosis.category == "config"
    assert "driver_env" in {alt.category for alt in diagnosis.alternatives}


def test_a_warning_about_an_optional_cann_function_offers_nothing() -> None:
    text = "[W AclInterface.cpp:95] Warning: 0Failed to find function aclrtGetDeviceInfoEx (function operator())\n"
    diagnosis = diagnose_text("worker_3.log", text)
    assert diagnosis.category != "config"
