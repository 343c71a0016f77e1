"""An op's own C++ check that states only its condition.

docs/labelling.md#an-ops-check-that-states-only-its-condition: a TORCH_CHECK written without a
message prints the condition it tested (`Expected <condition> to be true, but got false.`),
followed by torch's request to improve the message. The check sits in an op's C++ code, in
torch or in an extension, and tests the inputs it was handed: `operator`, the first error, below
the confident band since the condition alone does not say which input was wrong; shapes, strides
and sizes in the condition offer `shape_mismatch` beside it. Fixtures are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

STRIDE_CHECK = """\
[rank1]:   File "/opt/venv/lib/python3.11/site-packages/ext_attn/interface.py", line 88, in _backward
[rank1]:     dq, dk, dv = ext_attn_C.varlen_bwd(
[rank1]: RuntimeError: Expected grad_out.stride(-1) == 1 to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)
[rank1]:[W1204 10:22:41.120000000 ProcessGroupNCCL.cpp:1250] Warning: WorkNCCL(SeqNum=412, OpType=ALLREDUCE) aborted
"""

DEVICE_CHECK = """\
RuntimeError: Expected q.is_cuda() to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)
"""

CHECK_IN_A_NOTE = """\
# a check like "Expected x to be true, but got false" comes from a TORCH_CHECK with no message
step 12 loss 2.31
"""


def test_a_bare_condition_check_of_an_op_is_the_operator() -> None:
    diagnosis = diagnose_text("train.log", STRIDE_CHECK)
    assert_reads(
        diagnosis,
        "operator",
        first_error="Expected grad_out.stride(-1) == 1 to be true",
        rule="op.torch_check_condition_only",
        beside=("shape_mismatch",),
    )
    assert diagnosis.confidence < 0.8


def test_a_condition_on_the_inputs_device_reads_the_same() -> None:
    diagnosis = diagnose_text("run.log", DEVICE_CHECK)
    assert_reads(diagnosis, "operator", first_error="Expected q.is_cuda() to be true")


def test_a_note_quoting_the_form_is_no_check() -> None:
    diagnosis = diagnose_text("run.log", CHECK_IN_A_NOTE)
    assert "op.torch_check_condition_only" not in rules_of(diagnosis)
