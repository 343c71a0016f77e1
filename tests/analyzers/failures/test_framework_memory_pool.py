"""A framework's own device memory pool refusing a request (MindSpore on Ascend).

MindSpore checks each request against the device's total before it grows its pool and logs
the sums when the request would not fit, under its PRE_ACT module tag; the kernel that needed
the memory fails after it, or the process dies in a segfault. The refusal is the device
running out of memory and the first error. Fixtures are written in the real shapes with
their own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

POOL_REFUSAL_THEN_TRACEBACK = """\
[WARNING] PRE_ACT(30110,fffd9a1f11e0,python):2026-02-03-09:10:11.100.200 [mindspore/ccsrc/backend/common/somas/somas.cc:441] LoadSomasResult] Verify Somas Result Failed.
[ERROR] PRE_ACT(30110,fffd9a1f11e0,python):2026-02-03-09:10:12.300.400 [mindspore/ccsrc/backend/common/mem_reuse/mem_dynamic_allocator.cc:392] AddMemBlockAndMemBufByEagerFree] TotalUsedMemStatistics : 30998765568 plus TotalUsedByEventMemStatistics : 0 and plus alloc size : 419430400 is more than total mem size : 31138512896.
Traceback (most recent call last):
  File "/work/infer/generate.py", line 21, in <module>
    outputs = model.generate(**inputs)
RuntimeError: Malloc for kernel output failed, Memory isn't enough, node:Default/model/layers/Cast-op201
Segmentation fault (core dumped)
"""

KERNEL_OUTPUT_ALONE = """\
Traceback (most recent call last):
  File "/work/train/train.py", line 88, in <module>
    loss = train_step(images, labels)
RuntimeError: Malloc for kernel output failed, Memory isn't enough, node:Default/network/BatchNorm-op77
"""

POOL_STATISTICS_AT_INFO = """\
[INFO] PRE_ACT(30110,fffd9a1f11e0,python):2026-02-03-09:10:11.000.100 [mindspore/ccsrc/backend/common/mem_reuse/mem_dynamic_allocator.cc:610] DumpDynamicMemPoolStateInfo] TotalUsedMemStatistics : 2097152, total mem size : 31138512896
"""


def test_the_pool_refusal_is_the_first_error_and_an_oom() -> None:
    diagnosis = diagnose_text("infer/generate.log", POOL_REFUSAL_THEN_TRACEBACK)
    assert_reads(diagnosis, "oom", first_error="is more than total mem size")


def test_the_kernel_that_found_no_memory_is_an_oom_on_its_own() -> None:
    diagnosis = diagnose_text("train/train.log", KERNEL_OUTPUT_ALONE)
    assert_reads(diagnosis, "oom", first_error="Memory isn't enough")


def test_pool_statistics_at_info_are_no_failure() -> None:
    diagnosis = diagnose_text("train/train.log", POOL_STATISTICS_AT_INFO)
    assert diagnosis.category != "oom"
