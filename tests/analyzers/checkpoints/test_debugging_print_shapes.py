"""Bisection prints as people write them while they debug a model: the part named after
`after` with the layer's short tag and the tensor's measurements (`after attn L3:
out.shape=torch.Size([2, 8, 64]) norm=12.3`), the verb first with the part after the layer
(`passed layer 3 mlp`), a bracketed short tag with a tick (`[L03] mlp ✓`), a block with the
model's depth (`--> block 5/24 done`) and a collective's line that names the layer it
followed (`sync ok after layer 2`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzers import AnalyzeOptions, analyze
from analyzers.checkpoints.patterns import CheckpointMatcher
from tests.analyzers.job_bundles import CLOSED, pack


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("after attn L3: out.shape=torch.Size([2, 8, 64]) norm=12.3", "layer 3 / after attn"),
        ("[rank1] after mlp layer 2: norm=3.104, max=0.98", "layer 2 / after mlp"),
        ("after post norm L11", "layer 11 / after post norm"),
        ("layer 3 / after attn", "layer 3 / after attn"),
        ("after layer 3: out.shape=torch.Size([2, 8, 64]) norm=2.5", "after layer 3"),
        # the measurements of a sentence, a failure or a negation make none
        ("after attn L3: NaN detected in output", None),
        ("after attn L3 failed", None),
        ("after attn L3: out has inf values", None),
        ("after all L2 norms were clipped", None),
    ],
)
def test_a_part_named_after_after_with_its_layer_tag(line, expected):
    assert CheckpointMatcher().match(line) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("2026-12-08 00:30:13,817 - rank0 - INFO - passed layer 0 attn", "layer 0 / attn passed"),
        ("finished layer 2 attention (0.4 ms)", "layer 2 / attention finished"),
        ("[rank 3] completed layer 7/32 post norm", "layer 7 / post norm completed"),
        # the layer alone keeps its own reading
        ("[rank 2] passed layer 3/12", "passed layer 3"),
        ("passed layer 3 to the cache", None),
        ("finished layer 3 with errors", None),
        ("passed layer 3 mlp weights to rank 2", None),
    ],
)
def test_a_part_after_a_verb_first_layer(line, expected):
    assert CheckpointMatcher().match(line) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("[L03] mlp ✓", "layer 3 / mlp passed"),
        ("[default2]:[L00] attn ✓", "layer 0 / attn passed"),
        ("L12: moe ✔ (0.4 ms)", "layer 12 / moe passed"),
        ("[L00] ✓ out=(2, 8, 64)", "layer 0 passed"),
        ("[layer 2] ✓ out=torch.Size([2, 8, 64])", "layer 2 passed"),
        ("[L03] mlp ✗", None),
        ("[L03] mlp ✓ skipped", None),
        ("L2 norm ✓", None),
    ],
)
def test_a_short_layer_tag_with_a_tick(line, expected):
    assert CheckpointMatcher().match(line) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("--> block 5/24 done", "block 5 done"),
        ("[rank3] block 12/48 ok (1.2 ms)", "block 12 ok"),
        ("block 3/24 failed", None),
        ("[AIV Block 1/48] done loading", None),
    ],
)
def test_a_block_with_the_models_depth(line, expected):
    assert CheckpointMatcher().match(line) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("sync ok after layer 2", "layer 2 / sync ok"),
        ("[default1]:barrier passed after layer 3 (0.2 ms)", "layer 3 / barrier passed"),
        ("all_reduce done after layer 0", "layer 0 / all_reduce done"),
        ("sync failed after layer 2", None),
        ("sync ok after layer 2 but rank 3 lagged", None),
        ("timed out after layer 2", None),
    ],
)
def test_a_collective_that_names_the_layer_it_followed(line, expected):
    assert CheckpointMatcher().match(line) == expected


def _rank(rank: int, lines: list[str], error: str | None) -> str:
    text = "".join(line + "\n" for line in lines)
    return text + (f"[rank{rank}]: RuntimeError: {error}\n" if error else "")


def test_each_shape_is_found_in_a_bundle_and_placed_in_its_layer(tmp_path: Path):
    """Four ranks, one shape of print each; the lines are found by the block search and each
    rank stops in layer 1."""
    shapes = {
        0: ["after attn L0: out.shape=torch.Size([2, 8, 64]) norm=14.9", "after attn L1: norm=5.1"],
        1: ["passed layer 0 attn", "passed layer 0 mlp", "passed layer 1 attn"],
        2: ["[L00] attn ✓", "[L00] ✓ out=(2, 8, 64)", "[L01] attn ✓"],
        3: ["--> block 0/24 attn ok", "--> block 0/24 done", "sync ok after layer 1"],
    }
    files = {
        f"job/log_{r}.log": _rank(r, [f"rank {r}/4: model built", *lines], CLOSED)
        for r, lines in shapes.items()
    }
    report = analyze(pack(tmp_path / "job.tar.gz", files), AnalyzeOptions(workers=1)).to_dict()
    last = {r["rank"]: r["last_checkpoint_qualified"] for r in report["ranks"]}
    assert last == {
        0: "layer 1 / after attn",
        1: "layer 1 / attn passed",
        2: "layer 1 / attn passed",
        3: "layer 1 / sync ok",
    }
