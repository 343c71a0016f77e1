"""A device started in a child made by fork after its parent already started it.

docs/labelling.md#config-driver_env-or-weight_load: torch, and every device plugin that guards
its lazy start the same way, refuses to start the device again in a forked child and names
the spawn start method as the fix. That is the job's multiprocessing setting, `config`,
whichever device the line names (CUDA, torch_npu's NPU, XPU); a line that only reports the
start method chosen is no failure.

Fixtures are written in the shapes of a serving engine's core process and of a plain script's
traceback, with paths and numbers of our own.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text

ENGINE_CORE = """\
(EngineCore_DP0 pid=30117) ERROR 04-09 16:20:41 [core.py:640]   File "/opt/venv/lib/python3.11/site-packages/torch_npu/npu/__init__.py", line 251, in _lazy_init
(EngineCore_DP0 pid=30117) ERROR 04-09 16:20:41 [core.py:640]     raise RuntimeError(
(EngineCore_DP0 pid=30117) ERROR 04-09 16:20:41 [core.py:640] RuntimeError: Cannot re-initialize {device} in forked subprocess. To use {device} with multiprocessing, you must use the 'spawn' start method
(EngineCore_DP0 pid=30117) Process EngineCore_DP0:
(EngineCore_DP0 pid=30117) Traceback (most recent call last):
(EngineCore_DP0 pid=30117)   File "/opt/venv/lib/python3.11/multiprocessing/process.py", line 314, in _bootstrap
(EngineCore_DP0 pid=30117)     self.run()
"""


@pytest.mark.parametrize("device", ["NPU", "XPU", "CUDA"])
def test_a_forked_child_refusing_to_start_its_device_is_the_start_method(device: str) -> None:
    diagnosis = diagnose_text("serve/engine.log", ENGINE_CORE.format(device=device))
    assert diagnosis.category == "config", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert f"Cannot re-initialize {device} in forked subprocess" in diagnosis.first_error.text


def test_a_start_method_report_about_forked_workers_is_no_failure() -> None:
    text = (
        "2026-04-09 16:20:30,101 INFO NPU already initialized in the parent; forked subprocess"
        " workers will use spawn instead\n"
        "2026-04-09 16:29:02,774 INFO model run success\n"
    )
    diagnosis = diagnose_text("serve/engine.log", text)
    assert diagnosis.first_error is None
    assert diagnosis.category != "config"


def test_a_training_framework_refusing_to_fork_after_the_device_started() -> None:
    # Lightning's fork-based strategies check before forking and refuse in their own words.
    text = (
        "GPU available: True (cuda), used: True\n"
        "RuntimeError: Lightning can't create new processes if CUDA is already initialized. Did"
        " you manually call `torch.cuda.*` functions, have moved the model to the device, or"
        " allocated memory on the GPU any other way? Please remove any such calls, or change the"
        " selected strategy. You will have to restart the Python kernel.\n"
    )
    diagnosis = diagnose_text("notebook/output.txt", text)
    assert_reads(
        diagnosis, "config", first_error="can't create new processes if CUDA is already initialized"
    )
