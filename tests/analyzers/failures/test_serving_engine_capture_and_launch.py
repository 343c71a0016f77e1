"""GPU serving engines: CUDA's capture refusals, an engine started with too few ranks, and
an engine's own all-reduce failing a CUDA call.

- CUDA refuses work during a graph capture in words of its own (work on a stream the capture
  did not record); NCCL meets the refusal while it enqueues a collective and logs it as a
  failed CUDA call. The refusal decides: `stream_sync`, with `config` and `hccl` as the
  alternatives, and the NCCL line is the first error ahead of torch's report that the
  capture was invalidated. Counterexample: a failed CUDA call in NCCL that is no capture
  refusal (an invalid argument) stays the collective layer's.
- torch's report that an earlier error invalidated the capture, alone, is the capture that
  could not end: `stream_sync`, `config` alternative. Counterexample: a capture end that
  fails for lack of device memory is `oom`.
- An engine compiled for a tensor x pipeline layout loaded by fewer MPI processes than it
  has ranks (the Python runner's world-size assertion, the C++ runtime's `mpiSize == tp *
  pp`): `config`, with the machine's MPI setup (`driver_env`) as the alternative; mpirun's
  summary is the tail. The executor's leader-mode check (`MPI worldSize is expected to be
  equal to tp*pp`) is the same launch. Counterexample: the runtime's INFO line with its MPI
  size is no error.
- An MPI call between the engine's ranks that its native check reports (`Failed: MPI error
  <file>:<line> '<code>'`, often inside C++'s terminate handler): `hccl`, with the machine's
  MPI setup (`driver_env`) as the alternative. Counterexample: the runtime's INFO line about
  starting MPI is no error. Its NCCL check (`Failed, NCCL error <file>:<line> '<reason>'`) is
  an NCCL error like any other: `hccl`, read by the NCCL rule rather than guessed.
- vLLM's / SGLang's own all-reduce whose native check prints `Failed: Cuda error
  <file>:<line> '<message>'` and ends the worker: `hccl`, first error ahead of the engine's
  report that the worker died, with `config` and `device_fault` as alternatives.
  Counterexamples: the same check saying `out of memory` is not the collective layer's, and
  the check in another kernel's source file is not the all-reduce.
- A Rust frontend that relays that worker's lines as its own INFO records behind `VLLM:`
  does not make the check chatter: its level is the relay's, and the check (also without
  `Cuda error`, as older builds print it) is the first error.
- The same all-reduce in SGLang's kernel library throws instead: the exception carries CUDA's
  message and the failed call's source place on the line under it. With the place in the
  all-reduce's source it is the same reading, `hccl`, and the exception line stays the first
  error. Counterexample: the same exception with the place in another kernel's source.

Fixtures are written here in the real shapes with their own values.

docs/labelling.md#calls-refused-during-graph-capture
docs/labelling.md#an-engine-built-for-more-ranks-than-were-started
docs/labelling.md#an-engines-own-all-reduce-that-fails-a-cuda-call
docs/labelling.md#an-mpi-call-between-an-engines-ranks-that-fails
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

NCCL_MEETS_A_CAPTURE_REFUSAL = """\
INFO 07-02 11:20:01 model_runner.py:1012] Capturing the model for CUDA graphs.
(Worker pid=7741) gpu-a-3:7741:7741 [1] enqueue.cc:255 NCCL WARN Cuda failure 'dependency created on uncaptured work in another stream'
(Worker pid=7741) gpu-a-3:7741:7741 [1] NCCL INFO enqueue.cc:1102 -> 1
(Worker pid=7741) ERROR 07-02 11:20:03 worker_base.py:145] Error executing method warm_up_model.
(Worker pid=7741) ERROR 07-02 11:20:03 worker_base.py:145]   File "/opt/env/lib/python3.10/site-packages/torch/cuda/graphs.py", line 88, in capture_end
(Worker pid=7741) ERROR 07-02 11:20:03 worker_base.py:145]     super().capture_end()
(Worker pid=7741) ERROR 07-02 11:20:03 worker_base.py:145] RuntimeError: CUDA error: operation failed due to a previous error during capture
"""

NCCL_PEER_ACCESS_REFUSED = """\
(Worker pid=7741) gpu-a-3:7741:7790 [1] include/alloc.h:110 NCCL WARN Cuda failure 1 'invalid argument'
(Worker pid=7741) gpu-a-3:7741:7790 [1] NCCL INFO include/alloc.h:118 -> 1
(Worker pid=7741) RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)
"""

CAPTURE_INVALIDATED_ALONE = """\
(Worker_TP1 pid=9012) ERROR 07-02 11:30:10 [multiproc_executor.py:611] WorkerProc hit an exception.
(Worker_TP1 pid=9012) ERROR 07-02 11:30:10 [multiproc_executor.py:611]     self.cuda_graph.capture_end()
(Worker_TP1 pid=9012) ERROR 07-02 11:30:10 [multiproc_executor.py:611] RuntimeError: CUDA error: operation failed due to a previous error during capture
(Worker_TP1 pid=9012) ERROR 07-02 11:30:10 [multiproc_executor.py:611] For debugging consider passing CUDA_LAUNCH_BLOCKING=1
"""

CAPTURE_END_OUT_OF_MEMORY = """\
(Worker_TP0 pid=9011) ERROR 07-02 11:30:10 [multiproc_executor.py:611]     self.cuda_graph.capture_end()
(Worker_TP0 pid=9011) ERROR 07-02 11:30:10 [multiproc_executor.py:611] RuntimeError: CUDA error: out of memory
(Worker_TP0 pid=9011) ERROR 07-02 11:30:10 [multiproc_executor.py:611] For debugging consider passing CUDA_LAUNCH_BLOCKING=1
"""

RUNNER_WORLD_SIZE = """\
[TensorRT-LLM] TensorRT-LLM version: 0.9.0
Traceback (most recent call last):
  File "/work/examples/run.py", line 402, in <module>
    main(parse_arguments())
  File "/opt/env/lib/python3.10/site-packages/tensorrt_llm/runtime/model_runner.py", line 96, in read_config
    assert world_size == tensorrt_llm.mpi_world_size(), \\
