"""A failure every rank shares, rank words and numbers aside, blames no rank; one most ranks
share still blames them."""

from __future__ import annotations

from pathlib import Path

from tests.analyzers.excerpts import assert_reads
from tests.analyzers.job_bundles import CLOSED, RankLog, analyze_job, ranks

NOT_DIVISIBLE = "ValueError: num_experts (8) must be divisible by the expert-parallel size (6)"


def every_rank_refuses_the_layout(failing: int) -> list[RankLog]:
    """Ranks 0..failing-1 raise the same layout check at model build (a launch that made a
    world of six for eight experts); the rest, if any, lose their peers."""
    job = ranks(4)
    for log in job:
        if log.rank < failing:
            log.at(400 + 7 * log.rank).fails(NOT_DIVISIBLE, frame="build_model")
        else:
            log.at(900).log("ERROR", f"model run failed: {CLOSED}")
    return job


def test_a_failure_every_rank_shares_blames_no_rank(tmp_path: Path) -> None:
    """Labelling guide, "A failure every rank shares": all four ranks refuse the same
    setting; nobody started it, the setting did."""
    diagnosis = analyze_job(tmp_path, every_rank_refuses_the_layout(4)).diagnosis
    assert_reads(diagnosis, "config", first_error="must be divisible by the expert-parallel size")
    assert diagnosis.culprit_ranks == []


def test_a_failure_most_ranks_share_still_blames_them(tmp_path: Path) -> None:
    """Counterexample: rank 3 did not fail that way (it lost its peers), so the three that
    did are the culprits, as any ranks failing together in the window are."""
    diagnosis = analyze_job(tmp_path, every_rank_refuses_the_layout(3)).diagnosis
    assert diagnosis.culprit_ranks == [0, 1, 2]


DCP_FRAMES = [
    '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/checkpoint/utils.py", '
    "line 193, in reduce_scatter",
    "    local_data = map_fun()",
]


def dcp_load_fails(failed: dict[int, str]) -> list[RankLog]:
    """Every rank raises torch's distributed checkpoint exception for a load that failed on
    the ranks in `failed`, each quoting those ranks' tracebacks under `(RANK n)`."""
    job = ranks(4)
    listed = ", ".join(map(str, failed))
    for log in job:
        log.info("resuming from distributed checkpoint /ckpt/step200")
        log.log("ERROR", f"model run failed: CheckpointException ranks:dict_keys([{listed}])")
        for rank, error in failed.items():
            log.raw(f"Traceback (most recent call last): (RANK {rank})")
            log.lines += DCP_FRAMES
            log.raw(error.format(rank=rank))
    return job


def test_a_distributed_checkpoint_failure_quoted_on_every_rank_blames_the_rank_it_names(
    tmp_path: Path,
) -> None:
    """Labelling guide, "A failure every rank shares": rank 1 alone asks for a parameter the
    checkpoint lacks; every rank's log quotes rank 1's traceback, so rank 1 is the culprit."""
    job = dcp_load_fails({1: "RuntimeError: Missing key in checkpoint state_dict: model.bq."})
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert_reads(diagnosis, "weight_load", first_error="Missing key in checkpoint state_dict")
    assert diagnosis.culprit_ranks == [1]


def test_a_distributed_checkpoint_failure_of_every_rank_blames_no_rank(tmp_path: Path) -> None:
    """Every rank's metadata read fails, each naming its own `__n.metadata`; every log quotes
    all four: the failure is the checkpoint's, no rank is singled out."""
    error = (
        "AssertionError: metadata is None; global metadata read failed: [Errno 2] No such file "
        "or directory: '/ckpt/step200/.metadata'; rank local metadata read failed: [Errno 2] "
        "No such file or directory: '/ckpt/step200/__{rank}.metadata'"
    )
    job = dcp_load_fails(dict.fromkeys(range(4), error))
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.category == "weight_load"
    assert diagnosis.culprit_ranks == []


def test_a_failure_every_rank_shares_with_its_own_numbers_blames_no_rank(tmp_path: Path) -> None:
    """Each rank misses its own shard of a checkpoint directory that holds none (the job
    points at the wrong one): the same failure with each rank's own file number."""
    job = ranks(4)
    for log in job:
        path = f"/ckpt/run7/model_tp{log.rank:02d}-of-04.pt"
        log.at(300 + 7 * log.rank).log(
            "ERROR", f"model run failed: [Errno 2] No such file or directory: '{path}'"
        )
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.category == "weight_load"
    assert diagnosis.culprit_ranks == []


def _lookup_failed(log: RankLog, host: str) -> RankLog:
    return log.raw(
        "[W1204 09:10:01.100200300 socket.cpp:764] [c10d] The IPv6 network addresses of "
        f"({host}, 36949) cannot be retrieved (gai error: -2 - Name or service not known)."
    )


def test_a_store_host_every_rank_failed_to_resolve_blames_no_rank(tmp_path: Path) -> None:
    """Every rank was given the same unresolvable MASTER_ADDR; the launcher printed only the
    first failed rank's exception and stopped the others before they said anything. The
    others' silence does not single them out: the setting was everyone's."""
    host = "infer-master-0.infer.svc"
    job = ranks(4)
    for log in job:
        _lookup_failed(log, host)
    job[1].raw(
        "torch.distributed.DistNetworkError: The client socket has timed out after 10000ms "
        f"while trying to connect to ({host}, 36949)."
    )
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert_reads(diagnosis, "hccl", first_error="cannot be retrieved")
    assert diagnosis.culprit_ranks == []
