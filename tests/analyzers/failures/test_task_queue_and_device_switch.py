"""Short torch_npu and CANN records that older wheels and runtimes leave as the only trace.

torch_npu's task-queue thread reports that a queued call returned non-zero; an older wheel's
device guard refuses to switch a thread to a second NPU; the runtime names the valid device
range when a device id lies beyond it; older CANN prints an AI CPU exception as its own
error-manager record before the lines that restate it. Fixtures are written here in those
formats with our own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text


def alternatives(diagnosis) -> set[str]:
    return {alt.category for alt in diagnosis.alternatives}


# An older wheel: the queue thread's record, then the terminate handler quoting the queue's
# execute step, then the compile helper noticing its parent is gone.
QUEUE_RECORD_ALONE = """\
---Thread- --187650990011776: device=3, write_idx=12, read_idx=11, status=0, ret = 500000
terminate called after throwing an instance of 'c10::Error'
what() _HelpACLExecute:/opt/build/pytorch/c10/npu/NPUStream.cpp:158 (HelpACLExecute at /opt/build/pytorch/c10/npu/NPUStream.cpp:159)
2026-06-01 10:11:12,345 77001 PCOMPILE Master process dead. worker process quiting..
"""

# A newer wheel's plog: the op call's own failure first, the queue's record after it.
OP_ERROR_THEN_QUEUE_RECORD = """\
[ERROR] APP(88120,python3):2026-06-02-11:12:13.400.500 [log_inner.cpp:78]88190 build/CMakeFiles/torch_npu.dir/compiler_depend.ts:ExecFuncOpApi:445: "[PTA]:"Custom hand error:operator():build/CMakeFiles/torch_npu.dir/compiler_depend.ts:1896 NPU function error: call aclnnInplaceAddcmul failed, error code is 561103""
[ERROR] APP(88120,python3):2026-06-02-11:12:13.400.520 [log_inner.cpp:78]88190 build/CMakeFiles/torch_npu.dir/compiler_depend.ts:ExecFuncOpApi:449: "[PTA]:"Custom hand fail! name=aclnnInplaceAddcmul, ret=561103""
[ERROR] APP(88120,python3):2026-06-02-11:12:13.400.540 [log_inner.cpp:78]88190 build/CMakeFiles/torch_npu.dir/compiler_depend.ts:ReadQueue:438: "[PTA]:"---Thread---281470001112233: device = 1, write_idx = 40, read_idx = 39, status = 1, ret = 561103""
"""

QUEUE_IDLE = """\
[INFO] APP(88120,python3):2026-06-02-11:12:13.400.540 ReadQueue: ---Thread---281470001112233: device = 1, write_idx = 40, read_idx = 40, status = 0, ret = 0
model run success
"""


def test_a_task_queue_record_alone_is_the_failed_op_call() -> None:
    # docs/labelling.md#a-task-queue-that-reports-the-call-it-ran
    diagnosis = diagnose_text("train.log", QUEUE_RECORD_ALONE)
    assert_reads(
        diagnosis, "operator", first_error="write_idx=12, read_idx=11, status=0, ret = 500000"
    )
    assert "device_fault" in alternatives(diagnosis)


def test_the_op_calls_own_error_comes_before_the_queue_record() -> None:
    # docs/labelling.md#a-task-queue-that-reports-the-call-it-ran (counterexample)
    diagnosis = diagnose_text("plog-88120.log", OP_ERROR_THEN_QUEUE_RECORD)
    assert_reads(
        diagnosis, "operator", first_error="call aclnnInplaceAddcmul failed, error code is 561103"
    )


def test_an_idle_queue_record_is_no_error() -> None:
    diagnosis = diagnose_text("train.log", QUEUE_IDLE)
    assert diagnosis.first_error is None


# An older wheel whose script moved the model to a second NPU in the same thread.
DEVICE_SWITCH_REFUSED = """\
Epoch 0 step 0 loss 2.3011
RuntimeError : ExchangeDevice:/opt/build/pytorch/c10/npu/sys_ctrl/npu_sys_ctrl.cpp:56 NPU error, error code is 500000
Error in atexit._run_exitfuncs:
Traceback (most recent call last):
  File "/usr/local/python3.7.5/lib/python3.7/site-packages/torch/__init__.py", line 429, in _npu_shutdown
    torch._C._npu_shutdown()
RuntimeError: npuSynchronizeDevice:/opt/build/pytorch/c10/npu/NPUStream.cpp:776 NPU error, error code is 200005.
"""

# A newer wheel names the SetDevice call and the runtime gives the reason under it.
DEVICE_SWITCH_WITH_REASON = """\
RuntimeError: ExchangeDevice:torch_npu/csrc/core/npu/impl/NPUGuardImpl.h:41 NPU function error: c10_npu::SetDevice(d.index()), error code is 507033
[ERROR] 2026-06-03-09:08:07 (PID:3310, Device:1, RankID:-1) ERR00100 PTA call acl api failed
[Error]: Failed to start the device.
EL0003: [PID: 3310] 2026-06-03-09:08:06.912.413 The argument is invalid.
        TraceBack (most recent call last):
        [drv api] halDeviceOpen failed. device_id=1, drvRetCode=7.[FUNC:DeviceOpen][FILE:npu_driver.cc][LINE:430]
