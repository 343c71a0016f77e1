"""A Ray worker's own account of its crash, printed below Ray's report that it died.

Ray streams each worker's output to the driver through its log monitor, a little behind the
process; the raylet's report that the worker went away is written as soon as it notices. So a
worker that crashed on a device error often has its own lines (an illegal memory access, a
device-side assertion, a segmentation fault) printed a few lines *below* the report of its
death. The worker's line says why; Ray's report is the consequence
(docs/labelling.md#a-ray-worker-reported-dead). The excerpts follow the tools' shapes with
values of our own.
"""

from __future__ import annotations

from analyzers.core.report import Diagnosis
from tests.analyzers.excerpts import diagnose_text


def first_text(diagnosis: Diagnosis) -> str:
    assert diagnosis.first_error is not None
    return diagnosis.first_error.text


RAY_REPORT = (
    "(raylet) A worker died or was killed while executing a task by an unexpected system error. "
    "To troubleshoot the problem, check the logs for the dead worker. RayTask ID: ffff01 "
    "Worker ID: 7c1d Node ID: 2b9e Worker IP address: 10.8.0.4 Worker port: 40011 "
    "Worker PID: 6120 Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly "
    "exits with a connection error code 2. End of file. There are some potential root causes. "
    "(1) The process is killed by SIGKILL by OOM killer due to high memory usage. (2) ray stop "
    "--force is called. (3) The worker is crashed unexpectedly due to SIGSEGV or other "
    "unexpected errors.\n"
)

WORKER_LINES = {
    "illegal memory access": (
        "(RolloutWorker pid=6125) ERROR 03-04 05:06:07 runner.py:88] step failed: "
        "CUDA error: an illegal memory access was encountered\n"
        "(RolloutWorker pid=6125) ERROR 03-04 05:06:07 runner.py:89] Compile with "
        "`TORCH_USE_CUDA_DSA` to enable device-side assertions.\n"
    ),
    "device-side assert": (
        "(TrainWorker pid=6125) RuntimeError: CUDA error: device-side assert triggered\n"
    ),
    "Segmentation fault": ("(TrainWorker pid=6125) Fatal Python error: Segmentation fault\n"),
}


def test_the_workers_own_device_error_below_the_report_is_the_first_error() -> None:
    """docs/labelling.md#a-ray-worker-reported-dead"""
    for words, worker in WORKER_LINES.items():
        diagnosis = diagnose_text("driver.log", RAY_REPORT + worker)
        assert diagnosis.category == "device_fault"
        assert words in first_text(diagnosis), words


def test_a_report_with_nothing_from_the_worker_keeps_its_own_reading() -> None:
    """Counterexample: the worker's lines below say nothing of a crash."""
    tail = "(RolloutWorker pid=6125) INFO 03-04 05:06:07 runner.py:40] generated 128 sequences\n"
    diagnosis = diagnose_text("driver.log", RAY_REPORT + tail)
    assert diagnosis.category == "device_fault"
    assert "A worker died or was killed" in first_text(diagnosis)
