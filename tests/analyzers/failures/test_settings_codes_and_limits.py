"""Lines whose label comes from what they say failed, not from the layer that printed them.

Each case is a rule of docs/labelling.md, with an example and a counterexample:

- #config-driver_env-or-weight_load: the runtime refusing the value of
  ASCEND_RT_VISIBLE_DEVICES is the job's setting (`config`), and the device-count probe after
  it yields to it;
- #code-only-synchronize-failures: `reason=[fftsplus timeout]` is read like its code 507048,
  while a reason that names a core keeps its own label;
- #native-only-crashes: a crash right after the process reported a failed call with its code
  is that call's aftermath;
- #an-operator-name-decides-nothing: the short `AIV Kernel happen error, retCode=0x31` is the
  device's own report and is read before the runtime's later restatement, and after the
  kernel's own assertion when the dump printed one above it; an expert count the op does not
  support is a limit of the op;
- #operator-installation-or-platform-limit: a kernel config that cannot be parsed means the
  kernels do not fit the chip.

Fixtures follow the shapes torch_npu, CANN plogs and vLLM workers print; values are made up.
"""

from __future__ import annotations

import pytest

from analyzers.core.report import Diagnosis
from tests.analyzers.excerpts import assert_reads, diagnose_text

WORKER = "(VllmWorker rank=1 pid=5150) ERROR 04-05 06:07:08 [multiproc_executor.py:480] "
ENGINE = "(EngineCore_DP0 pid=3120) "

VISIBLE_RANGE_PLOG = """\
[INFO] RUNTIME(88,mindie_llm_backend_connector):2026-04-05-06:07:08.100.200 [runtime_keeper.cc:170] 90 CreateRuntimeImpl: Open libruntime_v100.so success
[ERROR] RUNTIME(88,mindie_llm_backend_connector):2026-04-05-06:07:08.100.311 [runtime.cc:5600]90 GetVisibleDevices:[INIT][DEFAULT]set ASCEND_RT_VISIBLE_DEVICES:[6] error, input data rang[0-4)
[INFO] TDT(88,mindie_llm_backend_connector):2026-04-05-06:07:08.101.002 [package_worker_factory.cpp:40][RegisterPackageWorkerCreator][tid:90] Register[4] package worker create success
"""

VISIBLE_ORDER_UNDER_PROBE = "".join(
    f"{WORKER}{line}\n"
    for line in [
        "RuntimeError: init:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:290 NPU function "
        "error: aclrtGetDeviceCount(&device_count), error code is 207004",
        "[ERROR] 2026-04-05-06:07:08 (PID:5150, Device:-1, RankID:-1) ERR00100 PTA call acl api "
        "failed",
        "[Error]: The device is unavailable.",
        "EE1001: [PID: 5150] 2026-04-05-06:07:08.201.301 The argument is invalid.Reason: set "
        "ASCEND_RT_VISIBLE_DEVICES:2,3,0,1 error, it must be configured in ascending order",
    ]
)

PROBE_ALONE = "".join(
    f"{WORKER}{line}\n"
    for line in [
        "export ASCEND_RT_VISIBLE_DEVICES=0,1,2,3",
        "RuntimeError: init:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:290 NPU function "
        "error: aclrtGetDeviceCount(&device_count), error code is 507899",
    ]
)

FFTSPLUS_UNDER_SYNC = "".join(
    f"{WORKER}{line}\n"
    for line in [
        "[Error]: The execution of the internal task times out. ",
        "EH9999: Inner Error!",
        "        rtStreamSynchronizeWithTimeout execute failed, reason=[fftsplus timeout]"
        "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]",
        "EH9999: [PID: 5150] 2026-04-05-06:07:08.333.444 synchronize stream failed, runtime "
        "result = 507048[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]",
    ]
)

AICORE_REASON_UNDER_SYNC = "".join(
    f"{WORKER}{line}\n"
    for line in [
        "EH9999: Inner Error!",
        "        rtStreamSynchronize execute failed, reason=[aicore timeout]"
        "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]",
        "EH9999: [PID: 5150] 2026-04-05-06:07:08.333.444 synchronize stream failed, runtime "
        "result = 507014[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]",
    ]
)

FATAL_CHECK_THEN_CRASH = """\
2026-04-05 06:07:08 [INFO] loading weights done, 28 layers
[FATAL]  Acl return error  .../llm_kernels/csrc/kernels/ascend/rotary/rotary.cc:61, with ERROR 561103

Segmentation fault (core dumped)
"""

CRASH_ALONE = """\
2026-04-05 06:07:08 [INFO] loading weights done, 28 layers
Segmentation fault (core dumped)
"""

AIV_SHORT_FORM = """\
opp/built-in/op_impl/ai_core/tbe/impl/dynamic/../ascendc/index_select/index_select_base.h:90
Assertion `(0 <= idx && idx < this->rows_)' Index 9001 out of range[0 8192)!

 AIV Kernel happen error, retCode=0x31.[FUNC:GetError][FILE:stream.cc][LINE:1120]
       Aicore kernel execute failed, device_id=1, stream_id=3, report_stream_id=3, task_id=51, flip_num=0, fault kernel_name=IndexSelect_a1b2c3_high_performance_100, fault kernel info ext=none, 
"""

