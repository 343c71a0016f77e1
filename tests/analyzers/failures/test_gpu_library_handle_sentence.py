"""A GPU math library handle that could not be created, said without a status name.

docs/labelling.md#operator-installation-or-platform-limit: MindSpore's GPU device manager prints
`Failed to create cusolver dn handle. | Error Number: N` under its own `WorkerJoin failed`
line; other wrappers print the sentence alone. It is read as the NOT_INITIALIZED status is:
`oom`, with `driver_env` beside it, below the confident band. Values are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

HANDLE = """\
MindSpore version:  2.3.1
The result of multiplication calculation is correct, MindSpore has been installed on platform [GPU] successfully!
[ERROR] DEVICE(51200,7f1e2d3c4b50,python):2026-03-04-05:06:07.080.910 [mindspore/ccsrc/runtime/pynative/async/async_queue.cc:247] WorkerJoin] WorkerJoin failed: 
----------------------------------------------------
- cusolver Error:
----------------------------------------------------
Failed to create cusolver dn handle. | Error Number: 7

----------------------------------------------------
- C++ Call Stack: (For framework developers)
----------------------------------------------------
mindspore/ccsrc/plugin/device/gpu/hal/device/gpu_device_manager.cc:45 InitDevice

"""


def test_a_handle_that_could_not_be_created_is_the_first_error() -> None:
    diagnosis = diagnose_text("run_check.log", HANDLE)
    assert_reads(
        diagnosis, "oom", first_error="Failed to create cusolver dn handle", beside=("driver_env",)
    )
    assert diagnosis.confidence < 0.8


def test_a_handle_released_at_exit_is_not_this() -> None:
    text = (
        "[ERROR] DEVICE(51200,7f1e2d3c4b50,python):2026-03-04-05:06:07.080.910 "
        "[mindspore/ccsrc/plugin/device/gpu/hal/device/gpu_device_manager.cc:77] ReleaseDevice] "
        "cuDNN Error: Failed to destroy cuDNN handle | Error Number: 4\n"
    )
    diagnosis = diagnose_text("run_check.log", text)
    assert diagnosis.category != "oom"
