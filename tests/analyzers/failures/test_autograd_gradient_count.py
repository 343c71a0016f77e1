"""A custom autograd function whose backward returns another number of gradients.

autograd's `function <Name>Backward returned an incorrect number of gradients (expected N, got
M)` says a forward gained parameters its backward (or a subclass in another package) did not
follow: releases out of step, read like a call that does not fit a signature: `config`, with
`other` as the alternative. (docs/labelling.md#config-driver_env-or-weight_load)
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# The backward of a ring-attention step on two ranks of a sequence-parallel fine-tune.
RING_BACKWARD = """\
[rank0]:   File "/usr/lib/python3.11/site-packages/torch/autograd/graph.py", line 823, in _engine_run_backward
[rank0]:     return Variable._execution_engine.run_backward(
[rank0]: RuntimeError: function RingAttnFuncBackward returned an incorrect number of gradients (expected 12, got 11)
[rank1]: RuntimeError: function RingAttnFuncBackward returned an incorrect number of gradients (expected 12, got 11)
"""


def test_a_backward_of_the_wrong_arity_is_releases_out_of_step() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load"""
    diagnosis = diagnose_text("train.log", RING_BACKWARD)
    assert_reads(
        diagnosis,
        "config",
        first_error="returned an incorrect number of gradients",
        beside=("other",),
    )


def test_a_gradient_of_the_wrong_shape_is_not_this_check() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load"""
    text = (
        "RuntimeError: function MulBackward0 returned an invalid gradient at index 0 - "
        "got [2, 3] but expected shape compatible with [3, 2]\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert "cfg.autograd_gradient_count" not in rules_of(diagnosis)
