"""Lines that must not be chosen as the first causal error although they come first or rank
high: wrappers over the error they wrap, late device blocks, start-up probes.

docs/labelling.md#wrappers, #late-device-blocks and #probes-yield-to-their-reason.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text

# The wrapper is printed first; the inner block below it says what failed.
WRAPPER_FIRST = """\
RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current working operator name is aclnnIndexPutImpl.
[ERROR] 2026-03-01-10:00:01 (PID:2201, Device:1, RankID:-1) ERR00100 PTA call acl api failed
[PID: 2201] 2026-03-01-10:00:01.100.200 Index_Out_Of_Range(EZ0205): index 4096 is out of range [0, 4096) for dim 0 of tensor self.
"""

WRAPPER_WITH_ROOT_CODE = """\
[rank1]: RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:467 NPU function error: AclrtSynchronizeDeviceWithTimeout, error code is 507035
[rank1]: [ERROR] 2026-03-01-10:00:02 (PID:3301, Device:1, RankID:1) ERR00100 PTA call acl api failed
[rank1]: EZ9999: Inner Error!
[rank1]: EZ9999: [PID: 3301] 2026-03-01-10:00:01.900.000 The error from device(chipId:1, dieId:0), serial number is 4, there is an aivec error exception, core id is 12, error code = 0x800000.
"""

# A teardown block after a recognised failure of the same process.
LATE_BLOCK_AFTER_TIMEOUT = """\
[rank0]:[E301 10:00:01.000000000 ProcessGroupHCCL.cpp:600] [Rank 0] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=88, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800041 milliseconds before timing out.
[rank0]: EE9999: Inner Error!
[rank0]: EE9999: [PID: 441] 2026-03-01-10:31:02.000.000 rtStreamDestroy execution failed, reason=unknown[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]
"""

LATE_BLOCK_AFTER_SHAPE = """\
[rank0]: RuntimeError: The size of tensor a (4096) must match the size of tensor b (2048) at non-singleton dimension 1
[rank0]: EE9999: Inner Error!
[rank0]: EE9999: [PID: 441] 2026-03-01-10:31:02.000.000 rtFree execution failed, reason=unknown[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]
"""

# Counterexample: a device block that comes first is the cause even if a symptom follows.
BLOCK_BEFORE_TIMEOUT = """\
EE9999: [PID: 441] 2026-03-01-10:00:01.000.000 The error from device(chipId:0, dieId:0), serial number is 2, there is an aicore error exception, core id is 3, error code = 0x800000.
[rank0]:[E301 10:30:05.000000000 ProcessGroupHCCL.cpp:600] [Rank 0] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=88, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800041 milliseconds before timing out.
"""

PROBE_THEN_REASON = """\
[W compiler_depend.ts:100] Warning: get device count failed, error code is 507899
RuntimeError: c10_npu::GetDeviceCount:torch_npu/csrc/core/npu/NPUFunctions.cpp:40 NPU function error: aclrtGetDeviceCount(&count), error code is 507899
[ERROR] DRV(881,python):2026-03-01-10:00:00.000.001 [devdrv.c:120] open /dev/davinci3 failed: Permission denied
"""

PROBE_THEN_LIBRARY = """\
Get physical device number failed, err: 87
ImportError: libascend_hal.so: cannot open shared object file: No such file or directory
"""

PROBE_ALONE = """\
RuntimeError: c10_npu::GetDeviceCount:torch_npu/csrc/core/npu/NPUFunctions.cpp:40 NPU function error: aclrtGetDeviceCount(&count), error code is 507899
"""

CASES = [
    # (name, text, label, first error says)
    ("wrapper first", WRAPPER_FIRST, "operator", "Index_Out_Of_Range"),
    ("wrapper with root code", WRAPPER_WITH_ROOT_CODE, "aicore_timeout", "aivec error exception"),
    ("late block after timeout", LATE_BLOCK_AFTER_TIMEOUT, "hccl", "Watchdog caught"),
    ("late block after shape", LATE_BLOCK_AFTER_SHAPE, "shape_mismatch", "size of tensor a"),
    ("block before timeout", BLOCK_BEFORE_TIMEOUT, "aicore_timeout", "aicore error exception"),
    ("probe then permission", PROBE_THEN_REASON, "driver_env", "Permission denied"),
    ("probe then library", PROBE_THEN_LIBRARY, "driver_env", "libascend_hal.so"),
    ("probe alone", PROBE_ALONE, "driver_env", "aclrtGetDeviceCount"),
]


@pytest.mark.parametrize(
    ("text", "label", "says"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_the_first_error_is_the_line_that_explains_the_rest(
    text: str, label: str, says: str
) -> None:
    diagnosis = diagnose_text("job/rank0.log", text)
    assert_reads(diagnosis, label, first_error=says)
