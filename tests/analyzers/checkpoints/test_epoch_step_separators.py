"""An epoch's step closed with its fields split by a dash or a bar, or written as key=value
pairs, behind the logging formats that print them: Hydra's default job logging
(`[time][logger][LEVEL] - Epoch 0/3 - step 5/6 done (loss 1.743)`), a job's own Formatter with
the logger's name and a `rank=N` key before a bar, and a plain print after the time of day
(`12:23:13 [rank 1] epoch=0 step=3 done loss=1.38`). Each reads as `epoch E step S <verb>`, so
ranks that stopped in one step compare (docs/labelling.md#training-steps). The lines are those
of real gloo runs (torch 2.13 CPU), paths and numbers of our own."""

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
            "[2026-12-07 12:20:55,830][train.rank1][INFO] - Epoch 0/3 - step 5/6 done (loss 1.743)",
            "epoch 0 step 5 done",
        ),
        ("epoch 2 | step 7 | done", "epoch 2 step 7 done"),
        ("12:23:13 [rank 1] epoch=0 step=3 done loss=1.3823", "epoch 0 step 3 done"),
        ("step=12 done loss=0.31", "step 12 done"),
        (
            "2026-12-07T12:16:55.853+0000 INFO  moe_infer rank=1 | layer 1 attention passed",
            "layer 1 / attention passed",
        ),
    ],
)
def test_separated_and_keyed_step_fields_read_as_the_step(line, text):
    assert CheckpointMatcher().match(line) == text


@pytest.mark.parametrize(
    "line",
    [
        "Epoch 0/3 - step 5/6 - loss 1.743",
        "epoch=0 step=3 loss=1.3823",
        "epoch=0 step=3 failed loss=nan",
        "[2026-12-07 12:20:55,830][train.rank1][INFO] - Epoch 0/3 - step 5/6 failed",
    ],
)
def test_without_a_verb_of_completion_it_is_no_checkpoint(line):
    assert CheckpointMatcher().match(line) is None


def _hydra_rank(rank: int, steps: int) -> str:
    lines = [
        f"[2026-12-07 12:20:5{5 if s < 4 else 6},{300 + 50 * s:03d}][train.rank{rank}][INFO] - "
        f"Epoch 0/3 - step {s}/6 done (loss 1.{rank}{s}3)"
        for s in range(steps)
    ]
    lines.append(f"[rank{rank}]: Traceback (most recent call last):")
    lines.append(f"[rank{rank}]: RuntimeError: {CLOSED}")
    return "\n".join(lines) + "\n"


def test_each_rank_stops_at_its_own_step_under_hydra_logging(tmp_path: Path):
    files = {f"log_{r}.log": _hydra_rank(r, 6 if r else 4) for r in range(4)}
    path = pack(tmp_path / "job.tar.gz", files, "job-d54f8cf3")
    report = analyze(path, AnalyzeOptions(workers=1)).to_dict()
    last = {r["rank"]: r["last_checkpoint_qualified"] for r in report["ranks"]}
    assert last == {
        0: "epoch 0 step 3 done",
        1: "epoch 0 step 5 done",
        2: "epoch 0 step 5 done",
        3: "epoch 0 step 5 done",
    }
    assert report["correlation"]["last_common_checkpoint_qualified"] == "epoch 0 step 3 done"
