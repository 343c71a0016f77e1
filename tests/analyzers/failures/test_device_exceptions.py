"""Device-side kernel failures in formats the newer CANN block does not cover.

- The older exception-stream block (`DEVICE[n] PID[p]:` / `EXCEPTION STREAM:` / `Message
  info[0]:RTS_HWTS: ...`) printed before the Python traceback: the hardware task scheduler's
  line names the failure, the traceback only says the inner error was reported above.
- A C/C++ harness or runtime wrapper that checks each ACL call itself and prints
  `aclrtXxx failed: <code>` with no CANN block: the code says what happened.
- A CANN block that opens with the `[AIC_INFO]` argument dump: the dump is not the message,
  the faulting-kernel line below it is, in the older wording (`Aicore kernel execute failed`)
  and in CANN 9's (`AI Core kernel execution failed`).
- The exception-stream block printed after the error manager's TraceBack (310P serving
  logs): the synchronize wait's `runtime result = N` line above it only restates the
  device's record, which is the first error; without such a record the wait's code decides.
Fixtures are written for these tests in the real shapes, with their own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

HWTS_AICORE = """\
DEVICE[2] PID[4117]: 
EXCEPTION STREAM:
  Exception info:TGID=88012, model id=65535, stream id=5, stream phase=3
  Message info[0]:RTS_HWTS: aicore exception, slot_id=12, stream_id=5
    Other info[0]:time=2025-03-14-08:21:07.330.514, function=int_process_hwts_task_exception, line=296, error code=0x26
Traceback (most recent call last):
  File "/opt/train/run_sft.py", line 88, in <module>
    trainer.train()
  File "/usr/local/lib/python3.10/site-packages/transformers/trainer.py", line 1780, in train
    return inner_training_loop(
RuntimeError: The Inner error is reported as above.
"""

HWTS_SDMA = """\
(EngineCore_DP0 pid=902) DEVICE[1] PID[902]: 
(EngineCore_DP0 pid=902) EXCEPTION STREAM:
(EngineCore_DP0 pid=902)   Exception info:TGID=55120, model id=65535, stream id=2, stream phase=3
(EngineCore_DP0 pid=902)   Message info[0]:RTS_HWTS: hwts sdma error, slot_id=6, stream_id=2
(EngineCore_DP0 pid=902)     Other info[0]:time=2025-12-01-10:02:44.120.300, function=int_process_hwts_sdma_error, line=1381, error code=0x20b
(EngineCore_DP0 pid=902) RuntimeError: The Inner error is reported as above.
"""

SYNC_WAIT_THEN_HWTS = """\
(EngineCore_DP0 pid=733)         rtDeviceSynchronizeWithTimeout execute failed, reason=[sdma copy error][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]
(EngineCore_DP0 pid=733)         wait for compute device to finish failed, runtime result = 507013.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]
(EngineCore_DP0 pid=733) 
(EngineCore_DP0 pid=733) DEVICE[0] PID[733]: 
(EngineCore_DP0 pid=733) EXCEPTION STREAM:
(EngineCore_DP0 pid=733)   Exception info:TGID=40218, model id=65535, stream id=1, stream phase=3
(EngineCore_DP0 pid=733)   Message info[0]:RTS_HWTS: hwts sdma error, slot_id=4, stream_id=1
(EngineCore_DP0 pid=733)     Other info[0]:time=2025-10-02-07:12:30.551.019, function=int_process_hwts_sdma_error, line=1381, error code=0x20b
"""

SYNC_WAIT_ALONE = """\
(EngineCore_DP0 pid=733) EH9999: Inner Error!
(EngineCore_DP0 pid=733)         rtDeviceSynchronizeWithTimeout execute failed, reason=[sdma copy error][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]
(EngineCore_DP0 pid=733)         wait for compute device to finish failed, runtime result = 507013.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]
"""

HARNESS_AICPU = """\
Loader: [aicpu_loader.cpp:140] Loader: aclrtSynchronizeStream failed: 507018
run_case: [runner.cpp:377] Loader::Bootstrap failed: 507018
"""

AIC_INFO_HEADLINE = """\
[W0302 14:05:11.204118302 NPUStream.cpp:545] Warning: NPU warning, error code is 507035[Error]:
[Error]: The vector core execution is abnormal.
        Rectify the fault based on the error information in the ascend log.
