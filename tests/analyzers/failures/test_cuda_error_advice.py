"""The advice torch prints under every CUDA error, read as advice and not as a failure.

docs/labelling.md#device-error-advice-is-not-an-error: the closing lines of a CUDA error
(asynchronous reporting, `CUDA_LAUNCH_BLOCKING=1`, a `TORCH_USE_CUDA_DSA` build "to enable
device-side assertions") explain nothing by themselves. When a paste begins inside such a
message, the first error is the next line that states the CUDA error; an assertion that did
fire (`device-side assert triggered`) stays a device-side assert.

Fixtures follow the shapes of a serving engine's worker log and torch's process group
watchdog, with ranks, pids, times and addresses of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# A tensor-parallel worker's exception pasted from below its error line: only the advice is
# left of it, then the watchdog of the same rank reports the illegal access in full.
ADVICE_THEN_WATCHDOG = """\
(EngineWorker rank=1 pid=4410) ERROR 02-11 07:31:05 [executor.py:212] CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
(EngineWorker rank=1 pid=4410) ERROR 02-11 07:31:05 [executor.py:212] For debugging consider passing CUDA_LAUNCH_BLOCKING=1
(EngineWorker rank=1 pid=4410) ERROR 02-11 07:31:05 [executor.py:212] Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.
(EngineWorker rank=1 pid=4410) ERROR 02-11 07:31:05 [executor.py:212]
[rank1]:[E211 07:31:05.118204553 ProcessGroupNCCL.cpp:1901] [PG ID 1 PG GUID 1 Rank 1] Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
For debugging consider passing CUDA_LAUNCH_BLOCKING=1
Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.
"""

# An index out of range in an embedding lookup: the assertion fired, and the same advice
# follows its error line.
ASSERT_THEN_ADVICE = """\
[rank2]: Traceback (most recent call last):
[rank2]:   File "/srv/app/train.py", line 88, in <module>
[rank2]:     logits = model(batch)
[rank2]: RuntimeError: CUDA error: device-side assert triggered
[rank2]: CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
[rank2]: For debugging consider passing CUDA_LAUNCH_BLOCKING=1
[rank2]: Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.
"""


def test_advice_above_the_watchdog_report_yields_to_it() -> None:
    diagnosis = diagnose_text("serve/worker.log", ADVICE_THEN_WATCHDOG)
    assert_reads(diagnosis, "device_fault", first_error="watchdog thread terminated with exception")
    assert "TORCH_USE_CUDA_DSA" not in diagnosis.first_error.text


def test_an_assertion_that_fired_keeps_its_line() -> None:
    diagnosis = diagnose_text("train/rank2.log", ASSERT_THEN_ADVICE)
    assert_reads(diagnosis, "device_fault", first_error="device-side assert triggered")
