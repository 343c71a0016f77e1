"""The Ascend runtime's own sentences for a call made while its stream is being captured.

Besides `the current capture mode does not support this operation`, the runtime words the same
refusal in a `Not_Supported(...)` error-manager headline (`Synchronizing a stream failed.` with
`Stream (...) during the capture stage is not supported.` as its reason, or `The current thread
is in the capture state and the current operation cannot be performed`), in a call's reason
(`reason=stream is captured`, `operation not permitted when a stream is capturing`). All are the
stream's state refusing a call: `stream_sync`, with `config` beside it; under the headline, the
reason line that names the capture stage is the first error. Printed in the block of
a pinned host allocation that failed, the capture text is the runtime restating its state and
the allocation decides (`oom`). Counterexample: a progress note about the capture stage names no
refusal. Fixtures are written here in the real shapes with their own values.

docs/labelling.md#calls-refused-during-graph-capture
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

CAPTURE_STAGE_SYNC = """\
(Worker_TP3 pid=2210) ERROR 05-02 11:20:31 [npu_graph.py:88] graph capture aborted for batch size 16
(Worker_TP3 pid=2210) Not_Supported(EE1016): Synchronizing a stream failed.
(Worker_TP3 pid=2210)     Reason: Stream (stream_id=12) during the capture stage is not supported.
(Worker_TP3 pid=2210) rtStreamSynchronizeWithTimeout execution failed, reason=stream is captured
"""

CAPTURE_STATE_THREAD = """\
[rank2]: Not_Supported(EE1016): The current thread is in the capture state and the current operation cannot be performed. This operation is supported only in the RELAXED mode.
[rank2]:     rtMemcpy execution failed, reason=operation not permitted when a stream is capturing
"""

CAPTURE_TEXT_BESIDE_PINNED_ALLOC = """\
[rank5]: torch.OutOfMemoryError: allocate_host_memory_slowpath:torch_npu/csrc/core/npu/CachingHostAllocator.cpp:240 NPU function error: aclrtMallocHostWithCfg, error code is 207001
[rank5]: [Error]: Failed to apply for memory.
[rank5]:   Not_Supported(EE1016): The current thread is in the capture state and the current operation cannot be performed.
[rank5]:   rtMemcpy execution failed, reason=operation not permitted when a stream is capturing
[rank5]:   rtsMallocHost execution failed, reason=driver error:out of memory
"""

CAPTURE_STAGE_NOTE = """\
INFO 05-02 11:20:31 [npu_graph.py:71] capture stage finished for 8 batch sizes in 14.2 s
INFO 05-02 11:20:32 [engine.py:402] stream 12 is captured into the decode graph
"""


def test_a_synchronize_refused_during_the_capture_stage_is_a_stream_state_refusal() -> None:
    diagnosis = diagnose_text("serve/worker_tp3.log", CAPTURE_STAGE_SYNC)
    assert_reads(
        diagnosis,
        "stream_sync",
        first_error="during the capture stage is not supported",
        rule="stream.capture_mode_refused",
        beside=("config",),
    )


def test_an_operation_refused_because_the_thread_is_capturing_reads_the_same() -> None:
    diagnosis = diagnose_text("train/rank2.log", CAPTURE_STATE_THREAD)
    assert_reads(diagnosis, "stream_sync", first_error="in the capture state", beside=("config",))


def test_the_capture_text_of_a_failed_pinned_allocation_yields_to_the_allocation() -> None:
    diagnosis = diagnose_text("train/rank5.log", CAPTURE_TEXT_BESIDE_PINNED_ALLOC)
    assert diagnosis.category == "oom"
    assert diagnosis.first_error is not None
    assert "Not_Supported" not in diagnosis.first_error.text


def test_a_note_about_the_capture_stage_is_no_refusal() -> None:
    diagnosis = diagnose_text("serve/engine.log", CAPTURE_STAGE_NOTE)
    assert "stream.capture_mode_refused" not in rules_of(diagnosis)
    assert diagnosis.category != "stream_sync"
