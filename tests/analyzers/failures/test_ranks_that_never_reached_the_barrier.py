"""A job whose logged ranks end waiting at the store barrier while the others left no log.

docs/labelling.md#a-rank-that-never-reached-the-store: when every rank that left a log ends it
in the store barrier's wait, its count short of the world, the ranks with no log never checked
in: a wait at the store (`hccl`) blamed on them, not ranks that died while
the others ran. Counterexample: ranks with no log while the others were past the barrier and
computing are still read as lost. Paths, times and sizes are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_files

WAIT = (
    "[2026-10-02 11:40:{sec:02d},502][torch.distributed.distributed_c10d][INFO] - Waiting in "
    "store based barrier to initialize process group for rank: {rank}, key: "
    "store_based_barrier_key:1 (world_size=4, worker_count=2, timeout=0:30:00)\n"
)


def waits(rank: int) -> str:
    return "".join(WAIT.format(sec=sec, rank=rank) for sec in (10, 20, 30))


def test_ranks_left_waiting_at_the_barrier_blame_the_ranks_that_never_came() -> None:
    diagnosis = diagnose_files({"rank0.log": waits(0), "rank1.log": waits(1)})
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [2, 3]


def test_ranks_past_the_barrier_with_others_missing_are_still_read_as_lost() -> None:
    computing = waits(0) + "[2026-10-02 11:41:02,114][train][INFO] - epoch 0 step 40 loss 2.71\n"
    diagnosis = diagnose_files({"rank0.log": computing, "rank1.log": waits(1)})
    assert diagnosis.category != "hccl"
