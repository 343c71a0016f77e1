"""A data loader worker stopped by SIGTERM is its process going down, not why it went down.

When a rank's main process fails, it (or the launcher that sees it fail) sends SIGTERM to its
loader workers, and torch's handler in the main process reports each as `DataLoader worker (pid
N) is killed by signal: Terminated.`. That record follows the failure: it is a consequence, and
the rank's own error before it is the first error. Alone it says only that the job was stopped
from outside: `other`, with `device_fault` and `hang` beside it
(docs/labelling.md#a-loader-worker-stopped-while-its-process-goes-down). A worker killed
outright (`Killed`) keeps its crash reading. Values of our own in the real formats.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

DEVICE_FAILURE_THEN_TEARDOWN = """\
[rank3]: Traceback (most recent call last):
[rank3]: RuntimeError: synchronize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:52 NPU function error: c10_npu::acl::AclrtSynchronizeStreamWithTimeout(copy_stream), error code is 507018
[rank0]: Traceback (most recent call last):
[rank0]: RuntimeError: synchronize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:52 NPU function error: c10_npu::acl::AclrtSynchronizeStreamWithTimeout(copy_stream), error code is 507018
Traceback (most recent call last):
RuntimeError: DataLoader worker (pid 81204) is killed by signal: Terminated.
RuntimeError: DataLoader worker (pid 81233) is killed by signal: Terminated.
"""


def test_terminated_workers_after_a_device_error_do_not_take_the_first_place() -> None:
    # docs/labelling.md#a-loader-worker-stopped-while-its-process-goes-down
    diagnosis = diagnose_text("run.log", DEVICE_FAILURE_THEN_TEARDOWN)
    assert_reads(diagnosis, "aicore_timeout", first_error="error code is 507018")
    assert "dev.dataloader_worker_killed" not in rules_of(diagnosis)


def test_a_terminated_worker_alone_is_a_stop_from_outside() -> None:
    text = (
        '  File "/work/train.py", line 201, in <module>\n'
        "    for step, batch in enumerate(loader):\n"
        "RuntimeError: DataLoader worker (pid 50917) is killed by signal: Terminated.\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert_reads(
        diagnosis,
        "other",
        first_error="is killed by signal: Terminated",
        rule="dev.dataloader_worker_terminated",
        beside=("device_fault",),
    )


def test_a_worker_killed_outright_keeps_the_crash_reading() -> None:
    text = "[rank2]: RuntimeError: DataLoader worker (pid 50918) is killed by signal: Killed.\n"
    diagnosis = diagnose_text("train.log", text)
    assert_reads(diagnosis, "device_fault", first_error="is killed by signal: Killed")
    assert "dev.dataloader_worker_terminated" not in rules_of(diagnosis)
