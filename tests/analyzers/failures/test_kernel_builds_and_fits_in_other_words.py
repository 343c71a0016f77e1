"""Kernels built or fitted while the job runs, in the wordings other layers give them.

docs/labelling.md#operator-installation-or-platform-limit: ninja's own line for the build step
that failed is the same report as the builder's `Error building extension`; a module that a
project's just-in-time kernel build never wrote to its build folder is that failed build, not a
library missing from the machine; and inductor's account of a kernel whose every Triton
configuration needs more shared memory than the card has is the kernel's limit, not device
memory running out. Values are our own, in the tools' real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# Ninja names the step it could not finish and echoes the command; here the paste kept nothing
# of what the compiler said.
NINJA_STEP_FAILED_ONLY = """\
FAILED: fused_lion_kernel.cuda.o 
/usr/local/cuda/bin/nvcc -DTORCH_EXTENSION_NAME=fused_lion -I/opt/venv/lib/python3.10/site-packages/deepspeed/ops/csrc/includes -gencode=arch=compute_80,code=sm_80 --compiler-options '-fPIC' -O3 -c /opt/venv/lib/python3.10/site-packages/deepspeed/ops/csrc/lion/fused_lion_kernel.cu -o fused_lion_kernel.cuda.o
"""

# Newer ninja releases put the step's exit code in front of its outputs.
NINJA_STEP_FAILED_WITH_CODE = """\
[rank3]: FAILED: [code=1] rope_fwd.cuda.o
"""

# Counterexamples: a test runner's and a job's own `FAILED` lines are no build step.
TEST_RUNNER_FAILED = """\
FAILED tests/test_collectives.py::test_all_gather - AssertionError: ranks disagree
"""
JOB_STEP_FAILED = """\
[2026-03-04 05:06:07] eval step FAILED: 3 of 200 prompts timed out
"""

# A Megatron-style project builds its fused kernels into a `build` folder beside their sources;
# when that build failed, loading the module finds nothing there.
MEGATRON_FUSED_KERNEL_NEVER_BUILT = """\
  File "/opt/venv/lib/python3.10/site-packages/torch/utils/cpp_extension.py", line 1936, in _import_module_from_library
    module = importlib.util.module_from_spec(spec)
ImportError: /work/llm/megatron/fused_kernels/build/scaled_masked_softmax_cuda.so: cannot open shared object file: No such file or directory
"""

# Counterexample: a toolkit library the loader cannot find stays the machine's set-up.
TOOLKIT_LIBRARY_MISSING = """\
ImportError: /usr/local/cuda-12.4/lib64/libcublasLt.so.12: cannot open shared object file: No such file or directory
"""

# Inductor reports that no Triton configuration of a fused kernel fits the card, over three
# lines; its exception class says memory, the resource is the SM's shared memory.
INDUCTOR_NO_CONFIG_FITS_SHARED_MEMORY = """\
[rank1]: torch._inductor.exc.InductorError: RuntimeError: No valid triton configs. 
[rank1]: OutOfMemoryError: out of resource: triton_red_fused_mul_rsqrt_sum_4
[rank1]: Required: 262400 Hardware limit:232448 Reducing block sizes or `num_stages` may help.
"""

# The same report kept on one line by an autotuning log.
INDUCTOR_NO_CONFIG_ONE_LINE = """\
ERROR:torch._inductor.select_algorithm:Exception No valid triton configs. OutOfMemoryError: out of resource: triton_bmm Required: 196608 Hardware limit:166912 Reducing block sizes or `num_stages` may help. for benchmark choice TritonTemplateCaller
"""

# Counterexample: the device's own memory running out stays `oom`.
DEVICE_MEMORY_EXHAUSTED = """\
[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.50 GiB. GPU 1 has a total capacity of 79.11 GiB of which 1.02 GiB is free.
"""


def test_ninjas_failed_step_alone_is_the_build_report() -> None:
    diagnosis = diagnose_text("train.log", NINJA_STEP_FAILED_ONLY)
    assert_reads(
        diagnosis,
        "config",
        first_error="FAILED: fused_lion_kernel.cuda.o",
        rule="cfg.extension_build_report_only",
    )


def test_ninjas_failed_step_with_its_exit_code_is_the_build_report() -> None:
    diagnosis = diagnose_text("rank3.log", NINJA_STEP_FAILED_WITH_CODE)
    assert_reads(diagnosis, "config", first_error="FAILED: [code=1] rope_fwd.cuda.o")


def test_the_compiler_line_after_ninjas_failed_step_still_comes_first() -> None:
    text = NINJA_STEP_FAILED_ONLY + "nvcc fatal   : Unsupported gpu architecture 'compute_120'\n"
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.first_error is not None
    assert "nvcc fatal" in diagnosis.first_error.text


def test_a_test_runners_failed_line_is_no_build_step() -> None:
    diagnosis = diagnose_text("pytest.log", TEST_RUNNER_FAILED)
    assert "cfg.extension_build_report_only" not in rules_of(diagnosis)


def test_a_jobs_own_failed_step_is_no_build_step() -> None:
    diagnosis = diagnose_text("job.log", JOB_STEP_FAILED)
    assert "cfg.extension_build_report_only" not in rules_of(diagnosis)


def test_a_fused_kernel_the_project_never_built_is_the_build() -> None:
    diagnosis = diagnose_text("train.log", MEGATRON_FUSED_KERNEL_NEVER_BUILT)
    assert_reads(
        diagnosis,
        "config",
        first_error="scaled_masked_softmax_cuda.so: cannot open shared object file",
        rule="cfg.jit_extension_module_missing",
    )


def test_a_toolkit_library_the_loader_cannot_find_stays_the_machine() -> None:
    diagnosis = diagnose_text("train.log", TOOLKIT_LIBRARY_MISSING)
    assert diagnosis.category == "driver_env"
    assert "cfg.jit_extension_module_missing" not in rules_of(diagnosis)


def test_inductors_shared_memory_report_is_the_kernels_limit() -> None:
    diagnosis = diagnose_text("train.log", INDUCTOR_NO_CONFIG_FITS_SHARED_MEMORY)
    assert_reads(
        diagnosis,
        "operator",
        first_error="out of resource: triton_red_fused_mul_rsqrt_sum_4",
        rule="op.kernel_on_chip_memory_exceeded",
    )


def test_inductors_shared_memory_report_on_one_line_is_the_kernels_limit() -> None:
    diagnosis = diagnose_text("autotune.log", INDUCTOR_NO_CONFIG_ONE_LINE)
    assert diagnosis.category == "operator"
    assert "op.kernel_on_chip_memory_exceeded" in rules_of(diagnosis)


def test_device_memory_running_out_stays_oom() -> None:
    diagnosis = diagnose_text("train.log", DEVICE_MEMORY_EXHAUSTED)
    assert diagnosis.category == "oom"
    assert "op.kernel_on_chip_memory_exceeded" not in rules_of(diagnosis)
