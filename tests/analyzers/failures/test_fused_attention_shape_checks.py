"""A fused attention op whose tiling compares the query with the shape it expected.

The fused infer-attention op's tiling step checks the query against the shape its head count
and sequence lengths imply and, when they differ, names the query's shape and then the one it
expected (`shape [..] should be equal to [..]`). A caller that splits the heads over a
sequence-parallel group without passing the op the per-rank head count meets it. The label is
the op's (`operator`, the corpus rule for host-side rejections) and the two disagreeing shapes
make `shape_mismatch` the alternative, not the documented-limit neighbour that a tiling source
alone would offer (docs/labelling.md#shape-inference-that-finds-the-inputs-disagree).
"""

from __future__ import annotations

from analyzers.core.report import Diagnosis
from tests.analyzers.excerpts import assert_reads, diagnose_text

QUERY_SHAPE_REFUSED = """\
RuntimeError: npu_fused_infer_attention_score_symint:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:208 NPU function error: call aclnnFusedInferAttentionScoreV3 failed, error code is 561002
[ERROR] 2026-05-02-08:15:40 (PID:90211, Device:6, RankID:6) ERR00100 PTA call acl api failed.
EZ9999: Inner Error!
EZ9999[PID: 90211] 2026-05-02-08:15:40.201.733 (EZ9999):  [CheckQShape] query layout is BSND, shape [2, 4096, 8, 64] should be equal to [2, 4096, 32, 64].[FUNC:CompareShape][FILE:fia_tiling_shape.cpp][LINE:351]
        TraceBack (most recent call last):
       FusedInferAttentionScore do tiling failed, ret is -1.
       Check NnopbaseExecutorDoTiling(executor) failed
"""

# the same check when it states the expectation as a formula: one shape only
QUERY_SHAPE_AGAINST_FORMULA = """\
RuntimeError: npu_fused_infer_attention_score_symint:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:208 NPU function error: call aclnnFusedInferAttentionScoreV3 failed, error code is 561002
EZ9999: Inner Error!
EZ9999[PID: 90211] 2026-05-02-08:15:40.201.733 (EZ9999):  [CheckQShape] query layout is BSND, shape [2, 4096, 8, 64] should be equal to num_heads * head_dim.[FUNC:CompareShape][FILE:fia_tiling_shape.cpp][LINE:351]
"""


def alternative_labels(diagnosis: Diagnosis) -> set[str]:
    return {alt.category for alt in diagnosis.alternatives}


def test_a_query_shape_refused_against_the_expected_shape_offers_the_shapes() -> None:
    diagnosis = diagnose_text("rank6.log", QUERY_SHAPE_REFUSED)
    assert_reads(
        diagnosis,
        "operator",
        first_error="[CheckQShape] query layout is BSND",
        beside=("shape_mismatch",),
    )


def test_a_query_shape_refused_against_a_formula_stays_with_the_tiling_reading() -> None:
    diagnosis = diagnose_text("rank6.log", QUERY_SHAPE_AGAINST_FORMULA)
    assert diagnosis.category == "operator"
    assert "shape_mismatch" not in alternative_labels(diagnosis)
