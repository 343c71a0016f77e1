"""A device that cannot be started: the start failure says that, its block says why.

`aclrtSetDevice ... failed: 507033` (and the runtime's `rtSetDevice execution failed`) is a
start-up probe like counting the devices; the reason printed in the same error block (the
driver or the device's task daemon refusing to open it, device memory that cannot be
reserved) is the first error and decides the label. Alone, the start failure is the cause.

docs/labelling.md#probes-yield-to-their-reason
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

# A C test harness prints the failed call with its code, then the runtime's recent message.
DAEMON_REFUSED = """\
[ERROR] aclrtSetDevice(dev) failed: 507033 (/srv/ci/run-17/kernels/add/main.cpp:51)
[ERROR] RecentErrMsg: [PID: 40412] 2026-11-02-08:10:11.200.300 Invalid_Argument(EE1001): The argument is invalid.Reason: rtGetDevMsg execution failed, the context is a null pointer.
        TraceBack (most recent call last):
        TsdOpen failed. devId=6, tdt error=1[FUNC:PrintfTsdError][FILE:runtime.cc][LINE:2600]
        Check param failed, dev can not be NULL![FUNC:DeviceRetain][FILE:runtime.cc][LINE:3500]
        rtSetDevice execution failed, reason=device retain error[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:60]
        open device 6 failed, runtime result = 507033.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:140]
"""

DRIVER_REFUSED = """\
[ERROR] aclrtSetDevice(dev) failed: 507033 (/srv/ci/run-18/kernels/mul/main.cpp:77)
[ERROR] RecentErrMsg: [PID: 5120] 2026-11-02-09:00:00.000.100 Invalid_Argument(EE1001): The argument is invalid.Reason: rtGetDevMsg execution failed, the context is a null pointer.
        TraceBack (most recent call last):
        [drv api] halDeviceOpen failed. device_id=2, drvRetCode=7.[FUNC:DeviceOpen][FILE:npu_driver.cc][LINE:430]
        Failed to open device, retCode=0x7020010, deviceId=2.[FUNC:InitRawDriver][FILE:raw_device.cc][LINE:210]
        rtSetDevice execution failed, reason=device retain error[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:60]
"""

# torch_npu's form: the wrapper and its summary, then an error-manager block whose headline
# only restates its code's generic text; the driver's refusal sits in the TraceBack.
DRIVER_REFUSED_UNDER_HEADLINE = """\
RuntimeError: Initialize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:150 NPU function error: c10_npu::SetDevice(device_id_), error code is 507033
[ERROR] 2026-11-02-12:30:05 (PID:60218, Device:-1, RankID:-1) ERR00100 PTA call acl api failed
[Error]: Failed to start the device.
        Rectify the fault based on the error information in the ascend log.
EL0003: [PID: 60218] 2026-11-02-12:30:01.118.402 The argument is invalid.
        Solution: Try again with a valid argument.
        TraceBack (most recent call last):
        Failed to open device, retCode=0x7020014, deviceId=1.[FUNC:InitRawDriver][FILE:raw_device.cc][LINE:130]
        Failed to init RawDriver, device_id=1, retCode=0x7020014[FUNC:Init][FILE:raw_device.cc][LINE:330]
        Check param failed, dev can not be NULL![FUNC:DeviceRetain][FILE:runtime.cc][LINE:3600]
"""

# Older runtimes write the driver's refusal with no blank after the comma, and an inference
# tool prints the block without PIDs, the TraceBack cut to a few lines with `...` between them.
DRIVER_REFUSED_NO_BLANK = """\
[INFO] acl init success
EL003: The argument is invalid.
       ...
	   Failed to open device,retCode=0x7020010,deviceId=3.[FUNC:Init][FILE:device.cc][LINE:190]
	   ...
	   open device 3 failed,runtime result = 507033.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:150]
[ERROR] acl open device 3 failed
SetDevice failed.ret=507033
"""

NO_DEVICE_MEMORY = """\
[ERROR] aclrtSetDevice(dev) failed: 507033 (/srv/ci/run-19/kernels/sub/main.cpp:64)
[ERROR] RecentErrMsg: [PID: 7781] 2026-11-02-10:00:00.000.200 Memory_Allocation_Failure(EL0004): Failed to allocate memory.
        TraceBack (most recent call last):
        allocate device memory failed.[FUNC:Init][FILE:memory_pool_manager.cc][LINE:50]
        rtSetDevice execution failed, reason=device retain error[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:60]
