"""`make eval`'s reliability table: answers binned by confidence, with how often each bin
was right, and the promise that answers at 0.8 or more are right at least 95% of the time."""

from __future__ import annotations

import pytest

from analyzers.eval import reliability_table
from analyzers.scoring import Outcome, Score


def outcome(confidence: float, right: bool, alternatives: tuple[str, ...] = ()) -> Outcome:
    return Outcome(
        name="case",
        category="oom" if right else "operator",
        expected="oom",
        category_ok=right,
        first_error=None,
        first_error_ok=True,
        culprits=(),
        culprits_ok=None,
        confidence=confidence,
        alternatives=alternatives,
    )


def row(table: list[str], prefix: str) -> list[str]:
    return next(line for line in table if line.startswith(prefix)).split()


@pytest.mark.parametrize(
    ("confidences", "bin_prefix", "count", "right"),
    [
        ([0.95, 0.97, 1.0], "0.9-1.0]", "3", "100%"),  # the top bin includes 1.0
        ([0.8, 0.85], "0.8-0.9)", "2", "100%"),  # 0.8 falls in the 0.8 bin
        ([0.3], "0.0-0.5)", "1", "100%"),
    ],
)
def test_each_answer_lands_in_its_confidence_bin(confidences, bin_prefix, count, right) -> None:
    table = reliability_table(Score(tuple(outcome(c, True) for c in confidences)))
    assert row(table, bin_prefix)[1:] == [count, right]


def test_an_empty_bin_shows_a_dash() -> None:
    table = reliability_table(Score((outcome(0.95, True),)))
    assert row(table, "0.5-0.6)")[1:] == ["0", "-"]


def test_confident_accuracy_counts_only_answers_at_or_above_the_bar() -> None:
    score = Score((outcome(0.9, True), outcome(0.8, False), outcome(0.5, False)))
    assert score.confident_accuracy == 0.5
    assert not score.meets_targets()


def test_an_expected_label_among_the_alternatives_counts_for_the_top_two_figure() -> None:
    score = Score((outcome(0.6, False, ("oom",)), outcome(0.6, False, ("hang",))))
    assert score.alternative_accuracy == 0.5


def test_an_answer_accepted_only_through_an_also_label_does_not_count_as_primary() -> None:
    accepted_as_also = Outcome(
        name="case",
        category="operator",
        expected="op_constraint",
        category_ok=True,  # the truth lists operator under category_also
        first_error=None,
        first_error_ok=True,
        culprits=(),
        culprits_ok=None,
        confidence=0.9,
    )
    score = Score((accepted_as_also, outcome(0.95, True)))
    assert score.category_accuracy == 1.0
    assert score.primary_accuracy == 0.5
    assert score.confident_primary_accuracy == 0.5
    assert row(reliability_table(score), "primary label alone:") == [
        "primary",
        "label",
        "alone:",
        "50%",
        "(at",
        "≥0.8:",
        "50%)",
    ]
