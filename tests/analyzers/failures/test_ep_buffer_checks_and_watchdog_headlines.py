"""An expert-parallel library's own CUDA check, and the watchdog's failed-work headline alone.

- DeepEP (and libraries built like it) checks each CUDA call of its shared-buffer set-up and
  kernels natively and raises `Failed: CUDA error <file>:<line> '<message>'`. A set-up that
  cannot open a peer's handle is the collective layer's own failure, `hccl`, with the host's
  set-up and the device beside it; the illegal access the same check reports after it, and
  the abort, follow from it. Counterexamples: its `out of memory` is memory, and the same
  check in another library's source file is not this one.
- torch's process-group watchdog headline (older `Exception (either an error or timeout)
  detected by watchdog at work: N`, newer `failure detected by watchdog at work sequence id:
  N PG status: ...`), with no detail kept, is a failed collective: `hccl`, the headline the
  first error. Counterexample: with the `Timeout at NCCL work` line beside it, that line is
  read first; with a device error after it, the device error is.

Fixtures are written here in the real shapes with their own values.

docs/labelling.md#an-expert-parallel-librarys-own-cuda-check
docs/labelling.md#a-watchdog-headline-without-its-detail
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

# A prefill server's scheduler builds the EP buffer; the peers' handles do not open.
EP_BUFFER_SETUP = """\
  File "/opt/sglang/python/sglang/srt/layers/moe/token_dispatcher/deepep.py", line 241, in get_deepep_buffer
    cls._buffer = Buffer(
  File "/usr/local/lib/python3.12/dist-packages/deep_ep/buffer.py", line 140, in __init__
    self.runtime.sync(device_ids, ipc_handles, root_unique_id)
RuntimeError: Failed: CUDA error /src/DeepEP/csrc/deep_ep.cpp:120 'invalid resource handle'
terminate called after throwing an instance of 'EPException'
  what():  Failed: CUDA error /src/DeepEP/csrc/deep_ep.cpp:290 'an illegal memory access was encountered'
Fatal Python error: Aborted
"""

EP_BUFFER_OOM = """\
RuntimeError: Failed: CUDA error /src/DeepEP/csrc/deep_ep.cpp:88 'out of memory'
"""

OTHER_KERNEL_CHECK = """\
RuntimeError: Failed: CUDA error /build/csrc/moe/topk_softmax_kernels.cu:64 'invalid resource handle'
"""

# A node's log: the headline and the recorder's advice, nothing else of the failure kept.
HEADLINE_NEW = """\
nodeA:4021:9310 [3] NCCL INFO Connected all trees
[rank3]:[E612 10:02:44.330517206 ProcessGroupNCCL.cpp:2252] [PG ID 2 PG GUID 3 Rank 3]  failure detected by watchdog at work sequence id: 5120 PG status: last enqueued work: 5131, last completed work: 5119
[rank3]:[E612 10:02:44.330540118 ProcessGroupNCCL.cpp:732] Stack trace of the failed collective not found, potentially because FlightRecorder is disabled. You can enable it by setting TORCH_NCCL_TRACE_BUFFER_SIZE to a non-zero value.
nodeA:4021:9310 [3] NCCL INFO 16 coll channels, 16 collnet channels, 0 nvls channels, 16 p2p channels, 2 p2p channels per peer
"""

HEADLINE_OLD = """\
[rank1]:[E0309 17:20:05.901227310 ProcessGroupNCCL.cpp:1785] [PG ID 0 PG GUID 0(default_pg) Rank 1] Exception (either an error or timeout) detected by watchdog at work: 733, last enqueued NCCL work: 733, last completed NCCL work: 732.
"""

HEADLINE_THEN_DEVICE_ERROR = """\
[rank3]:[E612 10:02:44.330517206 ProcessGroupNCCL.cpp:2252] [PG ID 2 PG GUID 3 Rank 3]  failure detected by watchdog at work sequence id: 5120 PG status: last enqueued work: 5131, last completed work: 5119
[rank3]:[E612 10:02:44.330600912 ProcessGroupNCCL.cpp:2057] [PG ID 2 PG GUID 3 Rank 3] Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered
"""

HEADLINE_THEN_TIMEOUT = """\
[rank5]:[E0312 07:41:09.210355101 ProcessGroupNCCL.cpp:1785] [PG ID 2 PG GUID 3 Rank 5] Exception (either an error or timeout) detected by watchdog at work: 57, last enqueued NCCL work: 57, last completed NCCL work: 56.
[rank5]:[E0312 07:41:09.210371842 ProcessGroupNCCL.cpp:1834] [PG ID 2 PG GUID 3 Rank 5] Timeout at NCCL work: 57, last enqueued NCCL work: 57, last completed NCCL work: 56.
"""


def test_an_ep_buffer_setup_check_is_the_collective_layer_and_read_first() -> None:
    diagnosis = diagnose_text("prefill_w0.out", EP_BUFFER_SETUP)
    assert_reads(diagnosis, "hccl", first_error="deep_ep.cpp:120 'invalid resource handle'")
    assert {"driver_env", "device_fault"} & set(alternative_labels(diagnosis))


def test_an_ep_check_that_ran_out_of_memory_is_memory() -> None:
    diagnosis = diagnose_text("prefill_w0.out", EP_BUFFER_OOM)
    assert diagnosis.category == "oom", diagnosis.root_cause


def test_the_same_check_in_another_kernel_is_not_the_ep_library() -> None:
    diagnosis = diagnose_text("server.log", OTHER_KERNEL_CHECK)
    assert diagnosis.category != "hccl" or diagnosis.confidence < 0.8, diagnosis.root_cause


def test_a_watchdog_headline_alone_is_a_failed_collective() -> None:
    for text in (HEADLINE_NEW, HEADLINE_OLD):
        diagnosis = diagnose_text("node0.log", text)
        assert_reads(diagnosis, "hccl", first_error="detected by watchdog at work")


def test_a_device_error_after_the_headline_is_read_first() -> None:
    diagnosis = diagnose_text("node0.log", HEADLINE_THEN_DEVICE_ERROR)
    assert_reads(diagnosis, "device_fault", first_error="illegal memory access")


def test_a_timeout_line_after_the_headline_is_read_first() -> None:
    diagnosis = diagnose_text("node0.log", HEADLINE_THEN_TIMEOUT)
    assert_reads(diagnosis, "hccl", first_error="Timeout at NCCL work: 57")
