"""An op that torch.compile cannot run on fake tensors while it traces the model.

- Dynamo's `Failed running call_function <op>(*(FakeTensor(...` line, cut short in the paste,
  under the traceback frame of torch's fake-tensor fallback that refuses an op without a fake
  kernel: `operator`, the `Failed running call_function` line first.
- The exception's own name in the line (`UnsupportedOperatorException: <op>`) says the same.
- Counterexample: the same wrapper whose line prints a shape check of its own keeps that
  reading (`shape_mismatch`); the fallback frame is a weak hint, not a verdict.

Fixtures are written here in the real shapes with their own values.

docs/labelling.md#an-operator-the-compiler-cannot-trace
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

FALLBACK_FRAME_THEN_CUT_WRAPPER = """\
ERROR 03-05 10:11:12 [core.py:612]   File "/opt/venv/lib/python3.11/site-packages/torch/_subclasses/fake_tensor.py", line 2210, in _dispatch_impl
ERROR 03-05 10:11:12 [core.py:612]     return maybe_run_unsafe_fallback(not_implemented_error)
ERROR 03-05 10:11:12 [core.py:612]   File "/opt/venv/lib/python3.11/site-packages/torch/_subclasses/fake_tensor.py", line 2188, in maybe_run_unsafe_fallback
ERROR 03-05 10:11:12 [core.py:612]     raise UnsupportedOperatorException(func)
ERROR 03-05 10:11:12 [core.py:612] RuntimeError: Failed running call_function vendor_ops.fused_rope(*(FakeTensor(..., device='npu:0', size=(s0,), dtype=torch.int64), FakeTensor(..., device='npu:0', size=(s0, 2048)
"""

NAMED_EXCEPTION = """\
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/torch/_subclasses/fake_tensor.py", line 2188, in maybe_run_unsafe_fallback
    raise UnsupportedOperatorException(func)
torch._subclasses.fake_tensor.UnsupportedOperatorException: vendor_ops.fused_rope.default
"""

SHAPE_CHECK_IN_THE_FAKE_RUN = """\
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/torch/_subclasses/fake_tensor.py", line 2188, in maybe_run_unsafe_fallback
    return run_fallback_kernel(fake_mode, func, flat_args, args_spec, orig_not_implemented_exception)
torch._dynamo.exc.TorchRuntimeError: Failed running call_function <built-in function add>(*(FakeTensor(..., size=(4, 1280)), FakeTensor(..., size=(4, s4))), **{}): The size of tensor a (1280) must match the size of tensor b (s4) at non-singleton dimension 1
"""


def test_a_cut_wrapper_under_the_fake_tensor_fallback_frame_is_an_operator() -> None:
    diagnosis = diagnose_text("core.log", FALLBACK_FRAME_THEN_CUT_WRAPPER)
    assert_reads(
        diagnosis, "operator", first_error="Failed running call_function vendor_ops.fused_rope"
    )


def test_the_named_exception_is_an_operator() -> None:
    diagnosis = diagnose_text("worker.log", NAMED_EXCEPTION)
    assert_reads(
        diagnosis, "operator", first_error="UnsupportedOperatorException: vendor_ops.fused_rope"
    )


def test_a_shape_check_printed_by_the_wrapper_keeps_its_reading() -> None:
    diagnosis = diagnose_text("worker.log", SHAPE_CHECK_IN_THE_FAKE_RUN)
    assert diagnosis.category == "shape_mismatch"
