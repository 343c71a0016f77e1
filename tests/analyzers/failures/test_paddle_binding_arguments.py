"""Paddle's op binding refusing an argument of the wrong kind.

docs/labelling.md#an-operator-name-decides-nothing: Paddle's Python bindings of its ops convert
each argument before the kernel is chosen and, when one is not of the kind the op takes, raise
with the op's name first and the argument's name and position (`(InvalidArgument) stack():
argument 'x' (position 0) must be list of Tensors, but got NoneType`). It is the op refusing its
inputs on the host: `operator`, with `config` beside it (model code written for another release
of the framework or its model library is the usual source of the odd value). Paddle's other
`(InvalidArgument)` sentences name no binding and are not this rule's. Values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

BINDING = """\
Traceback (most recent call last):
  File "/work/tune/run.py", line 61, in <module>
    main()
  File "/work/tune/heads.py", line 97, in loss
    return paddle.stack(parts, axis=0)
  File "/usr/lib/python3.10/site-packages/paddle/tensor/manipulation.py", line 1920, in stack
    return _C_ops.stack(x, axis)
ValueError: (InvalidArgument) stack(): argument 'x' (position 0) must be list of Tensors, but got NoneType (at /paddle/paddle/fluid/pybind/eager_utils.cc:1402)

LAUNCH INFO 2026-04-12 10:20:33,100 Pod failed
LAUNCH ERROR 2026-04-12 10:20:33,101 Container failed !!!
Container rank 0 status failed cmd ['/usr/bin/python', '-u', 'run.py'] code 1 log log/workerlog.0
"""


def _rules(diagnosis) -> set[str | None]:
    return {e.rule for e in diagnosis.evidence}


def test_a_binding_that_refuses_an_argument_is_the_operator_with_config_beside() -> None:
    diagnosis = diagnose_text("log/workerlog.0", BINDING)
    assert_reads(
        diagnosis, "operator", first_error="stack(): argument 'x' (position 0)", beside=("config",)
    )
    assert "op.paddle_binding_argument_kind" in _rules(diagnosis)


def test_the_keyword_form_of_the_same_check_reads_alike() -> None:
    text = (
        "TypeError: (InvalidArgument) full(): argument 'shape' (position 0) must be list or"
        " Tensor, but got float (at /paddle/paddle/fluid/pybind/op_function_common.cc:511)\n"
    )
    diagnosis = diagnose_text("log/workerlog.1", text)
    assert diagnosis.category == "operator", diagnosis.root_cause
    assert "op.paddle_binding_argument_kind" in _rules(diagnosis)


def test_another_invalid_argument_sentence_is_not_the_bindings() -> None:
    text = (
        "ValueError: (InvalidArgument) The axis is expected to be in range of [-3, 3), but got 5"
        " (at /paddle/paddle/phi/kernels/funcs/axis_utils.h:40)\n"
    )
    diagnosis = diagnose_text("log/workerlog.0", text)
    assert "op.paddle_binding_argument_kind" not in _rules(diagnosis)


def test_a_log_line_that_names_an_argument_refuses_nothing() -> None:
    text = "I0412 10:20:30.100000  7711 eager_utils.cc:88] stack(): argument 'x' (position 0) is a list of 4 Tensors\n"
    diagnosis = diagnose_text("log/workerlog.0", text)
    assert "op.paddle_binding_argument_kind" not in _rules(diagnosis)