"""

# Counterexample: nothing says why, so the start failure itself is the first error.
START_FAILURE_ALONE = """\
[ERROR] aclrtSetDevice(dev) failed: 507033 (/srv/ci/run-20/kernels/div/main.cpp:12)
"""

# Counterexample: an allocation failure long after a device started is its own failure; a
# start failure printed far from it does not yield to it.
START_FAILURE_THEN_UNRELATED = "\n".join(
    [
        "RuntimeError: Initialize:torch_npu/csrc/core/npu/sys_ctrl/npu_sys_ctrl.cpp:217 NPU function error: SetDevice failed"
    ]
    + [f"INFO retry {n}: waiting for the device" for n in range(20)]
    + [
        "[PID: 12] 2026-11-02-11:00:00.000.001 Memory_Allocation_Failure(EL0004): Failed to allocate memory."
    ]
)

# Starting the runtime is a probe too, and the code it returns can be its reason: 507008 is
# the runtime's "built for another chip" code (a toolkit older than the card).
ACL_INIT_WRONG_CHIP = """\
I1102 08:01:02.300400 901 init.cc:146] Try loading custom device libs from: [/opt/py/site-packages/dev_rt]
Call aclInit(nullptr) failed : 507008 at file /opt/build/dev_rt/npu/runtime.cc line 388
"""

# Counterexample: 500000 names no cause of its own, so the probe keeps the machine's reading.
ACL_INIT_GENERIC_CODE = """\
[ERROR] aclInit(nullptr) failed: 500000 (/srv/ci/run-21/kernels/abs/main.cpp:40)
"""

# The same probe in the other spelling ACL programs use: the bare call name, the code after
# `error code`, the PTA-style summary of the code on the next line. 107001 alone (no reason line
# says whose id it was) keeps the machine's reading, with the job's device setting beside it.
ACL_INIT_BARE_NAME = """\
aclInit failed, error code 107001
Invalid device ID
"""

# ... and with a code that names a cause of its own, which still decides the label.
ACL_INIT_BARE_NAME_WRONG_CHIP = """\
[INFO] loading model /srv/models/resnet50.om on device 0
[ERROR] aclInit failed, error code: 507008
"""

# The host's kernel driver, in dmesg, when a tool asks about a device it has not brought up.
DRIVER_DEVICE_NOT_UP = """\
[   48.100200] devdrv_device_driver 0000:3d:00.0: [vascend_drv] [hw_dvt_init_device 970] enter init device
[   48.100290] vnpu 0000:3d:00.0: MDEV: Registered
[   50.612008] [ascend] [devdrv] [ERROR] [devdrv_manager_get_devinfo 1050] <npu-smi:8812,8812> device(3) is not initialized
[   50.620410] [ascend] [dms_module] [ERROR] [dms_hotreset_task_cnt_increase 1115] <npu-smi:8812:8812> Device not exist. (dev_id=5)
"""

# Counterexample: the driver's informational lines say nothing; the start failure decides.
DRIVER_CHATTER_THEN_FAILURE = """\
[ 1930.402100] [ascend] [devmm] [devmm_svm_release_proc 617] <davinci_recycle:5120,5120> Devmm release create work. (hostpid=-1)
[ 1930.402180] [ascend] [davinci_intf] [drv_davinci_intf_sub_call_release 348] <davinci_recycle:5120> Release module success. (module_name="SVM"; pid=5111)
[ERROR] aclrtSetDevice(dev) failed: 507033 (/srv/ci/run-22/kernels/neg/main.cpp:19)
"""

# The block's headline says the device itself stopped answering (its heartbeats are gone); the
# task daemon's refusal under it is what that looks like from the host, so the device decides.
DEVICE_UNREACHABLE_AT_START = """\
[ERROR] aclrtSetDevice(dev) failed: 507033 (/srv/ci/run-23/kernels/max/main.cpp:88)
[ERROR] RecentErrMsg: [PID: 30517] 2026-11-02-13:40:21.500.600 Inner_Error_Device_Status_Abnormal(E39009): Failed to connect the device.
        Possible Cause: 1. Heartbeats are missing on the device. 2. The underlying channel is disconnected.
        TraceBack (most recent call last):
        TsdOpen failed. devId=5, tdt error=34[FUNC:PrintfTsdError][FILE:runtime.cc][LINE:2600]
        Check param failed, dev can not be NULL![FUNC:DeviceRetain][FILE:runtime.cc][LINE:3500]
        rtSetDevice execution failed, reason=device retain error[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:60]
"""

# torch_npu's wrapper for a device start, then the error manager's record that the device-side
# processes the task daemon starts for this process did not come up in time: that is why the
# device could not be opened, so it is the first error; a dead device stays beside it.
DEVICE_PROCESSES_LATE = """\
RuntimeError: ExchangeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:240 NPU function error: c10_npu::SetDevice(device), error code is 507033
[ERROR] 2026-11-02-14:05:40 (PID:7310, Device:-1, RankID:-1) ERR00100 PTA call acl api failed
E39007: [PID: 7310] 2026-11-02-14:05:38.902.117 Starting a subprocess on the device timed out.
        TraceBack (most recent call last):
        open device 2 failed, runtime result = 507033.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:140]
"""

# A C harness again, but the recent message is the error manager's record that the device's
# task daemon did not initialise: that names the reason, so it outranks the daemon's refusal
# restated in its TraceBack; a device that stopped answering stays beside it.
TASK_DAEMON_NOT_INITIALISED = """\
[ERROR] aclrtSetDevice(dev) failed: 507033 (/srv/ci/run-31/kernels/gather/main.cpp:45)
[ERROR] RecentErrMsg: [PID: 61207] 2026-11-03-09:12:40.551.208 Inner_Error_TSDaemon_Process_Abnormal(E39005): The TSDaemon process initialization is abnormal.
        Possible Cause: The internal processing of the TSDaemon process is abnormal.
        Solution: Obtain the device log and contact technical support.
        TraceBack (most recent call last):
        TsdOpen failed. devId=4, tdt error=1[FUNC:PrintfTsdError][FILE:runtime.cc][LINE:2600]
        Check param failed, dev can not be NULL![FUNC:DeviceRetain][FILE:runtime.cc][LINE:3500]
        rtSetDevice execution failed, reason=device retain error[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:60]
        open device 4 failed, runtime result = 507033.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:140]
