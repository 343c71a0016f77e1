"""Tails of Ray jobs on CUDA as users paste them: the driver's merged stream, each line under
its actor's `(Name pid=..., ip=...)` prefix. NCCL's start-up INFO lines are not errors even
when a plugin's version handshake says `Failed to find ... symbol`; Python's fault handler
reporting an abort is the crash only when nothing the process logged before explains it.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

PLUGIN_HANDSHAKE_THEN_SILENCE = """\
(RayTrainWorker pid=4410, ip=10.0.3.17) gpu-node-2:4410:4602 [0] NCCL INFO Bootstrap : Using ens5:10.0.3.17<0>
(RayTrainWorker pid=4410, ip=10.0.3.17) gpu-node-2:4410:4602 [0] NCCL INFO NET/Plugin: Failed to find ncclNetPlugin_v7 symbol.
(RayTrainWorker pid=4410, ip=10.0.3.17) gpu-node-2:4410:4602 [0] NCCL INFO NET/Plugin: Loaded net plugin AWS Libfabric (v6)
(RayTrainWorker pid=4410, ip=10.0.3.17) gpu-node-2:4410:4602 [0] NCCL INFO NET/Plugin: Failed to find ncclCollNetPlugin symbol (>= v5). ncclCollNetPlugin symbols v4 and lower are not supported.
(RayTrainWorker pid=4410, ip=10.0.3.17) NCCL version 2.19.3+cuda12.3
(RayTrainWorker pid=4411, ip=10.0.3.17) gpu-node-2:4411:4650 [1] NCCL INFO NET/OFI Initializing aws-ofi-nccl 1.7.4-aws
"""

PLUGIN_HANDSHAKE_THEN_FAILURE = (
    PLUGIN_HANDSHAKE_THEN_SILENCE
    + """\
(RayTrainWorker pid=4411, ip=10.0.3.17) torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1691, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3
"""
)

ABORT_TAIL = """\
(WorkerDict pid=2210, ip=10.1.2.3) frame #38: __libc_start_main + 0x80 (0x7f3a1c229e40 in /usr/lib/x86_64-linux-gnu/libc.so.6)
(WorkerDict pid=2210, ip=10.1.2.3) frame #39: _start + 0x25 (0x55d0c2a1bf25 in /usr/bin/python)
(WorkerDict pid=2210, ip=10.1.2.3)
(WorkerDict pid=2210, ip=10.1.2.3) Fatal Python error: Aborted
(WorkerDict pid=2210, ip=10.1.2.3)
(WorkerDict pid=2210, ip=10.1.2.3) Thread 0x00007f2b4d7fe640 (most recent call first):
"""

CUDA_ERROR_THEN_ABORT = (
    """\
(WorkerDict pid=2210, ip=10.1.2.3) terminate called after throwing an instance of 'c10::Error'
(WorkerDict pid=2210, ip=10.1.2.3)   what():  CUDA error: an illegal memory access was encountered
"""
    + ABORT_TAIL
)


def test_a_plugin_version_handshake_is_not_an_error() -> None:
    diagnosis = diagnose_text("job/driver.log", PLUGIN_HANDSHAKE_THEN_SILENCE)
    assert diagnosis.category == "hang"
    assert diagnosis.first_error is None


def test_the_failure_after_a_handshake_is_the_first_error() -> None:
    diagnosis = diagnose_text("job/driver.log", PLUGIN_HANDSHAKE_THEN_FAILURE)
    assert_reads(diagnosis, "hccl", first_error="unhandled system error")


def test_a_fault_handler_abort_alone_is_the_crash() -> None:
    diagnosis = diagnose_text("job/driver.log", ABORT_TAIL)
    assert_reads(diagnosis, "device_fault", first_error="Fatal Python error: Aborted")


def test_a_fault_handler_abort_echoes_the_error_before_it() -> None:
    diagnosis = diagnose_text("job/driver.log", CUDA_ERROR_THEN_ABORT)
    assert_reads(diagnosis, "device_fault", first_error="illegal memory access")
