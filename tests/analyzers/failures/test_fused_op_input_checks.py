"""Host checks of torch_npu fused ops that refuse what the caller handed them.

Grouped matmul compares one dimension of a grouped weight with one dimension of its input and
prints both values: the op refused its inputs (`operator`), and tensors that disagree put
`shape_mismatch` beside it (guide: "Shape inference that finds the inputs disagree"). The aclnn
runtime refuses a strided view for an op whose prototype does not ask for the conversion and
counts such inputs: `operator`, with the op package's setting (`config`) beside it (guide: "A
kernel library that refuses a tensor it was handed").
"""

from __future__ import annotations

from analyzers.core.report import Diagnosis
from tests.analyzers.excerpts import assert_reads, diagnose_text

GROUPED_WEIGHT_DIM_REFUSED = """\
[rank5]:[E708 09:10:11.121314151 compiler_depend.ts:444] operator():build/CMakeFiles/torch_npu.dir/compiler_depend.ts:162 NPU function error: call aclnnGroupedMatmulV4 failed, error code is 161002
[ERROR] 2026-07-08-09:10:11 (PID:6611, Device:5, RankID:-1) ERR00100 PTA call acl api failed.
[PID: 6611] 2026-07-08-09:10:11.121.314 AclNN_Parameter_Error(EZ1001): Dim 1 value of weight[3] 5120 should be equal with dim 0 value of x[3] 7168
"""

GROUPED_COUNT_REFUSED = """\
[ERROR] 2026-07-08-09:10:11 (PID:6611, Device:5, RankID:-1) ERR00100 PTA call acl api failed.
[PID: 6611] 2026-07-08-09:10:11.121.314 AclNN_Parameter_Error(EZ1001): Dim 0 value of groupList 16 should be equal with the number of weight tensors
"""

STRIDED_VIEW_REFUSED = """\
[rank3]:[E304 05:06:07.080910112 compiler_depend.ts:270] call aclnnGroupedMatmulAllReduce failed, detail:EZ9999: Inner Error!
EZ9999: [PID: 812] 2026-03-04-05:06:07.080.910 Op GroupedMatmulAllReduce has 2 uncontiguous input, but set 0 auto conversion, may not set auto contiguous in op proto.
        TraceBack (most recent call last):
"""


def alternative_labels(diagnosis: Diagnosis) -> set[str]:
    return {alt.category for alt in diagnosis.alternatives}


def test_a_grouped_weight_dimension_refused_with_both_values_offers_the_shapes() -> None:
    diagnosis = diagnose_text("worker_ep5.log", GROUPED_WEIGHT_DIM_REFUSED)
    assert_reads(
        diagnosis,
        "operator",
        first_error="Dim 1 value of weight[3] 5120",
        beside=("shape_mismatch",),
    )


def test_a_grouped_check_against_a_count_offers_no_shapes() -> None:
    diagnosis = diagnose_text("worker_ep5.log", GROUPED_COUNT_REFUSED)
    assert diagnosis.category == "operator"
    assert "shape_mismatch" not in alternative_labels(diagnosis)


def test_an_input_the_runtime_cannot_make_contiguous_is_the_op_with_its_package_beside() -> None:
    diagnosis = diagnose_text("api_server.log", STRIDED_VIEW_REFUSED)
    assert_reads(diagnosis, "operator", first_error="has 2 uncontiguous input", beside=("config",))
    assert diagnosis.confidence >= 0.6
