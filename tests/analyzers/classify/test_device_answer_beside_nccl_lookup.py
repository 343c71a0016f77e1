"""A failed-device answer printed next to NCCL's kernel lookup that found nothing.

docs/labelling.md#a-failed-device-answer-beside-a-missing-nccl-kernel: the runtime's
`unknown error` inside NCCL reads as a failed GPU on its own, but beside NCCL's `named symbol
not found` both answers come from one library that does not fit, so the build's reading
(`config`) wins and the device stays an alternative. Values of our own in the real shapes
(torch's exception printed above NCCL's WARN lines, as a single-GPU test in a training image
prints them).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

IMAGE_TEST = """\
  File "/opt/job/check_nccl.py", line 9, in <module>
    dist.all_reduce(value)
  File "/opt/conda/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 2288, in all_reduce
    work = group.allreduce([tensor], opts)
torch.distributed.DistBackendError: NCCL error in: /opt/src/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1714, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.3
ncclUnhandledCudaError: Call to CUDA function failed.
Last error:
Cuda failure 999 'unknown error'

c0ffee12ab34:88:88 [0] include/alloc.h:118 NCCL WARN Cuda failure 500 'named symbol not found'
c0ffee12ab34:88:88 [0] NCCL INFO include/alloc.h:230 -> 1
c0ffee12ab34:88:88 [0] NCCL INFO comm 0x55aa01b2c3d0 rank 0 nranks 1 cudaDev 0 busId 3b000 - Abort COMPLETE
"""


def test_the_lookup_failure_decides_over_the_failed_device_answer() -> None:
    diagnosis = diagnose_text("job.log", IMAGE_TEST)
    assert_reads(
        diagnosis, "config", first_error="'named symbol not found'", beside=("device_fault",)
    )


def test_without_the_lookup_failure_the_device_reading_stands() -> None:
    text = IMAGE_TEST.replace(
        "Cuda failure 500 'named symbol not found'", "Cuda failure 1 'invalid argument'"
    )
    diagnosis = diagnose_text("job.log", text)
    assert_reads(diagnosis, "device_fault", first_error="Cuda failure 999 'unknown error'")
