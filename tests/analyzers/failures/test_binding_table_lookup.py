"""A compiled op whose C++ table lookup found nothing, raised in Python as an IndexError.

docs/labelling.md#a-kernel-library-that-refuses-a-tensor-it-was-handed. pybind11 turns a C++
`std::out_of_range` into `IndexError` with only the container's text (`_Map_base::at`,
`map::at`, `vector::_M_range_check`). Only native code words it so: the op's lookup failed,
`operator` with `config` beside it. The fixtures are in the shapes these bindings print (values
are ours).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

FUSED_NORM_BACKWARD = """\
  File "/srv/train/schedules.py", line 310, in backward_step
    torch.autograd.backward(output_tensor, grad_tensors=output_tensor_grad)
  File "/opt/env/lib/python3.11/site-packages/torch/autograd/function.py", line 306, in apply
    return user_fn(self, *args)
  File "/opt/env/lib/python3.11/site-packages/fusedops/layernorm.py", line 92, in backward
    dx, dw = _C.layernorm_bwd(dy, x, mu, rsigma, w, sm_margin)
IndexError: _Map_base::at
"""

RANGE_CHECK = """\
[rank3]:   File "/srv/model/attn.py", line 54, in forward
[rank3]:     out = kernels.varlen_attn(q, k, v, cu_seqlens, 7)
[rank3]: IndexError: vector::_M_range_check: __n (which is 7) >= this->size() (which is 4)
"""

# Counterexample: the same text quoted by a terminate handler is a process end.
TERMINATE_QUOTE = """\
terminate called after throwing an instance of 'std::out_of_range'
  what():  _Map_base::at
Aborted (core dumped)
"""


def test_a_map_lookup_raised_from_a_binding_is_the_ops_failure() -> None:
    diagnosis = diagnose_text("logs/train.log", FUSED_NORM_BACKWARD)
    assert_reads(diagnosis, "operator", first_error="_Map_base::at", beside=("config",))


def test_a_vector_range_check_reads_the_same() -> None:
    diagnosis = diagnose_text("logs/worker.log", RANGE_CHECK)
    assert diagnosis.category == "operator", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.rank == 3


def test_the_terminate_handlers_quote_is_not_read_as_an_op() -> None:
    diagnosis = diagnose_text("logs/train.log", TERMINATE_QUOTE)
    assert diagnosis.category != "operator", diagnosis.root_cause
