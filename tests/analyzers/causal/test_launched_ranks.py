"""Ranks absent only because the world size was set past what the job started are not
blamed; ranks the job started and never heard from are."""

from __future__ import annotations

from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from tests.analyzers.job_bundles import (
    RECV_TIMEOUT,
    RankLog,
    analyze_job,
    bundle,
    pack,
    store_never_fills,
)


def test_ranks_past_the_started_processes_are_not_blamed(tmp_path: Path) -> None:
    """Labelling guide, "A world size larger than the job started": four processes started
    (the env dump says WORLD_SIZE=4) with world_size=5 in their own lines; rank 4 never
    existed, so nobody is blamed for its absence."""
    report = analyze_job(tmp_path, store_never_fills(5, 4))
    assert report.world_size == 5
    assert report.diagnosis.culprit_ranks == []


def test_a_rank_the_job_started_and_never_heard_from_is_still_blamed(tmp_path: Path) -> None:
    """Counterexample: the environment counts five processes, so rank 4 was started and is
    the one the store waited for."""
    path = bundle(tmp_path, store_never_fills(5, 4), 5)
    report = analyze(path, AnalyzeOptions(workers=1))
    assert report.diagnosis.culprit_ranks == [4]


def _spawned_stdout(world_size: int, with_rank: bool) -> str:
    """An mp.spawn driver's one stdout: every rank prints the same checkpoints, with or
    without its rank, until the all_reduce of layer 1 times out; the driver prints only
    the first failed child's traceback (process 1)."""
    out = [
        f"init process group: backend=gloo rank={rank} world_size={world_size} timeout=8s"
        for rank in range(world_size)
    ]
    for part in ("load weights passed", "prefill start", " norm passed", " attention passed"):
        for rank in range(world_size):
            out.append(f"[rank{rank}] {part}" if with_rank else part)
    out += [
        "torch.multiprocessing.spawn.ProcessRaisedException: ",
        "",
        "-- Process 1 terminated with the following error:",
        "Traceback (most recent call last):",
        '  File "/srv/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py",'
        " line 3252, in all_reduce",
        "    work.wait()",
        "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
        "unbound_buffer.cc:78] Timed out waiting 8000ms for recv operation to complete",
    ]
    return "\n".join(out) + "\n"


def _one_stdout_bundle(directory: Path, text: str, world_size: int) -> Path:
    files = {"stdout.log": text, "env.txt": f"WORLD_SIZE={world_size}\n"}
    return pack(directory / "job.tar.gz", files, "job")


def test_ranks_printing_without_their_rank_into_one_stdout_are_not_missing(
    tmp_path: Path,
) -> None:
    """Six ranks print plain checkpoints into an mp.spawn driver's stdout; only process 1's
    traceback names a rank. The other five wrote the unranked lines too: they left a log,
    so none of them is blamed for leaving none."""
    path = _one_stdout_bundle(tmp_path, _spawned_stdout(6, with_rank=False), 6)
    diagnosis = analyze(path, AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == []


def test_a_rank_without_its_own_log_among_ranked_logs_is_still_missing(tmp_path: Path) -> None:
    """Counterexample: per-rank logs whose every checkpoint carries its rank, rank 3's log
    absent while the others time out: no line is left unattributed, so rank 3 left none."""
    job = [RankLog(rank, 4) for rank in range(3)]
    for log in job:
        log.loaded().layers(1, [" norm passed"])
        log.log("ERROR", f"model run failed: {RECV_TIMEOUT}")
    path = bundle(tmp_path, job, 4)
    assert analyze(path, AnalyzeOptions(workers=1)).diagnosis.culprit_ranks == [3]


def _one_node_env(master: str, nodes: str = "") -> dict[str, str]:
    """An env dump that exports the world size the job was told (8) beside the per-node count
    its launcher started (4)."""
    lines = ["WORLD_SIZE=8", "NPROC_PER_NODE=4", f"MASTER_ADDR={master}", "MASTER_PORT=30013"]
    return {"env.txt": "\n".join([*lines, *([nodes] if nodes else [])]) + "\n"}


def test_a_one_node_job_that_started_fewer_processes_than_its_world_size_blames_no_rank(
    tmp_path: Path,
) -> None:
    """Labelling guide, "A world size larger than the job started": WORLD_SIZE=8 exported, four
    processes started on one machine (`NPROC_PER_NODE=4`, a loopback master no other node could
    reach): ranks 4-7 never existed, the world size is the fault."""
    path = bundle(tmp_path, store_never_fills(8, 4), 8, _one_node_env("127.0.0.1"))
    diagnosis = analyze(path, AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "config"
    assert diagnosis.culprit_ranks == []


def test_a_job_that_says_it_has_one_node_counts_that_node_s_processes(tmp_path: Path) -> None:
    """`NNODES=1` says the same as a loopback master."""
    path = bundle(tmp_path, store_never_fills(8, 4), 8, _one_node_env("10.0.0.5", "NNODES=1"))
    assert analyze(path, AnalyzeOptions(workers=1)).diagnosis.culprit_ranks == []


def test_a_per_node_count_with_a_reachable_master_may_have_other_nodes(tmp_path: Path) -> None:
    """Counterexample: a master other machines can reach and no node count: ranks 4-7 may run on
    a second node whose logs are not in the bundle, so they stay the ranks waited for."""
    path = bundle(tmp_path, store_never_fills(8, 4), 8, _one_node_env("10.0.0.5"))
    diagnosis = analyze(path, AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [4, 5, 6, 7]
