"""CUDA's runtime saying the machine or the job's process setup does not fit.

docs/labelling.md#config-driver_env-or-weight_load: no device the process can see, or a driver
that does not fit the runtime, is the machine, `driver_env`; torch refusing to start CUDA in a
forked child is the job's multiprocessing setting, `config`. A kernel the display watchdog cut
off (`the launch timed out and was terminated`) is the device's, `device_fault`. Lines that
only report devices or a start method are no failure.

Fixtures are written in the shapes of torch's tracebacks, with paths of our own.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import diagnose_text

HEAD = """\
Traceback (most recent call last):
  File "bench/run.py", line 41, in <module>
    main(args)
"""

CASES = [
    ("RuntimeError: CUDA error: no CUDA-capable device is detected", "driver_env"),
    (
        "RuntimeError: CUDA error: system has unsupported display driver / cuda driver combination",
        "driver_env",
    ),
    (
        "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with"
        " multiprocessing, you must use the 'spawn' start method",
        "config",
    ),
    ("RuntimeError: CUDA error: the launch timed out and was terminated", "device_fault"),
]


@pytest.mark.parametrize(("line", "category"), CASES)
def test_a_cuda_runtime_refusal_names_its_layer(line: str, category: str) -> None:
    diagnosis = diagnose_text("bench/rank0.log", HEAD + line + "\n")
    assert diagnosis.category == category, diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert line[:40] in diagnosis.first_error.text


def test_device_and_start_method_reports_are_no_failure() -> None:
    text = (
        "2026-02-11 10:01:02,003 INFO found 4 CUDA-capable devices, the first is detected as sm_90\n"
        "2026-02-11 10:01:02,118 INFO multiprocessing start method set to 'spawn' so CUDA can be"
        " initialized in subprocesses\n"
        "2026-02-11 10:09:40,551 INFO model run success\n"
    )
    diagnosis = diagnose_text("bench/rank0.log", text)
    assert diagnosis.first_error is None
    assert diagnosis.category not in {"driver_env", "config"}
