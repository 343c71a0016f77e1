"""`diagnosis.alternatives`: up to two other labels, each with its evidence and a score below
the chosen label's confidence (docs/labelling.md#alternatives-and-confidence)."""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import diagnose_text
from tests.analyzers.failures.test_operator_failures import CASES as OPERATOR_CASES

MISSING_BINARY = OPERATOR_CASES[0][1]
PLAIN_OOM = (
    "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.00 GiB total "
    "capacity; 58.10 GiB already allocated)\n"
)


def test_the_guide_neighbour_of_the_deciding_rule_is_shown_with_its_evidence() -> None:
    diagnosis = diagnose_text("job/rank0.log", MISSING_BINARY)
    assert diagnosis.category == "driver_env"
    operator = next(alt for alt in diagnosis.alternatives if alt.category == "operator")
    assert "binaries" in operator.evidence
    assert 0 < operator.score < diagnosis.confidence


def test_an_alternatives_evidence_has_its_chinese_twin() -> None:
    """A rule's title and a code's meaning have Chinese; a quoted log line stays as logged."""
    diagnosis = diagnose_text("job/rank0.log", MISSING_BINARY)
    assert all(alt.evidence_zh for alt in diagnosis.alternatives)
    operator = next(alt for alt in diagnosis.alternatives if alt.category == "operator")
    assert any("\u4e00" <= ch <= "\u9fff" for ch in operator.evidence_zh)


@pytest.mark.parametrize(
    "text", [case[1] for case in OPERATOR_CASES], ids=[case[0] for case in OPERATOR_CASES]
)
def test_alternatives_are_few_distinct_other_labels_scored_below_the_answer(text: str) -> None:
    diagnosis = diagnose_text("job/rank0.log", text)
    labels = [alt.category for alt in diagnosis.alternatives]
    assert len(labels) <= 2
    assert len(set(labels)) == len(labels)
    assert diagnosis.category not in labels
    assert all(alt.score < diagnosis.confidence and alt.evidence for alt in diagnosis.alternatives)
    scores = [alt.score for alt in diagnosis.alternatives]
    assert scores == sorted(scores, reverse=True)


def test_a_plain_failure_with_nothing_else_said_has_no_alternative() -> None:
    diagnosis = diagnose_text("job/rank0.log", PLAIN_OOM)
    assert diagnosis.category == "oom"
    assert diagnosis.alternatives == []
