"""Checkpoint lines stamped by a logging `datefmt` of another shape: the twelve-hour clock
(`%I:%M:%S %p`, `08:30:54 PM rank0 INFO layer 0 passed`) and a date and time run together
(`%Y%m%d-%H%M%S`, `20261207-203125 rank0 INFO ...`). The stamp is a prefix like any other
time, and the rank's progress is read past it."""

from __future__ import annotations

import pytest

from analyzers import AnalyzeOptions, analyze
from analyzers.checkpoints.patterns import CheckpointMatcher
from tests.analyzers.job_bundles import pack


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("08:30:54 PM rank0 INFO layer 0 passed", "layer 0 passed"),
        ("08:30:54 PM rank0 INFO   norm passed", "norm passed"),
        ("[11:02:07 am] INFO load weights passed", "load weights passed"),
        ("12:00:01.250 AM rank3 INFO model run success", "model run success"),
        ("20261207-203125 rank0 INFO layer 1 passed", "layer 1 passed"),
        ("20261207 203125 rank2 INFO   attention passed", "attention passed"),
        ("[20261207 20:31:25] rank2 INFO   MoE passed", "MoE passed"),
        ("20261207T203125.118 INFO decode step 2 passed", "decode step 2 passed"),
        # a count or a number that is no date and time stays in the message
        ("42 layer 1 passed", None),
        ("20261307-203125 rank0 INFO layer 1 passed", None),
        ("12345678-123456 rank0 INFO layer 1 passed", None),
        ("08:30:54 PMs rank0 INFO layer 0 passed", None),
    ],
)
def test_the_clock_is_cut_before_the_checkpoint(line, expected):
    assert CheckpointMatcher().match(line) == expected


def _rank(rank: int, stamp: str, fail: bool) -> str:
    lines = [f"{stamp} rank{rank} INFO load weights passed"]
    for layer in range(2):
        lines += [f"{stamp} rank{rank} INFO   {part} passed" for part in ("norm", "attention")]
        if layer == 1 and fail:
            break
        lines += [
            f"{stamp} rank{rank} INFO   MoE passed",
            f"{stamp} rank{rank} INFO layer {layer} passed",
        ]
    if fail:
        lines.append(
            f"[rank{rank}]: RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x8 and 32x32)"
        )
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("stamp", ["08:30:54 PM", "20261207-203054"])
def test_ranks_stamped_so_have_their_timeline(tmp_path, stamp):
    bundle = pack(
        tmp_path / "job.tar.gz",
        {"log_0.log": _rank(0, stamp, False), "log_1.log": _rank(1, stamp, True)},
        "job-7c2a",
    )
    report = analyze(bundle, AnalyzeOptions(workers=1)).to_dict()
    last = {r["rank"]: r.get("last_checkpoint_qualified") for r in report["ranks"]}
    assert last == {0: "layer 1 passed", 1: "layer 1 / attention passed"}
    common = report["correlation"]["last_common_checkpoint_qualified"]
    assert common == "layer 1 / attention passed"
