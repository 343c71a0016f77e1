"""A spawned process that cannot rebuild an NPU tensor its parent shared.

docs/labelling.md#memory-shared-with-or-registered-for-another-process: torch_npu's cache
assertion when the receiving process rebuilds a shared NPU tensor is the platform refusing the
sharing, `driver_env` with `config` and `device_fault` beside it, below the confident band; the
assertion is the first error. Values are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

REBUILD_REFUSED = """\
[WARN]operator(),build/CMakeFiles/torch_npu.dir/compiler_depend.ts:3100:Feature is not supportted and the possible cause is that driver and firmware packages do not match.
Traceback (most recent call last):
  File "<string>", line 1, in <module>
  File "/usr/lib/python3.11/multiprocessing/spawn.py", line 122, in spawn_main
    exitcode = _main(fd, parent_sentinel)
  File "/opt/env/site-packages/torch_npu/multiprocessing/reductions.py", line 46, in rebuild_npu_tensor
    storage = storage_cls._new_shared_npu(
  File "/opt/env/site-packages/torch_npu/utils/storage.py", line 110, in _new_shared_npu
    return torch_npu._C._new_shared_npu(*args, **kwargs)
RuntimeError: devptr INTERNAL ASSERT FAILED at "build/CMakeFiles/torch_npu.dir/compiler_depend.ts":3500, please report a bug to PyTorch. entry in cache has missing shared_ptr
"""

POINTER_REUSED = """\
DEBUG loader worker 2: reusing cached devptr 0x12c0aa00 for expert 7
INFO loader worker 2: expert 7 ready
"""


def test_a_shared_npu_tensor_that_cannot_be_rebuilt_is_the_platform() -> None:
    diagnosis = diagnose_text("experts/worker.log", REBUILD_REFUSED)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="devptr INTERNAL ASSERT FAILED",
        rule="env.npu_shared_tensor_not_rebuilt",
        beside=["config", "device_fault"],
    )
    assert diagnosis.confidence < 0.8


def test_a_reused_device_pointer_is_no_refusal() -> None:
    diagnosis = diagnose_text("experts/worker.log", POINTER_REUSED)
    assert "env.npu_shared_tensor_not_rebuilt" not in rules_of(diagnosis)
