"""An error-manager headline whose sentence the writer wrapped after a comma.

docs/labelling.md#an-error-manager-sentence-the-writer-wrapped: when the headline line already
says what is wrong, it is the first error and the wrapped tail below it (the accepted values) is
part of the same sentence; when the headline only names what it is about (`op[X],`), the line
below carries the sentence and is cited. Fixtures follow torch_npu's and the error manager's
shapes; names and values are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text


def test_a_wrapped_dtype_refusal_is_cited_at_its_headline() -> None:
    text = (
        "RuntimeError: npu_grouped_matmul: NPU function error: call aclnnGroupedMatmulV4 failed, error code is 161002\n"
        "AclNN_Parameter_Error(EZ1001): Tensor perTokenScale not implemented for DT_BFLOAT16,\n"
        "should be in dtype support list [DT_FLOAT].\n"
    )
    diagnosis = diagnose_text("serve/engine.log", text)
    assert diagnosis.category == "operator"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.line == 2
    assert "perTokenScale not implemented for DT_BFLOAT16," in diagnosis.first_error.text


def test_a_headline_that_only_names_the_op_is_cited_at_the_sentence_below() -> None:
    # counterexample: the headline holds no clause, the reason starts on the next line
    text = (
        "E89999: Inner Error!\n"
        "E89999[PID: 3301] 2026-05-11-08:30:02.114.905 (E89999):  op[GroupNormSilu],\n"
        "when num_groups is 32 the channel count must be divisible by it, got 100.\n"
    )
    diagnosis = diagnose_text("serve/engine.log", text)
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.line == 3
