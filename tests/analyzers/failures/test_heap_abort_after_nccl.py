"""A heap-corruption abort right after the same process reported a failed NCCL call.

TensorRT-LLM checks each NCCL call and prints `Failed, NCCL error <file>:<line> '<reason>'`;
when the failure unwinds, freeing the half-built communicator can trip the C library's heap
check (`double free or corruption (fasttop)`) and the process aborts. The NCCL line says why:
it is the first error and `hccl`, the abort its teardown
(docs/labelling.md#native-only-crashes). Alone, the allocator's line stays the crash.
Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

NCCL_THEN_ABORT = """\
I0511 03:12:40.118204 8811 model_lifecycle.cc:819] successfully loaded 'postprocessing'
[TensorRT-LLM][ERROR] Failed, NCCL error /workspace/cpp/tensorrt_llm/runtime/ncclCommunicator.cpp:87 'unhandled cuda error (run with NCCL_DEBUG=INFO for details)'
double free or corruption (fasttop)
[gpu-h100-03:8811] *** Process received signal ***
[gpu-h100-03:8811] Signal: Aborted (6)
"""

ABORT_ALONE = """\
I0511 03:12:40.118204 8811 model_lifecycle.cc:819] successfully loaded 'postprocessing'
double free or corruption (fasttop)
[gpu-h100-03:8811] *** Process received signal ***
[gpu-h100-03:8811] Signal: Aborted (6)
"""


def test_the_nccl_failure_before_the_abort_is_the_first_error() -> None:
    diagnosis = diagnose_text("triton_server.log", NCCL_THEN_ABORT)
    assert_reads(diagnosis, "hccl", first_error="ncclCommunicator.cpp:87 'unhandled cuda error")


def test_the_abort_alone_stays_the_crash() -> None:
    diagnosis = diagnose_text("triton_server.log", ABORT_ALONE)
    assert_reads(diagnosis, "device_fault", first_error="double free or corruption (fasttop)")
