"""An op's stated limit and a device's own fault report, each against its neighbour reading.

Each case is a rule of docs/labelling.md, with an example and a counterexample:

- #an-operator-name-decides-nothing: a host check that answers with the head dimensions the op
  supports, or a fused op that sends its caller to the small operators for an input range, or one
  that names the only variant this platform offers, is a limit of the op (`op_constraint`); a
  check that two inputs agree, or one that names no supported variant, stays `operator`;
- #a-device-reported-as-faulted: a runtime line saying a device faulted outranks the AI CPU
  code of the synchronize that noticed it; the code alone keeps its own label.

Fixtures follow the shapes torch_npu, vLLM workers and runtime harnesses print; values are
made up.
"""

from __future__ import annotations

import pytest

from analyzers.core.report import Diagnosis
from tests.analyzers.excerpts import assert_reads, diagnose_text

WORKER = "(Worker_TP1 pid=7301) ERROR 02-03 04:05:06 [multiproc_executor.py:702] "


def worker(*lines: str) -> str:
    return "".join(f"{WORKER}{line}\n" for line in lines)


FIA_CALL = (
    "RuntimeError: npu_fused_infer_attention_score_symint:build/CMakeFiles/torch_npu.dir/"
    "compiler_depend.ts:208 NPU function error: call aclnnFusedInferAttentionScoreV3 failed, "
    "error code is 561002"
)
PTA = (
    "[ERROR] 2026-02-03-04:05:06 (PID:7301, Device:1, RankID:-1) ERR00100 PTA call acl api failed."
)

HEAD_DIM_LIMIT = worker(
    FIA_CALL,
    PTA,
    "E89999: Inner Error!",
    "E89999[PID: 7301] 2026-02-03-04:05:06.100.200 (E89999):  When layout is TND, queryD(320), "
    "keyD(320) and valueD(320) must be same equal 192/128/64, or queryD and keyD equal 192 and "
    "valueD equal 128.[FUNC:CheckInputShapeWhenLayoutIsTND][FILE:prompt_flash_attention_tiling.cpp]",
    "        TraceBack (most recent call last):",
    "       FusedInferAttentionScore do tiling failed, ret is -1.",
)

INPUTS_DISAGREE = worker(
    FIA_CALL,
    PTA,
    "E89999: Inner Error!",
    "E89999[PID: 7301] 2026-02-03-04:05:06.100.200 (E89999):  When layout is TND, queryT(12) "
    "must be equal to the last element of actualSequenceLengthQ(7)"
    "[FUNC:CheckFAISeqlenDataInTND][FILE:prompt_flash_attention_tiling.cpp]",
    "       FusedInferAttentionScore do tiling failed, ret is -1.",
)

ROPE_CALL = (
    "RuntimeError: npu_rotary_mul:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:62 NPU "
    "function error: call aclnnRotaryPositionEmbedding failed, error code is 561002"
)

FUSED_RANGE = f"""\
{ROPE_CALL}
[ERROR] 2026-02-03-04:05:06 (PID:811, Device:0, RankID:-1) ERR00100 PTA call acl api failed.
E89999: Inner Error!
E89999[PID: 811] 2026-02-03-04:05:06.300.400 (E89999):  op[RotaryPositionEmbedding],
when input is BNSD layout and  B * N is large or D is not aligned, please do not use RotaryPositionEmbedding fusion operator.
[FUNC:DoRotateHalfTiling][FILE:rope_rotate_half_tiling.cpp][LINE:511]
"""

FUSED_DTYPE = f"""\
{ROPE_CALL}
[ERROR] 2026-02-03-04:05:06 (PID:811, Device:0, RankID:-1) ERR00100 PTA call acl api failed.
E89999: Inner Error!
E89999[PID: 811] 2026-02-03-04:05:06.300.400 (E89999):  op[RotaryPositionEmbedding], input Dtype does not meet the requirements.[FUNC:CheckParam][FILE:rope_rotate_half_tiling.cpp]
"""

QMM_CALL = "RuntimeError: call aclnnWeightQuantBatchMatmulV2 failed, detail:E69999: Inner Error!"

PLATFORM_VARIANT = worker(
    QMM_CALL,
    "E69999: [PID: 7301] 2026-02-03-04:05:06.100.200 op[WeightQuantBatchMatmulV2], this platform "
    "only support output transpose_x1 true and transpose_x2 false, actual [true, true]"
    "[FUNC:CheckAttrs][FILE:weight_quant_batch_matmul_v2_tiling.cc][LINE:188]",
    "        TraceBack (most recent call last):",
    "       op[WeightQuantBatchMatmulV2], fail to analyze context info",
    "       Tiling failed",
)

PLATFORM_NO_VARIANT = worker(
    QMM_CALL,
    "E69999: [PID: 7301] 2026-02-03-04:05:06.100.200 op[WeightQuantBatchMatmulV2], on this "
    "platform the antiquant scale dtype is invalid, actual [DT_INT8]"
    "[FUNC:CheckAttrs][FILE:weight_quant_batch_matmul_v2_tiling.cc][LINE:201]",
    "       Tiling failed",
)

DEVICE_REPORTED = """\
Runner: [aicpu_loader.cpp:187] Runner: aclrtSynchronizeStream failed: 507018
prepare_kernels: [runner_base.cpp:903] LoadAicpuOp::Runner failed: 507018
operator(): [runner_base.cpp:2610] device fault reported: device_id=6 stream_id=31 task_id=0
  error_code=507018 (device-level; not attributed to any run)
"""

CODE_ONLY = """\
Runner: [aicpu_loader.cpp:187] Runner: aclrtSynchronizeStream failed: 507018
prepare_kernels: [runner_base.cpp:903] LoadAicpuOp::Runner failed: 507018
"""

CASES = [
    ("head dim limit", HEAD_DIM_LIMIT, "op_constraint", "must be same equal 192/128/64"),
    ("inputs disagree", INPUTS_DISAGREE, "operator", "queryT(12) must be equal"),
    ("fused op range", FUSED_RANGE, "op_constraint", "please do not use RotaryPositionEmbedding"),
    ("fused op dtype", FUSED_DTYPE, "operator", "input Dtype does not meet"),
    ("platform variant", PLATFORM_VARIANT, "op_constraint", "this platform only support output"),
    ("platform no variant", PLATFORM_NO_VARIANT, "operator", "antiquant scale dtype is invalid"),
    ("device reported", DEVICE_REPORTED, "device_fault", "device fault reported: device_id=6"),
    ("code only", CODE_ONLY, "aicore_timeout", "aclrtSynchronizeStream failed: 507018"),
]


def alternative_labels(diagnosis: Diagnosis) -> set[str]:
    return {alt.category for alt in diagnosis.alternatives}


@pytest.mark.parametrize(
    ("text", "label", "says"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_label_and_first_error_follow_the_guide(text: str, label: str, says: str) -> None:
    diagnosis = diagnose_text("run/worker.log", text)
    assert_reads(diagnosis, label, first_error=says)


@pytest.mark.parametrize(
    ("text", "neighbour"),
    [
        (HEAD_DIM_LIMIT, "operator"),
        (FUSED_RANGE, "operator"),
        (PLATFORM_VARIANT, "operator"),
        (PLATFORM_VARIANT, "config"),
        (DEVICE_REPORTED, "aicore_timeout"),
    ],
    ids=["head dim", "fused range", "platform variant", "platform config", "device report"],
)
def test_the_guide_neighbour_is_offered(text: str, neighbour: str) -> None:
    assert neighbour in alternative_labels(diagnose_text("run/worker.log", text))
