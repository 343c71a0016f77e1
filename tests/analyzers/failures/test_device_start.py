"""A device that cannot be started: the start failure says that, its block says why.

`aclrtSetDevice ... failed: 507033` (and the runtime's `rtSetDevice execution failed`) is a
start-up probe like counting the devices; the reason printed in the same error block (the
driver or the device's task daemon refusing to open it, device memory that cannot be
reserved) is the first error and decides the label. Alone, the start failure is the cause.

docs/labelling.md#probes-yield-to-their-reason
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import diagnose_text

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

CASES = [
    # (name, text, label, first error says, an alternative the report must keep or None)
    ("task daemon refused", DAEMON_REFUSED, "driver_env", "TsdOpen failed", None),
    ("driver refused", DRIVER_REFUSED, "driver_env", "halDeviceOpen failed", None),
    (
        "driver refused under a generic headline",
        DRIVER_REFUSED_UNDER_HEADLINE,
        "driver_env",
        "Failed to open device, retCode=0x7020014",
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
]


@pytest.mark.parametrize(
    ("text", "label", "says", "alternative"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_a_device_start_failure_yields_to_the_reason_in_its_block(
    text: str, label: str, says: str, alternative: str | None
) -> None:
    diagnosis = diagnose_text("job/rank0.log", text)
    assert diagnosis.category == label
    assert diagnosis.first_error is not None
    assert says in diagnosis.first_error.text
    if alternative is not None:
        assert alternative in [alt.category for alt in diagnosis.alternatives]
