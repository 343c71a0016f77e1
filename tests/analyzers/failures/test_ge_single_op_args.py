"""The graph engine's single-op executor refusing the buffers a framework hands it.

Frameworks that run ops one by one through ACL (a custom-device plugin, an older adapter) get
each op's buffers checked by GE before anything is launched. A refusal is a plog line from GE
(`ValidateArgs: ErrorNo: 145000(Parameter invalid.) [Check][Param:outputs]Output size mismatch.
index = N, model expect X, but given Y`) and ACL's restatement (`Execute op failed. ge result =
145000`). The words say "size mismatch", but no two tensors of the model disagree: the op's
build does not fit this call's buffers, a host-side rejection of one op's arguments, so the
label is `operator`, with the tensor sizes (`shape_mismatch`) as the alternative.

docs/labelling.md#operator-installation-or-platform-limit
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

# A grep of a plog for ERROR, as pasted: GE's check, then ACL's restatement, repeated per call.
OUTPUT_REFUSED = """\
[ERROR] GE(20466,python):2026-03-11-09:40:12.201.318 [single_op.cc:331]20466 ValidateArgs: ErrorNo: 145000(Parameter invalid.) [FINAL][FINAL][Check][Param:outputs]Output size mismatch. index = 0, model expect 18446744073709551615, but given 40960(after align)
[ERROR] ASCENDCL(20466,python):2026-03-11-09:40:12.201.977 [op_executor.cpp:192]20466 DoExecuteAsync: [FINAL][FINAL][Exec][Op]Execute op failed. ge result = 145000
[ERROR] GE(20466,python):2026-03-11-09:40:12.203.410 [single_op.cc:331]20466 ValidateArgs: ErrorNo: 145000(Parameter invalid.) [FINAL][FINAL][Check][Param:outputs]Output size mismatch. index = 0, model expect 18446744073709551615, but given 40960(after align)
[ERROR] ASCENDCL(20466,python):2026-03-11-09:40:12.203.502 [op_executor.cpp:192]20466 DoExecuteAsync: [FINAL][FINAL][Exec][Op]Execute op failed. ge result = 145000
"""

INPUT_REFUSED = """\
[ERROR] GE(8812,python3):2026-03-12-14:02:55.100.020 [single_op.cc:331]8812 ValidateArgs: ErrorNo: 145000(Parameter invalid.) [FINAL][FINAL][Check][Param:inputs]Input size mismatch. index = 2, model expect 1024, but given 2048(after align)
"""

# ACL's restatement alone still names the refusal's code.
RESTATEMENT_ALONE = """\
[ERROR] ASCENDCL(8812,python3):2026-03-12-14:02:55.100.400 [op_executor.cpp:192]8812 DoExecuteAsync: [FINAL][FINAL][Exec][Op]Execute op failed. ge result = 145000
"""

# Counterexample: two tensors of the model that disagree keep their own label.
TENSORS_DISAGREE = """\
Traceback (most recent call last):
  File "/srv/job/train.py", line 88, in <module>
    out = x + bias
RuntimeError: The size of tensor a (4096) must match the size of tensor b (8192) at non-singleton dimension 1
"""

CASES = [
    # (name, text, label, first error says, an alternative the report must keep or None)
    (
        "outputs refused",
        OUTPUT_REFUSED,
        "operator",
        "Output size mismatch. index = 0",
        "shape_mismatch",
    ),
    ("inputs refused", INPUT_REFUSED, "operator", "Input size mismatch. index = 2", None),
    ("restatement alone", RESTATEMENT_ALONE, "operator", "ge result = 145000", None),
    ("tensors disagree", TENSORS_DISAGREE, "shape_mismatch", "The size of tensor a (4096)", None),
]


@pytest.mark.parametrize(
    ("text", "label", "says", "alternative"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_a_single_op_argument_refusal_is_the_operator_layer(
    text: str, label: str, says: str, alternative: str | None
) -> None:
    diagnosis = diagnose_text("plog-20466_20260311094010000.log", text)
    assert_reads(diagnosis, label, first_error=says)
    if alternative is not None:
        assert alternative in alternative_labels(diagnosis)


# The graph executor makes the same check when it hands a node of a loaded model the output
# buffer the caller gave: the size the model's shape inference expects against the one given.
OUTPUT_ALLOCATION = """\
[INFO] GE(51720,infer):2026-04-09-14:02:11.310.004 [task_context.cc:257]51720 AllocateOutput: To allocate output for node: mul3. index = 0, tensor desc = [DataType = 1, Format = 2, Shape = [16, ]
[ERROR] GE(51720,infer):2026-04-09-14:02:11.310.051 [task_context.cc:257]51720 AllocateOutput: ErrorNo: 50331649() [LOAD][LOAD][Check][Size] mul3(Mul) index[0] mem size out of range! Expected size: 64, but given input size: 8.
"""


def test_an_output_buffer_refused_at_allocation_is_the_same_refusal() -> None:
    diagnosis = diagnose_text("log/plog/plog-51720.log", OUTPUT_ALLOCATION)
    assert_reads(
        diagnosis,
        "operator",
        first_error="mem size out of range! Expected size: 64",
        rule="op.ge_single_op_args_rejected",
        beside=("shape_mismatch",),
    )


def test_the_allocation_notice_alone_is_no_refusal() -> None:
    diagnosis = diagnose_text("log/plog/plog-51720.log", OUTPUT_ALLOCATION.splitlines()[0] + "\n")
    assert diagnosis.first_error is None or "AllocateOutput" not in diagnosis.first_error.text
