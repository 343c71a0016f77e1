"""The rule ablation: each case judged again with the rules that read its first error held
back, so the figure shows what the hints make of wording no rule knows."""

from __future__ import annotations

import json
from pathlib import Path

from analyzers.ablation import ablate, render, rules_reading
from analyzers.eval import main

OOM_LINE = "[rank0]: RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0)"
NVCC_LINE = "[rank0]: RuntimeError: Could not find nvcc"
UNKNOWN_LINE = "[rank0]: RuntimeError: the frobnicator refused the widget"


def labelled_set(root: Path, cases: dict[str, tuple[str, str]]) -> Path:
    """A held-out layout: cases/<name>/logs/rank0.log and truth.json."""
    for name, (line, category) in cases.items():
        logs = root / "cases" / name / "logs"
        logs.mkdir(parents=True)
        (logs / "rank0.log").write_text(f"step 1 loss 2.3\n{line}\n", encoding="utf-8")
        truth = {"category": category, "first_error_contains": line.split("RuntimeError: ")[1]}
        (logs.parent / "truth.json").write_text(json.dumps(truth), encoding="utf-8")
    return root


def test_every_rule_reading_the_line_is_named() -> None:
    assert {"oom.device_out_of_memory", "oom.generic_out_of_memory"} <= set(rules_reading(OOM_LINE))
    assert rules_reading(UNKNOWN_LINE) == ()


def test_a_case_a_rule_labels_is_judged_again_by_the_hints(tmp_path: Path) -> None:
    root = labelled_set(tmp_path, {"d01": (OOM_LINE, "oom"), "d02": (NVCC_LINE, "driver_env")})

    oom, nvcc = ablate(root)

    assert oom.baseline.category == "oom"
    assert oom.baseline.confidence >= 0.8
    assert "oom.device_out_of_memory" in oom.disabled
    assert oom.by_hints
    assert oom.outcome.category_ok
    assert oom.outcome.first_error_ok
    assert oom.outcome.confidence < 0.8  # the hints never speak with a rule's confidence
    assert nvcc.disabled == ("env.cuda_compiler_missing",)
    assert nvcc.outcome.category == "driver_env"  # a toolkit word names the machine's setup


def test_a_case_no_rule_reads_is_not_ablated(tmp_path: Path) -> None:
    root = labelled_set(tmp_path, {"d01": (UNKNOWN_LINE, "config")})

    (result,) = ablate(root)

    assert result.disabled == ()
    assert result.outcome is result.baseline
    assert "not ablated (no rule read the first error, or none): 1" in render([result])


def test_eval_prints_the_ablation_per_expected_label(tmp_path: Path, capsys) -> None:
    root = labelled_set(tmp_path, {"d01": (OOM_LINE, "oom")})

    assert main(["--ablate-rules", "--corpus", str(root)]) == 0

    table = capsys.readouterr().out
    assert "oom                  1          1         1           1   (100% right)" in table
    assert "by hints alone answers at ≥0.8: 0 (0 right)" in table
