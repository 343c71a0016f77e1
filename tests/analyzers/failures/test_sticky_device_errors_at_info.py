"""CUDA's sticky errors that a trainer caught and logged at INFO.

docs/labelling.md#a-sticky-device-error-logged-at-info: INFO lines are noise, except the
report of an illegal memory access or a device-side assert that a trainer caught and went on
from. The CUDA context is broken after either, so the caught report is the first error
(`device_fault`) and the trainer's own handler and the traceback after it are the cascade.
Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

CAUGHT_ILLEGAL_ACCESS = """\
2025-03-11 09:14:02,551 INFO [train.py:1190] (1/4) Training started
2025-03-11 09:41:17,903 INFO [scaling.py:1043] (1/4) Caught exception in Whiten backward: CUDA error: an illegal memory access was encountered
Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.
, size=[212, 48, 256], will continue.
2025-03-11 09:41:17,904 INFO [train.py:1060] (1/4) Caught exception: CUDA error: an illegal memory access was encountered
Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.
.
2025-03-11 09:41:17,905 INFO [checkpoint.py:75] (1/4) Saving checkpoint to exp/v2/bad-model-1.pt
Traceback (most recent call last):
  File "/work/recipes/asr/train.py", line 1053, in train_one_epoch
    scaler.scale(loss).backward()
"""


def test_an_illegal_access_caught_at_info_is_the_first_error() -> None:
    diagnosis = diagnose_text("log-train-2025-03-11-09-14-02-1", CAUGHT_ILLEGAL_ACCESS)
    assert_reads(diagnosis, "device_fault", first_error="Caught exception in Whiten backward")


def test_a_device_assert_caught_at_info_is_the_first_error() -> None:
    text = (
        "2025-03-11 10:02:40,118 INFO [model.py:311] Caught exception in ctc loss: "
        "CUDA error: device-side assert triggered, skipping batch\n"
        "2025-03-11 10:02:40,121 INFO [train.py:877] Saving batch to exp/batch-7.pt\n"
    )
    diagnosis = diagnose_text("log-train.txt", text)
    assert_reads(diagnosis, "device_fault", first_error="device-side assert triggered")


def test_info_chatter_about_device_assertions_stays_noise() -> None:
    text = (
        "2025-03-11 10:02:40,118 INFO [train.py:88] enabling device-side assertions for debugging\n"
        "2025-03-11 10:02:41,007 INFO [train.py:90] checking for illegal memory access patterns\n"
    )
    diagnosis = diagnose_text("log-train.txt", text)
    assert diagnosis.first_error is None
