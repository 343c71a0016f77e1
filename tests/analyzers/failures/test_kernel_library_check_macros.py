"""Kernel libraries that build their kernels just in time, and attention kernels' own checks.

docs/labelling.md ("A kernel library's runtime call that fails", "A kernel library that refuses
a tensor it was handed"): a JIT kernel library's host assertion in an op's own code is the op
refusing the call (operator); the same macro inside its JIT machinery (compiler driver, include
parser, cubin loader) or a runtime code saying the binary has no function for this card is the
build or release (config); the CUDA driver's file-not-found for a kernel file is the kernel
cache's layout (config); an attention kernel's own sentence about the tensors it was handed is
the op (operator). Fixtures are written in these libraries' formats with our own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

LAYOUT_ASSERTION = """\
(EngineCore_DP1 pid=51220) ERROR 03-14 08:41:09 [core.py:700] EngineCore failed to start.
(EngineCore_DP1 pid=51220) ERROR 03-14 08:41:09 [core.py:700] Traceback (most recent call last):
(EngineCore_DP1 pid=51220) ERROR 03-14 08:41:09 [core.py:700]   File "/srv/vllm/vllm/v1/engine/core.py", line 690, in run_engine_core
(EngineCore_DP1 pid=51220) ERROR 03-14 08:41:09 [core.py:700]     engine_core = DPEngineCoreProc(*args, **kwargs)
(EngineCore_DP1 pid=51220) ERROR 03-14 08:41:09 [core.py:700]   File "/srv/vllm/vllm/utils/deep_gemm.py", line 140, in fp8_m_grouped_gemm_nt_masked
(EngineCore_DP1 pid=51220) ERROR 03-14 08:41:09 [core.py:700]     return _grouped_impl(*args, **kwargs)
(EngineCore_DP1 pid=51220) ERROR 03-14 08:41:09 [core.py:700] RuntimeError: Failed: Assertion error csrc/jit_kernels/impls/sm100_layout.hpp:74 'sf.size(-1) % 4 == 0 and sf.dim() == 3'
"""

JIT_TOOL_EXIT = """\
(Worker_TP1 pid=3318) INFO 05-02 10:11:12 [fp8.py:201] Using DeepGEMM kernels for Fp8 block-scaled linear
(Worker_TP1 pid=3318) ERROR 05-02 10:11:40 [multiproc_executor.py:611]   File "/srv/vllm/vllm/utils/deep_gemm.py", line 188, in fp8_gemm_nt
(Worker_TP1 pid=3318) ERROR 05-02 10:11:40 [multiproc_executor.py:611]     return _gemm_impl(*args, **kwargs)
(Worker_TP1 pid=3318) ERROR 05-02 10:11:40 [multiproc_executor.py:611] RuntimeError: Assertion error (csrc/apis/../jit/compiler.hpp:203): exit_code == 0
"""

JIT_SOURCE_MISSING = """\
(RayWorkerWrapper pid=881, ip=10.8.1.4) ERROR 06-01 02:03:04 [worker_base.py:620] Error executing method 'compile_or_warm_up_model'.
(RayWorkerWrapper pid=881, ip=10.8.1.4) ERROR 06-01 02:03:04 [worker_base.py:620] RuntimeError: Assertion error (include_parser.hpp:71):
(RayWorkerWrapper pid=881, ip=10.8.1.4) ERROR 06-01 02:03:04 [worker_base.py:620] Failed to open: /opt/venv/lib/python3.12/site-packages/deep_gemm/include/deep_gemm/impls/sm110_bf16_gemm.cuh
"""

IMPL_ASSERTION_NEW_FORM = """\
(Worker_TP1 pid=3318) ERROR 05-02 10:11:40 [multiproc_executor.py:611]   File "/srv/vllm/vllm/utils/deep_gemm.py", line 188, in fp8_gemm_nt
(Worker_TP1 pid=3318) ERROR 05-02 10:11:40 [multiproc_executor.py:611] RuntimeError: Assertion error (csrc/jit_kernels/impls/smxx_layout.hpp:89): dim == 2 or dim == 3
"""

RUNTIME_CODE = """\
2026-02-11T03:22:17.018832Z ERROR core.run_engine_core: EngineCore failed to start.
Traceback (most recent call last):
  File "/srv/vllm/vllm/v1/engine/core.py", line 620, in run_engine_core
    engine_core = DPEngineCoreProc(*args, **kwargs)
  File "/srv/vllm/vllm/executor/uniproc_executor.py", line 49, in _init_executor
    self.collective_rpc("load_model")
