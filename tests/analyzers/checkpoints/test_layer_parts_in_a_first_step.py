"""A rank that fails inside layer 0 of its first training step has printed the layer's parts
(`norm passed`, `attention passed`) after `train step 1 start` and no layer line yet. Parts
named as a layer's own sub-modules are read in layer 0 of that step, as they are outside a
step (`step 1 / layer 0 / norm passed`); a step's own stages (`model forward passed`,
`loss.backward passed`) and a rank that closed a step without any layer line keep the
step-only names."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzers import AnalyzeOptions, analyze
from analyzers.checkpoints.layer_qualification import SequenceQualifier, qualified_names
from tests.analyzers.job_bundles import pack


def _qualified(sequence: list[str]) -> list[str]:
    texts = list(dict.fromkeys(sequence))
    qualifier = SequenceQualifier(texts)
    return [qualifier.labels[i] for i in qualifier.qualify([texts.index(t) for t in sequence])]


@pytest.mark.parametrize(
    ("sequence", "last"),
    [
        (["dist init passed", "step 1 start", "norm passed"], "step 1 / layer 0 / norm passed"),
        (
            ["load weights passed", "step 1 start", "norm passed", "attention passed"],
            "step 1 / layer 0 / attention passed",
        ),
        (
            ["step 4 start", "post attention norm passed"],
            "step 4 / layer 0 / post attention norm passed",
        ),
        (["step 1 start", "MoE passed"], "step 1 / layer 0 / MoE passed"),
        # counterexamples: a step's own stages, and parts of a rank that prints no layers
        (["step 1 start", "model forward passed"], "step 1 / model forward passed"),
        (["step 1 start", "loss.backward passed"], "step 1 / loss.backward passed"),
        (["step 1 start", "grad norm passed"], "step 1 / grad norm passed"),
        (["step 1 start", "grad_norm passed"], "step 1 / grad_norm passed"),
        (
            ["step 1 start", "attention passed", "step 1 done", "attention passed"],
            "step 2 / attention passed",
        ),
    ],
)
def test_layer_parts_before_any_layer_line_of_a_step(sequence, last):
    assert qualified_names(sequence)[-1] == last


@pytest.mark.parametrize(
    ("sequence", "last"),
    [
        (["dist init passed", "norm passed"], "step 1 / layer 0 / norm passed"),
        (["dist init passed", "model forward passed"], "step 1 / model forward passed"),
        (
            ["attention passed", "step 1 done", "attention passed"],
            "step 2 / attention passed",
        ),
    ],
)
def test_the_pipeline_qualifier_reads_them_the_same(sequence, last):
    # a `step 1 done` elsewhere names the job's first step; start lines reach this reader as
    # openings, so the sequences here stand in the first step by that
    texts = [*dict.fromkeys(sequence), "step 1 done"]
    qualifier = SequenceQualifier(texts)
    ids = qualifier.qualify([texts.index(t) for t in sequence])
    assert qualifier.labels[ids[-1]] == last


def _rank_log(rank: int, parts: int) -> str:
    stamp = f"2026-12-07 17:40:21,{100 + rank:03d} [rank{rank}] INFO "
    lines = ["dist init passed", "load weights passed", "train step 1 start"]
    lines += [f"  {p} passed" for p in ("norm", "attention", "MoE")[:parts]]
    return "\n".join(stamp + line for line in lines) + "\n"


def test_ranks_that_fail_in_layer_0_of_the_first_step(tmp_path: Path):
    files = {f"job-1/log_{r}.log": _rank_log(r, 2) for r in (0, 2, 3)}
    files["job-1/log_1.log"] = _rank_log(1, 1) + (
        "[rank1]: RuntimeError: mat1 and mat2 must have the same dtype, but got Float and"
        " BFloat16\n"
    )
    path = tmp_path / "job.tar.gz"
    pack(path, files)
    report = analyze(path, AnalyzeOptions(workers=1)).to_dict()
    ranks = {r["rank"]: r for r in report["ranks"]}
    assert ranks[0]["last_checkpoint_qualified"] == "step 1 / layer 0 / attention passed"
    assert ranks[1]["last_checkpoint_qualified"] == "step 1 / layer 0 / norm passed"
    common = report["correlation"]["last_common_checkpoint_qualified"]
    assert common == "step 1 / layer 0 / norm passed"
