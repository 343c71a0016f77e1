"""An operator's limit on how many dimensions a tensor may have.

docs/labelling.md#a-tensor-with-more-dimensions-than-the-op-takes: AI CPU kernels and many aclnn
ops take tensors of at most 8 dimensions and check it on the host before the kernel runs. A
refusal that names that bound is a documented limit of the op: `op_constraint`, with `operator`
beside it. A check for a least number of dimensions is the op refusing its arguments. Values
are ours, in the checks' wordings.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import diagnose_text, rules_of

AICPU_NNOP = (
    "[ERROR] OP(20411,python3):2026-10-03-04:05:06.700.800 [aicpu_ext_info_handle.cpp:290]"
    "[NNOP][UpdateShape][20433] errno[561000] OpName:[aclnnIndexPut_0_IndexPutAiCPU] shape dim"
    " num should be less than 8, but got [10].\n"
)
ACLNN_CHECK = (
    "[ERROR] OP(20411,python3):2026-10-03-04:05:06.700.800 [bitwise_shift.cpp:71]"
    "[OP][AclnnCheck][20433] Self dim num should be less than or equal to 8.\n"
)
AT_LEAST = (
    "[ERROR] OP(20411,python3):2026-10-03-04:05:06.700.800 [trace.cpp:40]"
    "[OP][AclnnCheck][20433] Input dim num should be greater than or equal to 2.\n"
)


@pytest.mark.parametrize("text", [AICPU_NNOP, ACLNN_CHECK], ids=["aicpu", "aclnn"])
def test_a_tensor_over_the_ops_dimension_bound_is_a_limit(text) -> None:
    diagnosis = diagnose_text("plog-20411_1.log", text)
    assert diagnosis.category == "op_constraint", diagnosis.root_cause
    assert "opc.tensor_rank_over_limit" in rules_of(diagnosis)
    assert "operator" in {a.category for a in diagnosis.alternatives}


def test_a_least_number_of_dimensions_is_no_bound() -> None:
    diagnosis = diagnose_text("plog-20411_1.log", AT_LEAST)
    assert "opc.tensor_rank_over_limit" not in rules_of(diagnosis)
