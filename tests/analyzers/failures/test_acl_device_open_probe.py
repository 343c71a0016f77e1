"""A model runner's ACL device open that fails, with no reason printed beside it.

docs/labelling.md#probes-yield-to-their-reason: MindSpore Lite's Ascend model runner opens the
card through ACL before it builds a model and reports a refusal in its own words (`Acl open
device 1 failed.`), then the chain of build steps that stop because of it. Like the other
device start probes, the line says the device could not be started: `driver_env` (the
driver, its libraries on the library path, the toolkit's environment), and it is the first
error ahead of the build failures under it. A reason printed with it still decides.
Lines of our own in the runner's log format; values are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

OPEN_REFUSED = (
    "[ERROR] ME(5120,7f0a11c2e740,benchmark):2026-05-06-07:08:09.100.100 "
    "[mindspore/lite/src/extendrt/kernel/ascend/model/model_infer.cc:59] Init] Acl open device 1 "
    "failed.\n"
    "[ERROR] ME(5120,7f0a11c2e740,benchmark):2026-05-06-07:08:09.100.180 "
    "[mindspore/lite/src/extendrt/kernel/ascend/src/custom_ascend_kernel.cc:141] Init] Model "
    "infer init failed.\n"
    "[ERROR] ME(5120,7f0a11c2e740,benchmark):2026-05-06-07:08:09.100.260 "
    "[mindspore/lite/src/extendrt/session/single_op_session.cc:302] CompileGraph] Failed to Build "
    "custom ascend kernel\n"
    "Run Benchmark resnet_lite.mindir Failed : -1\n"
)


def test_an_acl_device_open_that_fails_is_the_machine() -> None:
    diagnosis = diagnose_text("benchmark.log", OPEN_REFUSED)
    assert_reads(diagnosis, "driver_env", first_error="Acl open device 1 failed")


def test_a_device_open_that_succeeded_is_no_failure() -> None:
    text = OPEN_REFUSED.replace("[ERROR] ME", "[INFO] ME", 1)
    text = text.replace("Acl open device 1 failed.", "Acl open device 1 success.")
    diagnosis = diagnose_text("benchmark.log", text)
    assert diagnosis.first_error is not None
    assert "Acl open device" not in diagnosis.first_error.text
