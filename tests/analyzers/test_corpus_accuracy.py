"""The analyzer on the development corpus: every case and torch bundle through the full
pipeline, scored the way `python -m analyzers.eval` (make eval) prints it."""

from __future__ import annotations

import pytest

from analyzers.eval import evaluate, render
from analyzers.scoring import CATEGORY_TARGET, CONFIDENT_TARGET, FIRST_ERROR_TARGET, Score
from tests.corpus_path import CORPUS as SHARED_CORPUS


@pytest.fixture(scope="module")
def score() -> Score:
    corpus = SHARED_CORPUS
    if not (corpus / "cases").is_dir():
        pytest.fail(f"the shared corpus is missing at {corpus}")
    return evaluate(corpus)


def test_category_accuracy_meets_the_target(score: Score) -> None:
    assert score.category_accuracy >= CATEGORY_TARGET, render(score)


def test_first_error_accuracy_meets_the_target(score: Score) -> None:
    assert score.first_error_accuracy >= FIRST_ERROR_TARGET, render(score)


def test_culprit_ranks_of_the_multi_rank_runs_are_right(score: Score) -> None:
    wrong = [o for o in score.outcomes if o.culprits_ok is False]
    assert not wrong, render(score)


def test_first_errors_of_the_multi_rank_runs_cite_the_right_file_and_line(score: Score) -> None:
    wrong = [o for o in score.outcomes if o.location_ok is False]
    assert not wrong, render(score)


def test_every_sample_was_scored(score: Score) -> None:
    assert len(score.outcomes) >= 21


def test_confident_answers_are_right_as_often_as_promised(score: Score) -> None:
    confident = score.confident_accuracy
    assert confident is None or confident >= CONFIDENT_TARGET, render(score)
