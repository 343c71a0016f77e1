"""Several ranks' timed lines in one file: a rank's block that failed earlier may stand lower
(a combined console flushed rank by rank, a paste of several ranks' blocks). Beyond the clocks'
tolerance the ranks' own times order them, as they would in files of their own; within it, and
within one rank, the line order stays. docs/labelling.md#ranks-that-share-one-file
"""

from __future__ import annotations

from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from analyzers.core.report import Diagnosis
from tests.analyzers.job_bundles import pack

TIMEOUT = (
    "[rank0]:[E1204 10:14:{second} ProcessGroupNCCL.cpp:1834] [PG ID 0 PG GUID 0(default_pg) "
    "Rank 0] Timeout at NCCL work: 812, last enqueued NCCL work: 812, last completed NCCL work: 811."
)
TEARDOWN = (
    "[rank0]:[E1204 10:14:{second} ProcessGroupNCCL.cpp:630] [Rank 0] Some NCCL operations have "
    "failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU "
    "operations might run on corrupted/incomplete data."
)
ASYNC_ERROR = (
    "[{rank}]:[E1204 10:14:{second} ProcessGroupNCCL.cpp:542] [Rank {number}] Collective "
    "WorkNCCL(SeqNum=305, OpType=ALLTOALL, NumelIn=1221120, NumelOut=1221120, Timeout(ms)=600000) "
    "raised the following async exception: NCCL error: unhandled system error (run with "
    "NCCL_DEBUG=INFO for details), NCCL version 2.21.5"
)
SYSTEM_ERROR = (
    "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or "
    "device error. "
)


def console(later_rank: str, later_second: str) -> str:
    """Rank 0's timeout block pasted first, then another block at `later_second`."""
    number = later_rank.removeprefix("rank")
    return "\n".join(
        [
            "2026-12-04 10:02:11,408 - INFO - Training steps: 0/2000",
            TIMEOUT.format(second="41.207334512"),
            TEARDOWN.format(second="41.207351907"),
            ASYNC_ERROR.format(rank=later_rank, number=number, second=later_second),
            SYSTEM_ERROR,
            "Last error:",
            "",
        ]
    )


def diagnose_console(tmp_path: Path, text: str) -> Diagnosis:
    """Through the whole pipeline: torch's C++ lines carry no year, the trainer's line gives it."""
    job = pack(tmp_path / "job.tar.gz", {"console.log": text}, "job")
    return analyze(job, AnalyzeOptions(workers=1)).diagnosis


def test_a_rank_that_failed_seconds_earlier_goes_first_though_pasted_below(tmp_path: Path) -> None:
    diagnosis = diagnose_console(tmp_path, console("rank1", "12.530118024"))
    assert diagnosis.category == "hccl", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert "[rank1]" in diagnosis.first_error.text
    assert "unhandled system error" in diagnosis.first_error.text


def test_ranks_within_the_clocks_tolerance_keep_the_line_order(tmp_path: Path) -> None:
    diagnosis = diagnose_console(tmp_path, console("rank1", "40.124860371"))
    assert diagnosis.first_error is not None
    assert "Timeout at NCCL work: 812" in diagnosis.first_error.text


def test_one_rank_s_lines_keep_their_order_whatever_their_times(tmp_path: Path) -> None:
    diagnosis = diagnose_console(tmp_path, console("rank0", "12.530118024"))
    assert diagnosis.first_error is not None
    assert "Timeout at NCCL work: 812" in diagnosis.first_error.text


def test_a_console_of_many_ranks_finds_the_one_that_failed_first_at_the_bottom(
    tmp_path: Path,
) -> None:
    ranks = 2_000
    timeouts = [
        ASYNC_ERROR.format(rank=f"rank{rank}", number=rank, second="41.207334512")
        for rank in range(ranks - 1)
    ]
    earliest = ASYNC_ERROR.format(rank=f"rank{ranks - 1}", number=ranks - 1, second="02.5301")
    text = "\n".join(["2026-12-04 10:02:11,408 - INFO - Training steps: 0/2000", *timeouts])
    diagnosis = diagnose_console(tmp_path, f"{text}\n{earliest}\n")
    assert diagnosis.first_error is not None
    assert f"[rank{ranks - 1}]" in diagnosis.first_error.text
