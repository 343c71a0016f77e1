"""Job-level verdicts that replace the first error's own label (`analyzers.report.multirank`).

Bundles are small gloo jobs shaped like the torch corpus (`tests/analyzers/job_bundles.py`).
"""

from __future__ import annotations

from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from tests.analyzers.job_bundles import analyze_job, bundle, store_never_fills


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
