"""A wrapper, a summary or a bare headline that a rule reads does not take the place of the
error line of its block that says what went wrong in words no rule knows
(docs/labelling.md#wrappers)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path

import pytest

from analyzers.ablation import rules_reading
from analyzers.classify.block_context import load_run_rules
from analyzers.classify.rules import signatures_disabled
from analyzers.core.yamlcheck import KnowledgeError
from tests.analyzers.excerpts import diagnose_text

RULES = load_run_rules()


@pytest.mark.parametrize("text", RULES.restated_examples)
def test_examples_say_what_went_wrong(text: str) -> None:
    assert RULES.says_what_went_wrong(text)


@pytest.mark.parametrize("text", RULES.restated_counterexamples)
def test_counterexamples_only_say_that_something_failed(text: str) -> None:
    assert not RULES.says_what_went_wrong(text)


def test_a_restating_role_that_is_no_role_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "blocks.yaml"
    bad.write_text(
        "tags: ['^\\[(?P<tag>\\w+)\\]']\nreason: ['invalid']\nrestating_roles: [summary]\n"
    )
    with pytest.raises(KnowledgeError, match="restating_roles"):
        load_run_rules.__wrapped__(bad)


# An engine's own error record in new wording, then the torch_npu wrapper its failure raised
# (the wrapper's rule reads it, nothing reads the record; values our own).
REASON_THEN_WRAPPER = """\
2026-03-01 10:00:01,100 - engine - ERROR - staging ring of slot 7 cannot take 4096 more entries
Traceback (most recent call last):
  File "serve.py", line 12, in <module>
    engine.step()
RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:467 NPU function error: AclrtSynchronizeDeviceWithTimeout, error code is 507035
"""

# The PTA summary first, the reason its block states under it.
SUMMARY_THEN_REASON = """\
[ERROR] 2026-03-01-10:00:02 (PID:3301, Device:1, RankID:1) ERR00100 PTA call acl api failed
2026-03-01 10:00:02,200 - engine - ERROR - staging ring of slot 7 cannot take 4096 more entries
"""

# Counterexample: the block's other unread line only says a task failed; the wrapper stays.
STEP_FAILED_THEN_WRAPPER = """\
2026-03-01 10:00:01,100 - engine - ERROR - Task <EngineLoop> failed
Traceback (most recent call last):
  File "serve.py", line 12, in <module>
    engine.step()
RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:467 NPU function error: AclrtSynchronizeDeviceWithTimeout, error code is 507035
"""

# Counterexample: torch_npu's description of the wrapper's code is the wrapper's words again.
WRAPPER_THEN_CODE_DESCRIPTION = """\
RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:479 NPU function error: AclrtSynchronizeDeviceWithTimeout, error code is 507048
[Error]: The execution of the internal task times out.
        Rectify the fault based on the error information in the ascend log.
"""


def test_an_unread_reason_above_a_wrapper_leads_it() -> None:
    diagnosis = diagnose_text("serve.log", REASON_THEN_WRAPPER)
    assert diagnosis.first_error is not None
    assert "cannot take 4096 more entries" in diagnosis.first_error.text


def test_an_unread_reason_below_a_summary_leads_it() -> None:
    diagnosis = diagnose_text("serve.log", SUMMARY_THEN_REASON)
    assert diagnosis.first_error is not None
    assert "cannot take 4096 more entries" in diagnosis.first_error.text


def test_a_line_that_only_says_a_task_failed_leaves_the_wrapper_first() -> None:
    diagnosis = diagnose_text("serve.log", STEP_FAILED_THEN_WRAPPER)
    assert diagnosis.first_error is not None
    assert "NPU function error" in diagnosis.first_error.text


def test_the_description_of_the_wrappers_code_leaves_the_wrapper_first() -> None:
    diagnosis = diagnose_text("train.log", WRAPPER_THEN_CODE_DESCRIPTION)
    assert diagnosis.first_error is not None
    assert "NPU function error" in diagnosis.first_error.text


# A device error block (values our own): the headline states the failure, the trace under it
# is the calls it passed through. `unread` holds back every rule that reads the headline, as
# for a headline worded anew.
DEVICE_BLOCK = """\
EZ9999: Inner Error!
EZ9999[PID: 4410] 2026-06-11-14:09:51.503.218 (EZ9999):  The error from device(chipId:0, dieId:0), serial number is 7, there is an aivec error exception, core id is 12, error code = 0x800000.
        TraceBack (most recent call last):
        Kernel task happen error, retCode=0x31, [vector core exception].[FUNC:PreCheckTaskErr][FILE:davinci_kernel_task.cc][LINE:1728]
        AIV Kernel happen error, retCode=0x31.[FUNC:GetError][FILE:stream.cc][LINE:1478]
"""

# Counterexample: torch_npu's description of a code above the block, not the block's headline.
DESCRIPTION_ABOVE_TRACE = """\
[Error]: The vector core execution is abnormal.
        TraceBack (most recent call last):
        Kernel task happen error, retCode=0x31, [vector core exception].[FUNC:PreCheckTaskErr][FILE:davinci_kernel_task.cc][LINE:1728]
"""


def unread(line: str) -> AbstractContextManager[None]:
    return signatures_disabled(rules_reading(line))


def test_an_unread_headline_leads_the_trace_a_rule_reads() -> None:
    headline = DEVICE_BLOCK.splitlines()[1]
    with unread(headline):
        diagnosis = diagnose_text("train.log", DEVICE_BLOCK)
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.line == 2


def test_a_code_description_above_a_trace_is_no_headline() -> None:
    with unread(DESCRIPTION_ABOVE_TRACE.splitlines()[0]):
        diagnosis = diagnose_text("train.log", DESCRIPTION_ABOVE_TRACE)
    assert diagnosis.first_error is not None
    assert "Kernel task happen error" in diagnosis.first_error.text
