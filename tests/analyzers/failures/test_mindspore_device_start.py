"""MindSpore's one-line report that its Ascend device runtime did not start.

docs/labelling.md#a-framework-that-cannot-open-its-ascend-device: `Ascend kernel runtime
initialization failed` says the device could not be brought up for this process; alone it is
the machine (`driver_env`), with a card whose memory other processes hold (`oom`) and a
release that does not fit (`config`) beside it, below the confident band. A coded line of the
runtime printed with it names the reason and comes first. Fixtures follow the real formats
with numbers of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

ALONE = """\
RuntimeError: Ascend kernel runtime initialization failed, device id: 3. The details refer to 'Ascend Error Message'.
"""

WITH_TRACEBACK = """\
Traceback (most recent call last):
  File "/home/user/det/train.py", line 41, in <module>
    ms.set_context(device_target="Ascend", device_id=0)
  File "/opt/conda/lib/python3.9/site-packages/mindspore/train/model.py", line 1088, in train
    self._train(epoch, train_dataset, callbacks=callbacks)
RuntimeError: Ascend kernel runtime initialization failed. The details refer to 'Ascend Error Message'.
"""

# The runtime's own coded reason printed in the block the headline refers to decides.
WITH_REASON = """\
----------------------------------------------------
- Ascend Error Message:
----------------------------------------------------
EL0003: 2026-03-02-10:11:12.131.415 The argument is invalid.
        Solution: Try again with a valid argument.
        TraceBack (most recent call last):
        open device 0 failed, runtime result = 507033.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]

RuntimeError: Ascend kernel runtime initialization failed. The details refer to 'Ascend Error Message'.
"""

# Counterexample: a progress line about the runtime is no failure.
INFO_LINE = """\
[INFO] DEVICE(812,ffff9a1c2010,python):2026-03-02-10:11:12.000.001 [mindspore/ccsrc/plugin/device/ascend/hal/device/ascend_kernel_runtime.cc:301] Init] Ascend kernel runtime initialization success.
"""


def test_headline_alone_is_the_machine_with_memory_beside_it() -> None:
    diagnosis = diagnose_text("train.log", ALONE)
    assert_reads(diagnosis, "driver_env", first_error="kernel runtime initialization failed")
    alternatives = alternative_labels(diagnosis)
    assert "oom" in alternatives
    assert "config" in alternatives
    assert diagnosis.confidence < 0.8


def test_headline_under_a_traceback() -> None:
    diagnosis = diagnose_text("logs/train.log", WITH_TRACEBACK)
    assert_reads(diagnosis, "driver_env", first_error="kernel runtime initialization failed")


def test_a_coded_reason_in_the_block_comes_first() -> None:
    diagnosis = diagnose_text("logs/train.log", WITH_REASON)
    assert diagnosis.first_error is not None
    assert "kernel runtime initialization failed" not in diagnosis.first_error.text


def test_the_runtime_reporting_success_is_no_failure() -> None:
    diagnosis = diagnose_text("logs/train.log", INFO_LINE)
    assert diagnosis.first_error is None
