"""DTensor's sharding rule for an op stopping on the kind of argument it was handed.

docs/labelling.md#dtensor-parameters-under-a-wrapper-that-does-not-know-them: each op DTensor
shards has a strategy function, which checks the kind of each argument's strategy before it
reads it and raises `AssertionError: Expected OpStrategy, got <class '...TupleStrategy'>` (or
`Expected TupleStrategy, got <class 'list'>`) when the op reached it with an argument of another
form (a list of optional index tensors, a nested tuple). The placements may all be replicated:
no plan is wrong and no peer failed, the op's rule could not read its own inputs. The label is
`operator`, with `other` (a DTensor defect a newer release fixes) and `config` (keeping the op
away from DTensors) beside it, and the assertion is the first error; the chained traceback that
`backward()` prints after it is its re-raise. The `raise AssertionError(...)` source line a
traceback quotes is code, not the failure. Paths and ranks are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

IN_BACKWARD = (
    "[rank0]: Traceback (most recent call last):\n"
    '[rank0]:   File "/home/u1/venv/lib/python3.12/site-packages/torch/distributed/tensor/'
    '_dispatch.py", line 231, in _propagate_op_sharding_dispatch_slow_path\n'
    '[rank0]:     raise AssertionError(f"Expected TupleStrategy, got {type(indices_spec)}")\n'
    "[rank0]: AssertionError: Expected TupleStrategy, got <class 'list'>\n"
    "\n"
    "[rank0]: The above exception was the direct cause of the following exception:\n"
    "\n"
    "[rank0]: Traceback (most recent call last):\n"
    '[rank0]:   File "/home/u1/probe/index_grad.py", line 30, in <module>\n'
    "[rank0]:     out.sum().backward()\n"
)
OP_STRATEGY = (
    "[rank2]: AssertionError: Expected OpStrategy, got"
    " <class 'torch.distributed.tensor._op_schema.TupleStrategy'>\n"
)
SOURCE_ONLY = (
    '  File "/home/u1/venv/lib/python3.12/site-packages/torch/distributed/tensor/_ops/'
    '_matrix_ops.py", line 88, in mm_strategy\n'
    '    raise AssertionError(f"Expected OpStrategy, got {type(self_strategy)}")\n'
)


def test_a_rule_that_meets_an_argument_of_another_kind_is_the_ops_failure() -> None:
    diagnosis = diagnose_text("rank0.log", IN_BACKWARD)
    assert_reads(
        diagnosis,
        "operator",
        first_error="AssertionError: Expected TupleStrategy, got <class 'list'>",
        rule="op.dtensor_rule_argument_kind",
        beside=("other", "config"),
    )


def test_the_op_strategy_wording_is_read_alike() -> None:
    diagnosis = diagnose_text("rank2.log", OP_STRATEGY)
    assert_reads(
        diagnosis,
        "operator",
        first_error="Expected OpStrategy, got <class",
        rule="op.dtensor_rule_argument_kind",
    )


def test_the_raise_line_a_traceback_quotes_is_no_failure() -> None:
    diagnosis = diagnose_text("rank0.log", SOURCE_ONLY)
    assert "op.dtensor_rule_argument_kind" not in rules_of(diagnosis)
