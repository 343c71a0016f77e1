"""A progress print that states the share of the run done, in brackets after the counter and
its total: `step 3/12 (25%) done, loss=5.0030`, `iter 40/200 [20%] finished`. The share is a
measurement like the total and is left out, so the line reads `step 3 done` and compares with
every other spelling of the same step (docs/labelling.md#training-steps). The lines are those
of real gloo runs (torch 2.13 CPU), numbers of our own."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzers import AnalyzeOptions, analyze
from analyzers.checkpoints.patterns import CheckpointMatcher
from tests.analyzers.job_bundles import CLOSED, pack


@pytest.mark.parametrize(
    ("line", "text"),
    [
        ("[rank1] step 3/12 (25%) done, loss=5.1135", "step 3 done"),
        ("iteration 40/200 [20.0%] finished", "iteration 40 finished"),
        ("train step 7/20 ( 35% ): ok", "train step 7 ok"),
        (
            "2026-12-07 18:23:28,653 [rank0] INFO Epoch 1/2 | iter 3/6 (50%) done",
            "epoch 1 iter 3 done",
        ),
        ("Epoch [2/10], Step [150/500] (30%) done, loss: 0.4123", "epoch 2 step 150 done"),
    ],
)
def test_a_bracketed_share_after_the_counter_is_left_out(line, text):
    assert CheckpointMatcher().match(line) == text


@pytest.mark.parametrize(
    "line",
    [
        "[rank1] step 3/12 (25%), loss=5.1135",
        "[rank1] step 3/12 (25%) failed, loss=nan",
        "Epoch 1/2 | iter 3/6 (50%) | loss 5.0030",
        "step 3/12 (25% of the shard) done",
    ],
)
def test_a_share_with_no_verb_of_completion_is_no_checkpoint(line):
    assert CheckpointMatcher().match(line) is None


def _percent_rank(rank: int, steps: int) -> str:
    lines = [f"[rank{rank}] init process group: backend=gloo rank={rank} world_size=4 attempt=0"]
    lines += [f"[rank{rank}] dist init passed", f"[rank{rank}] load weights passed"]
    lines += [
        f"[rank{rank}] step {s}/12 ({100 * s // 12}%) done, loss=5.{rank}{s}30"
        for s in range(1, steps + 1)
    ]
    if rank == 2:
        lines += [
            f"[rank{rank}]: Traceback (most recent call last):",
            f"[rank{rank}]: RuntimeError: {CLOSED}",
        ]
    return "\n".join(lines) + "\n"


def test_each_rank_stops_at_the_step_its_share_print_closed(tmp_path: Path):
    files = {f"log_{r}.log": _percent_rank(r, 2 if r == 1 else 3) for r in range(4)}
    path = pack(tmp_path / "job.tar.gz", files, "job-5e1f0a27")
    report = analyze(path, AnalyzeOptions(workers=1)).to_dict()
    last = {r["rank"]: r["last_checkpoint_qualified"] for r in report["ranks"]}
    assert last == {0: "step 3 done", 1: "step 2 done", 2: "step 3 done", 3: "step 3 done"}
    assert report["correlation"]["last_common_checkpoint_qualified"] == "step 2 done"