AssertionError: Engine world size (4 * 1) != Runtime world size (1)
--------------------------------------------------------------------------
Primary job  terminated normally, but 1 process returned
a non-zero exit code. Per user-direction, the job has been aborted.
--------------------------------------------------------------------------
"""

CPP_RUNTIME_MPI_SIZE = """\
[TensorRT-LLM][INFO] MPI size: 1, rank: 0
Traceback (most recent call last):
  File "/opt/env/lib/python3.10/site-packages/tensorrt_llm/runtime/model_runner_cpp.py", line 188, in from_dir
    world_config = WorldConfig.mpi(tensor_parallelism=tp_size,
RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: mpiSize == tp * pp (/src/cpp/tensorrt_llm/runtime/worldConfig.cpp:97)
1       0x7f01a2b3c4d5 tensorrt_llm::common::throwRuntimeError(char const*, int, std::string const&) + 82
"""

EXECUTOR_LEADER_WORLD_SIZE = """\
I0412 08:15:02.117301 3310 libtensorrtllm.cc:114] "TRITONBACKEND_ModelInitialize: tensorrt_llm (version 1)"
[TensorRT-LLM][INFO] Initializing MPI with thread mode 3
[TensorRT-LLM][ERROR] Assertion failed: With communicationMode kLEADER, MPI worldSize is expected to be equal to tp*pp when participantIds are not specified (/src/cpp/tensorrt_llm/executor/executorImpl.cpp:512)
E0412 08:15:03.004512 3310 model_lifecycle.cc:654] "failed to load 'tensorrt_llm' version 1: Internal: unexpected error when creating modelInstanceState"
"""

ENGINE_MPI_CALL_FAILS = """\
[TensorRT-LLM] TensorRT-LLM version: 0.12.0
[TensorRT-LLM][INFO] Initializing MPI with thread mode 3
terminate called after throwing an instance of 'tensorrt_llm::common::TllmException'
  what():  [TensorRT-LLM][ERROR] Assertion failed: Failed: MPI error /src/cpp/tensorrt_llm/common/mpiUtils.cpp:187 '5' (/src/cpp/tensorrt_llm/common/mpiUtils.cpp:187)
