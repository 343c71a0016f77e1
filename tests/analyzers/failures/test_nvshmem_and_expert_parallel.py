"""NVSHMEM's start-up and the expert-parallel kernels that run on it.

docs/labelling.md: NVSHMEM's own queue-pair set-up failing is a network link that failed
(hccl, driver_env beside it); its GPU-direct transport that cannot start at all is the host's
set-up (driver_env); its symmetric heap refused by the driver for memory is oom, and the CUDA
errors that follow without a heap are its cascade; DeepEP's kernel timeouts are collective
timeouts (hccl), symptoms that yield to an earlier line saying why. Fixtures are written in
these libraries' formats with our own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text

HEAP_REFUSED = """\
/opt/nvshmem/src/host/mem/mem_heap.cpp:1488: non-zero status: 2 cuMemCreate failed

/opt/nvshmem/src/host/mem/mem_heap.cpp:1571: non-zero status: 7 allocate_physical_memory_to_heap failed

[/opt/nvshmem/src/host/coll/barrier/barrier.cpp:24] cuda failed with an illegal memory access was encountered
[/opt/nvshmem/src/host/coll/barrier/barrier.cpp:24] cuda failed with an illegal memory access was encountered
"""

QUEUE_PAIR_THEN_TIMEOUTS = """\
Allocating buffer size: 1830.5 MB ...
/opt/nvshmem/src/modules/transport/ibrc/ibrc.cpp:420: non-zero status: 110 ibv_modify_qp failed
/opt/nvshmem/src/modules/transport/ibrc/ibrc.cpp:1440: non-zero status: 7 ep_connect failed
DeepEP timeout check failed: rank = 3, thread = 0)
DeepEP dispatch NVL receiver timeout, channel: 2, RDMA: 0, nvl: 3, src RDMA: 1, src nvl: 0, start: 0, end: 0
"""

TIMEOUTS_ALONE = """\
[testing] Running with FP8, with top-k (async=True, previous=False) ... passed
[testing] Running with BF16, without top-k (async=False, previous=True) ...
DeepEP RDMA sender coordinator timeout, channel: 6, IB: 1, nvl 2, dst IB: 0, tail: 130, remaining: 4
DeepEP timeout check failed: rank = 9, thread = 0)
"""

TRANSPORT_NOT_STARTED = """\
WARN: device mlx5_0 cannot allocate buffer on the specified memory type. Skipping...

WARN: device mlx5_1 cannot allocate buffer on the specified memory type. Skipping...

/opt/nvshmem/src/host/transport/transport.cpp:nvshmemi_transport_init:281: init failed for transport: IBGDA
"""

BARE_FINGERPRINT_MISMATCH = """\
Exception has occurred: RuntimeError
Detected mismatch between collectives on ranks. Rank 3 is running collective: CollectiveFingerPrint(SequenceNumber=17, OpType=ALLREDUCE, TensorShape=[1024], TensorDtypes=Float), but Rank 0 is running collective: CollectiveFingerPrint(SequenceNumber=17, OpType=ALLREDUCE, TensorShape=[512], TensorDtypes=Float).
"""


def test_a_heap_the_driver_refused_for_memory_is_oom_before_the_barriers_cuda_errors() -> None:
    diagnosis = diagnose_text("node1.log", HEAP_REFUSED)
    assert diagnosis.category == "oom"
    assert diagnosis.first_error is not None
    assert "cuMemCreate failed" in diagnosis.first_error.text


def test_kernel_timeouts_yield_to_the_queue_pair_that_never_connected() -> None:
    diagnosis = diagnose_text("test_low_latency.log", QUEUE_PAIR_THEN_TIMEOUTS)
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error is not None
    assert "ibv_modify_qp failed" in diagnosis.first_error.text
    assert any(alt.category == "driver_env" for alt in diagnosis.alternatives)


def test_kernel_timeouts_alone_are_a_collective_timeout() -> None:
    diagnosis = diagnose_text("node0.log", TIMEOUTS_ALONE)
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error is not None
    assert "RDMA sender coordinator timeout" in diagnosis.first_error.text


def test_a_gpu_direct_transport_that_does_not_start_is_the_host() -> None:
    diagnosis = diagnose_text("test_low_latency.log", TRANSPORT_NOT_STARTED)
    assert diagnosis.category == "driver_env"
    assert diagnosis.first_error is not None
    assert "init failed for transport: IBGDA" in diagnosis.first_error.text


def test_a_fingerprint_mismatch_printed_without_its_class_is_read() -> None:
    """A debugger prints the exception's class on one line and its message on the next; the
    message is the error, and the header that names only the class is not."""
    diagnosis = diagnose_text("train.log", BARE_FINGERPRINT_MISMATCH)
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error is not None
    assert "Detected mismatch between collectives" in diagnosis.first_error.text
