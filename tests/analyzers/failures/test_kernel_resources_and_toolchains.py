"""Kernels compiled inside a job: the tile's on-chip memory and the toolchain that builds it.

docs/labelling.md#operator-installation-or-platform-limit: a kernel whose tile needs more on-chip
memory than the card has (Triton's shared-memory check on CUDA and ROCm, the unified-buffer
overflow Triton-Ascend's compiler reports) is the kernel's configuration for this device,
`operator`, with `config` and `op_constraint` beside it; an LLVM inside the kernel compiler that
does not know the card's processor is the compiler release, `config`, and it comes before the
compile failure it causes. docs/labelling.md#a-kernel-library-that-refuses-a-tensor-it-was-handed:
a kernel library's dispatcher that finds no kernel for the call refused its inputs, `operator`,
whatever shapes it prints. docs/labelling.md#an-extension-built-against-headers-that-do-not-fit:
nvcc refusing the host's C++ compiler stops every extension build on the machine, `driver_env`.
Values are our own, in the tools' real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

TRITON_SHARED_MEMORY_IN_TP_WORKER = """\
(Worker_TP1 pid=5120) ERROR 06-11 09:14:02 [multiproc_executor.py:611] Traceback (most recent call last):
(Worker_TP1 pid=5120) ERROR 06-11 09:14:02 [multiproc_executor.py:611]   File "/opt/venv/lib/python3.12/site-packages/triton/compiler/compiler.py", line 480, in _init_handles
(Worker_TP1 pid=5120) ERROR 06-11 09:14:02 [multiproc_executor.py:611]     raise OutOfResources(self.metadata.shared, max_shared, "shared memory")
(Worker_TP1 pid=5120) ERROR 06-11 09:14:02 [multiproc_executor.py:611] triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 139264, Hardware limit: 101376. Reducing block sizes or `num_stages` may help.
(Worker_TP1 pid=5120) ERROR 06-11 09:14:03 [multiproc_executor.py:611] RuntimeError: Worker failed with error 'out of resource', please check the stack trace above for the root cause
"""

# The autotuner's older module name, relayed by a service at INFO before its own error line.
AUTOTUNER_SHARED_MEMORY_RELAYED_AT_INFO = """\
[09:14:02] stdout/INFO  triton.runtime.autotuner.OutOfResources: out of resource: shared memory, Required: 81920, Hardware limit: 65536. Reducing block sizes or `num_stages` may help.
[09:14:05] stdout/ERROR  backend worker exited; stopping the API server
"""

UB_OVERFLOW_UNDER_LOCATED_PIPELINE_HEADLINE = """\
(Worker_TP2 pid=7702) ERROR 06-11 09:14:02 [multiproc_executor.py:880] triton.compiler.errors.MLIRCompilationError: 
(Worker_TP2 pid=7702) ERROR 06-11 09:14:02 [multiproc_executor.py:880] ///------------------[ERROR][Triton][BEG]------------------
(Worker_TP2 pid=7702) ERROR 06-11 09:14:02 [multiproc_executor.py:880] [ConvertLinalgRToBinary] encounters error:
(Worker_TP2 pid=7702) ERROR 06-11 09:14:02 [multiproc_executor.py:880] loc("/tmp/tmp4kq1/kernel.ttadapter.mlir":1:1): error: Failed to run BiShengHIR pipeline
(Worker_TP2 pid=7702) ERROR 06-11 09:14:02 [multiproc_executor.py:880] loc("/tmp/tmp4kq1/kernel.ttadapter.mlir":2:3): error: ub overflow, requires 2230272 bits while 1572864 bits available!
(Worker_TP2 pid=7702) ERROR 06-11 09:14:02 [multiproc_executor.py:880] ///------------------[ERROR][Triton][END]------------------
"""

# Counterexample: the located pipeline headline with no reason under it is still the kernel's
# compile failure.
LOCATED_PIPELINE_HEADLINE_ALONE = """\
[ConvertLinalgRToBinary] encounters error:
loc("/tmp/tmp4kq1/kernel.ttadapter.mlir":1:1): error: Failed to run BiShengHIR HIVM pipeline
"""

LLVM_UNKNOWN_PROCESSOR_BEFORE_INDUCTOR = """\
[rank0]: 'sm_121' is not a recognized processor for this target (ignoring processor)
[rank0]: 'sm_121' is not a recognized processor for this target (ignoring processor)
[rank0]: E1102 08:30:11.204000 6110 site-packages/torch/_inductor/runtime/triton_heuristics.py:640] Triton compilation failed: triton_red_fused_add_mean_mul_pow_rsqrt_1
[rank0]: torch._inductor.exc.InductorError: RuntimeError: PTX codegen failed for triton_red_fused_add_mean_mul_pow_rsqrt_1
"""

# Counterexample: LLVM's note about a feature it does not know is harmless; the compile
# failure after it keeps the kernel's reading.
LLVM_UNKNOWN_FEATURE_BEFORE_INDUCTOR = """\
[rank0]: '+ptx88' is not a recognized feature for this target (ignoring feature)
[rank0]: E1102 08:30:11.204000 6110 site-packages/torch/_inductor/runtime/triton_heuristics.py:640] Triton compilation failed: triton_red_fused_add_mean_mul_pow_rsqrt_1
"""

XFORMERS_NO_KERNEL_FOR_CALL = """\
[rank2]: NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:
[rank2]:      query       : shape=(4, 1030, 16, 80) (torch.bfloat16)
[rank2]:      key         : shape=(4, 1030, 16, 80) (torch.bfloat16)
[rank2]:      value       : shape=(4, 1030, 16, 80) (torch.bfloat16)
[rank2]:      attn_bias   : <class 'torch.Tensor'>
[rank2]:      p           : 0.1
[rank2]: `cutlassF-pt` is not supported because:
[rank2]:     attn_bias.stride(-2) % 8 != 0 (attn_bias.stride() = (16974400, 1060900, 1030, 1))
"""

NVCC_REFUSES_HOST_GCC_IN_JIT_BUILD = """\
[rank0]: Building extension module fused_rope...
[rank0]: [1/3] /usr/local/cuda/bin/nvcc -c /opt/ext/csrc/rope/rope_kernel.cu -o rope_kernel.cuda.o
[rank0]: FAILED: rope_kernel.cuda.o
[rank0]: /usr/local/cuda/include/crt/host_config.h:143:2: error: #error -- unsupported GNU version! gcc versions later than 11 are not supported! The nvcc flag '-allow-unsupported-compiler' can be used to override this version check.
[rank0]: ninja: build stopped: subcommand failed.
[rank0]: RuntimeError: Error building extension 'fused_rope'
"""

# Counterexample: an error in the extension's own source is the kernel source, not the host.
EXTENSION_SOURCE_ERROR = """\
[rank0]: FAILED: rope_kernel.cuda.o
[rank0]: /opt/ext/csrc/rope/rope_kernel.cu:41:7: error: identifier "half_dim" is undefined
[rank0]: ninja: build stopped: subcommand failed.
"""


def test_triton_shared_memory_check_in_a_tp_worker_is_the_kernel_for_this_card() -> None:
    diagnosis = diagnose_text("serve.log", TRITON_SHARED_MEMORY_IN_TP_WORKER)
    assert_reads(
        diagnosis,
        "operator",
        first_error="Required: 139264, Hardware limit: 101376",
        rule="op.kernel_on_chip_memory_exceeded",
    )
    assert {"config", "op_constraint"} <= set(alternative_labels(diagnosis))


def test_autotuner_shared_memory_check_relayed_at_info_is_still_the_first_error() -> None:
    diagnosis = diagnose_text("service.log", AUTOTUNER_SHARED_MEMORY_RELAYED_AT_INFO)
    assert_reads(
        diagnosis,
        "operator",
        first_error="autotuner.OutOfResources: out of resource: shared memory",
    )


def test_unified_buffer_overflow_outranks_the_located_pipeline_headline() -> None:
    diagnosis = diagnose_text("serve.log", UB_OVERFLOW_UNDER_LOCATED_PIPELINE_HEADLINE)
    assert_reads(diagnosis, "operator", first_error="ub overflow, requires 2230272 bits")
    # the unified buffer is the card's on-chip memory: the same reading as Triton's
    # shared-memory check, with the card (`config`) and the device limit beside it
    assert "op.kernel_on_chip_memory_exceeded" in rules_of(diagnosis)
    assert {"config", "op_constraint"} <= set(alternative_labels(diagnosis))


# A training job's fused loss kernel, its compile block printed without a worker prefix and the
# diagnostic's second half wrapped onto the next line.
UB_OVERFLOW_WRAPPED_IN_A_TRAINING_LOSS = """\
File "src/trainer/losses/fused_ce.py", line 211, in forward
    return _compiled_kernel(logits, targets)
