"""Calls refused while a graph is being captured, in torch_npu's own wording.

Besides the runtime's refusals (`the current capture mode does not support this operation`),
torch_npu refuses features it cannot record into a graph with a sentence of its own: `Not
support Generator while in capture mode during NPU graph capture`. Both are the stream's
state refusing a call: `stream_sync`, with `config` (eager mode, capture sizes, a sampler
option) as the alternative. Counterexample: a sampler that merely says it does not support a
generator, outside any capture, is not a refusal. Fixtures are written here in the real
shapes with their own values.

docs/labelling.md#calls-refused-during-graph-capture
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import (
    alternative_labels,
    assert_reads,
    diagnose_files,
    diagnose_text,
    rules_of,
)

CAPTURE_REFUSED = """\
[2026-05-11 10:02:13 TP0] Capture npu graph begin. This can take up to several minutes. avail mem=41.20 GB
Traceback (most recent call last):
  File "/opt/serve/srt/model_executor/npu_graph_runner.py", line 212, in capture_one_batch_size
    out = run_once()
  File "/opt/serve/srt/layers/sampler.py", line 88, in forward
    torch.multinomial(probs, num_samples=1, generator=self.generator)
RuntimeError: Not support Generator while in capture mode during NPU graph capture. If you need this call to be captured, please file an issue. Current npuStreamCaptureStatus: npuStreamCaptureStatusActive
"""

NOT_A_CAPTURE = """\
[2026-05-11 10:02:13 TP0] Sampler warning: Generator is not supported by this sampler; falling back to the default one
[2026-05-11 10:02:14 TP0] ERROR  RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; 58.70 GiB already allocated; 58.70 GiB current active; 0.31 GiB free; 59.02 GiB reserved in total by PyTorch)
"""


def test_a_feature_torch_npu_cannot_capture_is_a_stream_state_refusal() -> None:
    diagnosis = diagnose_text("serve/tp0.log", CAPTURE_REFUSED)
    assert_reads(
        diagnosis,
        "stream_sync",
        first_error="Not support Generator while in capture mode",
        beside=("config",),
    )


def test_a_sampler_that_lacks_generator_support_outside_a_capture_is_not_a_refusal() -> None:
    diagnosis = diagnose_text("serve/tp0.log", NOT_A_CAPTURE)
    assert_reads(diagnosis, "oom", first_error="NPU out of memory")


# A capture-state code alone, re-raised by a serving engine: no refusal sentence, only the
# synchronize's return code. The code's entry names `config` as the neighbour.
CAPTURE_CODE_ONLY = """\
  File "/opt/serve/engine/executor.py", line 231, in get_response
    raise RuntimeError(
RuntimeError: Worker failed with error 'RunOpApiV2:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:256 NPU function error: c10_npu::acl::AclrtSynchronizeStreamWithTimeout(stream), error code is 107030
"""

# The same call with a code that names no capture state: a plain synchronisation failure.
PLAIN_SYNC_CODE = """\
  File "/opt/serve/engine/executor.py", line 231, in get_response
    raise RuntimeError(
RuntimeError: Worker failed with error 'RunOpApiV2:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:256 NPU function error: c10_npu::acl::AclrtSynchronizeStreamWithTimeout(stream), error code is 507011
"""


def test_a_capture_state_code_alone_offers_the_setting_as_the_neighbour() -> None:
    diagnosis = diagnose_text("serve/engine.log", CAPTURE_CODE_ONLY)
    assert_reads(diagnosis, "stream_sync", first_error="error code is 107030", beside=("config",))


def test_a_synchronize_code_that_names_no_capture_state_offers_no_setting() -> None:
    diagnosis = diagnose_text("serve/engine.log", PLAIN_SYNC_CODE)
    assert diagnosis.category == "stream_sync"
    assert "config" not in {alternative.category for alternative in diagnosis.alternatives}


# An operator that still runs on the single-op (aclop) path cannot be recorded into a graph;
# torch_npu refuses it by name and sums the refusal up as a "feature not supported" PTA line.
# The summary restates the refusal, so the stream's state decides, with the setting as the
# neighbour. Counterexample: a start-up note that cannot find capture sizes refuses nothing.
ACLOP_REFUSED = """\
(EngineCore_DP0 pid=4410) INFO 06-02 09:14:51 [model_runner.py:3020] Capturing ACL graphs (decode, FULL): 0/12
(EngineCore_DP0 pid=4410) RuntimeError: Cannot run aclop operators during NPU graph capture. Current working aclop is Cast. If you need this call to be captured, please try another setting. Current npuStreamCaptureStatus: npuStreamCaptureStatusActive
(EngineCore_DP0 pid=4410) [ERROR] 2026-06-02-09:14:51 (PID:4410, Device:3, RankID:-1) ERR00007 PTA feature not supported
"""

NO_CAPTURE_SIZES = """\
(EngineCore_DP0 pid=4410) WARNING 06-02 09:14:50 [config.py:611] Cannot find cudagraph_capture_sizes in the config, using the default list
(EngineCore_DP0 pid=4410) RuntimeError: NPU out of memory. Tried to allocate 1.50 GiB (NPU 3; 60.97 GiB total capacity; 59.10 GiB already allocated; 59.10 GiB current active; 0.40 GiB free; 59.30 GiB reserved in total by PyTorch)
"""


def test_an_operator_torch_npu_cannot_record_is_a_stream_state_refusal() -> None:
    diagnosis = diagnose_text("serve/engine.log", ACLOP_REFUSED)
    assert_reads(
        diagnosis,
        "stream_sync",
        first_error="Cannot run aclop operators during NPU graph capture",
        beside=("config",),
    )


def test_a_note_that_cannot_find_capture_sizes_is_not_a_refusal() -> None:
    diagnosis = diagnose_text("serve/engine.log", NO_CAPTURE_SIZES)
    assert_reads(diagnosis, "oom", first_error="NPU out of memory")


# CUDA's own sentence for a capture spoiled by an earlier refused call, printed by NCCL because
# a collective ran inside the capture: the capture's state, not the collective, failed.
NCCL_CAPTURE_INVALIDATED = """\
[tp_setup] custom all-reduce ready (world=2, rank=1)
gpu-node4:7120:7188 [1] misc/strongstream.cc:301 NCCL WARN Cuda failure 'operation failed due to a previous error during capture'
"""

# NCCL reporting a CUDA failure that has nothing to do with a capture stays a collective's.
NCCL_PLAIN_CUDA_FAILURE = """\
[tp_setup] custom all-reduce ready (world=2, rank=1)
gpu-node4:7120:7188 [1] include/alloc.h:99 NCCL WARN Cuda failure 1 'invalid argument'
"""


def test_a_capture_invalidated_by_an_earlier_call_is_a_refusal_even_in_nccl_words() -> None:
    diagnosis = diagnose_text("serve/tp1.log", NCCL_CAPTURE_INVALIDATED)
    assert_reads(
        diagnosis, "stream_sync", first_error="previous error during capture", beside=("config",)
    )


def test_an_nccl_cuda_failure_outside_a_capture_stays_a_collective_failure() -> None:
    diagnosis = diagnose_text("serve/tp1.log", NCCL_PLAIN_CUDA_FAILURE)
    assert diagnosis.category == "hccl"


# A paste that kept only CUDA's hint line, naming the capture-family enum, and lost the
# headline above it. The enum is the refusal; the same hint naming an illegal address is not.
CAPTURE_HINT_ONLY = """\
(Worker_TP3 pid=20418) ERROR 03-09 11:12:13 [multiproc_executor.py:840] Search for `cudaErrorStreamCaptureUnsupported' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for more information.
(Worker_TP3 pid=20418) ERROR 03-09 11:12:13 [multiproc_executor.py:840] CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
(Worker_TP3 pid=20418) ERROR 03-09 11:12:13 [multiproc_executor.py:840] For debugging consider passing CUDA_LAUNCH_BLOCKING=1
(Worker_TP3 pid=20418) ERROR 03-09 11:12:13 [multiproc_executor.py:840]
(Worker_TP3 pid=20418) ERROR 03-09 11:12:13 [multiproc_executor.py:840] During handling of the above exception, another exception occurred:
(Worker_TP3 pid=20418) ERROR 03-09 11:12:13 [multiproc_executor.py:840] Traceback (most recent call last):
"""

ILLEGAL_ADDRESS_HINT_ONLY = CAPTURE_HINT_ONLY.replace(
    "cudaErrorStreamCaptureUnsupported", "cudaErrorIllegalAddress"
)


def test_a_capture_enum_in_the_hint_line_is_read_as_the_refusal() -> None:
    diagnosis = diagnose_text("serve/worker_tp3.log", CAPTURE_HINT_ONLY)
    assert_reads(
        diagnosis,
        "stream_sync",
        first_error="cudaErrorStreamCaptureUnsupported",
        beside=("config",),
    )


def test_an_illegal_address_enum_in_the_hint_line_is_no_refusal() -> None:
    diagnosis = diagnose_text("serve/worker_tp3.log", ILLEGAL_ADDRESS_HINT_ONLY)
    assert diagnosis.category != "stream_sync"


# The runtime's plog lines pasted bare, without their `[ERROR] RUNTIME(...)` header, after the
# serving engine's own report of the synchronize it then saw fail with 507014. The refused
# call is the first error; the 507014 is its downstream report, not an AI Core timeout.
ENGINE_SYNC_AFTER_REFUSAL = """\
RuntimeError: NPUModelRunner init failed, error is ACL stream synchronize failed, error code:507014
"""

BARE_RUNTIME_REFUSAL = """\
StreamSynchronize: Not allow to synchronize captured-stream, stream_id=7
rtStreamSynchronize: ErrCode=107027, desc=[stream is captured]
"""


def test_bare_runtime_refusal_lines_come_before_the_engines_507014() -> None:
    diagnosis = diagnose_files(
        {
            "serve/console.txt": ENGINE_SYNC_AFTER_REFUSAL,
            "serve/runtime_excerpt.txt": BARE_RUNTIME_REFUSAL,
        }
    )
    assert_reads(
        diagnosis,
        "stream_sync",
        first_error="Not allow to synchronize captured-stream",
        beside=("config",),
    )


def test_the_engines_507014_alone_stays_an_ai_core_timeout() -> None:
    diagnosis = diagnose_text("serve/console.txt", ENGINE_SYNC_AFTER_REFUSAL)
    assert diagnosis.category == "aicore_timeout"


def test_a_bare_runtime_errcode_line_is_read_by_its_code() -> None:
    diagnosis = diagnose_text(
        "serve/runtime_excerpt.txt", "rtMemcpy: ErrCode=107030, desc=[capture mode]\n"
    )
    assert_reads(diagnosis, "stream_sync", first_error="ErrCode=107030")


@pytest.mark.parametrize(
    ("code", "desc", "label"),
    [
        ("107033", "task group status error", "stream_sync"),
        ("107034", "task group interrupted", "other"),
    ],
    ids=["task-group-state", "task-group-interrupted"],
)
def test_a_bare_runtime_line_with_a_task_group_code_is_read_by_its_code(
    code: str, desc: str, label: str
) -> None:
    """107033, a capture's task group in the wrong state, is a refusal of the capture; 107034,
    a group another step interrupted, names no label of its own."""
    line = f"rtsStreamEndTaskUpdate: ErrCode={code}, desc=[{desc}]\n"
    diagnosis = diagnose_text("serve/runtime_excerpt.txt", line)
    assert diagnosis.category == label
    if label == "stream_sync":
        assert "config" in {alternative.category for alternative in diagnosis.alternatives}


TASK_NOT_CAPTURED = """\
[rank1]: RuntimeError: graph capture of the decode step failed
rtEventRecord execution failed, reason=task not supported
record event failed, runtime result = 507009
Failed to submit capture task, retCode=0x7100003
"""


def test_a_task_the_capture_could_not_take_offers_the_refusal_beside_its_code() -> None:
    diagnosis = diagnose_text("rank1.log", TASK_NOT_CAPTURED)
    assert diagnosis.category == "config"
    assert "stream_sync" in {alt.category for alt in diagnosis.alternatives}
    assert "stream.capture_mode_refused" in rules_of(diagnosis)


def test_a_record_task_that_failed_after_a_core_exception_is_no_capture_refusal() -> None:
    text = TASK_NOT_CAPTURED.replace("submit capture task", "submit record task")
    diagnosis = diagnose_text("rank1.log", text)
    assert "stream.capture_mode_refused" not in rules_of(diagnosis)


# Gaudi's bridge checks where an HPU graph capture ends: a capture begun on one stream and
# closed on another is refused, and the bridge aborts through `terminate`. It is the capture
# that could not be ended, as CUDA says in its own words for the same mismatch.
HPU_CAPTURE_ENDED_ELSEWHERE = """\
terminate called after throwing an instance of 'c10::Error'
  what():  [Rank:3] FATAL ERROR :: MODULE:PT_DEVICE GRAPH:: Capture must end on the same stream it began on.
[Rank:3] Habana exception raised from mark_step at HPUGraph.cpp:140
"""

# A note that a capture ended on the stream it began on reports no failure.
HPU_CAPTURE_ENDED_HERE = """\
[Rank:3] INFO graph capture ended on the same stream it began on (stream 0x5a10)
  what():  [Rank:3] FATAL ERROR :: MODULE:PT_BRIDGE Exception in Launch thread...
"""


def test_a_capture_ended_on_another_stream_is_a_capture_that_could_not_be_ended() -> None:
    diagnosis = diagnose_text("train/rank3.log", HPU_CAPTURE_ENDED_ELSEWHERE)
    assert_reads(
        diagnosis,
        "stream_sync",
        first_error="Capture must end on the same stream",
        beside=("config",),
    )


def test_a_capture_that_ended_where_it_began_is_no_refusal() -> None:
    diagnosis = diagnose_text("train/rank3.log", HPU_CAPTURE_ENDED_HERE)
    assert diagnosis.category != "stream_sync"


# docs/labelling.md#calls-refused-during-graph-capture: the Ascend runtime's wording of a
# capture that ends with a forked stream not joined back is CUDA's unjoined work.
NOT_JOINED_REASON = (
    "(Worker_TP0 pid=5120) ERROR 04-02 11:12:14 [multiproc_executor.py:880] EE9999[PID: 5120] "
    "2026-04-02-11:12:13.141.516 (EE9999): rtStreamEndCapture execution failed, reason=capture "
    "model contains a stream that was not joined to the original stream"
    "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:65]\n"
)


def test_a_capture_end_with_a_stream_not_joined_back_is_the_streams() -> None:
    text = (
        "(Worker_TP0 pid=5120) ERROR 04-02 11:12:14 [multiproc_executor.py:880] RuntimeError: "
        "capture_end:../torch_npu/csrc/core/npu/NPUGraph.cpp:240 NPU function error: "
        "c10_npu::acl::AclmdlRICaptureEnd(capture_stream_, &model_ri), error code is 107025\n"
        "(Worker_TP0 pid=5120) ERROR 04-02 11:12:14 [multiproc_executor.py:880] EE9999: Inner Error!\n"
        + NOT_JOINED_REASON
    )
    diagnosis = diagnose_text("serve/worker_0.log", text)
    assert_reads(diagnosis, "stream_sync", first_error="not joined to the original stream")
    assert diagnosis.confidence >= 0.6
    assert "config" in alternative_labels(diagnosis)


def test_the_not_joined_reason_alone_is_the_streams() -> None:
    diagnosis = diagnose_text("serve/worker_0.log", NOT_JOINED_REASON)
    assert diagnosis.category == "stream_sync"


def test_a_stream_joined_back_is_no_failure() -> None:
    text = (
        "[rank3] INFO capture model contains a stream that was joined back to the original stream\n"
    )
    diagnosis = diagnose_text("serve/worker_0.log", text)
    assert diagnosis.category != "stream_sync"
