"""Rank files that share one rank tag (`analyzers.timeline.shared_tags`).

The bundles are written in the shape of real gloo launches (torch 2.13): a spawner's
`log_<slot>.log` per process, or torchrun's `attempt_0/<local rank>/{stdout,stderr}.log` with
`--tee 3` copies behind `[default<local rank>]:` in `launcher.log`. Every process loads its
shard and prints `load weights passed` before it joins the process group, where it fails.
"""

from __future__ import annotations

from pathlib import Path

from analyzers.core.options import AnalyzeOptions
from analyzers.core.report import Report
from analyzers.pipeline import analyze
from tests.analyzers.timeline.log_tree import write_lines

WAIT = "torch.distributed.DistStoreError: wait timeout after 20000ms, keys: /default_pg/0//cpu//0/2"
CONNECT = (
    "torch.distributed.DistNetworkError: The client socket has timed out after 20000ms while "
    "trying to connect to (127.0.0.1, 30016)."
)


def _run(root: Path) -> Report:
    return analyze(root, AnalyzeOptions(workers=1))


def _spawned(root: Path, tags: list[int]) -> Path:
    """One `log_<slot>.log` per process; slot i was handed rank `tags[i]`."""
    for slot, tag in enumerate(tags):
        write_lines(
            root,
            f"job-1/log_{slot}.log",
            [
                f"[rank {tag}] load weights passed",
                f"[rank {tag}] init process group: backend=gloo init_method=env:// rank={tag} "
                f"world_size={len(tags)}",
                f"[rank {tag}] model run failed: {WAIT.split(': ', 1)[1]}",
                "Traceback (most recent call last):",
                WAIT,
            ],
        )
    write_lines(root, "job-1/env.txt", [f"WORLD_SIZE={len(tags)}", "MASTER_ADDR=127.0.0.1"])
    return root


def test_two_slots_handed_one_rank_each_keep_their_own_file(tmp_path: Path) -> None:
    """Slots 1 and 2 were both handed RANK=1: the tag names neither, each slot is its file."""
    report = _run(_spawned(tmp_path, [0, 1, 1, 3]))
    by_rank = {r.rank: r for r in report.ranks}
    assert sorted(by_rank) == [0, 1, 2, 3]
    assert by_rank[1].files == ["job-1/log_1.log"]
    assert by_rank[2].files == ["job-1/log_2.log"]
    assert all(r.last_checkpoint_qualified == "load weights passed" for r in report.ranks)
    assert report.correlation["last_common_checkpoint_qualified"] == "load weights passed"


def test_a_tag_one_slot_alone_carries_is_still_its_rank(tmp_path: Path) -> None:
    """Counterexample: distinct tags that differ from the slots (a second node's local files
    naming their global ranks) are followed as before."""
    for slot, tag in enumerate([2, 3]):
        write_lines(
            tmp_path,
            f"node1/log_{slot}.log",
            [f"[rank {tag}] load weights passed", f"[rank {tag}] layer 0 passed"],
        )
    report = _run(tmp_path)
    assert {r.rank for r in report.ranks if r.last_checkpoint_qualified} == {2, 3}


def test_torchrun_workers_that_all_call_themselves_rank_0_keep_their_local_ranks(
    tmp_path: Path,
) -> None:
    """torchrun --nproc-per-node=4 on a script that passes rank=0 itself: every worker logs
    `[rank0]`, and the launcher's `--tee` copies carry the same tag behind their local tags."""
    tree = "job-2/torchrun_logs/none_abcd1234/attempt_0"
    console = []
    for local in range(4):
        ms = 145 + local * 100
        lines = [
            f"2026-12-07 08:07:35,{ms:03d} [rank0] INFO load weights passed",
            f"2026-12-07 08:07:35,{ms:03d} [rank0] INFO init process group: backend=gloo "
            "init_method=tcp://127.0.0.1:30016 rank=0 world_size=4",
        ]
        write_lines(tmp_path, f"{tree}/{local}/stdout.log", lines)
        write_lines(
            tmp_path, f"{tree}/{local}/stderr.log", ["Traceback (most recent call last):", CONNECT]
        )
        console += [f"[default{local}]:{line}" for line in lines]
        console += [f"[default{local}]:{CONNECT}"]
    write_lines(tmp_path, "job-2/launcher.log", console)
    write_lines(
        tmp_path, "job-2/env.txt", ["WORLD_SIZE=4", "NPROC_PER_NODE=4", "MASTER_ADDR=127.0.0.1"]
    )
    report = _run(tmp_path)
    assert sorted(r.rank for r in report.ranks) == [0, 1, 2, 3]
    counts = {r.rank: r.checkpoints for r in report.ranks}
    assert counts == {0: 1, 1: 1, 2: 1, 3: 1}
    assert report.correlation["last_common_checkpoint_qualified"] == "load weights passed"
    assert report.diagnosis.culprit_ranks == []
