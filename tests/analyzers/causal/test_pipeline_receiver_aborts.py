"""A pipeline stage that aborts on an activation longer than the buffer it posted: the
stages' places do not say who sent it (docs/labelling.md, "Pipeline stages that log each
microbatch" and "A rank that aborts on what a peer sent")."""

from __future__ import annotations

from pathlib import Path

from tests.analyzers.job_bundles import CLOSED, RECV_TIMEOUT, RankLog, analyze_job, ranks

GLOO_PREAMBLE = (
    "  what():  [enforce fail at /opt/src/gloo/transport/tcp/pair.cc:456] op.preamble.length "
    "<= op.nbytes. 640 vs 384. Received data size doesn't match expected size. Is there a "
    "distributed collective mismatch in your code?"
)


def four_stages(done: dict[int, int]) -> list[RankLog]:
    """Four stages of two layers each, printed as a user's emoji prints (`✅ [rank2] layer 4
    passed | 第 4 层 通过`); stage s pushed `done[s]` microbatches through its layers."""
    job = ranks(4)
    for log in job:
        log.raw(
            f"🚀 [rank{log.rank}] pipeline stage {log.rank} up, layers {2 * log.rank}-{2 * log.rank + 1}"
        )
        for _ in range(done[log.rank]):
            for layer in (2 * log.rank, 2 * log.rank + 1):
                log.raw(f"✅ [rank{log.rank}] layer {layer} passed | 第 {layer} 层 通过")
    return job


def test_a_last_stage_that_aborts_on_a_longer_activation_names_no_sender(tmp_path: Path) -> None:
    """Stage 3 aborts on its first receive, before any layer line; stages 0-2 ran ahead of it
    by the schedule (3, 3 and 2 microbatches) and then lost it. The stage behind and the stage
    ahead are both where the pipeline put them, so nobody is named (a real gloo run whose
    stage 2 built a wider last layer)."""
    job = four_stages({0: 3, 1: 3, 2: 2, 3: 0})
    job[3].raw("terminate called after throwing an instance of 'gloo::EnforceNotMet'")
    job[3].raw(GLOO_PREAMBLE)
    for rank in (0, 1, 2):
        job[rank].raw(f"[rank{rank}]: RuntimeError: {CLOSED}")
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error.rank == 3
    assert diagnosis.culprit_ranks == []


def test_a_stage_starved_by_its_upstream_still_names_the_upstream(tmp_path: Path) -> None:
    """Counterexample: the same places with every stage only timing out (no message arrived
    too long): stage 1 finished three microbatches while stage 2 started two, so stage 1 is
    the one that did not send."""
    job = four_stages({0: 3, 1: 3, 2: 2, 3: 2})
    for rank in range(4):
        job[rank].raw(f"[rank{rank}]: RuntimeError: {RECV_TIMEOUT}")
    assert analyze_job(tmp_path, job).diagnosis.culprit_ranks == [1]
