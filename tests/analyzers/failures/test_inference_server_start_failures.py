"""Multi-GPU inference servers that fail while they size, slice or connect their shards.

docs/labelling.md#a-bare-divisibility-assertion: a serving launcher's weight loader that finds a
tensor it must slice over the shards does not divide by their number says so with the size and
the shard count; that is the per-rank slice of a weight, `weight_load`, with `config` beside it.
docs/labelling.md#a-warning-that-quotes-a-caught-allocator-failure: ggml's failure to pin host
memory for a buffer is a fallback to pageable memory, not the failure; the device allocation
refused after it is the first error.
docs/labelling.md#a-hip-call-that-rccl-reports-failed: TVM's distributed runtime restates an
NCCL or RCCL status in its own spelling (`rcclErrror: unhandled cuda error`); the collective
library's WARN line before it stays the first error.
docs/labelling.md#an-executor-that-names-the-part-it-could-not-create: an LLM executor that
reports which component it could not create for want of device memory is `oom`.
docs/labelling.md#a-message-socket-whose-port-another-process-holds: a worker whose ZeroMQ
socket cannot bind because the port is taken is the set-up (`config`), not HCCL's listen rule.
Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import (
    assert_reads,
    diagnose_files,
    diagnose_text,
    rules_of,
)

SHARD_SLICE = """\
2025-03-02T08:11:40.120044Z ERROR text_generation_launcher: Error when initializing model
  File "/usr/src/server/text_generation_server/utils/weights.py", line 212, in get_sharded
    size % world_size == 0

AssertionError: The choosen size 212 is not compatible with sharding on 8 shards
 rank=3
2025-03-02T08:11:41.002311Z ERROR text_generation_launcher: Shard 3 failed to start
"""


def test_a_weight_the_shards_cannot_share_is_weight_loading() -> None:
    diagnosis = diagnose_text("launcher.log", SHARD_SLICE)
    assert_reads(
        diagnosis,
        "weight_load",
        first_error="is not compatible with sharding on 8 shards",
        beside=("config",),
    )


def test_a_corrected_spelling_reads_the_same() -> None:
    text = SHARD_SLICE.replace("choosen", "chosen")
    assert diagnose_text("launcher.log", text).category == "weight_load"


def test_a_shard_count_announced_at_start_is_no_error() -> None:
    text = (
        "2025-03-02T08:10:02.000001Z  INFO text_generation_launcher: Sharding model on 8 processes\n"
        "2025-03-02T08:10:03.000001Z  INFO text_generation_launcher: chosen size 212 fits sharding on 8 shards\n"
    )
    diagnosis = diagnose_text("launcher.log", text)
    assert diagnosis.category != "weight_load"


PINNED_THEN_DEVICE = """\
ggml_cuda_host_malloc: failed to allocate 81920.00 MiB of pinned memory: out of memory
ggml_backend_cuda_buffer_type_alloc_buffer: allocating 23110.50 MiB on device 1: cudaMalloc failed: out of memory
llama_model_load: error loading model: unable to allocate CUDA1 buffer
"""


def test_pinned_host_memory_is_a_fallback_and_the_device_allocation_comes_first() -> None:
    diagnosis = diagnose_text("server.log", PINNED_THEN_DEVICE)
    assert_reads(diagnosis, "oom", first_error="on device 1: cudaMalloc failed: out of memory")


def test_a_device_out_of_memory_alone_stays_the_first_error() -> None:
    text = PINNED_THEN_DEVICE.splitlines(keepends=True)[1]
    diagnosis = diagnose_text("server.log", text)
    assert_reads(diagnosis, "oom", first_error="cudaMalloc failed")


DISCO_RCCL = {
    "serve.log": (
        "/opt/rccl/src/transport/p2p.cc:301 NCCL WARN Cuda failure 'invalid argument'\n"
        "terminate called after throwing an instance of 'tvm::runtime::InternalError'\n"
        "  what():  [11:02:40] /opt/tvm/src/runtime/disco/nccl/nccl.cc:196: rcclErrror: "
        "unhandled cuda error (run with NCCL_DEBUG=INFO for details)\n"
        "Stack trace:\n"
        "  1: tvm::runtime::nccl::InitCCLPerWorker(tvm::runtime::ShapeTuple, std::string)\n"
    )
}


def test_the_collective_library_warning_comes_before_the_runtime_restatement() -> None:
    diagnosis = diagnose_files(DISCO_RCCL)
    assert_reads(diagnosis, "hccl", first_error="NCCL WARN Cuda failure 'invalid argument'")


def test_the_runtime_restatement_alone_is_the_collective_layer() -> None:
    text = DISCO_RCCL["serve.log"].split("\n", 1)[1]
    diagnosis = diagnose_text("serve.log", text)
    assert_reads(
        diagnosis, "hccl", first_error="rcclErrror: unhandled cuda error", rule="hccl.nccl_error"
    )


EXECUTOR_MEMORY = """\
[11/02/2025-09:14:05] [TRT-LLM] [RANK 3] [E] Failed to initialize executor on rank 3: Executor creation failed due to insufficient GPU memory.

The following component could not be created: KV cache
Total GPU memory (GiB): 79.11
Free GPU memory before component creation attempt (GiB): 2.40
"""


def test_an_executor_that_cannot_create_a_component_for_memory_is_oom() -> None:
    diagnosis = diagnose_text("serve.log", EXECUTOR_MEMORY)
    assert_reads(diagnosis, "oom", first_error="insufficient GPU memory")
    assert diagnosis.confidence >= 0.5


def test_an_executor_memory_summary_without_failure_is_no_error() -> None:
    text = (
        "[11/02/2025-09:13:01] [TRT-LLM] [RANK 3] [I] Executor created; "
        "free GPU memory after KV cache creation (GiB): 2.40\n"
    )
    diagnosis = diagnose_text("serve.log", text)
    assert diagnosis.category != "oom"


_MP = "ERROR 01-05 10:11:12 [multiproc_executor.py:700] "
ZMQ_PORT_TAKEN = "\n".join(
    [
        f'(Worker_TP5 pid=2203) {_MP}  File "/opt/venv/vllm/v1/executor/multiproc_executor.py", line 512, in __init__',
        f"(Worker_TP5 pid=2203) {_MP}zmq.error.ZMQError: Address already in use (addr='tcp://192.0.2.7:51123')",
        f"(Worker_TP2 pid=2200) {_MP}WorkerProc failed to start.",
        f"(Worker_TP2 pid=2200) {_MP}Traceback (most recent call last):",
        "",
    ]
)

ZMQ_OTHER_REFUSAL = """\
(Worker_TP5 pid=2203) DEBUG 01-05 10:11:10 [utils.py:120] binding ZMQ socket to tcp://192.0.2.7:51123
zmq.error.ZMQError: Operation cannot be accomplished in current state
"""


def test_a_message_socket_whose_port_is_taken_is_the_set_up() -> None:
    diagnosis = diagnose_text("logs/stdout.log", ZMQ_PORT_TAKEN)
    assert_reads(
        diagnosis,
        "config",
        first_error="ZMQError: Address already in use (addr='tcp://192.0.2.7:51123')",
        rule="cfg.zmq_port_taken",
        beside=("driver_env", "hccl"),
    )
    assert "hccl.listen_failed" not in rules_of(diagnosis)


def test_other_zeromq_refusals_are_no_port_taken() -> None:
    diagnosis = diagnose_text("logs/stdout.log", ZMQ_OTHER_REFUSAL)
    assert "cfg.zmq_port_taken" not in rules_of(diagnosis)
