"""Failures an evaluation harness prints in its own words while it evaluates on several GPUs.

A harness that catches a request's exception logs it through its own logger (month-day time,
the source file and line in brackets, the level, then `Error <exception text>`) and goes on;
the quoted refusal keeps the reading it has as a raised exception. A model class that does not
fit the harness's installed interface is refused by Python before anything runs (`config`).
The fixtures are our own excerpts. docs/labelling.md#a-tensor-left-on-the-cpu-of-an-npu-job,
docs/labelling.md#a-subclass-that-lacks-a-method-its-base-requires
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text

HARNESS_CAUGHT_TWO_CARDS = """\
12-04 09:41:07 [lmms_eval/evaluator.py:388] INFO Running generate_until requests
12-04 09:41:09 [lmms_eval/models/qwen_vl.py:212] ERROR Error Expected all tensors to be on the same device, but found at least two devices, cuda:2 and cuda:0! (when checking argument for argument mat2 in method wrapper_CUDA_mm) in generating
Model Responding:   1%|          | 12/1180 [00:02<03:10,  6.13it/s]12-04 09:41:09 [lmms_eval/models/qwen_vl.py:212] ERROR Error Expected all tensors to be on the same device, but found at least two devices, cuda:3 and cuda:0! (when checking argument for argument mat2 in method wrapper_CUDA_mm) in generating
"""

HARNESS_CAUGHT_HOST_TENSOR = """\
12-04 09:41:09 [lmms_eval/models/qwen_vl.py:212] ERROR Error Expected all tensors to be on the same device, but found at least two devices, cuda:1 and cpu! (when checking argument for argument index in method wrapper_CUDA__index_select) in generating
"""

MODEL_CLASS_FROM_ANOTHER_BRANCH = """\
  File "/srv/harness/toy_eval/evaluator.py", line 88, in simple_evaluate
    lm = registry.get_model(model).create_from_arg_string(
  File "/srv/harness/toy_eval/api/model.py", line 131, in create_from_arg_string
    return cls(**args, **args2)
TypeError: Can't instantiate abstract class ToyLM with abstract method generate_until
ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 5121) of binary: /srv/venv/bin/python
"""


def _rules(diagnosis) -> set[str]:
    return {e.rule for e in diagnosis.evidence if e.rule}


def _alternatives(diagnosis) -> list[str]:
    return [a.category for a in diagnosis.alternatives]


def test_a_refusal_the_harness_caught_and_logged_is_read_as_raised() -> None:
    diagnosis = diagnose_text("lmms_eval.log", HARNESS_CAUGHT_TWO_CARDS)
    assert diagnosis.category == "operator"
    assert diagnosis.first_error is not None
    assert "cuda:2 and cuda:0" in diagnosis.first_error.text
    assert "op.tensors_on_two_accelerators" in _rules(diagnosis)
    assert "config" in _alternatives(diagnosis)


def test_a_caught_refusal_naming_the_host_keeps_its_own_reading() -> None:
    diagnosis = diagnose_text("lmms_eval.log", HARNESS_CAUGHT_HOST_TENSOR)
    assert diagnosis.first_error is not None
    assert "cuda:1 and cpu" in diagnosis.first_error.text
    assert "op.tensors_on_two_accelerators" not in _rules(diagnosis)


def test_a_model_class_missing_an_abstract_method_is_config() -> None:
    diagnosis = diagnose_text("rank0.log", MODEL_CLASS_FROM_ANOTHER_BRANCH)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert "Can't instantiate abstract class ToyLM" in diagnosis.first_error.text
    assert "cfg.abstract_method_not_implemented" in _rules(diagnosis)
    assert "other" in _alternatives(diagnosis)
