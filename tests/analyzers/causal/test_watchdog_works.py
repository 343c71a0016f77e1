"""The ranks whose watchdog gave up on another work than most ranks' watchdogs did.

Each rank's process-group watchdog names the work it timed out on by its sequence number in
the group and its op type. Ranks of one group issue their collectives in the same order, so
they time out on the same work; the few at another sequence number, or at the same number in
another collective, broke step with the rest. The excerpts are shaped like torch's console
output (`[rankN]:[E...] [Rank N] Watchdog caught collective operation timeout: ...`).
"""

from __future__ import annotations

from analyzers.causal.watchdog_works import TimedOutWork, out_of_step, timed_out_works
from tests.analyzers.excerpts import diagnose_files


def watchdog(rank: int, seq: int, op: str) -> str:
    return (
        f"[rank{rank}]:[E0412 08:10:55.1203{rank:05d} ProcessGroupNCCL.cpp:632] [Rank {rank}] "
        f"Watchdog caught collective operation timeout: WorkNCCL(SeqNum={seq}, OpType={op}, "
        f"NumelIn=4096, NumelOut=32768, Timeout(ms)=600000) ran for 600011 milliseconds "
        "before timing out."
    )


def console(works: dict[int, tuple[int, str]]) -> dict[str, str]:
    """One torchrun console the ranks print into, each rank's watchdog line and the lines
    torch prints after it."""
    lines = []
    for rank, (seq, op) in works.items():
        lines += [
            watchdog(rank, seq, op),
            f"[rank{rank}]:[E0412 08:10:55.1204{rank:05d} ProcessGroupNCCL.cpp:2241] Some NCCL "
            "operations have failed or timed out. Due to the asynchronous nature of CUDA "
            "kernels, subsequent GPU operations might run on corrupted/incomplete data.",
        ]
    return {"train.log": "\n".join(lines) + "\n"}


def test_a_rank_in_another_collective_at_the_same_seqnum_called_a_different_one() -> None:
    """FSDP at an epoch's end: rank 2 reduces while the other ranks all-gather, at one
    SeqNum. Rank 0's line comes first, so the note says rank 2 caused what rank 0 reported."""
    works = {r: (3742816, "REDUCE" if r == 2 else "_ALLGATHER_BASE") for r in range(8)}
    diagnosis = diagnose_files(console(works))
    assert diagnosis.culprit_ranks == [2]
    assert diagnosis.culprit_reason == (
        "Rank 0 reported first; rank 2 caused it: it waited in REDUCE (SeqNum 3742816) while "
        "ranks 0, 1, 3, 4, 5, 6, 7 waited in _ALLGATHER_BASE at the same SeqNum: the ranks had "
        "called different collectives."
    )


def test_a_rank_one_seqnum_behind_the_others_broke_step() -> None:
    works = {r: (76 if r == 3 else 77, "BROADCAST") for r in range(8)}
    diagnosis = diagnose_files(console(works))
    assert diagnosis.culprit_ranks == [3]
    assert diagnosis.culprit_reason == (
        "Rank 0 reported first; rank 3 caused it: it timed out on BROADCAST (SeqNum 76) while "
        "ranks 0, 1, 2, 4, 5, 6, 7 timed out on BROADCAST (SeqNum 77), out of step with them."
    )


def test_ranks_that_agree_on_the_work_single_nobody_out() -> None:
    diagnosis = diagnose_files(console({r: (77, "BROADCAST") for r in range(8)}))
    assert diagnosis.culprit_ranks == []


def test_one_rank_s_watchdog_line_has_nobody_to_disagree_with() -> None:
    diagnosis = diagnose_files(console({5: (460631, "ALLREDUCE")}))
    assert diagnosis.culprit_ranks == []


def test_the_works_are_read_from_watchdog_and_flight_recorder_lines() -> None:
    """Newer torch names only the sequence number in its flight-recorder line, and the
    process group in its prefix; the watchdog line adds the op type."""
    files = {
        "train.log": "\n".join(
            [
                "[rank2]:[E ProcessGroupNCCL.cpp:1537] [PG 0 Rank 2] Timeout at NCCL work: 7487,"
                " last enqueued NCCL work: 7487, last completed NCCL work: 7486.",
                watchdog(3, 7487, "ALLREDUCE"),
            ]
        )
        + "\n"
    }
    diagnosis = diagnose_files(files)
    assert diagnosis.culprit_ranks == []  # two ranks, two process-group readings: no pack


def test_a_pack_needs_a_majority() -> None:
    even = [TimedOutWork(r, 12 if r < 2 else 13, "ALLGATHER") for r in range(4)]
    assert out_of_step(even) is None


def test_works_of_different_process_groups_are_not_compared() -> None:
    """Sequence numbers count per process group: a tensor-parallel group's number says
    nothing about the data-parallel group's."""
    works = [
        TimedOutWork(0, 900, "ALLREDUCE", group="0"),
        TimedOutWork(1, 900, "ALLREDUCE", group="0"),
        TimedOutWork(2, 900, "ALLREDUCE", group="0"),
        TimedOutWork(3, 31, "ALLGATHER", group="2"),
    ]
    assert out_of_step(works) is None


def test_a_rank_reading_agrees_when_its_op_is_unknown() -> None:
    """A flight-recorder line names no op: at the pack's SeqNum it does not disagree."""
    works = [
        TimedOutWork(0, 32, None),
        TimedOutWork(1, 32, "BROADCAST"),
        TimedOutWork(2, 32, "BROADCAST"),
        TimedOutWork(3, 32, "BROADCAST"),
    ]
    assert out_of_step(works) is None


def test_each_rank_s_reading_per_process_group() -> None:
    """A flight-recorder line adds the process group; a rank's second line naming the same
    work adds nothing, and a line cut inside the work is not read."""
    lines = [
        (1, watchdog(1, 77, "BROADCAST")),
        (1, "[rank1]:  what():  [Rank 1] " + watchdog(1, 77, "BROADCAST").split("] ", 2)[2]),
        (
            1,
            "[rank1]:[E611 04:20:17.441209318 ProcessGroupNCCL.cpp:2252] [PG ID 1 PG GUID 1 "
            "Rank 1]  failure detected by watchdog at work sequence id: 918 PG status: last "
            "enqueued work: 930, last completed work: 917",
        ),
        (2, "[rank2]: Watchdog caught collective operation timeout: WorkNCCL(SeqNum=27"),
    ]
    assert timed_out_works(lines) == [
        TimedOutWork(1, 77, "BROADCAST"),
        TimedOutWork(1, 918, None, group="1"),
    ]


def test_a_rank_naming_two_works_without_their_groups_is_not_compared() -> None:
    """Older torch prints no process group: rank 3's watchdogs of its tensor-parallel and
    its data-parallel group each gave up, and either number could be the one to compare."""
    lines = [(r, watchdog(r, 900, "ALLREDUCE")) for r in range(4)]
    lines.append((3, watchdog(3, 31, "ALLGATHER")))
    assert [work.rank for work in timed_out_works(lines)] == [0, 1, 2]