RuntimeError: Failed: CUDA runtime error csrc/jit/kernel_runtime.hpp:97 '{code}'
"""

KERNEL_FILE_MISSING = """\
(Worker_DP2_EP2 pid=7121) ERROR 09-09 07:30:01 [multiproc_executor.py:702]   File "/srv/vllm/vllm/utils/deep_gemm.py", line 188, in fp8_gemm_nt
(Worker_DP2_EP2 pid=7121) ERROR 09-09 07:30:01 [multiproc_executor.py:702] RuntimeError: CUDA driver error (csrc/jit/handle.hpp:62): {answer}
(Worker_DP5_EP5 pid=7124) ERROR 09-09 07:30:02 [multiproc_executor.py:702] RuntimeError: CUDA driver error (csrc/jit/handle.hpp:62): {answer}
"""

EMPTY_VARLEN_BATCH = """\
ray.exceptions.RayTaskError(RuntimeError): ray::WorkerDict.actor_rollout_update_actor() (pid=40113, ip=10.1.2.3, actor_id=9f0c, repr=<verl.single_controller.ray.base.WorkerDict object at 0x7f3b>)
  File "/srv/verl/verl/workers/actor/dp_actor.py", line 121, in _forward_micro_batch
    output = self.actor_module(input_ids=input_ids_rmpad, attention_mask=None, position_ids=position_ids_rmpad)
  File "/opt/conda/lib/python3.11/site-packages/flash_attn/flash_attn_interface.py", line 914, in forward
    out_padded, softmax_lse, S_dmask, rng_state = _wrapped_flash_attn_varlen_forward(
RuntimeError: batch size must be positive
"""

CONFIG_CHECK_SAME_WORDS = """\
Traceback (most recent call last):
  File "/srv/train/launch.py", line 40, in <module>
    cfg = load_config(args.config)
ValueError: per_device_train_batch_size: batch size must be positive, got 0 from the config
"""


def test_an_assertion_in_an_ops_layout_helper_is_the_op_refusing_the_call() -> None:
    diagnosis = diagnose_text("engine_core.log", LAYOUT_ASSERTION)
    assert_reads(diagnosis, "operator", first_error="sm100_layout.hpp:74")
    assert any(alt.category == "config" for alt in diagnosis.alternatives)


def test_the_same_macro_inside_the_jit_machinery_is_the_build_not_the_call() -> None:
    diagnosis = diagnose_text("worker_tp1.log", JIT_TOOL_EXIT)
    assert_reads(diagnosis, "config", first_error="jit/compiler.hpp:203")
    assert {alt.category for alt in diagnosis.alternatives} >= {"driver_env", "operator"}


def test_a_kernel_source_the_release_does_not_ship_is_config_across_a_wrapped_line() -> None:
    diagnosis = diagnose_text("ray_worker.log", JIT_SOURCE_MISSING)
    assert_reads(diagnosis, "config", first_error="include_parser.hpp:71")


def test_the_new_macro_form_in_an_ops_impl_stays_with_the_op() -> None:
    diagnosis = diagnose_text("worker_tp1.log", IMPL_ASSERTION_NEW_FORM)
    assert diagnosis.category == "operator"


def test_a_runtime_code_for_no_function_on_this_card_is_the_build() -> None:
    diagnosis = diagnose_text("engine_core.log", RUNTIME_CODE.format(code="98"))
    assert_reads(diagnosis, "config", first_error="kernel_runtime.hpp:97 '98'")


def test_another_runtime_code_is_the_kernel_librarys_call_failing() -> None:
    diagnosis = diagnose_text("engine_core.log", RUNTIME_CODE.format(code="1"))
    assert diagnosis.category == "operator"


def test_a_kernel_file_the_driver_cannot_find_is_the_kernel_caches_layout() -> None:
    answer = "301 (CUDA_ERROR_FILE_NOT_FOUND, file not found)"
    diagnosis = diagnose_text("workers.log", KERNEL_FILE_MISSING.format(answer=answer))
    assert_reads(diagnosis, "config", first_error="Worker_DP2_EP2")
    assert any(alt.category == "other" for alt in diagnosis.alternatives)


def test_another_driver_answer_is_not_read_as_a_missing_file() -> None:
    answer = "1 (CUDA_ERROR_INVALID_VALUE, invalid argument)"
    diagnosis = diagnose_text("workers.log", KERNEL_FILE_MISSING.format(answer=answer))
    assert diagnosis.category != "config"


def test_an_empty_batch_refused_by_the_attention_kernel_is_the_op() -> None:
    diagnosis = diagnose_text("trainer.log", EMPTY_VARLEN_BATCH)
    assert diagnosis.category == "operator"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text == "RuntimeError: batch size must be positive"
    assert any(alt.category == "other" for alt in diagnosis.alternatives)


def test_a_config_check_in_the_same_words_is_not_the_kernels() -> None:
    diagnosis = diagnose_text("launch.log", CONFIG_CHECK_SAME_WORDS)
    assert diagnosis.category != "operator"