1       0x7f5e10a2c3b1 tensorrt_llm::common::throwRuntimeError(char const*, int, std::string const&) + 82
2       0x7f5dc31e7d10 tensorrt_llm::plugins::AllreducePlugin::initialize() + 204
--------------------------------------------------------------------------
Primary job  terminated normally, but 1 process returned
a non-zero exit code. Per user-direction, the job has been aborted.
--------------------------------------------------------------------------
"""

ENGINE_NCCL_CHECK_FAILS = """\
[TensorRT-LLM] TensorRT-LLM version: 0.9.0
Failed, NCCL error /src/cpp/tensorrt_llm/plugins/ncclPlugin/allreducePlugin.cpp:211 'unhandled system error (run with NCCL_DEBUG=INFO for details)'
Failed, NCCL error /src/cpp/tensorrt_llm/plugins/ncclPlugin/allreducePlugin.cpp:211 'unhandled system error (run with NCCL_DEBUG=INFO for details)'
--------------------------------------------------------------------------
Primary job  terminated normally, but 1 process returned
a non-zero exit code. Per user-direction, the job has been aborted.
--------------------------------------------------------------------------
"""

MPI_START_INFO_ONLY = """\
[TensorRT-LLM] TensorRT-LLM version: 0.12.0
[TensorRT-LLM][INFO] Initializing MPI with thread mode 3
[TensorRT-LLM][INFO] MPI size: 2, rank: 1
"""

RUNTIME_INFO_ONLY = """\
[TensorRT-LLM] TensorRT-LLM version: 0.9.0
[TensorRT-LLM][INFO] MPI size: 2, rank: 0
[TensorRT-LLM][INFO] Loaded engine size: 6820 MiB
"""

OWN_ALLREDUCE_FAILS = """\
Capturing CUDA graphs (FULL): 100%|##########| 4/4 [00:01<00:00, 3.90it/s]
Failed: Cuda error /build/csrc/custom_all_reduce.cuh:207 'invalid argument'
(EngineCore pid=4410) ERROR 07-02 12:00:01 [multiproc_executor.py:320] Worker proc VllmWorker-1 died unexpectedly (exit code: None), shutting down executor.
(EngineCore pid=4410) INFO 07-02 12:00:01 [multiproc_executor.py:480] [shutdown] Executor: waiting for worker exit count=2
"""

OWN_ALLREDUCE_ILLEGAL_ACCESS = """\
(Worker_TP0 pid=58215) INFO 07-31 09:09:49 [flashinfer_all_reduce.py:170] Initialized FlashInfer Allreduce norm fusion workspace with backend=mnnvl
Failed: Cuda error /workspace/csrc/custom_all_reduce.cuh:455 'an illegal memory access was encountered'
Capturing CUDA graphs (mixed prefill-decode, PIECEWISE):  53%|#####     | 27/51 [00:06<00:05,  4.14it/s]
Failed: Cuda error /workspace/csrc/custom_all_reduce.cuh:455 'an illegal memory access was encountered'
(EngineCore pid=58154) ERROR 07-31 09:09:51 [multiproc_executor.py:284] Worker proc VllmWorker-2 died unexpectedly (exit code: None), shutting down executor.
"""

OWN_ALLREDUCE_OUT_OF_MEMORY = """\
Failed: Cuda error /build/csrc/custom_all_reduce.cuh:207 'out of memory'
(EngineCore pid=4410) ERROR 07-02 12:00:01 [multiproc_executor.py:320] Worker proc VllmWorker-1 died unexpectedly (exit code: None), shutting down executor.
"""

OWN_ALLREDUCE_THROWS = """\
[2026-02-03 10:11:12 TP1] Capture cuda graph begin. This can take up to several minutes. avail mem=9.12 GB
RuntimeError: invalid argument
/workspace/sgl-kernel/csrc/allreduce/custom_all_reduce.cuh:318
[2026-02-03 10:11:14] Received sigquit from a child process. It usually means the child failed.
"""

OWN_ALLREDUCE_REFUSED_PEER = OWN_ALLREDUCE_THROWS.replace(
    "RuntimeError: invalid argument",
    "RuntimeError: peer access is not supported between these two devices",
)

OTHER_KERNEL_THROWS = """\
RuntimeError: invalid argument
/workspace/sgl-kernel/csrc/moe/moe_align_kernel.cu:210
"""

OTHER_KERNEL_CHECK = """\
Failed: Cuda error /build/csrc/moe/topk_kernels.cu:88 'invalid argument'
(EngineCore pid=4410) ERROR 07-02 12:00:01 [multiproc_executor.py:320] Worker proc VllmWorker-1 died unexpectedly (exit code: None), shutting down executor.
"""


def test_a_capture_refusal_that_nccl_meets_is_the_streams() -> None:
    diagnosis = diagnose_text("serve/worker.log", NCCL_MEETS_A_CAPTURE_REFUSAL)
    assert_reads(diagnosis, "stream_sync", first_error="dependency created on uncaptured work")
    assert {"config", "hccl"} <= set(alternative_labels(diagnosis))


def test_a_failed_cuda_call_in_nccl_that_is_no_capture_refusal_stays_the_collectives() -> None:
    diagnosis = diagnose_text("serve/worker.log", NCCL_PEER_ACCESS_REFUSED)
    assert diagnosis.category == "hccl"


def test_a_capture_invalidated_with_no_reason_before_it_is_the_streams() -> None:
    diagnosis = diagnose_text("serve/worker_tp1.log", CAPTURE_INVALIDATED_ALONE)
    assert_reads(diagnosis, "stream_sync", first_error="previous error during capture")
    assert "config" in alternative_labels(diagnosis)


def test_a_capture_end_out_of_device_memory_is_memory() -> None:
    diagnosis = diagnose_text("serve/worker_tp0.log", CAPTURE_END_OUT_OF_MEMORY)
    assert diagnosis.category == "oom"


def test_an_engine_run_by_fewer_processes_than_its_ranks_is_the_launch() -> None:
    diagnosis = diagnose_text("run.log", RUNNER_WORLD_SIZE)
    assert_reads(diagnosis, "config", first_error="Runtime world size (1)")
    assert "driver_env" in alternative_labels(diagnosis)


def test_the_cpp_runtimes_mpi_size_assertion_is_the_launch() -> None:
    diagnosis = diagnose_text("run.log", CPP_RUNTIME_MPI_SIZE)
    assert_reads(diagnosis, "config", first_error="mpiSize == tp * pp")


def test_the_executors_leader_world_size_check_is_the_launch() -> None:
    diagnosis = diagnose_text("tritonserver.log", EXECUTOR_LEADER_WORLD_SIZE)
    assert_reads(diagnosis, "config", first_error="MPI worldSize is expected to be equal to tp*pp")
    assert "driver_env" in alternative_labels(diagnosis)


def test_a_failed_mpi_call_between_engine_ranks_is_the_collectives() -> None:
    diagnosis = diagnose_text("run.log", ENGINE_MPI_CALL_FAILS)
    assert_reads(diagnosis, "hccl", first_error="Failed: MPI error")
    assert "driver_env" in alternative_labels(diagnosis)


def test_the_engines_nccl_check_is_read_as_an_nccl_error() -> None:
    diagnosis = diagnose_text("run.log", ENGINE_NCCL_CHECK_FAILS)
    assert diagnosis.category == "hccl"
    assert diagnosis.confidence >= 0.5
    assert diagnosis.first_error is not None
    assert "Failed, NCCL error" in diagnosis.first_error.text


def test_the_runtimes_mpi_start_lines_are_no_error() -> None:
    diagnosis = diagnose_text("run.log", MPI_START_INFO_ONLY)
    assert diagnosis.first_error is None


def test_the_runtimes_mpi_size_info_line_is_no_error() -> None:
    diagnosis = diagnose_text("run.log", RUNTIME_INFO_ONLY)
    assert diagnosis.first_error is None


def test_an_engines_own_allreduce_failing_a_cuda_call_is_the_collectives() -> None:
    diagnosis = diagnose_text("serve/api_server.log", OWN_ALLREDUCE_FAILS)
    assert_reads(diagnosis, "hccl", first_error="custom_all_reduce.cuh:207")
    assert {"config", "device_fault"} <= set(alternative_labels(diagnosis))


def test_an_illegal_access_in_the_engines_own_allreduce_is_the_collectives() -> None:
    """The all-reduce's own check outranks the plain illegal-memory-access reading."""
    diagnosis = diagnose_text("serve/api_server.log", OWN_ALLREDUCE_ILLEGAL_ACCESS)
    assert_reads(diagnosis, "hccl", first_error="custom_all_reduce.cuh:455")
    assert "device_fault" in alternative_labels(diagnosis)


