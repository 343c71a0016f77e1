"""Two ways bisection prints close their parts that read like `passed`.

docs/labelling.md#ok-for-passed-and-a-steps-own-column: a rank that says `ok` where others
say `passed` closes its layer with `layer 1 ok` and its layer's parts with `  norm ok`; the
part lines are a layer's own sub-modules (norm, attention, MLP, MoE...), so `layer 2 / norm
ok` is read as `layer 2 / norm passed` is. A training loop that prints its step in a column of
its own, often with the rank in the next one, before the part it closed (`step 001 | rank 1
| forward passed | loss 1.70`) names the step of that part: `step 1 / forward passed`.
Status lines that end in `ok` but name no part of a layer (`health check ok`, `grad norm
ok`), and columns that may only number the prints (before a layer line or a layer's own part,
`step 3 | norm passed`), keep their old readings.
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
        ("layer 1 ok", "layer 1 ok"),
        ("2026-12-07 10:02:11,118 [rank2] INFO layer 3 OK", "layer 3 OK"),
        ("  norm ok", "norm ok"),
        ("[rank1]   attention ok", "attention ok"),
        ("  MoE ok", "MoE ok"),
        ("post attention norm ok", "post attention norm ok"),
        ("step 001 | rank 0 | forward passed | loss 1.5495", "step 1 / forward passed"),
        ("step 12 | backward passed", "step 12 / backward passed"),
        ("[step 3] grad all_reduce passed", "step 3 / grad all_reduce passed"),
        ("iter 7 | rank=2 | optimizer passed (0.4 ms)", "step 7 / optimizer passed"),
        ("step 010 | rank 3 | eval passed", "step 10 / eval passed"),
    ],
)
def test_lines_read_as_checkpoints(line, text):
    assert CheckpointMatcher().match(line) == text


@pytest.mark.parametrize(
    "line",
    [
        "health check ok",
        "NCCL ok",
        "grad norm ok",
        "  norm not ok",
        "layer 1 ok?",
        "step 3 | forward failed | loss nan",
        "step 3 | rank 1 | loss 2.31",
        "step 3 | forward not passed",
        "step 3 | norm passed",
    ],
)
def test_lines_that_stay_no_checkpoint(line):
    assert CheckpointMatcher().match(line) is None


def test_a_step_column_does_not_swallow_a_layer_line():
    """Counterexample: a counter before a layer line numbers the prints (the layer decides)."""
    assert CheckpointMatcher().match("step 9 | layer 2 | norm passed") == "layer 2 / norm passed"


def test_ok_parts_are_placed_in_the_layer_after_the_last_ok_layer():
    texts = ["load weights passed", "norm ok", "attention ok", "MoE ok", "layer 0 ok", "norm ok"]
    assert qualified_names(texts)[1:] == [
        "layer 0 / norm ok",
        "layer 0 / attention ok",
        "layer 0 / MoE ok",
        "layer 0 ok",
        "layer 1 / norm ok",
    ]


def test_step_column_parts_keep_their_step():
    texts = [
        "load weights passed",
        "step 1 / forward passed",
        "step 1 / backward passed",
        "step 1 / grad all_reduce passed",
        "step 2 / forward passed",
    ]
    assert qualified_names(texts) == texts


def _ok_rank_log(rank: int, parts_in_last_layer: int) -> str:
    lines = ["init process group: backend=gloo", "load weights passed", "prefill start: 8 tokens"]
    for layer in range(2):
        lines += ["  norm ok", "  attention ok", "  MoE ok", f"layer {layer} ok"]
    lines += ["  norm ok", "  attention ok"][:parts_in_last_layer]
    return "\n".join(lines) + "\n"


def test_ok_parts_reach_every_ranks_last_checkpoint_in_a_bundle(tmp_path: Path):
    """The scanner finds `  norm ok` lines in a real rank log, not only `layer N ok`."""
    files = {f"job/log_{rank}.log": _ok_rank_log(rank, 2 if rank else 1) for rank in range(4)}
    path = pack(tmp_path / "job.tar.gz", files)
    report = analyze(path, AnalyzeOptions(workers=1)).to_dict()
    last = {r["rank"]: r["last_checkpoint_qualified"] for r in report["ranks"]}
    assert last == {
        0: "layer 2 / norm ok",
        1: "layer 2 / attention ok",
        2: "layer 2 / attention ok",
        3: "layer 2 / attention ok",
    }
    assert report["correlation"]["last_common_checkpoint_qualified"] == "layer 2 / norm ok"