"""


def test_a_refused_device_switch_is_the_jobs_placement() -> None:
    # docs/labelling.md#a-ranks-device-placement
    diagnosis = diagnose_text("train.log", DEVICE_SWITCH_REFUSED)
    assert_reads(diagnosis, "config", first_error="ExchangeDevice:")
    assert "other" in alternatives(diagnosis)


def test_a_device_switch_that_names_its_reason_is_read_by_the_reason() -> None:
    # docs/labelling.md#a-ranks-device-placement (counterexample)
    diagnosis = diagnose_text("train.log", DEVICE_SWITCH_WITH_REASON)
    assert_reads(diagnosis, "driver_env", first_error="halDeviceOpen failed")


# A serving wrapper asked for a device id beyond the two the container offers.
DEVICE_ID_OUT_OF_RANGE = """\
2026-06-04 12:13:14,151 [ERROR] model.py:39 - [Model] >>> Exception:Initialize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:221 NPU function error: c10_npu::SetDevice(device_id_), error code is 107001
[ERROR] 2026-06-04-12:13:14 (PID:2210, Device:0, RankID:-1) ERR00100 PTA call acl api failed
[Error]: Invalid device ID.
EE1001: [PID: 2210] 2026-06-04-12:13:14.118.220 The argument is invalid.Reason: Set device failed, invalid device, set device=5, valid device range is [0, 4)
TraceBack (most recent call last):
rtSetDevice execute failed, reason=[device id error][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]
open device 5 failed, runtime result = 107001.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]
"""


def test_a_device_id_beyond_the_offered_range_is_the_jobs_setting() -> None:
    # docs/labelling.md#config-driver_env-or-weight_load
    diagnosis = diagnose_text("mindie_model.log", DEVICE_ID_OUT_OF_RANGE)
    assert_reads(diagnosis, "config", first_error="valid device range is [0, 4)")
    assert "driver_env" in alternatives(diagnosis)


# Older CANN under an old torch_npu: the 507018 wrapper, then the exception's own record,
# then the runtime's restatements.
AICPU_EXCEPTION_RECORD = """\
RuntimeError: Run:/usr1/build/torch_npu/csrc/framework/OpParamMaker.cpp:138 NPU error,NPU error code is:507018
E39999: Inner Error!
E39999 An exception occurred during AICPU execution, stream_id:4, task_id:61, errcode:21003, msg:inner error[FUNC:ProcessAicpuErrorInfo][FILE:device_error_proc.cc][LINE:667]
Aicpu kernel execute failed, device_id=1, stream_id=4, task_id=61.[FUNC:PrintAicpuErrorInfo][FILE:task.cc][LINE:747]
Aicpu kernel execute failed, device_id=1, stream_id=4, task_id=61, fault op_name=Unique[FUNC:GetError][FILE:stream.cc][LINE:846]
"""


def test_an_aicpu_exception_record_is_read_before_its_restatements() -> None:
    # docs/labelling.md#ai-cpu-exceptions-that-carry-a-notify-wait-timeout
    diagnosis = diagnose_text("console.txt", AICPU_EXCEPTION_RECORD)
    assert_reads(
        diagnosis, "aicore_timeout", first_error="An exception occurred during AICPU execution"
    )


# A queued event record that returned the device's earlier failure: the call's own line, then
# the queue's record of the same code.
EVENT_RECORD_THEN_QUEUE_RECORD = """\
[ERROR] APP(5120,python3):2026-08-01-10:20:30.400.100 7731 OpParamMaker.cpp:RecordEventFunc:516: "[PTA]:aclrtRecordEvent error! ret = 507015, eventAllocatorType = 1"
[ERROR] APP(5120,python3):2026-08-01-10:20:30.400.110 7731 NPUQueue.cpp:ReadQueue:455: "[PTA]:---Thread---281470001115566: device = 3, write_idx = 880, read_idx = 879, status = 1, ret = 507015"
"""

# The same call when the code it returned names no failure of its own.
EVENT_WAIT_WITH_BARE_CODE = """\
[ERROR] APP(5120,python3):2026-08-01-10:20:30.400.100 7731 OpParamMaker.cpp:WaitEventFunc:540: "[PTA]:aclrtStreamWaitEvent error! ret = 507000, eventAllocatorType = 0"
"""

EVENT_RECORD_DONE = """\
[INFO] APP(5120,python3):2026-08-01-10:20:30.400.100 7731 OpParamMaker.cpp:RecordEventFunc:522: "[PTA]:Event: aclrtRecordEvent dequeue is successfully executed, stream=0xaaaa, event=0xbbbb"
model run success
"""


def test_a_queued_event_calls_own_line_comes_before_the_queue_record() -> None:
    # docs/labelling.md#a-task-queue-that-reports-the-call-it-ran
    diagnosis = diagnose_text("plog-5120.log", EVENT_RECORD_THEN_QUEUE_RECORD)
    assert_reads(diagnosis, "aicore_timeout", first_error="aclrtRecordEvent error! ret = 507015")
    assert "507015" in diagnosis.error_codes


def test_a_queued_event_call_with_a_code_that_names_nothing_is_a_stream_failure() -> None:
    diagnosis = diagnose_text("plog-5120.log", EVENT_WAIT_WITH_BARE_CODE)
    assert_reads(diagnosis, "stream_sync", first_error="aclrtStreamWaitEvent error! ret = 507000")


def test_a_queued_event_call_that_succeeded_is_no_error() -> None:
    # counterexample: the queue's own success line names the same call
    diagnosis = diagnose_text("plog-5120.log", EVENT_RECORD_DONE)
    assert diagnosis.first_error is None
