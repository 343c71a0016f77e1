"""A collective whose sizes differ between nodes, and the setting one node's environment adds.

docs/labelling.md#a-setting-only-one-nodes-environment-carries: gloo's size check aborts the
rank that received more than it posted and names no sender, so the line alone singles no rank
out. When each node's folder holds its environment dump and one node's dump sets a variable the
others do not set at all, that node's ranks ran with a setting the rest did not: they are the
culprits. Values are our own, in torch 2.13's and gloo's real wording.
"""

from __future__ import annotations

from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from analyzers.core.report import Diagnosis
from tests.analyzers.excerpts import assert_reads
from tests.analyzers.job_bundles import CLOSED, pack

SIZE = (
    "  what():  [enforce fail at /__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
    "pair.cc:456] op.preamble.length <= op.nbytes. 512 vs 384. Received data size doesn't match "
    "expected size. Is there a distributed collective mismatch in your code?"
)
ENV = (
    "NNODES=2\nNODE_RANK={node}\nNPROC_PER_NODE=2\nWORLD_SIZE=4\nHOSTNAME=gpu-{node}\n"
    "MASTER_ADDR=10.0.0.11\nOMP_NUM_THREADS=4\n"
)


def progress(rank: int) -> list[str]:
    return [
        f"2026-12-05 09:14:0{n},{100 + rank:03d} | INFO | rank={rank} | train:51 - {part}"
        for n, part in enumerate(["load weights passed", "prefill start", "  norm passed"])
    ]


def lost(rank: int) -> str:
    lines = [
        *progress(rank),
        f"[rank{rank}]: Traceback (most recent call last):",
        f'[rank{rank}]:   File "/srv/job/model.py", line 120, in moe',
        f"[rank{rank}]: RuntimeError: {CLOSED}",
    ]
    return "\n".join(lines) + "\n"


def aborted(rank: int) -> str:
    lines = [
        *progress(rank),
        "terminate called after throwing an instance of 'gloo::EnforceNotMet'",
        SIZE,
    ]
    return "\n".join(lines) + "\n"


def files(env0: str, env1: str) -> dict[str, str]:
    return {
        "node0/env.txt": env0,
        "node0/log_0.log": lost(0),
        "node0/log_1.log": lost(1),
        "node1/env.txt": env1,
        "node1/log_2.log": aborted(2),
        "node1/log_3.log": "\n".join(progress(3)) + "\n",
    }


def diagnose(tmp_path: Path, members: dict[str, str]) -> Diagnosis:
    return analyze(
        pack(tmp_path / "job.tar.gz", members, "job-7f0c"), AnalyzeOptions(workers=1)
    ).diagnosis


def test_the_node_whose_environment_adds_a_setting_is_the_culprit(tmp_path: Path) -> None:
    env1 = ENV.format(node=1) + "MOE_CAPACITY_FACTOR=0.75\n"
    diagnosis = diagnose(tmp_path, files(ENV.format(node=0), env1))
    assert_reads(diagnosis, "hccl", first_error="op.preamble.length <= op.nbytes")
    assert diagnosis.culprit_ranks == [2, 3]


def test_dumps_that_differ_only_in_who_the_node_is_name_no_one(tmp_path: Path) -> None:
    diagnosis = diagnose(tmp_path, files(ENV.format(node=0), ENV.format(node=1)))
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == []


def test_a_setting_both_nodes_carry_with_other_values_names_no_one(tmp_path: Path) -> None:
    env0 = ENV.format(node=0) + "MOE_CAPACITY_FACTOR=1.0\n"
    env1 = ENV.format(node=1) + "MOE_CAPACITY_FACTOR=0.75\n"
    diagnosis = diagnose(tmp_path, files(env0, env1))
    assert diagnosis.culprit_ranks == []
