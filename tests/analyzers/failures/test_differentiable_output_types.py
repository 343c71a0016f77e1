"""An op that marks an integer or bool output as needing a gradient trips autograd's own check.

docs/labelling.md#an-op-whose-output-cannot-carry-a-gradient: only floating and complex tensors
can take part in autograd, and autograd asserts it when an op's kernel or its registration
(usually a device backend's binding) hands back a bool or integer result wired into the graph.
The call that produced it is at fault: `operator`, with `other` beside it. The fixtures are in
the format a DeepSpeed MoE job on torch_npu prints, with our own paths and values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

GATE_MASK_CAST = """\
Traceback (most recent call last):
    File "/srv/moe/train.py", line 214, in <module>
        outputs = engine(inputs)
    File "/opt/venv/lib/python3.9/site-packages/deepspeed/moe/sharded_moe.py", line 410, in forward
        gate_output = top1gating(logits, self.capacity_factor if self.training else self.eval_capacity_factor,
    File "/opt/venv/lib/python3.9/site-packages/deepspeed/moe/sharded_moe.py", line 277, in top1gating
        dispatch_mask = combine_weights.bool()
    RuntimeError: isDifferentiableType(variable.scalar_type()) INTERNAL ASSERT FAILED at "/opt/_internal/cpython-3.9.18/lib/python3.9/site-packages/torch/include/torch/csrc/autograd/functions/utils.h":75, please report a bug to PyTorch. 
"""

RANKED = """\
[rank3]: RuntimeError: isDifferentiableType(variable.scalar_type())INTERNAL ASSERT FAILED at "../torch/csrc/autograd/functions/utils.h":66, please report a bug to PyTorch.
"""


def test_a_bool_output_wired_into_autograd_is_the_op() -> None:
    diagnosis = diagnose_text("train.log", GATE_MASK_CAST)
    assert_reads(
        diagnosis,
        "operator",
        first_error="isDifferentiableType(variable.scalar_type()) INTERNAL ASSERT FAILED",
        rule="op.nondifferentiable_output_requires_grad",
        beside=["other"],
    )


def test_the_assert_without_its_space_reads_the_same() -> None:
    diagnosis = diagnose_text("rank3.log", RANKED)
    assert_reads(
        diagnosis,
        "operator",
        first_error="isDifferentiableType",
        rule="op.nondifferentiable_output_requires_grad",
    )


def test_a_check_of_the_type_in_a_note_is_no_failure() -> None:
    diagnosis = diagnose_text(
        "train.log", "debug: isDifferentiableType(variable.scalar_type()) holds for all outputs\n"
    )
    assert "op.nondifferentiable_output_requires_grad" not in rules_of(diagnosis)
