"""Start-up and restore steps a resumed job prints before its first layer: a bare short rank tag
after the time (`r0: stage model passed`), a restore step that names what it restored (`model
weights passed`, `optimizer state passed`) and a stage line that says what it did after its
verb (`stage resume passed, loaded 23 tensors from ...`). They are phases of the start-up, not
parts of layer 0 (docs/labelling.md#progress-lines-around-a-start-up-or-a-restore)."""

from __future__ import annotations

import pytest

from analyzers.checkpoints.layer_qualification import qualified_names
from analyzers.checkpoints.patterns import CheckpointMatcher


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # a short rank tag with a colon after an ISO time
        ("2026-12-07 15:52:38.507 r0: stage model passed", "stage model passed"),
        ("r12: layer 3 passed", "layer 3 passed"),
        # a stage that reports what it did after a comma or in brackets
        (
            "12/07/2026 15:53:35 - INFO - __main__ - stage resume passed, loaded 23 tensors from "
            "/ckpt/global_step3000",
            "stage resume passed",
        ),
        (
            "2026-12-07 15:50:38.480 | rank=0 | INFO  | stage checkpoint passed (step 800)",
            "stage checkpoint passed",
        ),
        ("[rank 1] load weights passed, 291 tensors", "load weights passed"),
        # restore steps that name what they restored
        ("15:51:38 [rank 2] model weights passed", "model weights passed"),
        ("15:51:54 [rank 0] optimizer state passed", "optimizer state passed"),
        ("lr scheduler state passed", "lr scheduler state passed"),
        ("checkpoint load passed", "checkpoint load passed"),
        # counterexamples: a register dump is no tag, a stage that then reports a failure
        # is none, and a part of a layer stays a part
        ("r0: 0x00007f3a passed", None),
        ("stage resume passed, but 2 shards failed to load", None),
        ("stage resume passed (missing keys ignored)", None),
        ("stage resume failed, loaded 0 tensors", None),
    ],
)
def test_start_up_lines_are_read(line, expected):
    assert CheckpointMatcher().match(line) == expected


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        # a rank that stopped after restoring its weights stopped before the layers
        (["model weights passed"], ["model weights passed"]),
        (
            ["model weights passed", "optimizer state passed", "layer 0 passed"],
            ["model weights passed", "optimizer state passed", "layer 0 passed"],
        ),
        (
            ["optimizer state passed", "norm passed"],
            ["optimizer state passed", "layer 0 / norm passed"],
        ),
        # counterexample: a layer's own weights or an optimizer step are parts of the layer
        (
            ["norm passed", "attention weights passed"],
            ["layer 0 / norm passed", "layer 0 / attention weights passed"],
        ),
        (
            ["norm passed", "optimizer step passed"],
            ["layer 0 / norm passed", "layer 0 / optimizer step passed"],
        ),
    ],
)
def test_restore_steps_are_no_parts_of_layer_0(texts, expected):
    assert qualified_names(texts) == expected
