"""NCCL failures that torch's watchdog finds on a collective and reports in its own words.

When a collective ends in an NCCL error rather than a timeout, the process group's watchdog
prints `Collective WorkNCCL(...) raised the following async exception: NCCL error: <reason>`,
with no source location, and NCCL's error class may follow on its own line. The watchdog's
line is the first report of the failure.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

ASYNC_SYSTEM_ERROR = """\
[rank1]:[E0305 21:14:09.551203118 ProcessGroupNCCL.cpp:1785] [PG ID 0 PG GUID 0(default_pg) Rank 1] Collective WorkNCCL(SeqNum=4, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) raised the following async exception: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5
ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. 
Last error:
socketProgress: Connection closed by remote peer node-b02<48213>
"""

ASYNC_REMOTE_EXIT = """\
[rank6]:[E0305 21:14:09.551203118 ProcessGroupNCCL.cpp:542] [Rank 6] Collective WorkNCCL(SeqNum=1, OpType=BROADCAST, NumelIn=65536, NumelOut=65536, Timeout(ms)=1800000) raised the following async exception: NCCL error: remote process exited or there was a network error, NCCL version 2.21.5
"""

FINISHED_QUIETLY = """\
[rank1]:[I0305 21:14:09.551203118 ProcessGroupNCCL.cpp:2211] [PG ID 0 PG GUID 0(default_pg) Rank 1] Collective WorkNCCL(SeqNum=4, OpType=ALLREDUCE) finished; last NCCL error: none recorded
"""


def test_the_watchdog_line_is_the_first_report_of_an_nccl_error() -> None:
    diagnosis = diagnose_text("train/rank1.log", ASYNC_SYSTEM_ERROR)
    assert_reads(diagnosis, "hccl", first_error="raised the following async exception")


def test_a_peer_that_went_away_is_read_from_the_watchdog_line_alone() -> None:
    diagnosis = diagnose_text("train/rank6.log", ASYNC_REMOTE_EXIT)
    assert_reads(diagnosis, "hccl", first_error="remote process exited")
    assert diagnosis.confidence >= 0.5


def test_a_collective_that_finished_without_an_error_is_not_a_failure() -> None:
    diagnosis = diagnose_text("train/rank1.log", FINISHED_QUIETLY)
    assert diagnosis.first_error is None or "NCCL error" not in diagnosis.first_error.text
