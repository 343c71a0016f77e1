"""Apple's MPS allocator running out of memory, in its own sentence.

docs/labelling.md#a-device-allocator-that-names-its-limit: torch's allocator for the MPS device
does not say `MPS out of memory.` the way the CUDA, XPU or NPU allocators do; it says `MPS
backend out of memory (MPS allocated: X, other allocations: Y, max allowed: Z). Tried to
allocate W on private pool.` and then names the watermark setting that lifts its limit. It is
the device allocator refusing a request, as confidently `oom` as the other allocators'
sentence, and the first error ahead of the traceback frames that carried the call. A log line
that only quotes the watermark setting, or the allocator's debug trace of a heap it created, is
no failure. Values are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

MPS_BACKWARD = """\
  File "/Users/dev/venv/lib/python3.11/site-packages/torch/autograd/graph.py", line 823, in _engine_run_backward
    return Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the backward pass
RuntimeError: MPS backend out of memory (MPS allocated: 9.61 GB, other allocations: 7.02 GB, max allowed: 18.13 GB). Tried to allocate 1.50 GB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for memory allocations (may cause system failure).
"""

MPS_BARE = """\
Epoch 0:   7%|▋         | 41/600 [00:52<11:49,  1.27s/it, v_num=3]
MPS backend out of memory (MPS allocated: 21.40 GB, other allocations: 1.12 GB, max allowed: 22.64 GB). Tried to allocate 256.00 MB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for memory allocations (may cause system failure).
"""

MPS_QUIET = """\
export PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0  # lift the MPS backend out-of-memory limit
Allocated private buffer #812 with aligned size 10.12 MB (requested size: 10.12 MB, heap size: 12.00 MB, total allocated: 902.11 MB)
"""


def test_the_mps_allocators_sentence_is_a_confident_device_oom() -> None:
    diagnosis = diagnose_text("train.log", MPS_BACKWARD)
    assert_reads(
        diagnosis,
        "oom",
        first_error="MPS backend out of memory (MPS allocated: 9.61 GB",
        rule="oom.device_out_of_memory",
    )
    assert diagnosis.confidence >= 0.8


def test_the_sentence_without_an_exception_name_reads_the_same() -> None:
    diagnosis = diagnose_text("fit.log", MPS_BARE)
    assert_reads(
        diagnosis, "oom", first_error="MPS backend out of memory", rule="oom.device_out_of_memory"
    )


def test_the_watermark_setting_and_a_heap_trace_are_no_failure() -> None:
    diagnosis = diagnose_text("train.log", MPS_QUIET)
    assert diagnosis.category != "oom", diagnosis.root_cause
    assert diagnosis.first_error is None
