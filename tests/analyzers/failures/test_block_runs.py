"""Runs of error lines one operator logs under its own tag: the failed check first, with its
reason, then each caller's "step failed". The run's first reason-stating line is read first.

Fixtures are written here in the `[ERROR][OpName] message` shape operator host code prints;
operator names, attributes and values are made up. Their reason lines are ones no signature
reads (a dimension check), so what is tested is the run, not a signature of the lead line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzers.classify.block_context import load_run_rules
from analyzers.core.report import Diagnosis
from analyzers.core.yamlcheck import KnowledgeError
from tests.analyzers.excerpts import diagnose_text

RULES = load_run_rules()


def first_line(diagnosis: Diagnosis) -> int:
    assert diagnosis.first_error is not None
    return diagnosis.first_error.line


@pytest.mark.parametrize("text", RULES.examples)
def test_examples_state_a_reason(text: str) -> None:
    assert RULES.states_reason(text)


@pytest.mark.parametrize("text", RULES.counterexamples)
def test_counterexamples_only_say_that_a_step_failed(text: str) -> None:
    assert not RULES.states_reason(text)


def test_the_rejected_attribute_comes_before_the_callers_failures() -> None:
    text = (
        "[ERROR][MoeCombineV3] The dim of expandX should be 2, but got 3.\n"
        "[ERROR][MoeCombineV3] Check attrs and build tiling context failed.\n"
        "[ERROR][MoeCombineV3] Tiling4MoeCombineV3 failed.\n"
    )
    diagnosis = diagnose_text("serve/worker.log", text)
    assert first_line(diagnosis) == 1
    assert diagnosis.category == "operator"


def test_a_run_lead_takes_the_tier_of_a_labelled_restatement() -> None:
    text = (
        "[ERROR][GroupedMatmulAdd] The dim of x should be 2, but got 3.\n"
        "[ERROR][GroupedMatmulAdd] call aclnnGroupedMatmulAdd failed, error code is 561002\n"
    )
    diagnosis = diagnose_text("job/train.log", text)
    assert first_line(diagnosis) == 1
    assert diagnosis.category == "operator"


def test_lines_under_another_tag_are_not_the_same_run() -> None:
    text = (
        "[ERROR][GroupedMatmulAdd] The dim of x should be 2, but got 3.\n"
        "[ERROR][Launcher] call aclnnGroupedMatmulAdd failed, error code is 561002\n"
    )
    assert first_line(diagnose_text("job/train.log", text)) == 2


def test_a_same_tag_line_further_down_is_another_block() -> None:
    text = (
        "[ERROR][GroupedMatmulAdd] The dim of x should be 2, but got 3.\n"
        "step 10 loss 2.31\n"
        "step 11 loss 2.29\n"
        "[ERROR][GroupedMatmulAdd] call aclnnGroupedMatmulAdd failed, error code is 561002\n"
    )
    assert first_line(diagnose_text("job/train.log", text)) == 4


def test_a_run_without_a_reason_is_left_to_the_tiers() -> None:
    text = (
        "[ERROR][GroupedMatmulAdd] Prepare workspace failed.\n"
        "[ERROR][GroupedMatmulAdd] call aclnnGroupedMatmulAdd failed, error code is 561002\n"
    )
    assert first_line(diagnose_text("job/train.log", text)) == 2


def test_a_tag_pattern_without_its_group_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "blocks.yaml"
    bad.write_text("tags: ['^\\[ERROR\\]\\[\\w+\\]']\nreason: ['invalid']\n")
    with pytest.raises(KnowledgeError, match="group 'tag'"):
        load_run_rules.__wrapped__(bad)


def test_the_wrapper_that_names_the_tagged_operator_restates_the_run() -> None:
    text = (
        "(Worker_TP1 pid=733) ERROR 03-04 11:20:05 [multiproc_executor.py:671] "
        "[ERROR][MoeCombineV3] The dim of expandX should be 2, but got 3.\n"
        "(Worker_TP1 pid=733) ERROR 03-04 11:20:05 [multiproc_executor.py:671] "
        "RuntimeError: call aclnnMoeCombineV3 failed, error code is 561002\n"
    )
    diagnosis = diagnose_text("serve/worker.log", text)
    assert first_line(diagnosis) == 1
    assert diagnosis.category == "operator"


def test_a_wrapper_that_names_another_operator_is_not_the_run() -> None:
    text = (
        "(Worker_TP1 pid=733) ERROR 03-04 11:20:05 [multiproc_executor.py:671] "
        "[ERROR][MoeCombineV3] The dim of expandX should be 2, but got 3.\n"
        "(Worker_TP1 pid=733) ERROR 03-04 11:20:05 [multiproc_executor.py:671] "
        "RuntimeError: call aclnnMoeCombineV3Quant failed, error code is 561002\n"
    )
    assert first_line(diagnose_text("serve/worker.log", text)) == 2
