"""A device start refused because the operator package does not pass the runtime's check.

docs/labelling.md#operator-installation-or-platform-limit and
docs/labelling.md#probes-yield-to-their-reason: the start failure (SetDevice 507033) is a
probe; `Failed to verify the OPP` in its block is the reason, the machine's set-up. Fixtures
follow the torch_npu and docker compose shapes with our own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# The torch_npu exception, as a process prints it to its own log.
PACKAGE_CHECK_FAILED = """\
RuntimeError: Initialize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:152 NPU function error: c10_npu::SetDevice(device_id_), error code is 507033
[ERROR] 2026-04-21-16:05:44 (PID:8811, Device:0, RankID:-1) ERR00100 PTA call acl api failed
[Error]: Failed to start the device.
        Rectify the fault based on the error information in the ascend log.
E30006: 2026-04-21-16:05:44.301.772 Failed to verify the OPP
        Possible Cause: 1.The OPP is incorrect.
        Solution: 1. Use a correct OPP.
        TraceBack (most recent call last):
        tsd client wait response fail, hostpid:90417, device response code[1]. unknown device error.[FUNC:WaitRsp][FILE:process_mode_manager.cpp][LINE:332]
        Start aicpu executor failed, retCode=0x7020009 devId=0[FUNC:DeviceRetain][FILE:runtime.cc][LINE:3810]
"""

# The same failure relayed by a serving container, the exception folded into a JSON body.
RELAYED_IN_A_BODY = (
    "ocr-model-server   | 2026-04-21 16:05:45.010 | ERROR    | __main__:parse:88 | Dispatch error "
    'to http://127.0.0.1:8100/infer: 500: {"detail":"Initialize:build/CMakeFiles/torch_npu.dir/'
    "compiler_depend.ts:152 NPU function error: c10_npu::SetDevice(device_id_), error code is "
    "507033\\n[ERROR] 2026-04-21-16:05:44 (PID:8811, Device:0, RankID:-1) ERR00100 PTA call acl "
    "api failed\\nE30006: 2026-04-21-16:05:44.301.772 Failed to verify the OPP\\n        "
    'Possible Cause: 1.The OPP is incorrect.\\n"}\n'
)

# Counterexample: a start failure whose block gives no reason stays the first error.
START_FAILURE_ALONE = """\
RuntimeError: Initialize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:152 NPU function error: c10_npu::SetDevice(device_id_), error code is 507033
[ERROR] 2026-04-21-16:05:44 (PID:8811, Device:0, RankID:-1) ERR00100 PTA call acl api failed
[Error]: Failed to start the device.
"""


def test_the_package_check_is_the_reason_a_device_did_not_start() -> None:
    diagnosis = diagnose_text("job/rank0.log", PACKAGE_CHECK_FAILED)
    assert_reads(
        diagnosis, "driver_env", first_error="Failed to verify the OPP", beside=("config",)
    )


def test_the_package_check_is_read_inside_a_relayed_body_too() -> None:
    diagnosis = diagnose_text("docker-compose.log", RELAYED_IN_A_BODY)
    assert_reads(diagnosis, "driver_env", first_error="Failed to verify the OPP")


def test_a_start_failure_without_a_reason_is_its_own_first_error() -> None:
    diagnosis = diagnose_text("job/rank0.log", START_FAILURE_ALONE)
    assert_reads(diagnosis, "driver_env", first_error="error code is 507033")
