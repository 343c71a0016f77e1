"""The ranks the first error's own report names: the rank its peers name in a fingerprint
mismatch, and every rank a monitored barrier lists over several lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.analyzers.job_bundles import CLOSED, RankLog, analyze_job, ranks


def _fingerprint(seq: int, op: str, shape: str) -> str:
    return (
        f"CollectiveFingerPrint(SequenceNumber={seq}, OpType={op}, TensorShape=[{shape}], "
        "TensorDtypes=Float, TensorDeviceTypes=TensorOptions(dtype=float (default), device=cpu, "
        "layout=Strided (default), requires_grad=false (default), pinned_memory=false "
        "(default), memory_format=(nullopt)))"
    )


def every_rank_checks_fingerprints(odd: int, world: int = 4) -> list[RankLog]:
    """TORCH_DISTRIBUTED_DEBUG=DETAIL: rank `odd` alone calls an extra one-element
    all_reduce in layer 2; every rank compares fingerprints and raises at once. Each names
    the first peer that differs from it: the peers name `odd`, `odd` names its first peer."""
    job = ranks(world)
    for log in job:
        log.loaded().layers(2, [" norm passed"])
        mine = "1" if log.rank == odd else "8, 64"
        other = 0 if log.rank == odd and odd != 0 else (1 if log.rank == odd else odd)
        log.raw(f"[rank{log.rank}]: Traceback (most recent call last):")
        log.raw(
            f"[rank{log.rank}]: RuntimeError: Detected mismatch between collectives on ranks. "
            f"Rank {log.rank} is running collective: {_fingerprint(9, 'ALLREDUCE', mine)}, "
            f"but Rank {other} is running collective: CollectiveFingerPrint(SequenceNumber="
            "0OpType=GATHER).Collectives differ in the following aspects: \t Sequence number: "
            "9vs 0  Op type: ALLREDUCEvs GATHER"
        )
    return job


@pytest.mark.parametrize("odd", [0, 2])
def test_the_rank_its_peers_name_in_a_fingerprint_mismatch_is_the_culprit(
    tmp_path: Path, odd: int
) -> None:
    """Labelling guide, "Peers that name one rank": rank 0's line comes first; when rank 0
    is itself the odd rank it names rank 1, yet the three others all name rank 0."""
    diagnosis = analyze_job(tmp_path, every_rank_checks_fingerprints(odd)).diagnosis
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error.rank == 0
    assert diagnosis.culprit_ranks == [odd]


def test_one_fingerprint_report_names_its_peer(tmp_path: Path) -> None:
    """Counterexample: only rank 1's log holds the report (the others lost their peers),
    so there is no count to take and the line's own naming stands."""
    job = ranks(4)
    for log in job:
        log.loaded().layers(2, [" norm passed"])
    job[1].raw(
        "[rank1]: RuntimeError: Detected mismatch between collectives on ranks. Rank 1 is "
        f"running collective: {_fingerprint(9, 'ALLREDUCE', '8, 64')}, but Rank 3 is running "
        f"collective: {_fingerprint(9, 'ALLGATHER', '8, 64')}."
    )
    for rank in (0, 2, 3):
        job[rank].at(900).log("ERROR", f"model run failed: {CLOSED}")
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.first_error.rank == 1
    assert diagnosis.culprit_ranks == [3]


def test_a_monitored_barrier_waiting_for_every_rank_blames_each_rank_it_lists(
    tmp_path: Path,
) -> None:
    """`monitored_barrier(wait_all_ranks=True)`: rank 0 names each late rank on a line of its
    own, then all of them in one; the first of those lines is the first error, and every rank
    the report lists is a culprit, not only the one its first line names."""
    job = ranks(4)
    for log in job:
        log.loaded().layers(1, [" norm passed", " attention passed"])
    for late in (2, 3):
        job[0].raw(
            f"[rank0]:[E1205 01:23:29.89036{late}807 ProcessGroupGloo.cpp:2901] [Rank 0]: "
            f"Rank {late} failed to pass monitoredBarrier in 3000 ms"
        )
    job[0].raw(
        "[rank0]:[E1205 01:23:29.890404422 ProcessGroupGloo.cpp:67] [Rank 0]: Ranks 2, 3 failed "
        "to pass monitoredBarrier in 3000 ms"
    )
    job[1].raw(
        "[rank1]:[E1205 01:23:29.897017060 ProcessGroupGloo.cpp:67] Rank 1 successfully reached "
        "monitoredBarrier, but received errors while waiting for send/recv from rank 0. Please "
        "check rank 0 logs for faulty rank."
    )
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.first_error is not None
    assert "Rank 2 failed to pass monitoredBarrier" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [2, 3]
