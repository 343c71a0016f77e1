"""The sender of a bad message, read from its receiver: a receiver that ran past its peers
skipped the collective, one a line ahead did not."""

from __future__ import annotations

from pathlib import Path

from tests.analyzers.job_bundles import CLOSED, RankLog, analyze_job, ranks

GLOO_PREAMBLE = (
    "  what():  [enforce fail at /opt/src/gloo/transport/tcp/pair.cc:456] op.preamble.length "
    "<= op.nbytes. 256 vs 32. Received data size doesn't match expected size. Is there a "
    "distributed collective mismatch in your code?"
)


def a_receiver_aborts_ahead(steps: dict[int, list[str]]) -> list[RankLog]:
    """Four ranks in layer 3 after its norm, each then logging its `steps`; rank 3 aborts on a
    longer message and the others then lose it."""
    job = ranks(4)
    for log in job:
        log.loaded().layers(3, [" norm passed", *steps.get(log.rank, [])])
    job[3].at(2050).raw("terminate called after throwing an instance of 'gloo::EnforceNotMet'")
    job[3].raw(GLOO_PREAMBLE)
    for rank, ms in ((0, 2100), (1, 2110), (2, 2120)):
        job[rank].at(ms).log("ERROR", f"model run failed: {CLOSED}")
    return job


def test_a_receiver_that_ran_past_its_peers_skipped_the_collective(tmp_path: Path) -> None:
    """docs/labelling.md, "A rank that aborts on what a peer sent": rank 3 went on through
    layer 3 and the end of prefill while rank 2, its partner, never passed layer 3's
    attention; the longer message was rank 2's pending all-reduce meeting rank 3's later one,
    so rank 3 skipped a collective (a real gloo run of a skipped TP all-reduce)."""
    lead = [" attention passed", " MoE passed", "layer 3 passed", "prefill passed"]
    job = a_receiver_aborts_ahead({0: [" attention passed"], 1: lead, 3: lead})
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error.rank == 3
    assert diagnosis.culprit_ranks == [3]


def test_a_receiver_one_line_ahead_is_not_blamed_for_running_on(tmp_path: Path) -> None:
    """Counterexample: a lead of one line is what a stop can cut off a peer's log; ranks 0, 1
    at the norm, ranks 2, 3 one line on: the receiver's lead singles nobody out."""
    job = a_receiver_aborts_ahead({2: [" attention passed"], 3: [" attention passed"]})
    assert 3 not in analyze_job(tmp_path, job).diagnosis.culprit_ranks
