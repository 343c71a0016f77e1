"""The conclusion CANN's AI Core error analysis (msaicerr, run on what asys collected) writes at
the top of its info.txt report: a sentence naming the fault pattern it recognised, then the
report's sections (basic information, the core's error register decoded, the instruction it
stopped at). No line carries an error word or a level. The single-operator replay conclusion
and the atomic-accumulation conclusion are read here; fixtures are written in the report's
layout with our own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# docs/labelling.md#an-ai-core-error-reports-conclusion: the replayed op failed alone.
SINGLE_OP_REPORT = """\
**********************Root cause conclusion******************
Single op test aicore error, please check op.

***********************1. Basic information********************
error time   : 2026-03-14-02:11:09.412.007
device id    : 3
core id      : 12
task id      : 41
stream id    : 5
node name    : ScatterNdUpdate
kernel name  : te_scatterndupdate_8b41c0d2_1

***********************2. AICERROR code***********************
error code  : 0x8
"""

# The same conclusion in the later releases' words, the register section renamed.
SINGLE_OP_REPORT_LATER = """\
**********************Root cause conclusion******************
Failed to execute the single-operator test case. The operator logic may be incorrect.

***********************1. Basic information********************
node name    : IndexPutV2
kernel name  : IndexPutV2_7d01aa3e_high_performance_1
***********************2. Ai Core DFX Register***********************
error code  : 0x8
"""

# docs/labelling.md#an-ai-core-error-reports-conclusion: an atomic add overflowed on the core.
ATOMIC_REPORT = """\
Analysis result: success.
"**********************Root cause conclusion******************"
"dha status 1" found in log. It means Atomic accumulation exception, please check the input data and network accuracy.
"""

# A paste that lost the report's line breaks keeps the conclusion on one long line.
ATOMIC_REPORT_FLAT = (
    'Analysis result: success. "**********************Root cause conclusion******************" '
    '"dha status 1" found in log. It means Atomic accumulation exception, please check the '
    "input data and network accuracy.\n"
)

# The later releases word the same finding as an overflow of the atomic add.
ATOMIC_REPORT_LATER = """\
Analysis result: success.
"**********************Root cause conclusion******************"
Atomic add has a precision overflow. Check the operator precision.Note that if tasks are concurrently executed on the NPU, a false warning may be reported.
"""

# Counterexample: the tool's advice and a passing replay are no finding.
ADVICE_ONLY = """\
To see whether an atomic add overflowed, grep the device log for "dha status".
Check whether the atomic add has a precision overflow before replaying the op.
Single op test passed, the error may come from another op running on the same stream.
"""


def test_a_single_op_replay_that_fails_is_the_device_kernel_with_the_op_beside_it() -> None:
    diagnosis = diagnose_text("aicerror/info.txt", SINGLE_OP_REPORT)
    assert_reads(
        diagnosis, "aicore_timeout", first_error="Single op test aicore error", beside=("operator",)
    )
    assert diagnosis.confidence >= 0.5


def test_the_later_wording_of_the_replay_conclusion_reads_the_same() -> None:
    diagnosis = diagnose_text("info.txt", SINGLE_OP_REPORT_LATER)
    assert_reads(diagnosis, "aicore_timeout", first_error="single-operator test case")


def test_an_atomic_accumulation_conclusion_is_a_device_core_exception() -> None:
    diagnosis = diagnose_text("aicerror/info.txt", ATOMIC_REPORT)
    assert_reads(diagnosis, "aicore_timeout", first_error="dha status 1")


def test_the_atomic_conclusion_pasted_on_one_line_reads_the_same() -> None:
    diagnosis = diagnose_text("issue.txt", ATOMIC_REPORT_FLAT)
    assert_reads(diagnosis, "aicore_timeout", first_error="Atomic accumulation exception")


def test_the_later_wording_of_the_atomic_conclusion_reads_the_same() -> None:
    diagnosis = diagnose_text("aicerror/info.txt", ATOMIC_REPORT_LATER)
    assert_reads(
        diagnosis,
        "aicore_timeout",
        first_error="Atomic add has a precision overflow",
        rule="aicore.atomic_accumulation_conclusion",
        beside=("operator",),
    )


def test_the_tools_advice_and_a_passing_replay_are_no_finding() -> None:
    diagnosis = diagnose_text("notes.txt", ADVICE_ONLY)
    assert diagnosis.category != "aicore_timeout"


# docs/labelling.md#an-ai-core-error-reports-conclusion: a report whose conclusion section
# names no known pattern still decodes the core's error register; that line is the finding.
# The tool's own `#` notes between sections are no error.
REGISTER_ONLY_REPORT = """\
********************Root cause conclusion*********************
# no known fault pattern matched
***********************1. Basic information********************
# basic information of the device when the AI Core error occurred
error time   : 2026-05-02-07:41:30
device id    : 1
core id      : 6
task id      : 214
stream id    : 9
node name    : Slice_31
kernel name  : te_slice_4f0e91ab_1
***********************2. AICERROR code***********************
# AI Core error code and what it means
code : 0x800000
MTE_ERR_INFO: 0x5000083
mte_err_type bit[26:24]=101  meaning:read bus error
***********************3. Instructions************************
start pc : 0x124080061000
current pc : 0x124080061a38
"""

# Counterexample: a register read back as zero, a PCIe driver's own dump of a register with a
# similar name, and advice that names the register are no core exception.
REGISTER_NOT_RAISED = """\
MTE_ERR_INFO: 0x0
[  812.440107] mtk_pci 0000:03:00.0: REG_PCIE_ERR_INFO: 0x40
To find the faulting unit, read CCU_ERR_INFO in info.txt.
"""


def test_a_report_with_only_the_decoded_error_register_is_the_device_kernel() -> None:
    diagnosis = diagnose_text("aicerror/info.txt", REGISTER_ONLY_REPORT)
    assert_reads(
        diagnosis, "aicore_timeout", first_error="MTE_ERR_INFO: 0x5000083", beside=("operator",)
    )
    assert diagnosis.confidence >= 0.5


def test_a_zero_register_a_pcie_dump_and_advice_are_no_core_exception() -> None:
    diagnosis = diagnose_text("notes.txt", REGISTER_NOT_RAISED)
    assert diagnosis.category != "aicore_timeout"
