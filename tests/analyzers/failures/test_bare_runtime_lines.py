"""Two bare forms a pasted log may consist of, with no CANN block around them.

A C/C++ harness driving the runtime layer prints `<rtCall> [(qualifier)] failed: <code>`; the
runtime code decides the label as for any ACL call (docs/labelling.md, "Codes are read from
documents, not from neighbours": 507018 is an AI CPU exception, 507899 a driver error, and a
device-side AI CPU exception is `aicore_timeout` by "An operator name decides nothing").

An installer or loader that finds a package built for another chip says so in a sentence with
no error word ("... does not match the current device ..."); ending an otherwise quiet log,
that sentence is the failure, labelled `config` as a platform mismatch (docs/labelling.md,
"Operator, installation or platform limit"), not a hang.

A core exception's reason may be all that is left of the runtime's error block (tagged
`[AIC_INFO]`, or after a worker's logging prefix): the sentence names a device memory access,
so it is read as the exception it comes from, `aicore_timeout` by the corpus rule.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RT_HARNESS = """\
=== rtStreamSynchronize stream_aicpu_===
[ERROR] run: rtStreamSynchronize (AICPU) failed: {code}
[ERROR] TEST FAILED: launch_runtime failed: {code}
"""


@pytest.mark.parametrize(
    ("code", "category"),
    [
        ("507018", "aicore_timeout"),  # AI CPU kernel exception
        ("507035", "aicore_timeout"),  # vector core exception
        ("507053", "device_fault"),  # the device reported an HBM fault
    ],
)
def test_a_runtime_call_failure_is_labelled_by_its_code(code: str, category: str) -> None:
    diagnosis = diagnose_text("run.log", RT_HARNESS.format(code=code))
    assert diagnosis.first_error is not None
    assert f"rtStreamSynchronize (AICPU) failed: {code}" in diagnosis.first_error.text
    assert diagnosis.category == category


def test_a_runtime_call_failure_without_a_code_is_not_read_as_one() -> None:
    text = "[ERROR] run: rtStreamSynchronize (AICPU) failed: see the device log\n"
    diagnosis = diagnose_text("run.log", text)
    assert diagnosis.category != "aicore_timeout"


SOC_MISMATCH = (
    "the socversion Ascend910B3 of bin package does not match the current device "
    "socverison Ascend310P1. Please install the package built for this chip.\n"
)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        (SOC_MISMATCH, "config"),
        ("Installing kernels ...\n" + SOC_MISMATCH, "config"),
        # a bare mismatch sentence that names no chip is still the failure, read from its
        # own words (a checkpoint file that disagrees with its index is a loading failure)
        ("checksum of model.safetensors does not match the index\n", "weight_load"),
    ],
)
def test_a_bare_does_not_match_sentence_ends_a_quiet_log(text: str, category: str) -> None:
    diagnosis = diagnose_text("install.log", text)
    assert_reads(diagnosis, category, first_error="does not match")


def test_a_match_report_at_info_level_is_not_a_refusal() -> None:
    text = "INFO 03-14 09:12:01 platform.py:88] socversion Ascend910B3 does not match cache, rebuilding\n"
    diagnosis = diagnose_text("serve.log", text)
    assert diagnosis.first_error is None


@pytest.mark.parametrize(
    "line",
    [
        "[AIC_INFO] The DDR address of the MTE instruction is out of range.",
        "(Worker_TP3 pid=7702) ERROR 03-02 08:15:40 [worker.py:88] The DDR address of the MTE"
        " instruction is out of range.",
    ],
)
def test_a_core_exception_reason_without_its_block_is_the_device_failure(line: str) -> None:
    text = line + "\nThe current working operator name is aclnnMul.\n"
    diagnosis = diagnose_text("run.log", text)
    assert_reads(
        diagnosis,
        "aicore_timeout",
        first_error="The DDR address of the MTE instruction is out of range",
    )
    assert "aicore.mte_out_of_range" in rules_of(diagnosis)


def test_a_question_about_the_mte_address_is_not_the_exception() -> None:
    text = "is the DDR address of the MTE instruction out of range here? the tiling looks fine\n"
    diagnosis = diagnose_text("notes.log", text)
    assert "aicore.mte_out_of_range" not in rules_of(diagnosis)
