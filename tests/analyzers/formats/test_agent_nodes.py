"""A console that merges several hosts' torchrun agents keeps their workers apart.

pdsh runs `torchrun --tee 3` on every host and labels each line with the host; each agent tags
its workers' lines with their local rank, from 0 again on every host. The console below has
the shape of such a run (torch 2.5, c10d rendezvous, LOGLEVEL=INFO so the agents print their
rendezvous result, two hosts of two workers, gloo): the second host's local rank 1 (global
rank 3) raises a shape error, its peers lose the connection, and that host's agent reports the
failed child.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzers.core.options import AnalyzeOptions
from analyzers.formats.agent_nodes import AgentNodes
from analyzers.pipeline import analyze

API = "torch/distributed/elastic/agent/server/api.py"
SHAPES = "RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x32 and 16x32)"
LOST = (
    "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by "
    "peer [10.0.3.7]:4411"
)
HOSTS = ("node-1", "node-2")


def rendezvous(host: str, node: int) -> list[str]:
    """What an agent logs at INFO once the rendezvous gave its node a rank."""
    pid = 4100 + 1000 * node
    fields = [
        "restart_count=0",
        "master_addr=node-1",
        "master_port=29500",
        f"group_rank={node}",
        "group_world_size=2",
        "local_ranks=[0, 1]",
        f"role_ranks=[{2 * node}, {2 * node + 1}]",
        f"global_ranks=[{2 * node}, {2 * node + 1}]",
        "role_world_sizes=[4, 4]",
        "global_world_sizes=[4, 4]",
    ]
    return [
        f"{host}: I1207 00:12:01.1{node}0000 {pid} torch/distributed/run.py:676] "
        "Using nproc_per_node=2.",
        f"{host}: I1207 00:12:02.3{node}1000 {pid} {API}:700] [default] Rendezvous complete "
        "for workers. Result:",
        *[f"{host}:   {field}" for field in fields],
        f"{host}: ",
        f"{host}: I1207 00:12:02.3{node}5000 {pid} {API}:708] [default] Starting worker group",
    ]


def workers(failing: tuple[str, int]) -> list[str]:
    lines = []
    for step in ("layer 0 passed", "layer 1 passed"):
        lines += [f"{host}: [default{local}]:{step}" for local in (0, 1) for host in HOSTS]
    for host in reversed(HOSTS):
        for local in (1, 0):
            if (host, local) == failing:
                lines += [
                    f"{host}: [default{local}]:Traceback (most recent call last):",
                    f'{host}: [default{local}]:  File "/srv/sft/train.py", line 88, in <module>',
                    f"{host}: [default{local}]:    out = model(batch)",
                    f"{host}: [default{local}]:{SHAPES}",
                ]
            else:
                lines.append(f"{host}: [default{local}]:{LOST}")
    host, local = failing
    return [
        *lines,
        f"{host}: E1207 00:12:09.902000 5100 torch/distributed/elastic/multiprocessing/api.py:869]"
        f" failed (exitcode: 1) local_rank: {local} (pid: 5203) of binary: /usr/bin/python3",
    ]


def console(tmp_path: Path, lines: list[str]) -> Path:
    job = tmp_path / "sft-6e02"
    job.mkdir()
    (job / "launch.log").write_text("\n".join(lines) + "\n")
    return job


def test_each_hosts_workers_take_the_ranks_its_agent_was_given(tmp_path):
    head = rendezvous("node-2", 1)[:4] + rendezvous("node-1", 0) + rendezvous("node-2", 1)[4:]
    report = analyze(console(tmp_path, head + workers(("node-2", 1))), AnalyzeOptions(workers=1))

    assert [summary.rank for summary in report.ranks] == [0, 1, 2, 3]
    assert report.diagnosis.culprit_ranks == [3]
    assert report.diagnosis.first_error.rank == 3
    assert report.environment["rank_hosts"] == {
        "0": "node-1",
        "1": "node-1",
        "2": "node-2",
        "3": "node-2",
    }


def test_without_the_agents_word_each_host_keeps_ranks_of_its_own(tmp_path):
    report = analyze(console(tmp_path, workers(("node-2", 1))), AnalyzeOptions(workers=1))

    assert [summary.rank for summary in report.ranks] == [0, 1, 2, 3]
    assert report.environment["rank_hosts"] == {
        "0": "node-1",
        "1": "node-1",
        "2": "node-2",
        "3": "node-2",
    }


def _offsets(lines: list[str]) -> dict[str, int]:
    nodes = AgentNodes()
    nodes.read(("\n".join(lines) + "\n").encode())
    return nodes.offsets()


TAGS = [
    f"{host}: [default{local}]:layer 0 passed" for host in ("node-1", "node-2") for local in (0, 1)
]


@pytest.mark.parametrize(
    ("said", "offsets"),
    [
        # torchrun's rendezvous result: node rank x local world size
        (
            [
                "node-2:   group_rank=0",
                "node-1:   group_rank=1",
                "node-1:   local_ranks=[0, 1]",
                "node-2:   local_ranks=[0, 1]",
            ],
            {"node-2": 0, "node-1": 2},
        ),
        # DeepSpeed's per-node launcher
        (
            [
                "node-1: [launch.py:151:main] nnodes=2, num_local_procs=2, node_rank=1",
                "node-2: [launch.py:151:main] nnodes=2, num_local_procs=2, node_rank=0",
            ],
            {"node-1": 2, "node-2": 0},
        ),
        # a launch script's command under `set -x`, sizes shared by both hosts
        (
            [
                "node-1: + torchrun --nnodes=2 --nproc_per_node=4 --node_rank=0 train.py",
                "node-2: + torchrun --nnodes=2 --nproc_per_node=4 --node_rank=1 train.py",
            ],
            {"node-1": 0, "node-2": 4},
        ),
        # the workers' own statements outweigh a node rank
        (
            [
                "node-1:   group_rank=0",
                "node-2:   group_rank=1",
                "node-1:   local_ranks=[0, 1]",
                "node-2:   local_ranks=[0, 1]",
                "node-1: [default0]:init rank=2 world_size=4",
                "node-2: [default1]:init rank=1 world_size=4",
            ],
            {"node-1": 2, "node-2": 0},
        ),
        # the rendezvous' group rank outweighs the command line's node rank
        (
            [
                "node-1: + torchrun --nproc_per_node=2 --node_rank=0",
                "node-1:   group_rank=1",
                "node-2: + torchrun --nproc_per_node=2 --node_rank=1",
                "node-2:   group_rank=0",
            ],
            {"node-1": 2, "node-2": 0},
        ),
        # two hosts claiming one node, or a size without a node rank: a block per host
        (["node-1:   group_rank=0", "node-2:   group_rank=0"], {"node-1": 0, "node-2": 2}),
        (["node-1: + torchrun --nproc_per_node=8 train.py"], {"node-1": 0, "node-2": 8}),
        ([], {"node-1": 0, "node-2": 2}),
    ],
)
def test_offsets(said, offsets):
    assert _offsets(said + TAGS) == offsets


def test_one_hosts_console_needs_no_offsets():
    assert _offsets(["node-2:   group_rank=1", *TAGS[2:]]) == {}


def test_hosts_sort_by_their_numbers():
    lines = [f"gpu-node-{n}: [default0]:layer 0 passed" for n in (10, 9, 2)]
    assert _offsets(lines) == {"gpu-node-2": 0, "gpu-node-9": 1, "gpu-node-10": 2}


def test_a_syslog_of_several_hosts_keeps_their_workers_apart(tmp_path):
    """A syslog server every host's service logs to: the journal's host stands for pdsh's."""
    lines = [
        line.replace(f"{host}: ", f"Dec  7 00:12:0{n} {host} torchrun[{4100 + 1000 * n}]: ", 1)
        for line in rendezvous("node-1", 0) + rendezvous("node-2", 1) + workers(("node-2", 1))
        for n, host in enumerate(HOSTS)
        if line.startswith(host + ": ")
    ]
    report = analyze(console(tmp_path, lines), AnalyzeOptions(workers=1))

    assert [summary.rank for summary in report.ranks] == [0, 1, 2, 3]
    assert report.diagnosis.culprit_ranks == [3]
    assert report.environment["rank_hosts"] == {
        "0": "node-1",
        "1": "node-1",
        "2": "node-2",
        "3": "node-2",
    }


@pytest.mark.parametrize(
    ("third", "cut"),
    [("node-3: [default0]:layer 0 passed", True), ("node-3:   group_rank=2", False)],
    ids=["a worker's line", "its agent's line only"],
)
def test_a_host_past_those_kept_is_cut_when_its_workers_print(monkeypatch, third, cut):
    monkeypatch.setattr("analyzers.formats.agent_nodes.MAX_HOSTS", 2)
    nodes = AgentNodes()
    nodes.read(("\n".join([*TAGS, third]) + "\n").encode())

    assert (sorted(nodes.offsets()), nodes.cut) == (["node-1", "node-2"], cut)
