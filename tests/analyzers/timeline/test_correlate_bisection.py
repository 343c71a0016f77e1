"""Rank comparison on generated bisection runs of real size: every fact is exact.

The generator (`bench/bisection.py`) knows what its logs hold; the report must say the same,
however many checkpoints a rank printed.
"""

from __future__ import annotations

import pytest

from analyzers import AnalyzeOptions, analyze
from bench.bisection import write_bisection_bundle


def _report(tmp_path, ranks, checkpoints, **kwargs):
    bundle = tmp_path / "job.tar.gz"
    truth = write_bisection_bundle(bundle, ranks, checkpoints, **kwargs)
    return analyze(bundle, AnalyzeOptions(workers=1)), truth


def _ranks(report):
    return {summary.rank: summary for summary in report.ranks}


def test_six_thousand_checkpoints_per_rank_are_all_counted_and_compared(tmp_path):
    report, truth = _report(tmp_path, 8, 6000, stops={5: 5410}, culprit=5)
    ranks = _ranks(report)
    assert {r: s.checkpoints for r, s in ranks.items()} == truth.counts
    assert {r: s.last_checkpoint_qualified for r, s in ranks.items()} == truth.last_qualified
    assert {r: s.last_checkpoint_occurrence for r, s in ranks.items()} == truth.last_occurrence
    diagnosis = report.diagnosis
    assert diagnosis.last_common_checkpoint_qualified == truth.common_qualified
    assert diagnosis.last_common_checkpoint_occurrence == truth.common_occurrence
    assert report.correlation["divergence"] is None
    assert report.correlation["behind_ranks"] == [5]


def test_a_skipped_checkpoint_deep_in_the_run_is_a_divergence_at_its_true_position(tmp_path):
    report, _ = _report(tmp_path, 4, 3000, layers=8, skips={2: 2345})
    assert report.correlation["divergent_ranks"] == [2]
    at = report.correlation["divergence_at"]
    assert (at["rank"], at["position"]) == (2, 2346)
    assert "(checkpoint 2345)" in report.correlation["divergence"]


def test_ranks_that_agree_everywhere_do_not_diverge(tmp_path):
    report, truth = _report(tmp_path, 4, 2500, layers=8)
    assert report.correlation["divergent_ranks"] == []
    assert report.diagnosis.last_common_checkpoint_qualified == truth.common_qualified
    assert report.correlation["checkpoints"] == 4 * 2500


def test_the_timeline_holds_every_checkpoint_with_its_line(tmp_path):
    report, truth = _report(tmp_path, 2, 1800, layers=8)
    columns = report.to_dict()["timeline"]
    rank1 = columns["ranks"]["1"]
    assert len(rank1["text"]) == truth.counts[1]
    assert rank1["line"][:3] == [2, 3, 4]
    assert columns["labels"][rank1["label"][-1]] == truth.last_qualified[1]
    assert all(t is not None for t in rank1["time_us"])


@pytest.mark.slow
@pytest.mark.parametrize(("ranks", "checkpoints"), [(8, 50_000), (1024, 2_000)])
def test_issue_sized_jobs_keep_exact_facts(tmp_path, ranks, checkpoints):
    stops = {ranks - 1: checkpoints - 7}
    report, truth = _report(tmp_path, ranks, checkpoints, layers=16, stops=stops)
    ranks_ = _ranks(report)
    assert {r: s.checkpoints for r, s in ranks_.items()} == truth.counts
    assert {r: s.last_checkpoint_qualified for r, s in ranks_.items()} == truth.last_qualified
    assert report.diagnosis.last_common_checkpoint_qualified == truth.common_qualified
    assert report.correlation["behind_ranks"] == [ranks - 1]