triton.compiler.errors.MLIRCompilationError:
[ConvertLinalgRToBinary] encounters error:
loc("src/trainer/losses/fused_ce.py":74:0): error: Failed to run BiShengHIR pipeline
loc("src/trainer/losses/fused_ce.py":74:0): error: ub overflow, requires 3146752 bits
      while 1572864 bits available! (possible reason: tiling basic block is too large)
"""


def test_unified_buffer_overflow_wrapped_over_two_lines_keeps_the_on_chip_reading() -> None:
    diagnosis = diagnose_text("train.log", UB_OVERFLOW_WRAPPED_IN_A_TRAINING_LOSS)
    assert_reads(
        diagnosis,
        "operator",
        first_error="ub overflow, requires 3146752 bits",
        rule="op.kernel_on_chip_memory_exceeded",
    )
    assert {"config", "op_constraint"} <= set(alternative_labels(diagnosis))


def test_located_pipeline_headline_alone_stays_the_kernels_compile_failure() -> None:
    diagnosis = diagnose_text("job/rank0.log", LOCATED_PIPELINE_HEADLINE_ALONE)
    assert diagnosis.category == "operator"
    assert diagnosis.first_error is not None


def test_llvm_that_does_not_know_the_card_is_the_compiler_release() -> None:
    diagnosis = diagnose_text("train.log", LLVM_UNKNOWN_PROCESSOR_BEFORE_INDUCTOR)
    assert_reads(
        diagnosis,
        "config",
        first_error="'sm_121' is not a recognized processor",
        rule="cfg.llvm_unknown_processor",
    )
    assert "driver_env" in alternative_labels(diagnosis)


def test_llvm_feature_note_leaves_the_kernel_compile_failure_first() -> None:
    diagnosis = diagnose_text("train.log", LLVM_UNKNOWN_FEATURE_BEFORE_INDUCTOR)
    assert_reads(diagnosis, "operator", first_error="Triton compilation failed")


def test_kernel_dispatcher_with_no_kernel_for_the_call_is_the_operator() -> None:
    diagnosis = diagnose_text("train.log", XFORMERS_NO_KERNEL_FOR_CALL)
    assert diagnosis.category == "operator"
    assert "op.kernel_dispatch_found_none" in rules_of(diagnosis)
    assert diagnosis.first_error is not None
    assert (
        "No operator found for `memory_efficient_attention_forward`" in diagnosis.first_error.text
    )


def test_nvcc_refusing_the_host_compiler_is_the_machine() -> None:
    diagnosis = diagnose_text("train.log", NVCC_REFUSES_HOST_GCC_IN_JIT_BUILD)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="unsupported GNU version!",
        rule="env.cuda_host_compiler_unsupported",
    )
    assert "config" in alternative_labels(diagnosis)


def test_an_error_in_the_extensions_own_source_is_not_the_host_compiler() -> None:
    diagnosis = diagnose_text("train.log", EXTENSION_SOURCE_ERROR)
    assert diagnosis.category != "driver_env"
    assert "env.cuda_host_compiler_unsupported" not in rules_of(diagnosis)


# BiShengIR, when a kernel overflows the unified buffer, retries with its buffer-hungry
# optimisations switched off and, when that does not help either, says so in a note between
# the IR it dumps; no located `error: ub overflow` line is printed then.
UB_OVERFLOW_STATED_AS_A_RETRY_NOTE = """\
[rank5]: [ERROR] Failed to run BiShengIR pipeline
[rank5]:     %alloc_7 = memref.alloc() : memref<128x96xf32, #hivm.address_space<ub>>
[rank5]:   hivm.hir.vmul ins(%alloc_7, %alloc_8 : memref<128x96xf32, #hivm.address_space<ub>>)
[rank5]: [NOTE] Due to Ub overflow, automatically set enable-auto-multi-buffer to false; compilation still failed.
[rank5]: loc("/srv/train/kernels/gated_mix.py":61:0): error: Failed to run BiShengHIR pipeline
[rank5]: }
"""

# Counterexample: the same note without the failure is the compiler recovering; the pipeline
# headline that follows for another reason stays the first error.
UB_RETRY_NOTE_THAT_RECOVERED = """\
[NOTE] Due to Ub overflow, automatically set enable-auto-multi-buffer to false and retried
[ERROR] Failed to run BiShengIR pipeline
"""


def test_unified_buffer_overflow_stated_as_a_failed_retry_note_is_the_on_chip_limit() -> None:
    diagnosis = diagnose_text("train/rank5.log", UB_OVERFLOW_STATED_AS_A_RETRY_NOTE)
    assert_reads(
        diagnosis,
        "operator",
        first_error="Due to Ub overflow",
        rule="op.kernel_on_chip_memory_exceeded",
    )
    assert {"config", "op_constraint"} <= set(alternative_labels(diagnosis))


def test_unified_buffer_retry_note_that_recovered_is_not_the_failure() -> None:
    diagnosis = diagnose_text("train/rank0.log", UB_RETRY_NOTE_THAT_RECOVERED)
    assert diagnosis.category == "operator"
    assert "op.kernel_on_chip_memory_exceeded" not in rules_of(diagnosis)
    assert diagnosis.first_error is not None
    assert "Failed to run BiShengIR pipeline" in diagnosis.first_error.text
