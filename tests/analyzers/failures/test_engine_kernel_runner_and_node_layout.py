"""An ahead-of-time inference engine (TensorRT-LLM, alone or under Triton) that stops on its own
checks: a kernel runner's check during warm-up, and a parallel layout that needs more GPUs on a
node than the node offers.

Excerpts are written in the engine's shapes with made-up paths, numbers and hosts.
docs/labelling.md#a-kernel-librarys-runtime-call-that-fails,
docs/labelling.md#an-engine-built-for-more-ranks-than-were-started
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

KERNEL_RUNNER = """\
[12/03/2026-10:01:55] [TRT-LLM] [RANK 0] [I] [Autotuner]: Autotuning process starts ...
[12/03/2026-10:02:09] [TRT-LLM] [RANK 0] [I] [Autotuner]: Autotuning process ends
[12/03/2026-10:02:11] [TRT-LLM] [RANK 0] [E] Failed to initialize executor on rank 0: \
[TensorRT-LLM][ERROR] Assertion failed: Error occurred when running GEMM! \
(/build/trtllm/cpp/tensorrt_llm/kernels/trtllmGenKernels/batchedGemm/KernelRunner.cpp:214)
1       0x7f31c0a1b2cd tensorrt_llm::common::throwRuntimeError(char const*, int, char const*) + 97
2       0x7f31c1d02e10 tensorrt_llm::kernels::trtllmGenFp8BlockScaleMoe::Routing::Runner::run(...) + 512
3       0x7f2f9a4410aa torch_ext::fp8_block_scale_moe_runner(at::Tensor const&, at::Tensor const&) + 1290
[12/03/2026-10:02:11] [TRT-LLM] [E] Executor worker returned error
RuntimeError: Executor worker returned error
"""

KERNEL_RUNNER_TERMINATE = """\
terminate called after throwing an instance of 'tensorrt_llm::common::TllmException'
  what():  [TensorRT-LLM][ERROR] Assertion failed: Failed to run the grouped GEMM tactic 9 \
(/src/cpp/tensorrt_llm/kernels/cutlass_kernels/moe_gemm/moe_gemm_template_dispatch.h:388)
1       0x7fd1aa10b71a tensorrt_llm::common::throwRuntimeError(char const*, int, std::string const&) + 82
[worker-3:22817] *** Process received signal ***
[worker-3:22817] Signal: Aborted (6)
"""

RUNTIME_CHECK = """\
[TensorRT-LLM][ERROR] Assertion failed: Prompt length (9000) exceeds maximum input length (8191). \
(/src/cpp/tensorrt_llm/batch_manager/trtGptModelInflightBatching.cpp:512)
"""


def test_a_kernel_runner_check_in_the_engine_is_the_operator() -> None:
    diagnosis = diagnose_text("trtllm_serve.log", KERNEL_RUNNER)
    assert_reads(
        diagnosis,
        "operator",
        first_error="Error occurred when running GEMM!",
        beside=("device_fault",),
    )


def test_the_same_check_ending_the_rank_through_terminate_reads_the_same() -> None:
    diagnosis = diagnose_text("rank3.log", KERNEL_RUNNER_TERMINATE)
    assert_reads(diagnosis, "operator", first_error="moe_gemm_template_dispatch.h:388")


def test_a_check_outside_the_kernels_tree_is_no_kernel_runner() -> None:
    diagnosis = diagnose_text("trtllm_serve.log", RUNTIME_CHECK)
    assert diagnosis.category != "operator"


TRITON_TABLE = """\
I1203 10:12:40.118311 412 server.cc:674]
+----------------+---------+---------------------------------------------------------------------------------------------------------------------------------------------------+
| Model          | Version | Status                                                                                                                                            |
+----------------+---------+---------------------------------------------------------------------------------------------------------------------------------------------------+
| ensemble       | 1       | READY                                                                                                                                             |
| llm_engine     | 1       | UNAVAILABLE: Internal: unexpected error when creating modelInstanceState: [TensorRT-LLM][ERROR] Assertion failed: Number of GPUs per node 1 must be at least as large as TP (2) *  |
|                |         | PP (1) (/src/cpp/tensorrt_llm/runtime/worldConfig.cpp:52)                                                                                         |
+----------------+---------+---------------------------------------------------------------------------------------------------------------------------------------------------+
E1203 10:12:40.118402 412 server.cc:312] failed to load all models
"""

NODE_LAYOUT_LINE = """\
[TensorRT-LLM][INFO] MPI size: 8, rank: 5
RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: Number of GPUs per node 4 must be at least as large as TP (8) * PP (1) (/src/cpp/tensorrt_llm/runtime/worldConfig.cpp:52)
"""


def test_a_layout_wider_than_the_node_is_config_in_tritons_table() -> None:
    diagnosis = diagnose_text("tritonserver.log", TRITON_TABLE)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert (
        "Number of GPUs per node 1 must be at least as large as TP (2)"
        in diagnosis.first_error.text
    )
    assert "driver_env" in alternative_labels(diagnosis)


def test_a_layout_wider_than_the_node_is_config_on_its_own_line() -> None:
    diagnosis = diagnose_text("rank5.log", NODE_LAYOUT_LINE)
    assert_reads(diagnosis, "config", first_error="Number of GPUs per node 4")


# --- An engine that names its refusal by a status -----------------------------------------
# docs/labelling.md#an-engines-status-name-for-what-it-refused

ALLSPARK_PARAM = """\
Failed: /build/dashinfer/python/allspark_binding.cpp:590 'ALLSPARK_PARAM_ERROR'
Traceback (most recent call last):
  File "/opt/venv/bin/vlm_serve", line 8, in <module>
    sys.exit(main())
  File "/opt/venv/lib/python3.10/site-packages/dashinfer/allspark/engine.py", line 216, in build_model_from_config_struct
    self._build_model_from_as_model_config(as_model_config_struct)
RuntimeError: ALLSPARK_PARAM_ERROR
"""

ALLSPARK_CACHE = """\
I1203 10:14:02.551201  9912 engine.cpp:731] start request 77, input len 30211
Failed: /build/dashinfer/csrc/core/model/model.cpp:1402 'ALLSPARK_CACHE_MEMORY_OUT'
RuntimeError: ALLSPARK_CACHE_MEMORY_OUT
"""

ALLSPARK_RUNTIME = """\
Failed: /build/dashinfer/python/allspark_binding.cpp:590 'ALLSPARK_RUNTIME_ERROR'
RuntimeError: ALLSPARK_RUNTIME_ERROR
"""


def test_a_refused_parameter_named_by_the_engines_status_is_config() -> None:
    diagnosis = diagnose_text("vlm_serve.log", ALLSPARK_PARAM)
    assert_reads(diagnosis, "config", first_error="allspark_binding.cpp:590 'ALLSPARK_PARAM_ERROR'")


def test_the_engines_cache_out_of_memory_status_is_oom() -> None:
    diagnosis = diagnose_text("server.log", ALLSPARK_CACHE)
    assert_reads(diagnosis, "oom", first_error="ALLSPARK_CACHE_MEMORY_OUT")


def test_a_status_that_says_nothing_of_why_is_not_read_as_a_setting() -> None:
    diagnosis = diagnose_text("server.log", ALLSPARK_RUNTIME)
    assert diagnosis.category != "config"
