"""An evaluation loop opens its steps in its own words: a sweep over saved checkpoints prints
`eval step 200 start` before it loads and runs the step-200 weights, and closes it with `eval
step 200 done`. The start line opens step 200 as `train step 200 start` does, so the layers a
rank printed after it are in step 200, not in a step 101 that follows the last one closed."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzers import AnalyzeOptions, analyze
from analyzers.checkpoints.patterns import CheckpointMatcher
from tests.analyzers.job_bundles import pack


@pytest.mark.parametrize(
    ("line", "step"),
    [
        ("[default3]:23:28:17.781 eval step 200 start", 200),
        ("2026-12-07 23:28:17,781 [rank1] INFO validation step 12 begin", 12),
        ("test step 4 started", 4),
        ("evaluation step 3 starts (512 samples)", 3),
    ],
)
def test_an_evaluation_step_start_opens_its_step(line, step):
    hit = CheckpointMatcher().classify(line)
    assert hit is not None
    assert (hit.text, hit.role, hit.step) == (f"step {step} start", "train_step_start", step)


@pytest.mark.parametrize(
    "line",
    ["eval step 200 failed", "eval step 200 skipped: no shard", "evaluation started at step 200"],
)
def test_an_evaluation_line_that_opens_no_step_is_no_start(line):
    hit = CheckpointMatcher().classify(line)
    assert hit is None or hit.role != "train_step_start"


def _sweep_console() -> str:
    """torchrun --tee console of four ranks evaluating two saved steps; rank 2 cannot open its
    step-200 shard, the others run that step's first norm and lose rank 2 in the all_reduce."""
    parts = ["    norm ok", "    attention ok", "    MoE ok"]
    layers = [text for layer in range(2) for text in (*parts, f"layer {layer} ok")]
    lines = []
    for rank in range(4):
        said = ["eval step 100 start", *layers, "eval step 100 done", "eval step 200 start"]
        said += [] if rank == 2 else parts[:1]
        lines += [f"[default{rank}]:23:28:17.{100 + i:03d} {text}" for i, text in enumerate(said)]
    lines.append(
        "[default2]:[rank2]: FileNotFoundError: [Errno 2] No such file or directory:"
        " '/ckpt/step_200/model_tp02-of-04.pt'"
    )
    return "\n".join(lines) + "\n"


def test_layers_after_an_evaluation_start_line_are_in_its_step(tmp_path: Path):
    path = tmp_path / "job.tar.gz"
    pack(path, {"job-5/launcher.log": _sweep_console()})
    report = analyze(path, AnalyzeOptions(workers=1)).to_dict()
    ranks = {r["rank"]: r for r in report["ranks"]}
    assert ranks[0]["last_checkpoint_qualified"] == "step 200 / layer 0 / norm ok"
    assert ranks[2]["last_checkpoint_qualified"] == "eval step 100 done"
    assert report["correlation"]["last_common_checkpoint_qualified"] == "eval step 100 done"
