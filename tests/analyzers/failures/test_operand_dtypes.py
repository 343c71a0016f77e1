"""A kernel refusing operands whose dtypes disagree.

docs/labelling.md#operands-of-different-dtypes: torch's check that one call's inputs share a
scalar type (`expected scalar type Float but found Half`) and the matmul family's same-dtype
check refuse the op on the host: `operator`, with `config` (the precision setup) beside it.

The fixture is written in the shape of two ranks' tracebacks interleaved in one stderr, as a
DeepSpeed half-precision run prints them, with paths of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text

INTERLEAVED = """\
RuntimeError: expected scalar type Float but found Half
    result = self.forward(*input, **kwargs)
  File "/opt/venv/lib/python3.9/site-packages/torch/nn/modules/normalization.py", line 190, in forward
    return F.layer_norm(
  File "/srv/vision/gpt.py", line 31, in forward
    x = self.norm_1(x)
RuntimeError: expected scalar type Float but found Half
"""


def test_operands_of_two_dtypes_are_the_operator_with_the_precision_setup_beside_it() -> None:
    diagnosis = diagnose_text("stderr.log", INTERLEAVED)
    assert diagnosis.category == "operator", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert "expected scalar type Float but found Half" in diagnosis.first_error.text
    assert "config" in {alt.category for alt in diagnosis.alternatives}


def test_the_matmul_wording_of_the_same_check_reads_alike() -> None:
    text = (
        "[rank0]: RuntimeError: expected mat1 and mat2 to have the same dtype, but got:"
        " c10::Half != float\n"
    )
    diagnosis = diagnose_text("rank0.log", text)
    assert diagnosis.category == "operator", diagnosis.root_cause