"""

CASES = [
    # (name, text, label, first error says, an alternative the report must keep or None)
    (
        "task daemon not initialised over its refusal",
        TASK_DAEMON_NOT_INITIALISED,
        "driver_env",
        "The TSDaemon process initialization is abnormal",
        "device_fault",
    ),
    ("task daemon refused", DAEMON_REFUSED, "driver_env", "TsdOpen failed", None),
    (
        "device unreachable over the daemon's refusal",
        DEVICE_UNREACHABLE_AT_START,
        "device_fault",
        "Failed to connect the device",
        "driver_env",
    ),
    ("driver refused", DRIVER_REFUSED, "driver_env", "halDeviceOpen failed", None),
    (
        "device-side processes late at start",
        DEVICE_PROCESSES_LATE,
        "driver_env",
        "Starting a subprocess on the device timed out",
        "device_fault",
    ),
    (
        "driver refused under a generic headline",
        DRIVER_REFUSED_UNDER_HEADLINE,
        "driver_env",
        "Failed to open device, retCode=0x7020014",
        None,
    ),
    (
        "driver refused, no blank after the comma",
        DRIVER_REFUSED_NO_BLANK,
        "driver_env",
        "Failed to open device,retCode=0x7020010",
        None,
    ),
    (
        "no device memory",
        NO_DEVICE_MEMORY,
        "oom",
        "Memory_Allocation_Failure(EL0004)",
        "driver_env",
    ),
    ("start failure alone", START_FAILURE_ALONE, "driver_env", "aclrtSetDevice(dev) failed", None),
    (
        "far from a later failure",
        START_FAILURE_THEN_UNRELATED,
        "driver_env",
        "SetDevice failed",
        None,
    ),
    ("runtime start, code names the chip", ACL_INIT_WRONG_CHIP, "config", "507008", "driver_env"),
    ("runtime start, generic code", ACL_INIT_GENERIC_CODE, "driver_env", "aclInit", None),
    ("runtime start, bare call name", ACL_INIT_BARE_NAME, "driver_env", "aclInit failed", "config"),
    (
        "runtime start, bare call name, code names the chip",
        ACL_INIT_BARE_NAME_WRONG_CHIP,
        "config",
        "error code: 507008",
        "driver_env",
    ),
    (
        "kernel driver: device not up",
        DRIVER_DEVICE_NOT_UP,
        "driver_env",
        "device(3) is not initialized",
        "device_fault",
    ),
    (
        "kernel driver chatter, later failure",
        DRIVER_CHATTER_THEN_FAILURE,
        "driver_env",
        "aclrtSetDevice(dev) failed",
        None,
    ),
]


@pytest.mark.parametrize(
    ("text", "label", "says", "alternative"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_a_device_start_failure_yields_to_the_reason_in_its_block(
    text: str, label: str, says: str, alternative: str | None
) -> None:
    diagnosis = diagnose_text("job/rank0.log", text)
    assert_reads(diagnosis, label, first_error=says)
    if alternative is not None:
        assert alternative in alternative_labels(diagnosis)


# ACL's own error headline for a device another process or container already holds: the
# context it needs cannot be created, and the runtime's lines under it (no visible device,
# the context refused) are the same refusal seen from below.
# docs/labelling.md#config-driver_env-or-weight_load
DEVICE_HELD_ELSEWHERE = """\
[ACL ERROR] EL0005: The resources are busy.
        Possible Cause: 1. The resources have been occupied. 2. The device is being reset. 3. Software is not ready.
        Solution: 1. Close applications not in use. 2. Wait for a while and try again.
        TraceBack (most recent call last):
        rtCtxCreateEx execute failed, reason=[device id error][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:50]
        create context failed, device is 1, runtime errorCode is 107001[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]
"""


def test_a_device_whose_resources_are_held_elsewhere_is_the_machine() -> None:
    diagnosis = diagnose_text("worker.log", DEVICE_HELD_ELSEWHERE)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="EL0005: The resources are busy.",
        rule="env.device_resources_busy",
    )
    assert diagnosis.confidence >= 0.5


def test_a_device_that_was_free_is_no_failure() -> None:
    """Counterexample: a notice that the device is free, and a queue that is merely busy."""
    text = (
        "[INFO] RUNTIME(3050,python3):2026-05-06-09:41:10.200.001 device 1 resources are free, context created\n"
        "WARNING scheduler: the request queue is busy, retrying in 5s\n"
    )
    diagnosis = diagnose_text("worker.log", text)
    assert "env.device_resources_busy" not in rules_of(diagnosis)
