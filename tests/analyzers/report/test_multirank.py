"""Job-level verdicts that replace the first error's own label (`analyzers.report.multirank`).

Bundles are small gloo jobs shaped like the torch corpus (`tests/analyzers/job_bundles.py`).
"""

from __future__ import annotations

from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from tests.analyzers.job_bundles import analyze_job, bundle, ranks, store_never_fills


def test_a_store_waiting_for_ranks_never_started_is_a_configuration_error(tmp_path: Path) -> None:
    """Labelling guide, "A world size larger than the job started": four processes started
    (WORLD_SIZE=4 in the env dump) with world_size=5 in their lines; the store's timeout only
    reports the wait, the world size is what has to change."""
    diagnosis = analyze_job(tmp_path, store_never_fills(5, 4)).diagnosis
    assert diagnosis.category == "config"
    assert [alt.category for alt in diagnosis.alternatives][:1] == ["hccl"]
    assert "only 4 processes were started" in diagnosis.root_cause


def test_a_store_waiting_for_a_started_rank_stays_a_communication_error(tmp_path: Path) -> None:
    """Counterexample: the environment counts five processes, so rank 4 was started and the
    wait is the collective layer's failure to hear from it."""
    path = bundle(tmp_path, store_never_fills(5, 4), 5)
    assert analyze(path, AnalyzeOptions(workers=1)).diagnosis.category == "hccl"


SCATTER = (
    "RuntimeError: ProcessGroupGloo::scatter: invalid tensor size at index 0 "
    "(expected (1), got (2))"
)


def test_a_rank_that_finished_loading_fails_in_the_next_step_not_in_the_loader(
    tmp_path: Path,
) -> None:
    """Every rank said `load weights passed`; rank 0 then fails in the prompt's scatter and the
    others wait there. Their last checkpoint names loading, but so does the failing rank's,
    which says its loading finished: the tensor check's own label stands."""
    logs = ranks(4)
    for log in logs:
        log.loaded()
    logs[0].fails(SCATTER, frame="scatter_ids")
    diagnosis = analyze_job(tmp_path, logs).diagnosis
    assert diagnosis.category == "shape_mismatch", diagnosis.root_cause
    assert diagnosis.culprit_ranks == [0]


def test_a_rank_still_loading_when_it_fails_is_a_weight_load_failure(tmp_path: Path) -> None:
    """Counterexample: the failing rank's last checkpoint is loading in progress while the
    others wait after `load weights passed`: the size error is the loader's."""
    logs = ranks(4)
    for log in logs[:3]:
        log.loaded()
    logs[3].info("loading weights shard 2/4").fails(SCATTER, frame="load_weights")
    diagnosis = analyze_job(tmp_path, logs).diagnosis
    assert diagnosis.category == "weight_load", diagnosis.root_cause
    assert diagnosis.culprit_ranks == [3]
