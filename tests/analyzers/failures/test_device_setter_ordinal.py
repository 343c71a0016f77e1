"""A framework's device setter that passes CUDA's invalid-ordinal answer on.

docs/labelling.md#a-ranks-device-placement: some frameworks select the GPU themselves and
report the CUDA runtime's refusal in their own line, with the code in brackets and its text
(`SetDevice for id:5 failed, ret[101], invalid device ordinal`). The process was given a device
number beyond the GPUs it sees (fewer visible devices than processes, one host's numbering
used on another), so the launch's placement is at fault: `config` with `driver_env` beside it,
as for torch's own wording. A device setter that fails for another reason keeps the device
start reading.

Lines of our own in the shape of a framework's device log; values are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

ORDINAL = (
    "[ERROR] DEVICE(3310,7f21c8,python):2026-05-06-07:08:09.101 "
    "[runtime/device/gpu/cuda_driver.cc:245] SetDevice] SetDevice for id:5 failed, ret[101], "
    "invalid device ordinal. Check that the device id is below the number of visible GPUs.\n"
    "[ERROR] DEVICE(3310,7f21c8,python):2026-05-06-07:08:09.102 "
    "[runtime/device/gpu/gpu_device_manager.cc:27] InitDevice] Op Error: Failed to set current "
    "device id | Error Number: 0\n"
)


def test_an_ordinal_past_the_visible_gpus_is_the_launchs_placement() -> None:
    diagnosis = diagnose_text("worker_5.log", ORDINAL)
    assert_reads(diagnosis, "config", first_error="invalid device ordinal", beside=("driver_env",))


def test_a_device_setter_failing_for_another_reason_is_not_a_placement() -> None:
    text = ORDINAL.replace("ret[101], invalid device ordinal", "ret[2], out of memory")
    diagnosis = diagnose_text("worker_5.log", text)
    assert diagnosis.category != "config"