def test_the_allreduce_check_out_of_memory_is_not_the_collectives() -> None:
    diagnosis = diagnose_text("serve/api_server.log", OWN_ALLREDUCE_OUT_OF_MEMORY)
    assert diagnosis.category != "hccl"


def test_the_same_check_in_another_kernel_is_not_the_allreduce() -> None:
    diagnosis = diagnose_text("serve/api_server.log", OTHER_KERNEL_CHECK)
    assert diagnosis.category != "hccl"


def test_the_allreduce_check_that_throws_with_its_place_below_is_the_collectives() -> None:
    diagnosis = diagnose_text("serve/scheduler.log", OWN_ALLREDUCE_THROWS)
    assert diagnosis.category == "hccl", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("RuntimeError: invalid argument")
    assert "config" in alternative_labels(diagnosis)


def test_the_allreduce_check_naming_refused_peer_access_is_the_hosts() -> None:
    """docs/labelling.md#an-engines-own-all-reduce-that-fails-a-cuda-call: CUDA's own reason
    (the pair of GPUs has no peer path) decides, as it does when torch or NCCL print it."""
    diagnosis = diagnose_text("serve/scheduler.log", OWN_ALLREDUCE_REFUSED_PEER)
    assert diagnosis.category == "driver_env", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("RuntimeError: peer access is not supported")
    assert "config" in alternative_labels(diagnosis)


