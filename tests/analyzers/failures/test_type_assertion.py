"""A library's type check of an argument fails with a bare AssertionError.

docs/labelling.md#config-driver_env-or-weight_load: the `assert isinstance(...)` statement
above the bare exception says a caller handed over a value of another kind (most often None
from a caller written for another release): the packages or settings do not fit together.
Fixtures follow the vLLM worker-prefixed traceback shape with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, diagnose_text

PREFIX = "(Worker_TP0 pid=4410) ERROR 03-02 11:20:05 [multiproc_executor.py:640] "


def _traceback(*lines: str) -> str:
    return "".join(PREFIX + line + "\n" for line in lines)


TYPE_CHECK = _traceback(
    "WorkerProc hit an exception.",
    "Traceback (most recent call last):",
    '  File "/opt/venv/lib/python3.11/site-packages/trainer/scripts/serve.py", line 96, in init_communicator',
    "    self.comm = DeviceCommunicator(group, device=self.device)",
    '  File "/opt/venv/lib/python3.11/site-packages/npu_plugin/comm/device_comm.py", line 88, in __init__',
    "    assert isinstance(device, torch.device)",
    "AssertionError",
)

VALUE_CHECK = _traceback(
    "WorkerProc hit an exception.",
    "Traceback (most recent call last):",
    '  File "/opt/venv/lib/python3.11/site-packages/npu_plugin/model_loader.py", line 212, in load_weights',
    "    assert param.data.shape == loaded.shape",
    "AssertionError",
)


def test_a_failed_type_check_is_a_set_of_packages_that_does_not_fit() -> None:
    diagnosis = diagnose_text("worker.log", TYPE_CHECK)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.endswith("AssertionError")
    assert "isinstance" in diagnosis.root_cause
    assert diagnosis.confidence < 0.8


def test_a_failed_value_comparison_is_not_read_as_a_type_check() -> None:
    diagnosis = diagnose_text("worker.log", VALUE_CHECK)
    assert diagnosis.category != "config", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.endswith("AssertionError")


COMMUNICATOR_CHECK = _traceback(
    "WorkerProc hit an exception.",
    "Traceback (most recent call last):",
    '  File "/opt/venv/lib/python3.11/site-packages/trainer/scripts/serve.py", line 96, in init_communicator',
    "    self.comm = PyHcclCommunicator(group, device=self.device)",
    '  File "/opt/venv/lib/python3.11/site-packages/npu_plugin/comm/pyhccl.py", line 88, in __init__',
    "    assert isinstance(device, torch.device)",
    "AssertionError",
)

MODEL_TYPE_CHECK = _traceback(
    "WorkerProc hit an exception.",
    "Traceback (most recent call last):",
    '  File "/opt/venv/lib/python3.11/site-packages/npu_plugin/models/decoder.py", line 140, in forward',
    "    assert isinstance(hidden_states, torch.Tensor)",
    "AssertionError",
)


def _alternative_labels(text: str) -> list[str]:
    diagnosis = diagnose_text("worker.log", text)
    assert diagnosis.category == "config", diagnosis.root_cause
    return alternative_labels(diagnosis)


def test_a_type_check_in_a_communicators_constructor_offers_the_collective_layer() -> None:
    assert "hccl" in _alternative_labels(COMMUNICATOR_CHECK)


def test_a_type_check_with_no_communicator_in_sight_offers_no_collective() -> None:
    assert "hccl" not in _alternative_labels(MODEL_TYPE_CHECK)
    assert "hccl" not in _alternative_labels(TYPE_CHECK)
