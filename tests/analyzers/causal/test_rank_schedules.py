"""A pipeline stage that states another schedule than its peers is the culprit of the deadlock
their sends and receives run into (docs/labelling.md, "Pipeline stages that run different
schedules"). The bundles are 4-stage gloo jobs: every stage states its schedule as it starts,
passes two steps, and times out in step 2's send or receive."""

from __future__ import annotations

from pathlib import Path

from tests.analyzers.job_bundles import RankLog, analyze_job, ranks

SEND = (
    "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:129] Timed out "
    "waiting 20000ms for send operation to complete"
)
RECV = (
    "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:78] Timed out "
    "waiting 20000ms for recv operation to complete"
)


def _stage(log: RankLog, schedule: str) -> RankLog:
    log.info(f"pipeline stage {log.rank}/4: hidden=16 microbatches=4 schedule={schedule}")
    log.info("load weights passed")
    for step in (0, 1):
        log.steps(f"train step {step} start", "  forward passed", "  backward passed")
        log.steps("  optimizer passed", f"train step {step} passed")
    log.info("train step 2 start")
    log.at(25000).log("ERROR", f"training failed: {SEND if log.rank < 2 else RECV}")
    return log


def test_the_stage_that_stated_another_schedule_is_the_culprit(tmp_path: Path) -> None:
    job = [_stage(log, "1f1b" if log.rank == 2 else "gpipe") for log in ranks(4)]
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [2]
    assert "1f1b" in (diagnosis.culprit_reason or "")


def test_stages_that_state_one_schedule_single_nobody_out_by_it(tmp_path: Path) -> None:
    job = [_stage(log, "gpipe") for log in ranks(4)]
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert "schedule" not in (diagnosis.culprit_reason or "")
