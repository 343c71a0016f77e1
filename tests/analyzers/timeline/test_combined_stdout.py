"""Ranks that write into one shared stdout, each line led by the job's own `rank N: ` label:
their checkpoints are each rank's own, as the launcher-tagged `[defaultN]:` lines are.

The bundle is a 4-rank gloo run's `job.log` (real line shapes, values of our own): rank 3
skipped a collective, ran on to `model run success`, and the others lost it.
"""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest

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


def _glued(per_rank: list[list[str]]) -> list[str]:
    """What `print` under an unbuffered stdout leaves when ranks print at once: each rank's
    text and its newline are two writes, so a row's texts land on one line and the newlines
    follow it."""
    out: list[str] = []
    for row in range(max(len(lines) for lines in per_rank)):
        texts = [lines[row] for lines in per_rank if row < len(lines)]
        out += ["".join(texts), *([""] * (len(texts) - 1))]
    return out


@pytest.mark.parametrize("label", ["rank {rank}: ", "[rank {rank}] "])
def test_lines_glued_in_a_shared_stdout_keep_each_rank_s_checkpoints(
    tmp_path: Path, label: str
) -> None:
    """Rank 2 of four failed in layer 1 attention and its peers stopped after layer 1 norm
    too; every rank's checkpoints are in the glued lines, each piece under its own label."""
    steps = ["prefill start: 8 tokens"]
    for layer in range(2):
        steps += [f" {part} passed" for part in ("norm", "attention", "MoE")]
        steps.append(f"layer {layer} passed")
    per_rank = [[label.format(rank=rank) + step for step in steps[:6]] for rank in range(4)]
    lines = _glued(per_rank)
    lines.append("[rank2]: RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x32 and 8x32)")
    lines += [f"[rank{rank}]: RuntimeError: {CLOSED}" for rank in (0, 1, 3)]
    report = analyze(_combined(tmp_path, lines), AnalyzeOptions(workers=1))
    last = {summary.rank: summary.last_checkpoint_qualified for summary in report.ranks}
    assert last == dict.fromkeys(range(4), "layer 1 / norm passed")
    assert report.diagnosis.last_common_checkpoint_qualified == "layer 1 / norm passed"
    assert report.diagnosis.culprit_ranks == [2]


def test_a_healthy_run_with_glued_bracketed_lines_is_healthy(tmp_path: Path) -> None:
    """Without the pieces no rank had a checkpoint and a finished run read as a hang."""
    steps = ["prefill start: 8 tokens", " norm passed", "layer 0 passed", "model run success"]
    per_rank = [[f"[rank {rank}] {step}" for step in steps] for rank in range(4)]
    report = analyze(_combined(tmp_path, _glued(per_rank)), AnalyzeOptions(workers=1))
    assert report.diagnosis.category == "healthy"
    assert {summary.last_checkpoint_qualified for summary in report.ranks} == {"model run success"}


def test_an_error_glued_after_a_peer_s_checkpoint_is_its_own_rank_s(tmp_path: Path) -> None:
    """The failing rank's own labelled error landed on a peer's line (docs/labelling.md
    #lines-that-ranks-glued-together): read whole, the line was rank 0's and blamed it."""
    steps = ["prefill start: 8 tokens", " norm passed", " attention passed"]
    per_rank = [[f"rank {rank}: {step}" for step in steps] for rank in range(4)]
    lines = _glued(per_rank)
    lines.append(
        "rank 0:  MoE passedrank 2: model run failed: mat1 and mat2 shapes cannot be "
        "multiplied (8x32 and 8x32)rank 1:  MoE passed"
    )
    lines += [f"rank {rank}: model run failed: {CLOSED}" for rank in (0, 1, 3)]
    report = analyze(_combined(tmp_path, lines), AnalyzeOptions(workers=1))
    assert report.diagnosis.culprit_ranks == [2]
    assert "mat1 and mat2 shapes" in report.diagnosis.first_error.text


def _collected(lines: list[str], outer: str) -> list[str]:
    """The job's stdout as a collector hands it over: its prefix in front of every line."""
    return [outer.format(second=n % 60, n=n) + line for n, line in enumerate(lines)]


@pytest.mark.parametrize(
    "outer",
    [
        "2026-12-04T10:00:{second:02d}.{n:09d}Z ",  # kubectl logs --timestamps
        "Dec 04 10:00:{second:02d} node7 python3[4121]: ",  # journalctl -u
        "trainer-1  | ",  # docker compose logs
        "0: ",  # srun --label
    ],
)
def test_glued_lines_behind_a_collector_s_prefix_keep_each_rank_s_checkpoints(
    tmp_path: Path, outer: str
) -> None:
    """The same shared stdout read back through a collector: the pieces of a glued line are
    still each rank's, and the failing rank is still the culprit."""
    steps = ["prefill start: 8 tokens"]
    for layer in range(2):
        steps += [f" {part} passed" for part in ("norm", "attention", "MoE")]
        steps.append(f"layer {layer} passed")
    per_rank = [[f"rank {rank}: {step}" for step in steps[:6]] for rank in range(4)]
    lines = _glued(per_rank)
    lines.append("[rank2]: RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x32 and 8x32)")
    lines += [f"[rank{rank}]: RuntimeError: {CLOSED}" for rank in (0, 1, 3)]
    report = analyze(_combined(tmp_path, _collected(lines, outer)), AnalyzeOptions(workers=1))
    last = {summary.rank: summary.last_checkpoint_qualified for summary in report.ranks}
    assert last == dict.fromkeys(range(4), "layer 1 / norm passed")
    assert report.diagnosis.culprit_ranks == [2]