# without the kernel's assertion above it, the short form is the device's first report
AIV_SHORT_FORM_ALONE = AIV_SHORT_FORM.split("\n", 3)[3]

EXPERT_COUNT_LIMIT = "".join(
    f"{ENGINE}{line}\n"
    for line in [
        "RuntimeError: Worker failed with error 'npu_moe_gating_top_k:build/CMakeFiles/torch_npu."
        "dir/compiler_depend.ts:48 NPU function error: call aclnnMoeGatingTopK failed, error "
        "code is 561002",
        "[ERROR] 2026-04-05-06:07:08 (PID:3190, Device:0, RankID:0) ERR00100 PTA call acl api "
        "failed.",
        "EZ9999: Inner Error!",
        "EZ9999: [PID: 3190] 2026-04-05-06:07:08.010.011 expert count is: 64, but currently only "
        "support 256.[FUNC:CheckInputShape][FILE:moe_gating_top_k_tiling.cpp][LINE:160]",
    ]
)

EXPERT_COUNT_ONLY_MENTIONED = "".join(
    f"{ENGINE}{line}\n"
    for line in [
        "INFO 04-05 06:07:01 [fused_moe.py:330] [EP Rank 0/8] Expert parallelism is enabled. "
        "Local/global number of experts: 32/256.",
        "RuntimeError: Worker failed with error 'npu_moe_gating_top_k:build/CMakeFiles/torch_npu."
        "dir/compiler_depend.ts:48 NPU function error: call aclnnMoeGatingTopK failed, error "
        "code is 561002",
        "EZ9999: [PID: 3190] 2026-04-05-06:07:08.010.011 Tensor x dtype DT_INT32 not in support "
        "list [DT_FLOAT16, DT_BFLOAT16, DT_FLOAT].[FUNC:CheckDtype][FILE:moe_gating_top_k.cpp]",
    ]
)

KERNEL_CONFIG_UNREADABLE = """\
RuntimeError: arange_out_op_api:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:36 NPU function error: call aclnnArange failed, error code is 561103
[ERROR] 2026-04-05-06:07:08 (PID:702, Device:0, RankID:-1) ERR00100 PTA call acl api failed.
EZ9999: Inner Error!
EZ9999: [PID: 702] 2026-04-05-06:07:08.060.070 Parse dynamic kernel config fail.
        TraceBack (most recent call last):
       AclOpKernelInit failed opType
"""

CASES = [
    ("visible devices out of range", VISIBLE_RANGE_PLOG, "config", "input data rang[0-4)"),
    ("visible devices order", VISIBLE_ORDER_UNDER_PROBE, "config", "ascending order"),
    ("probe without a reason", PROBE_ALONE, "driver_env", "aclrtGetDeviceCount"),
    ("fftsplus reason is 507048", FFTSPLUS_UNDER_SYNC, "hccl", "507048"),
    ("aicore reason keeps its label", AICORE_REASON_UNDER_SYNC, "aicore_timeout", "aicore"),
    ("crash after a failed call", FATAL_CHECK_THEN_CRASH, "operator", "Acl return error"),
    ("crash alone", CRASH_ALONE, "device_fault", "Segmentation fault"),
    (
        "AIV short form under the kernel's assertion",
        AIV_SHORT_FORM,
        "aicore_timeout",
        "Index 9001 out of range",
    ),
    ("AIV short form", AIV_SHORT_FORM_ALONE, "aicore_timeout", "AIV Kernel happen error"),
    ("expert count limit", EXPERT_COUNT_LIMIT, "op_constraint", "only support 256"),
    ("experts only mentioned", EXPERT_COUNT_ONLY_MENTIONED, "operator", "not in support list"),
    ("kernel config unreadable", KERNEL_CONFIG_UNREADABLE, "driver_env", "kernel config fail"),
]


def alternative_labels(diagnosis: Diagnosis) -> set[str]:
    return {alt.category for alt in diagnosis.alternatives}


@pytest.mark.parametrize(
    ("text", "label", "says"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_label_and_first_error_follow_the_guide(text: str, label: str, says: str) -> None:
    diagnosis = diagnose_text("serve/worker.log", text)
    assert_reads(diagnosis, label, first_error=says)


@pytest.mark.parametrize(
    ("text", "neighbour"),
    [
        (VISIBLE_ORDER_UNDER_PROBE, "driver_env"),
        (FFTSPLUS_UNDER_SYNC, "aicore_timeout"),
        (FATAL_CHECK_THEN_CRASH, "device_fault"),
        (EXPERT_COUNT_LIMIT, "operator"),
        (KERNEL_CONFIG_UNREADABLE, "operator"),
    ],
    ids=["visible devices", "fftsplus", "crash", "expert count", "kernel config"],
)
def test_the_guide_neighbour_is_offered(text: str, neighbour: str) -> None:
    assert neighbour in alternative_labels(diagnose_text("serve/worker.log", text))
