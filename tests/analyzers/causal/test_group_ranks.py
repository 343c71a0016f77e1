"""A monitored barrier run on a sub-group names its ranks by their place in that group.

Eight gloo ranks in strided expert groups [0, 2, 4, 6] and [1, 3, 5, 7] call
`monitored_barrier(group=...)` before their expert all_reduce. Rank 5 never arrives: global
rank 1, rank 0 of its group, reports `[Rank 0]: Rank 2 failed to pass monitoredBarrier`, and
ranks 3 and 7 (group ranks 1 and 3) report that they lost `rank 0`. The culprit is global
rank 5, not global rank 2.
"""

from __future__ import annotations

from pathlib import Path

from tests.analyzers.excerpts import assert_reads
from tests.analyzers.job_bundles import CLOSED, analyze_job, ranks

BARRIER = "ProcessGroupGloo.cpp:{line}] "
LOST_MONITOR = (
    "Rank {member} successfully reached monitoredBarrier, but received errors while waiting "
    "for send/recv from rank 0. Please check rank 0 logs for faulty rank."
)


def _barrier_job(monitor: int, members: dict[int, int], named: int, world: int = 8):
    """`monitor` (group rank 0) names group rank `named`; `members` maps each other reporting
    global rank to its group rank; the ranks in no report lost their peers."""
    job = ranks(world)
    for log in job:
        log.loaded().layers(1, [" norm passed", " attention passed"])
    stamp = "[E1129 07:24:27.61699{rank} " + BARRIER
    job[monitor].raw(
        f"[rank{monitor}]:"
        + stamp.format(rank=monitor, line=2901)
        + f"[Rank 0]: Rank {named} failed to pass monitoredBarrier in 4000 ms"
    )
    job[monitor].at(5800).log("ERROR", f"model run failed: [Rank 0]: Rank {named} failed")
    for rank, member in members.items():
        job[rank].raw(
            f"[rank{rank}]:" + stamp.format(rank=rank, line=67) + LOST_MONITOR.format(member=member)
        )
    return job


def test_a_sub_groups_barrier_report_is_mapped_to_the_global_rank(tmp_path: Path) -> None:
    job = _barrier_job(1, {3: 1, 7: 3}, named=2)
    for rank in (0, 2, 4, 6):
        job[rank].at(6400).log("ERROR", f"model run failed: {CLOSED}")
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert_reads(diagnosis, "hccl", first_error="Rank 2 failed to pass monitoredBarrier")
    assert diagnosis.culprit_ranks == [5]


def test_a_world_barrier_report_keeps_its_numbers(tmp_path: Path) -> None:
    """Counterexample: the barrier of the whole world is run by global rank 0 and its members'
    group ranks are their global ranks: `Rank 2` is global rank 2."""
    job = _barrier_job(0, {1: 1, 3: 3}, named=2, world=4)
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.culprit_ranks == [2]