def test_a_thrown_check_placed_in_another_kernel_is_not_the_allreduce() -> None:
    diagnosis = diagnose_text("serve/scheduler.log", OTHER_KERNEL_THROWS)
    assert diagnosis.category != "hccl"


def _relayed_engine_log() -> str:
    """A Rust frontend's log: its own records first, then every line of its vLLM child as a
    tracing record at INFO behind `VLLM:`, the all-reduce's native check among them."""
    own = [
        f"2026-02-11T08:00:{i:02d}.000Z  INFO frontend::http: route {i} registered"
        for i in range(20)
    ]
    child = [
        f"2026-02-11T08:01:{i % 60:02d}.{i % 1000:03d}Z  INFO frontend::engine: VLLM: "
        f"(VllmWorkerProcess 02-11 08:01:{i % 60:02d} model_runner.py:1400] Capturing cudagraphs "
        "for decoding. If out-of-memory error occurs during cudagraph capture, consider "
        "decreasing `gpu_memory_utilization` or switching to eager mode."
        for i in range(300)
    ]
    failure = [
        "2026-02-11T08:02:10.512Z  INFO frontend::engine: VLLM: Failed: "
        "/opt/build/csrc/custom_all_reduce.cuh:291 'invalid argument'",
        "2026-02-11T08:02:10.513Z  INFO frontend::engine: VLLM: Failed: "
        "/opt/build/csrc/custom_all_reduce.cuh:291 'invalid argument'",
    ]
    return "\n".join(own + child + failure) + "\n"


def test_the_all_reduce_check_relayed_by_a_frontend_at_info_is_the_first_error() -> None:
    """The frontend's INFO is its own, not the child's: the check is read by its words (older
    builds print it without `Cuda error`), and the child's advice about out-of-memory during
    capture names no failure."""
    diagnosis = diagnose_text("frontend.log", _relayed_engine_log())
    assert_reads(diagnosis, "hccl", first_error="custom_all_reduce.cuh:291 'invalid argument'")
