"""A hang with no error line blames the ranks that stopped earliest or ran past the others,
never every rank; when they all stopped at one checkpoint it says nobody stands out.

Each case is a 4-rank bundle shaped like the torch corpus whose logs just end (the job was
killed from outside), run through the whole pipeline.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.analyzers.job_bundles import RankLog, analyze_job, ranks


def one_rank_stopped_early() -> list[RankLog]:
    """Rank 3 never finished layer 1's MoE; the others went on into layer 2 and wait."""
    job = ranks(4)
    for log in job:
        log.loaded().layers(1, [" norm passed", " attention passed"])
        if log.rank != 3:
            log.steps(" MoE passed", "layer 1 passed", " norm passed")
    return job


def two_ranks_stopped_early() -> list[RankLog]:
    job = ranks(4)
    for log in job:
        log.loaded().layers(2 if log.rank in (0, 1) else 1, [" norm passed"])
    return job


def one_rank_ran_past_the_others() -> list[RankLog]:
    """Rank 2 skipped the attention all_reduce and logged one checkpoint more."""
    job = ranks(4)
    for log in job:
        log.loaded().layers(2, [" norm passed"] + ([" attention passed"] if log.rank == 2 else []))
    return job


def all_stopped_at_the_same_point() -> list[RankLog]:
    job = ranks(4)
    for log in job:
        log.loaded().layers(2, [" norm passed"])
    return job


def three_finished_one_did_not() -> list[RankLog]:
    job = ranks(4)
    for log in job:
        log.loaded().layers(3)
        if log.rank != 1:
            log.info("model run success")
    return job


def no_checkpoints_at_all() -> list[RankLog]:
    """Logs that only say what they are doing at start-up give nothing to compare."""
    return ranks(4)


CASES = [
    pytest.param(
        one_rank_stopped_early,
        [3],
        "Rank 3 stopped making progress after 'layer 1 / attention passed' while ranks 0, 1, 2 "
        "reached 'layer 2 / norm passed'.",
        id="one-rank-stopped-early",
    ),
    pytest.param(
        two_ranks_stopped_early,
        [2, 3],
        "Ranks 2, 3 stopped making progress after 'layer 1 / norm passed' while ranks 0, 1 "
        "reached 'layer 2 / norm passed'.",
        id="two-ranks-stopped-early",
    ),
    pytest.param(
        one_rank_ran_past_the_others,
        [2],
        "Rank 2 ran on to 'layer 2 / attention passed' while ranks 0, 1, 3 stopped at "
        "'layer 2 / norm passed': it went past a collective the others wait in.",
        id="one-rank-ran-past-the-others",
    ),
    pytest.param(
        all_stopped_at_the_same_point,
        [],
        "Every rank stopped making progress after 'layer 2 / norm passed'; no rank stopped "
        "earlier or went further, so none is singled out.",
        id="all-stopped-at-one-checkpoint-nobody-singled-out",
    ),
    pytest.param(
        no_checkpoints_at_all,
        [],
        "Every rank stopped making progress; their logs have no checkpoints that tell which "
        "stopped first, so none is singled out.",
        id="no-checkpoints-nobody-singled-out",
    ),
    pytest.param(
        three_finished_one_did_not,
        [1],
        "Rank 1 stopped making progress after 'layer 2 passed' while ranks 0, 2, 3 reached "
        "'model run success'.",
        id="the-rank-that-did-not-finish",
    ),
]


@pytest.mark.parametrize(("job", "culprits", "reason"), CASES)
def test_silent_hang_blames_only_the_ranks_that_stand_out(
    tmp_path: Path, job: Callable[[], list[RankLog]], culprits: list[int], reason: str
) -> None:
    diagnosis = analyze_job(tmp_path, job()).diagnosis
    assert (diagnosis.category, diagnosis.first_error) == ("hang", None)
    assert diagnosis.culprit_ranks == culprits
    assert diagnosis.culprit_reason == reason
    assert diagnosis.root_cause == reason


def test_half_the_ranks_behind_the_other_half_are_the_ones_blamed(tmp_path: Path) -> None:
    job = [RankLog(rank, 8) for rank in range(8)]
    for log in job:
        log.loaded().layers(2, [" norm passed"] + ([" attention passed"] if log.rank > 3 else []))
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == [0, 1, 2, 3]
    assert diagnosis.root_cause == (
        "Ranks 0, 1, 2, 3 stopped making progress after 'layer 2 / norm passed' while ranks "
        "4, 5, 6, 7 reached 'layer 2 / attention passed'."
    )


def test_the_only_rank_of_a_job_that_stopped_is_the_one_blamed(tmp_path: Path) -> None:
    diagnosis = analyze_job(tmp_path, [RankLog(0, 1).loaded()]).diagnosis
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == [0]
    assert diagnosis.root_cause == "Rank 0 stopped making progress after 'load weights passed'."


def ring_exchange(skips: int | None, cycle: bool = False) -> list[RankLog]:
    """A ring kv exchange in layer 2 (send to rank+1, receive from rank-1), each rank saying
    whom it waits for first. Rank `skips` never posts its send, so its right neighbour is
    left waiting; the others pass the exchange and block in the attention all_reduce. With
    `cycle`, ranks 1 and 2 each wait for the other instead (a send/recv order deadlock)."""
    job = ranks(4)
    for log in job:
        log.loaded().layers(2, [" norm passed"])
        prev = (log.rank - 1) % 4
        if cycle and log.rank in (1, 2):
            log.info(f"  waiting for kv from rank {3 - log.rank}")
            continue
        log.info(f"  waiting for kv from rank {prev}")
        if skips is None or prev != skips:
            log.info("  kv exchange passed")
    return job


def test_a_hang_blames_the_peer_a_stopped_rank_waits_for(tmp_path: Path) -> None:
    """Labelling guide, "A wait that names its peer": rank 2 stopped at its wait for rank 1,
    which went on without sending; rank 2 is behind, rank 1 is the culprit. The wait lines
    are no checkpoints: every rank's last checkpoint is unchanged."""
    report = analyze_job(tmp_path, ring_exchange(skips=1))
    diagnosis = report.diagnosis
    assert (diagnosis.category, diagnosis.first_error) == ("hang", None)
    assert diagnosis.culprit_ranks == [1]
    assert diagnosis.culprit_reason == (
        "Rank 2 stopped making progress after 'layer 2 / norm passed', waiting for rank 1."
    )
    lasts = {r.rank: r.last_checkpoint_qualified for r in report.ranks}
    assert lasts == {
        0: "layer 2 / kv exchange passed",
        1: "layer 2 / kv exchange passed",
        2: "layer 2 / norm passed",
        3: "layer 2 / kv exchange passed",
    }


def test_waits_that_form_a_cycle_name_nobody_by_themselves(tmp_path: Path) -> None:
    """Counterexample: ranks 1 and 2 each wait for the other, so the wait lines single no
    rank out and the ranks behind the pack are blamed as before."""
    diagnosis = analyze_job(tmp_path, ring_exchange(skips=None, cycle=True)).diagnosis
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == [1, 2]


def test_a_wait_that_completed_names_nobody(tmp_path: Path) -> None:
    """Counterexample: every rank's wait was followed by progress; rank 3 stopped in its
    own compute later, and is the one behind."""
    job = ring_exchange(skips=None)
    for log in job:
        if log.rank != 3:
            log.info("  attention passed")
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.culprit_ranks == [3]
