"""An op's host check that states a relation between its own dimensions it supports.

docs/labelling.md#an-operator-name-decides-nothing: the fused attention score op refusing a
value head wider than its key head (`only support kD >= vD, but got ...`) states a limit of
the op, `op_constraint` with `operator` beside it; a check that two inputs must be equal
names their disagreement and stays `operator`.

Fixtures follow the shape torch_npu prints for an aclnn call refused on the host (the call
line carrying the error manager's text, then the PTA summary); values are made up.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text

SUMMARY = (
    "[ERROR] 2026-03-04-05:06:07 (PID:2210, Device:0, RankID:-1) ERR01100 OPS call acl api failed\n"
)

RELATION = (
    "RuntimeError: call aclnnFlashAttentionScore failed, detail:EZ1001: [PID: 2210] "
    "2026-03-04-05:06:07.080.901 only support kD >= vD, but got kD=40 vD=80\n" + SUMMARY
)

MUST_EQUAL = (
    "RuntimeError: call aclnnFlashAttentionScore failed, detail:EZ1001: [PID: 2210] "
    "2026-03-04-05:06:07.080.901 the last dim of key must be equal to the last dim of query, "
    "but got 40 and 80\n" + SUMMARY
)

CASES = [
    ("supported relation", RELATION, "op_constraint", "only support kD >= vD"),
    ("inputs must be equal", MUST_EQUAL, "operator", "must be equal to the last dim"),
]


@pytest.mark.parametrize(
    ("text", "label", "says"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_label_and_first_error_follow_the_guide(text: str, label: str, says: str) -> None:
    diagnosis = diagnose_text("parse/worker.log", text)
    assert_reads(diagnosis, label, first_error=says)


def test_the_op_reading_is_offered_beside_the_limit() -> None:
    diagnosis = diagnose_text("parse/worker.log", RELATION)
    assert "operator" in {alt.category for alt in diagnosis.alternatives}
