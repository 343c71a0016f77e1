"""A low-bit tensor subclass asked for an aten op it does not implement.

torchao keeps quantised weights and low-bit optimizer states as tensor subclasses that
implement only the ops their own paths need, and refuses any other one in a fixed sentence
(`OptimState8bit dispatch: attempting to run unimplemented operator/function: func=<OpOverload
(op='aten.new_zeros', ...)>, types=...`, the same with `NF4Tensor` or
`AffineQuantizedTensor`). A sharding wrapper's save or gather path (FSDP's full optimizer
state, a distributed checkpoint) is the usual caller: the low-bit state and that path do not
combine, and another state-dict mode, another optimizer or a release that implements the op
fixes it (docs/labelling.md#quantized-weights-a-sharding-wrapper-cannot-take): `config`, with
`operator` and `other` beside it, and the refusal is the first error. Excerpts follow the real
shapes with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

OPTIM_STATE_SAVE = """\
[rank3]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_optim_utils.py", line 243, in _communicate_optim_state
[rank3]:     tensor_buffer = value.new_zeros(*buffer_size)
[rank3]:   File "/opt/venv/lib/python3.11/site-packages/torchao/utils.py", line 446, in _dispatch__torch_dispatch__
[rank3]:     raise NotImplementedError(
[rank3]: NotImplementedError: OptimState4bit dispatch: attempting to run unimplemented operator/function: func=<OpOverload(op='aten.new_zeros', overload='default')>, types=(<class 'torchao.optim.subclass_4bit.OptimState4bit'>,), arg_types=(<class 'torchao.optim.subclass_4bit.OptimState4bit'>, <class 'list'>), kwarg_types={}
"""


def test_a_subclass_refusing_an_op_on_a_save_path_is_a_combination_that_does_not_fit() -> None:
    diagnosis = diagnose_text("rank3.log", OPTIM_STATE_SAVE)
    assert_reads(
        diagnosis,
        "config",
        first_error="OptimState4bit dispatch: attempting to run unimplemented",
        rule="cfg.tensor_subclass_op_unimplemented",
        beside=("operator",),
    )


def test_a_quantised_weight_refusing_an_op_reads_alike() -> None:
    text = (
        "NotImplementedError: NF4Tensor dispatch: attempting to run unimplemented "
        "operator/function: func=<OpOverload(op='aten.is_pinned', overload='default')>, "
        "types=(<class 'torchao.dtypes.nf4tensor.NF4Tensor'>,), arg_types=(), kwarg_types={}\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert "cfg.tensor_subclass_op_unimplemented" in rules_of(diagnosis)


def test_a_debug_line_listing_implemented_ops_is_no_refusal() -> None:
    text = (
        "DEBUG torchao: OptimState8bit dispatch table holds 14 operator/function entries\n"
        "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB.\n"
    )
    diagnosis = diagnose_text("rank0.log", text)
    assert diagnosis.category == "oom"
    assert "cfg.tensor_subclass_op_unimplemented" not in rules_of(diagnosis)
