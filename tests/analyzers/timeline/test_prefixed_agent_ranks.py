"""A second node's combined `--tee 3` stdout behind a log collector's prefix on every line.

torchrun tags each copied line with the child's local rank (`[default1]:`); the rank the child
states as it starts (`rank=3`) or torch's `[rank3]:` tag gives the agent's offset
(`timeline.agent_ranks`, `formats.hints`). A collector that stores the node's stdout puts its
own prefix in front of every line, written here as each tool writes it: docker compose's
service column (plain, and coloured as on a terminal), a container runtime's CRI log file,
`kubectl logs --prefix`, rsyslog's high-precision file format, a CI runner's step output
(nektos/act, plain and coloured) and moreutils' `ts` (its default format, and an ISO time
with no zone). Behind any of them the
second node's ranks must still be read as global ranks 2 and 3, not merged into 0 and 1.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzers.core.options import AnalyzeOptions
from analyzers.pipeline import analyze

CLOSED = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
    "Connection closed by peer [127.0.0.1]:20692. This is typically caused by a remote worker "
    "crashing. Check the logs of the remote worker before reporting an error. GLHF!"
)
STEPS = [
    "load weights passed",
    " norm passed",
    " attention passed",
    " MoE passed",
    "layer 0 passed",
]
AGENT = (
    "E1204 15:26:45.333000 15507 torch/distributed/elastic/multiprocessing/api.py:1002]"
    " failed (exitcode: -9) local_rank: 1 (pid: 15526) of binary: /opt/venv/bin/python3"
)


def _init(rank: int) -> str:
    return f"init process group: backend=gloo rank={rank} world_size=4 master=localhost:33529 timeout=10s"


def _compose(node: int, i: int) -> str:
    return f"trainer-{node}  | "


def _compose_coloured(node: int, i: int) -> str:
    return f"\x1b[36mtrainer-{node}  | \x1b[0m"


def _cri(node: int, i: int) -> str:
    return f"2026-12-04T15:26:{40 + i // 10:02d}.{i % 10}41027337Z stdout F "


def _kubectl(node: int, i: int) -> str:
    return f"[pod/toymoe-worker-{node}/pytorch] "


def _rsyslog(node: int, i: int) -> str:
    return (
        f"2026-12-04T15:26:{40 + i // 10:02d}.{i % 10}41027+00:00 node{node} torchrun[1550{node}]: "
    )


def _act(node: int, i: int) -> str:
    return f"[CI/node-{node}]   | "


def _act_coloured(node: int, i: int) -> str:
    return f"\x1b[{34 + node}m|\x1b[0m "


def _ts(node: int, i: int) -> str:
    return f"Dec 04 15:26:{40 + i // 10:02d} "


def _ts_iso(node: int, i: int) -> str:  # ts '%Y-%m-%dT%H:%M:%.S'
    return f"2026-12-04T15:26:{40 + i // 10:02d}.{i % 10}41027 "


@pytest.mark.parametrize(
    "prefix",
    [_compose, _compose_coloured, _cri, _kubectl, _rsyslog, _act, _act_coloured, _ts, _ts_iso],
)
def test_a_second_nodes_prefixed_stdout_is_read_as_its_global_ranks(tmp_path: Path, prefix):
    """Global rank 3 is killed (SIGKILL) before any rank logs an error; the ranks' start lines
    under `[default0]:`/`[default1]:` fix node 1's offset."""
    for node, ranks in ((0, (0, 1)), (1, (2, 3))):
        lines = []
        for local, rank in enumerate(ranks):
            steps = STEPS[:4] if rank == 3 else STEPS
            lines += [f"[default{local}]:{m}" for m in (_init(rank), *steps)]
        if node == 0:
            lines += [f"[default{local}]:[rank{local}]: {CLOSED}" for local in (0, 1)]
        else:
            lines.append(AGENT)
        path = tmp_path / "run_20261204_a3" / f"node-{node}.out"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(prefix(node, i) + line + "\n" for i, line in enumerate(lines)))
    report = analyze(tmp_path, AnalyzeOptions(workers=1))
    assert [r.rank for r in report.ranks] == [0, 1, 2, 3]
    assert [r.checkpoints for r in report.ranks] == [5, 5, 5, 4]
