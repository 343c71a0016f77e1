"""torch's allocator check that fails on the CPU fallback of an op the device lacks.

- An op without a kernel on the NPU falls back to the CPU (torch_npu warns and carries on);
  the fallback's copy back to the device asks torch for the device's generic allocator, and a
  plugin allocator that does not implement that interface stops it:
  `RuntimeError: device_allocator INTERNAL ASSERT FAILED at ".../CachingDeviceAllocator.h":N`,
  `Allocator for npu is not a DeviceAllocator.` on the lines under it. The op the device lacks
  is what sent the job there: `operator`, with `config` (a torch_npu release whose fallback
  fits the installed torch) beside it; the assert's first line is the first error and the
  fallback warnings before it are no failures.
- Counterexample: the fallback warning alone reports nothing.

Fixtures are written here in the real shapes with their own values.

docs/labelling.md#operator-installation-or-platform-limit
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

FALLBACK_THEN_ASSERT = """\
[W] VariableFallbackKernel.cpp:250 Warning: CAUTION: The operator 'aten::linalg_eigh' is not currently supported on the NPU backend and will fall back to run on the CPU. (function npu_cpu_fallback)
step 12 | solve eigenbasis of layer 3
RuntimeError: device_allocator INTERNAL ASSERT FAILED at "/opt/torch/c10/core/CachingDeviceAllocator.h":120, please report a bug to PyTorch.
Allocator for npu is not a DeviceAllocator.
"""

WARNING_ONLY = """\
[W] VariableFallbackKernel.cpp:250 Warning: CAUTION: The operator 'aten::linalg_eigh' is not currently supported on the NPU backend and will fall back to run on the CPU. (function npu_cpu_fallback)
step 12 | solve eigenbasis of layer 3
"""


def test_the_allocator_assert_under_a_cpu_fallback_is_the_missing_op() -> None:
    diagnosis = diagnose_text("train.log", FALLBACK_THEN_ASSERT)
    assert_reads(
        diagnosis,
        "operator",
        first_error="device_allocator INTERNAL ASSERT FAILED",
        rule="op.fallback_device_allocator_assert",
        beside=("config",),
    )


def test_the_fallback_warning_alone_is_no_failure() -> None:
    diagnosis = diagnose_text("train.log", WARNING_ONLY)
    assert diagnosis.category in {"healthy", "hang"} or diagnosis.first_error is None
