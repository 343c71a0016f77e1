"""Two spellings of progress that bisection prints use as often as `passed`.

A part that names its layer may close with `done` (or `finished`, `completed`), the verbs a
`layer N done` line already takes: `layer 1: attn done` is `layer 1 / attn done`. A training
loop may count iterations instead of steps: `iter 2 start` opens step 2, `iter 2 done
loss=...` closes it, and `iter 2 layer 1 done` inside it is `step 2 / layer 1 done`.
Guide: docs/labelling.md#training-steps and #a-part-named-by-its-module-path.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzers import AnalyzeOptions, analyze
from analyzers.checkpoints.layer_qualification import qualified_names
from analyzers.checkpoints.patterns import CheckpointMatcher
from tests.analyzers.job_bundles import pack


@pytest.mark.parametrize(
    ("line", "text"),
    [
        ("[09:41:07.310522] layer 3: mlp done", "layer 3 / mlp done"),
        ("2026-03-02 09:41:07,310 [rank1] INFO layer 0: attn done", "layer 0 / attn done"),
        ("layer 5 post norm completed (0.2 ms)", "layer 5 / post norm completed"),
    ],
)
def test_a_part_that_names_its_layer_may_say_done(line, text):
    assert CheckpointMatcher().match(line) == text


@pytest.mark.parametrize(
    "line",
    ["layer 3: cache done loading", "layer 3 is done", "layer 3: mlp not done"],
)
def test_a_sentence_about_a_layer_is_no_part(line):
    """Counterexample: words after the verb, or a verb where the part should be."""
    assert CheckpointMatcher().match(line) is None


@pytest.mark.parametrize(
    ("line", "text", "role", "step"),
    [
        (
            "2026-03-02 09:41:07,310 [rank2] INFO iter 4 done loss=1.0312",
            "iter 4 done",
            "train_step",
            4,
        ),
        ("[default0]:iteration 7/50 finished", "iteration 7 finished", "train_step", 7),
        (
            "2026-03-02 09:41:07,310 [rank2] INFO iter 5 start",
            "step 5 start",
            "train_step_start",
            5,
        ),
    ],
)
def test_iteration_lines_are_training_steps(line, text, role, step):
    hit = CheckpointMatcher().classify(line)
    assert hit is not None
    assert (hit.text, hit.role, hit.step) == (text, role, step)


@pytest.mark.parametrize(
    "line",
    [
        " [2026-03-02 09:41:07] iteration       30/    500 | consumed samples:   240 | lm loss: 3.1E+00",
        "iter 4 loss 1.0312",
        "iter 4 failed: loss is nan",
    ],
)
def test_an_iteration_metric_line_is_no_step(line):
    """Counterexample: a trainer's per-iteration metrics and a failure are no progress."""
    assert CheckpointMatcher().match(line) is None


def test_layer_lines_that_carry_their_iteration_are_placed_in_it():
    texts = [
        "step 0 start",
        "layer 0 done",
        "layer 1 done",
        "iter 0 done",
        "step 1 start",
        "layer 0 done",
    ]
    assert qualified_names(texts) == [
        "step 0 start",
        "step 0 / layer 0 done",
        "step 0 / layer 1 done",
        "iter 0 done",
        "step 1 start",
        "step 1 / layer 0 done",
    ]
    assert CheckpointMatcher().match("iter 1 layer 0 done") == "layer 0 done"


def _plain_rank(rank: int, stop: tuple[int, str | None]) -> str:
    """A rank's plain prints: `layer L: part done`, then `layer L done`, up to `stop`."""
    lines = [f"init process group: backend=gloo rank={rank} world_size=4 timeout=120s"]
    for layer in range(4):
        for part in ("norm", "attn", "mlp", None):
            lines.append(f"layer {layer}: {part} done" if part else f"layer {layer} done")
            if (layer, part) == stop:
                return "\n".join(lines) + "\n"
    return "\n".join(lines) + "\n"


def test_a_rank_stuck_before_a_layer_is_the_one_behind(tmp_path: Path):
    """No rank logged an error: three ranks wait in layer 2's all_reduce after its norm, rank
    1 never started layer 2. Each rank's last part is read, so rank 1 is behind."""
    files = {f"job-9/log_{r}.log": _plain_rank(r, (2, "norm")) for r in (0, 2, 3)}
    files["job-9/log_1.log"] = _plain_rank(1, (1, None))
    path = tmp_path / "job.tar.gz"
    pack(path, files)
    report = analyze(path, AnalyzeOptions(workers=1)).to_dict()
    ranks = {r["rank"]: r["last_checkpoint_qualified"] for r in report["ranks"]}
    assert ranks == {
        0: "layer 2 / norm done",
        1: "layer 1 done",
        2: "layer 2 / norm done",
        3: "layer 2 / norm done",
    }
    assert report["correlation"]["last_common_checkpoint_qualified"] == "layer 1 done"
    assert report["diagnosis"]["category"] == "hang"
    assert report["diagnosis"]["culprit_ranks"] == [1]


def _iter_rank(rank: int, steps: int, last: str | None) -> str:
    stamp = "2026-03-02 09:41:0{s},{ms:03d} [rank{rank}] INFO "
    lines, ms = [], 0
    for step in range(steps):
        for text in (
            f"iter {step} start",
            f"iter {step} layer 0 done",
            f"iter {step} layer 1 done",
        ):
            lines.append(stamp.format(s=step, ms=ms, rank=rank) + text)
            ms += 7
            if step == steps - 1 and text.endswith(last or "-"):
                return "\n".join(lines) + "\n"
        lines.append(
            stamp.format(s=step, ms=ms, rank=rank) + f"iter {step} done loss={0.5 + rank / 10:.4f}"
        )
    return "\n".join(lines) + "\n"


def test_each_rank_stops_in_the_iteration_its_lines_name(tmp_path: Path):
    files = {f"job-4/log_{r}.log": _iter_rank(r, 3, "layer 0 done") for r in (0, 1, 3)}
    files["job-4/log_2.log"] = _iter_rank(2, 2, None)
    path = tmp_path / "job.tar.gz"
    pack(path, files)
    report = analyze(path, AnalyzeOptions(workers=1)).to_dict()
    ranks = {r["rank"]: r["last_checkpoint_qualified"] for r in report["ranks"]}
    assert ranks[0] == "step 2 / layer 0 done"
    assert ranks[2] == "iter 1 done"
    assert report["correlation"]["last_common_checkpoint_qualified"] == "iter 1 done"
