"""An NPU op adapter's check that an input's last dimension lies in the range it supports.

torch_npu's fused ops (softmax with a scaled mask, rotary embedding) refuse an input whose last
dimension is outside the sizes their kernels cover and say which sizes those are: a range, often
with a divisor (`The last dimension of input tensor should be within the range of [16,4096]
and be divisible by16`). The line states the op's limit, so it is `op_constraint`, with
`operator` beside it; the fix is the unfused path or a model shape the op covers.
(docs/labelling.md#an-operator-name-decides-nothing)
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

FINETUNE = """\
  File "/work/glm/modeling_demo.py", line 233, in forward
    probs = torch_npu.npu_scaled_masked_softmax(scores, mask, self.scale, False)
RuntimeError:Error!, The last dimension of input tensor should be within the range of [16,4096] and be divisible by16
"""


def test_a_last_dimension_outside_the_ops_range_is_its_limit() -> None:
    """docs/labelling.md#an-operator-name-decides-nothing"""
    diagnosis = diagnose_text("finetune.log", FINETUNE)
    assert_reads(diagnosis, "op_constraint", first_error="within the range of [16,4096]")
    assert "opc.input_last_dim_range" in rules_of(diagnosis)
    assert "operator" in {alt.category for alt in diagnosis.alternatives}


def test_the_misspelt_form_reads_the_same() -> None:
    """Some releases print `shoule`; the refusal is the same."""
    line = (
        "RuntimeError:Error!, The last dimension of input tensor shoule be within the range "
        "of [64,1024] and be divisible by8\n"
    )
    diagnosis = diagnose_text("finetune.log", line)
    assert diagnosis.category == "op_constraint"
    assert "opc.input_last_dim_range" in rules_of(diagnosis)


def test_a_request_setting_out_of_range_is_not_an_ops_limit() -> None:
    """A value a request or config carries is no tensor dimension of an op."""
    diagnosis = diagnose_text(
        "server.log", "ValueError: temperature should be within the range of [0, 2], got 3\n"
    )
    assert "opc.input_last_dim_range" not in rules_of(diagnosis)
    assert diagnosis.category != "op_constraint"


def test_a_bare_missing_torch_npu_api_is_a_version_that_does_not_fit() -> None:
    """The attribute message quoted alone reads as it does with its class: the installed
    torch_npu lacks the API the model code calls (`config`)."""
    diagnosis = diagnose_text(
        "infer.log", "module 'torch_npu' has no attribute 'npu_demo_attention'\n"
    )
    assert_reads(diagnosis, "config", first_error="npu_demo_attention")