EZ9999: Inner Error!
EZ9999[PID: 7310] 2026-03-02-14:05:11.201.877 (EZ9999):  [AIC_INFO] after execute:args print end[FUNC:GetError][FILE:stream.cc][LINE:1191]
        TraceBack (most recent call last):
       Aicore kernel execute failed, device_id=1, stream_id=2, report_stream_id=2, task_id=4410, flip_num=12, fault kernel_name=chunk_scan_fwd_kernel_3, fault kernel info ext=chunk_scan_fwd_kernel, program id=77, hash=90210.[FUNC:GetError][FILE:stream.cc][LINE:1191]
       wait for compute device to finish failed, runtime result = 507035.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:162]
"""


def test_the_hardware_scheduler_line_is_read_before_the_bare_re_report() -> None:
    diagnosis = diagnose_text("train/rank_0.log", HWTS_AICORE)
    assert_reads(diagnosis, "aicore_timeout", first_error="RTS_HWTS: aicore exception")


def test_a_dma_error_in_the_exception_stream_is_a_device_fault() -> None:
    diagnosis = diagnose_text("serve/engine.log", HWTS_SDMA)
    assert_reads(diagnosis, "device_fault", first_error="hwts sdma error")


def test_a_wait_code_yields_to_the_device_record_printed_after_it() -> None:
    diagnosis = diagnose_text("serve/engine.log", SYNC_WAIT_THEN_HWTS)
    assert_reads(diagnosis, "device_fault", first_error="RTS_HWTS: hwts sdma error")


def test_a_wait_code_with_no_device_record_is_the_first_error() -> None:
    diagnosis = diagnose_text("serve/engine.log", SYNC_WAIT_ALONE)
    assert_reads(diagnosis, "device_fault", first_error="runtime result = 507013")


def test_a_harness_acl_check_is_labelled_by_its_code() -> None:
    diagnosis = diagnose_text("ci/runner.log", HARNESS_AICPU)
    assert_reads(diagnosis, "aicore_timeout", first_error="aclrtSynchronizeStream failed: 507018")


def test_the_argument_dump_headline_yields_to_the_faulting_kernel() -> None:
    diagnosis = diagnose_text("serve/worker_0.log", AIC_INFO_HEADLINE)
    assert diagnosis.category == "aicore_timeout"
    assert diagnosis.first_error is not None
    assert "[AIC_INFO]" not in diagnosis.first_error.text


# CANN 9 words the faulting-kernel report "AI Core kernel execution failed" and prints it
# after a run of `[AIC_INFO]` argument-dump lines that carry no failure of their own.
DFX_INFO_NEWER_WORDING = """\
[ERROR] RUNTIME(5120,):2026-10-03-08:14:02.510.101 [davinci_kernel_task.cc:1076]5188 GetArgsInfo:[AIC_INFO] args(0 to 4) after execute:0, 0, 0x12c0aa001000, 0, 0x3f.
[ERROR] RUNTIME(5120,):2026-10-03-08:14:02.510.104 [davinci_kernel_task.cc:1080]5188 GetArgsInfo:tilingKey = 0, print 1 Times totalLen=(8*8), argsSize=64, schemMode=0, blockDim=8
[ERROR] RUNTIME(5120,):2026-10-03-08:14:02.510.110 [davinci_kernel_task.cc:1180]5188 PrintErrorInfoForDavinciTask:[AIC_INFO] after execute:args print end
[ERROR] RUNTIME(5120,):2026-10-03-08:14:02.510.190 [davinci_kernel_task.cc:1210]5188 PrintErrorInfoForDavinciTask:[DFX_INFO]AI Core kernel execution failed, device_id=4, stream_id=12, report_stream_id=12, task_id=7731, flip_num=2, fault kernel_name=ScatterUpdate_int32_0, fault kernel info ext=none, program id=14, hash=7654321.
[ERROR] IDEDD(5120,):2026-10-03-08:14:02.511.003 [exception_dumper.cpp:203][tid:5188] [Dump][Exception] Begin to dump exception. dumpScene=aic_err_brief_dump, deviceId=4, streamId=12, taskId=7731, exceptionType=2(aicore), kernelName=ScatterUpdate_int32_0
"""


def test_the_newer_kernel_report_wording_is_the_first_error() -> None:
    diagnosis = diagnose_text("plog/plog-5120_20261003081400.log", DFX_INFO_NEWER_WORDING)
    assert_reads(diagnosis, "aicore_timeout", first_error="AI Core kernel execution failed")
    assert diagnosis.confidence >= 0.5
