"""Ranks that write into one shared stdout, each line led by the job's own `rank N: ` label:
their checkpoints are each rank's own, as the launcher-tagged `[defaultN]:` lines are.

The bundle is a 4-rank gloo run's `job.log` (real line shapes, values of our own): rank 3
skipped a collective, ran on to `model run success`, and the others lost it.
"""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

from analyzers import AnalyzeOptions, analyze

CLOSED = (
    "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed "
    "by peer [127.0.0.1]:14535. This is typically caused by a remote worker crashing. Check the "
    "logs of the remote worker before reporting an error. GLHF!"
)


def _layers(rank: int, count: int, stamp: str = "") -> list[str]:
    lines = [f"{stamp}rank {rank}: prefill start: 8 tokens"]
    for layer in range(count):
        lines += [f"{stamp}rank {rank}:   {part} passed" for part in ("norm", "attention", "MoE")]
        lines.append(f"{stamp}rank {rank}: layer {layer} passed")
    return lines


def _combined(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "job.tar.gz"
    files = {
        "job-c0deca00/job.log": "\n".join(lines) + "\n",
        "job-c0deca00/env.txt": "WORLD_SIZE=4\nMASTER_ADDR=127.0.0.1\nMASTER_PORT=41237\n",
    }
    with tarfile.open(path, "w:gz") as tar:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def _interleaved(per_rank: list[list[str]]) -> list[str]:
    out: list[str] = []
    for row in range(max(len(lines) for lines in per_rank)):
        out += [lines[row] for lines in per_rank if row < len(lines)]
    return out


def test_each_rank_s_checkpoints_in_a_shared_stdout_are_its_own(tmp_path: Path) -> None:
    per_rank = [
        [
            f"init process group: backend=gloo rank={rank} world_size=4",
            *_layers(rank, 6),
            *([f"rank {rank}: model run success"] if rank == 3 else []),
        ]
        for rank in range(4)
    ]
    lines = _interleaved(per_rank)
    lines += [f"rank {rank}: model run failed: {CLOSED}" for rank in range(3)]
    lines += [f"[rank{rank}]: RuntimeError: {CLOSED}" for rank in range(3)]
    report = analyze(_combined(tmp_path, lines), AnalyzeOptions(workers=1))
    last = {summary.rank: summary.last_checkpoint_qualified for summary in report.ranks}
    assert last == {
        0: "layer 5 passed",
        1: "layer 5 passed",
        2: "layer 5 passed",
        3: "model run success",
    }
    assert report.diagnosis.last_common_checkpoint_qualified == "layer 5 passed"


def test_a_bracketed_time_before_the_rank_label_keeps_the_rank(tmp_path: Path) -> None:
    stamp = "[2026-12-04 15:30:16.361] "
    per_rank = [
        [*_layers(rank, 3, stamp), f"{stamp}rank {rank}:   norm passed"] for rank in range(4)
    ]
    per_rank[2] = per_rank[2][:-1]
    report = analyze(_combined(tmp_path, _interleaved(per_rank)), AnalyzeOptions(workers=1))
    last = {summary.rank: summary.last_checkpoint_qualified for summary in report.ranks}
    assert last[0] == last[1] == last[3] == "layer 3 / norm passed"
    assert last[2] == "layer 2 passed"
