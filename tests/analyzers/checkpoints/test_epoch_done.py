"""A training loop's line that closes a whole epoch (`epoch 0 finished: 1 steps`, `Epoch [2/3]
done`) is a checkpoint: it is the last line a rank prints when its shard ran out before its
peers' did, so it is where that rank stopped (docs/labelling.md#training-steps). The lines are
shaped as real gloo runs (torch 2.13 CPU) print them, with values of our own."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzers import AnalyzeOptions, analyze
from analyzers.checkpoints.patterns import CheckpointMatcher
from tests.analyzers.job_bundles import CLOSED, pack


@pytest.mark.parametrize(
    ("line", "text"),
    [
        (
            "2026-03-09 09:14:02,118 - train.rank2 - INFO - epoch 1 finished: 40 steps",
            "epoch 1 finished",
        ),
        ("[default0]:Epoch [2/3] done (41.2 s)", "epoch 2 done"),
        ("epoch 1 complete, val_loss=0.41", "epoch 1 complete"),
    ],
)
def test_an_epoch_closed_with_a_verb_is_a_checkpoint(line, text):
    assert CheckpointMatcher().match(line) == text


@pytest.mark.parametrize(
    "line",
    [
        "epoch 1 loss 0.5312",
        "Epoch 2/3",
        "epoch 3 failed: loss is nan",
        "{'loss': 0.3, 'epoch': 2.0}",
    ],
)
def test_an_epoch_without_a_verb_of_completion_is_none(line):
    """Counterexample: a metric line and a failure close nothing."""
    assert CheckpointMatcher().match(line) is None


def _rank(rank: int, steps: int, gone: bool) -> str:
    """A rank's logging lines for `steps` steps, then its epoch line (`gone`) or the next
    step's first part and the lost peer that ended it."""
    stamp = "2026-03-09 09:14:{s:02d},{ms:03d} - train.rank{rank} - {level} - "
    lines = []
    for step in range(steps):
        for text in ("layer 0 norm done", "layer 0 done", f"epoch 0 step {step} done, loss 4.71"):
            lines.append(stamp.format(s=step, ms=len(lines), rank=rank, level="INFO") + text)
    if gone:
        lines.append(
            stamp.format(s=steps, ms=0, rank=rank, level="INFO") + "epoch 0 finished: 1 steps"
        )
        return "\n".join(lines) + "\n"
    lines.append(stamp.format(s=steps, ms=1, rank=rank, level="INFO") + "layer 0 norm done")
    lines.append(stamp.format(s=steps + 2, ms=0, rank=rank, level="ERROR") + "training crashed")
    lines.append(f"RuntimeError: {CLOSED}")
    return "\n".join(lines) + "\n"


def test_a_rank_whose_epoch_ended_early_stops_at_its_epoch_line(tmp_path: Path):
    """Rank 3's shard held one batch: it closed its epoch and left while the others ran step
    1 and lost it there."""
    files = {f"job-3/log_{r}.log": _rank(r, 1, r == 3) for r in range(4)}
    report = analyze(pack(tmp_path / "job.tar.gz", files), AnalyzeOptions(workers=1)).to_dict()
    last = {r["rank"]: r["last_checkpoint_qualified"] for r in report["ranks"]}
    assert last[3] == "epoch 0 finished"
    assert last[0] == "step 1 / layer 0 / norm done"
    assert report["correlation"]["last_common_checkpoint_qualified"] == "epoch 0 step 0 done"
