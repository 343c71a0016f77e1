"""A collective whose byte counts differ, and the one rank that logged another dtype.

docs/labelling.md#a-rank-that-aborts-on-what-a-peer-sent: gloo's size check aborts the rank
that received more than it posted and names no sender, so the line alone singles no rank out.
Jobs log the dtype they communicate in as they start (`gradient sync dtype float32`); when
every rank logged the same statement and one rank alone named another dtype, that rank's
buffers had other byte counts than its peers': it is the culprit, whether it is the rank that
aborted (a narrower buffer receives too much) or a sender (a wider one sends too much).
Values are our own, in torch 2.13's and gloo's real wording.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files
from tests.analyzers.job_bundles import CLOSED

SIZE = (
    "  what():  [enforce fail at /__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
    "pair.cc:456] op.preamble.length <= op.nbytes. 12 vs 6. Received data size doesn't match "
    "expected size. Is there a distributed collective mismatch in your code?"
)


def head(rank: int, dtype: str) -> list[str]:
    stamp = f"2026-12-05 11:02:1{rank},{200 + rank:03d} - INFO - ddp -"
    return [
        f"{stamp} init process group: backend=gloo rank={rank} world_size=6",
        f"{stamp} gradient sync dtype {dtype}",
        f"{stamp} [layer 0/2] norm ok",
        f"{stamp} iter 1 done loss=0.{rank}1",
    ]


def lost(rank: int, dtype: str) -> str:
    lines = [
        *head(rank, dtype),
        f"[rank{rank}]: Traceback (most recent call last):",
        f'[rank{rank}]:   File "/srv/job/train.py", line 88, in allreduce_grads',
        f"[rank{rank}]: RuntimeError: {CLOSED}",
    ]
    return "\n".join(lines) + "\n"


def aborted(rank: int, dtype: str) -> str:
    lines = [
        *head(rank, dtype),
        "terminate called after throwing an instance of 'gloo::EnforceNotMet'",
        SIZE,
    ]
    return "\n".join(lines) + "\n"


def job(dtypes: dict[int, str], aborts: int) -> dict[str, str]:
    return {
        f"job-5e1f/log_{rank}.log": (aborted if rank == aborts else lost)(rank, dtype)
        for rank, dtype in dtypes.items()
    }


def test_the_rank_that_logged_another_dtype_is_the_culprit_when_it_aborted() -> None:
    dtypes = {rank: "float32" for rank in range(6)} | {1: "bfloat16"}
    diagnosis = diagnose_files(job(dtypes, aborts=1))
    assert_reads(diagnosis, "hccl", first_error="op.preamble.length")
    assert diagnosis.culprit_ranks == [1]


def test_the_rank_that_logged_a_wider_dtype_is_named_though_its_neighbour_aborted() -> None:
    dtypes = {rank: "torch.float32" for rank in range(6)} | {3: "torch.float64"}
    diagnosis = diagnose_files(job(dtypes, aborts=4))
    assert diagnosis.culprit_ranks == [3]
    assert "float64" in (diagnosis.culprit_reason or "")


def test_ranks_that_all_logged_one_dtype_single_no_one_out() -> None:
    dtypes = {rank: "float32" for rank in range(6)}
    assert diagnose_files(job(dtypes, aborts=1)).culprit_ranks == []


def test_ranks_split_between_two_dtypes_single_no_one_out() -> None:
    dtypes = {rank: "float32" for rank in range(6)} | {1: "bfloat16", 4: "bfloat16"}
    assert diagnose_files(job(dtypes, aborts=1)).culprit_ranks == []


def warned_job(warnings: dict[int, str], aborts: int) -> dict[str, str]:
    """Four ranks that stated no dtype in their heads; the ranks in `warnings` logged the
    warning line given, right after loading their weights."""
    files = {}
    for rank in range(4):
        lines = [
            f"init process group: backend=gloo rank={rank} world_size=4",
            "load weights passed",
            *([warnings[rank]] if rank in warnings else []),
            " norm passed",
        ]
        if rank == aborts:
            lines += ["terminate called after throwing an instance of 'gloo::EnforceNotMet'", SIZE]
        else:
            lines += [
                f"[rank{rank}]: Traceback (most recent call last):",
                f'[rank{rank}]:   File "/srv/job/infer.py", line 88, in forward',
                f"[rank{rank}]: RuntimeError: {CLOSED}",
            ]
        files[f"job-5e1f/log_{rank}.log"] = "\n".join(lines) + "\n"
    return files


CAST = "warning: layer 1 attention.o is torch.float64 in the checkpoint; casting qkv to match"


def test_the_one_rank_that_warned_of_its_dtype_is_the_culprit() -> None:
    """No rank stated its dtype as it started; rank 2 alone warned that one of its tensors is
    float64, and rank 3, its ring successor, aborted on the wider message."""
    diagnosis = diagnose_files(warned_job({2: CAST}, aborts=3))
    assert_reads(diagnosis, "hccl", first_error="op.preamble.length")
    assert diagnosis.culprit_ranks == [2]
    assert "float64" in (diagnosis.culprit_reason or "")


def test_two_ranks_that_warned_of_a_dtype_single_no_one_out() -> None:
    diagnosis = diagnose_files(warned_job({1: CAST, 2: CAST}, aborts=3))
    assert diagnosis.culprit_ranks == []


def test_a_dtype_one_rank_logged_without_a_warning_singles_no_one_out() -> None:
    """Rank 0 alone logs its model dtype at start, as jobs that log from rank 0 only do: an
    ordinary statement, not a warning, and no peer to compare it with."""
    diagnosis = diagnose_files(warned_job({0: "model dtype torch.bfloat16"}, aborts=3))
    assert diagnosis.culprit_ranks == []
