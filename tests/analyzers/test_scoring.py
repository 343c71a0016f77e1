"""Judging one report against its sample's truth."""

from __future__ import annotations

from pathlib import Path

from analyzers.labelled_sets import Sample
from analyzers.scoring import _checkpoints_ok, judge


def test_a_label_the_truth_also_accepts_is_right_but_not_primary() -> None:
    sample = Sample(
        "d01",
        Path("d01"),
        {"category": "hccl", "category_also": ["hang"], "first_error_contains": "EI0006"},
    )
    report = {
        "diagnosis": {
            "category": "hang",
            "confidence": 0.7,
            "first_error": {"text": "EI0006 Getting socket times out", "file": "a", "line": 3},
            "alternatives": [{"category": "hccl"}],
        }
    }

    outcome = judge(sample, report)

    assert outcome.category_ok
    assert outcome.first_error_ok
    assert outcome.category != outcome.expected
    assert outcome.alternatives == ("hccl",)
    assert outcome.culprits_ok is None  # the truth names no culprits


def test_no_first_error_is_right_only_where_the_truth_has_none_or_marks_it_optional() -> None:
    report = {"diagnosis": {"category": "healthy"}}
    healthy = Sample("d02", Path("d02"), {"category": "healthy"})
    failed = Sample("d03", Path("d03"), {"category": "oom", "first_error_contains": "OOM"})

    assert judge(healthy, report).first_error_ok
    assert not judge(failed, report).first_error_ok


def _report(lasts: dict[int, str | None], common: str | None) -> dict:
    ranks = [{"rank": r, "last_checkpoint_qualified": last} for r, last in lasts.items()]
    return {"ranks": ranks, "correlation": {"last_common_checkpoint_qualified": common}}


CHECKPOINT_TRUTH = {
    "per_rank_last_checkpoint_qualified": {"0": "layer 2 / norm passed", "1": None},
    "last_common_checkpoint_qualified": None,
}


def test_checkpoints_are_right_when_every_rank_and_the_common_one_match() -> None:
    report = _report({0: "layer 2 / norm passed", 1: None}, None)
    assert _checkpoints_ok(CHECKPOINT_TRUTH, report) is True


def test_checkpoints_are_wrong_when_one_rank_stops_in_another_layer() -> None:
    report = _report({0: "layer 1 / norm passed", 1: None}, None)
    assert _checkpoints_ok(CHECKPOINT_TRUTH, report) is False
    assert _checkpoints_ok({"category": "hccl"}, report) is None
