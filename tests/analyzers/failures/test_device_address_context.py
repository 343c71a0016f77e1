"""MindSpore's runtime finding a tensor's memory made for another device than its context.

docs/labelling.md#a-framework-package-built-for-another-device: MindSpore checks that the
device address behind a tensor was made for the device type the running context uses, and
refuses one made elsewhere in its own words (`The device address type is wrong: type name in
address:CPU, type name in context:Ascend`). Nothing in the model is wrong: the context's
device cannot serve what the framework made for it, as when the Ascend mode of a build runs
on a chip that mode does not support, or the package and the platform do not fit. That is the
job's set-up, `config`, with `driver_env` beside it, and the line is the first error.
Values and paths are our own, in the framework's wording.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

REFUSED = """\
Traceback (most recent call last):
  File "/srv/ocr/tools/export.py", line 88, in <module>
    net = build_model(cfg)
  File "/opt/py39/lib/python3.9/site-packages/mindspore/common/tensor.py", line 1012, in asnumpy
    return Tensor_.asnumpy(self)
RuntimeError: The device address type is wrong: type name in address:CPU, type name in context:Ascend

----------------------------------------------------
- C++ Call Stack: (For framework developers)
----------------------------------------------------
mindspore/ccsrc/plugin/device/ascend/hal/hardware/ge_device_res_manager.cc:72 AllocateMemory
"""


def test_memory_made_for_another_device_than_the_context_is_the_set_up() -> None:
    diagnosis = diagnose_text("export.log", REFUSED)
    assert_reads(
        diagnosis, "config", first_error="device address type is wrong", beside=("driver_env",)
    )


def test_the_same_type_on_both_sides_is_not_this_refusal() -> None:
    text = REFUSED.replace("address:CPU", "address:Ascend")
    diagnosis = diagnose_text("export.log", text)
    assert diagnosis.category != "config"
