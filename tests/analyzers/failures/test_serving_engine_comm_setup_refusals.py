"""Serving engines on GPUs whose communication set-up or start-up check refuses to go on.

Four classes that matched no rule before and were read from a stray word (or as a bare native
assertion) with almost no confidence:

- docs/labelling.md#an-engines-own-all-reduce-that-fails-a-cuda-call: an assertion placed in
  TensorRT-LLM's own all-reduce kernels (`kernels/userbuffers/`, `kernels/communicationKernels/`,
  `customAllReduceKernels`) is the collective kernel refusing the step, `hccl` with `config` and
  `operator` beside it; the same assertion placed in another kernel is not.
- docs/labelling.md#mpi-that-does-not-start-in-a-process: Open MPI's UCC collective component
  refusing the thread level the process asked for is a stack that does not fit the setting,
  `config` with `driver_env` and `hccl` beside it.
- docs/labelling.md#a-gpu-system-that-is-not-ready: torch's `CUDA driver error: the operation
  cannot be performed in the present state` at a symmetric-memory rendezvous is the driver
  refusing the mapping on this machine, `driver_env` with `hccl` and `config` beside it.
- docs/labelling.md#a-rank-that-finished-loading-while-its-peers-did-not: SGLang's check that a
  rank finished loading while others did not is `weight_load` (with `hccl` and `hang`), and a
  peer's own error in the bundle comes first.

Fixtures follow the engines' log formats; names, numbers and paths are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_files, diagnose_text

# --- TensorRT-LLM all-reduce kernel assertion -------------------------------------------------

UB_ASSERT = (
    "terminate called after throwing an instance of 'tensorrt_llm::common::TllmException'\n"
    "  what():  [TensorRT-LLM][ERROR] Assertion failed: 0 "
    "(/build/trtllm/cpp/tensorrt_llm/kernels/userbuffers/userbuffers.cu:977)\n"
    "1       0x55d0a1c2e4f0 tensorrt_llm::common::throwRuntimeError(char const*, int, "
    "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&) + 95\n"
    "2       0x7f3a11b4c0d2 int tensorrt_llm::kernels::ub::allreduce2_userbuff_inplace_rmsnorm_quant"
    "<__half>(int, unsigned long, int, unsigned long, unsigned long, int, void*, void*, float, "
    "float*, void*, void*, tensorrt_llm::runtime::ub::communicator*, CUstream_st*) + 5121\n"
    "3       0x7f3a48e1a331 /opt/trtllm/libs/libnvinfer_plugin_tensorrt_llm.so(+0x1c4331) "
    "[0x7f3a48e1a331]\n"
)

FUSION_ASSERT = (
    "[02/11/2026-08:14:52] [TRT-LLM] [E] Encountered an error in forward function: "
    "[TensorRT-LLM][ERROR] Assertion failed: hidden_dim % 8 == 0 "
    "(/src/cpp/tensorrt_llm/kernels/communicationKernels/allReduceFusionKernels.cu:640)\n"
)

MOE_ASSERT = (
    "terminate called after throwing an instance of 'tensorrt_llm::common::TllmException'\n"
    "  what():  [TensorRT-LLM][ERROR] Assertion failed: 0 "
    "(/build/trtllm/cpp/tensorrt_llm/kernels/mixtureOfExperts/moe_kernels.cu:881)\n"
)


def test_an_assertion_in_the_user_buffer_all_reduce_is_the_collective_kernel() -> None:
    diagnosis = diagnose_text("rank1.log", UB_ASSERT)
    assert_reads(diagnosis, "hccl", first_error="kernels/userbuffers/userbuffers.cu:977")
    assert {"config", "operator"} <= set(alternative_labels(diagnosis))
    assert diagnosis.confidence < 0.8


def test_an_assertion_in_the_fusion_all_reduce_reads_the_same() -> None:
    diagnosis = diagnose_text("trtllm_serve.log", FUSION_ASSERT)
    assert_reads(diagnosis, "hccl", first_error="allReduceFusionKernels.cu:640")


def test_the_same_assertion_in_another_kernel_is_not_the_collective() -> None:
    diagnosis = diagnose_text("rank1.log", MOE_ASSERT)
    assert diagnosis.category != "hccl"


# --- Open MPI's UCC component and the thread level --------------------------------------------

UCC_REFUSED = (
    "[TensorRT-LLM][INFO] Initializing MPI with thread mode 3\n"
    "Error: coll_ucc_module.c:281 - mca_coll_ucc_init_ctx() UCC library doesn't support "
    "MPI_THREAD_MULTIPLE\n"
)


def test_ucc_refusing_the_thread_level_is_a_stack_that_does_not_fit() -> None:
    diagnosis = diagnose_text("trtllm_serve.log", UCC_REFUSED)
    assert_reads(diagnosis, "config", first_error="UCC library doesn't support MPI_THREAD_MULTIPLE")
    assert {"driver_env", "hccl"} <= set(alternative_labels(diagnosis))
    assert diagnosis.confidence < 0.8


def test_the_mode_the_engine_asked_for_is_no_failure() -> None:
    diagnosis = diagnose_text(
        "trtllm_serve.log", "[TensorRT-LLM][INFO] Initializing MPI with thread mode 3\n"
    )
    assert diagnosis.first_error is None


# --- CUDA driver 401 at a symmetric-memory rendezvous -----------------------------------------

SYMM_PREFIX = "(Worker_TP2 pid=8120) ERROR 03-02 11:12:13 [multiproc_executor.py:703] "

SYMM_ILLEGAL_STATE = "".join(
    f"{SYMM_PREFIX}{line}\n"
    for line in (
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/distributed/device_communicators/'
        'symm_mem.py", line 91, in __init__',
        "    handle = torch_symm_mem.rendezvous(self.buffer, self.group.group_name)",
        '  File "/opt/venv/lib/python3.12/site-packages/torch/distributed/_symmetric_memory/'
        '__init__.py", line 1720, in rendezvous',
        "    return _SymmetricMemory.rendezvous(tensor, group_name)",
        "RuntimeError: CUDA driver error: the operation cannot be performed in the present state",
        "WorkerProc failed to start.",
    )
)


def test_a_driver_refusing_the_rendezvous_mapping_is_the_machine() -> None:
    diagnosis = diagnose_text("vllm_serve.log", SYMM_ILLEGAL_STATE)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="the operation cannot be performed in the present state",
    )
    assert {"hccl", "config"} <= set(alternative_labels(diagnosis))
    assert diagnosis.confidence < 0.8


def test_another_driver_answer_is_not_the_refused_state() -> None:
    diagnosis = diagnose_text(
        "vllm_serve.log", f"{SYMM_PREFIX}RuntimeError: CUDA driver error: invalid argument\n"
    )
    assert diagnosis.category != "driver_env" or diagnosis.confidence < 0.3


# --- A rank that finished loading while its peers did not -------------------------------------

NOT_LOADED = (
    "[2026-02-11 08:14:50 TP5] Load weight end. type=Qwen2ForCausalLM, dtype=torch.bfloat16, "
    "avail mem=41.20 GB, mem usage=29.85 GB.\n"
    "[2026-02-11 08:14:52 TP5] Scheduler hit an exception: Traceback (most recent call last):\n"
    '  File "/opt/sglang/python/sglang/srt/model_executor/model_runner.py", line 402, '
    "in load_model\n"
    "    raise ValueError(\n"
    "ValueError: TP rank 5 could finish the model loading, but there are other ranks that "
    "didn't finish loading. It is likely due to unexpected failures (e.g., OOM) or a slow node.\n"
)

PEER_OOM = (
    "[2026-02-11 08:14:31 TP6] Scheduler hit an exception: Traceback (most recent call last):\n"
    '  File "/opt/sglang/python/sglang/srt/model_loader/loader.py", line 388, in load_model\n'
    "    model.load_weights(self._get_all_weights(model_config, model))\n"
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.75 GiB. GPU 6 has a total "
    "capacity of 79.11 GiB of which 1.02 GiB is free.\n"
)


def test_a_rank_that_only_saw_its_peers_not_load_is_the_loading_phase() -> None:
    diagnosis = diagnose_text("node0/sglang.log", NOT_LOADED)
    assert_reads(diagnosis, "weight_load", first_error="could finish the model loading")
    assert {"hccl", "hang"} <= set(alternative_labels(diagnosis))
    assert diagnosis.confidence < 0.8


def test_the_peers_own_failure_while_loading_comes_first() -> None:
    diagnosis = diagnose_files({"node0/sglang.log": NOT_LOADED, "node1/sglang.log": PEER_OOM})
    assert_reads(diagnosis, "oom", first_error="CUDA out of memory")
