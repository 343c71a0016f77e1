"""A kernel source the CUDA compiler front end rejects, a JIT build tool that cannot open its
own bookkeeping in a shared work directory, and an extension's CUDA check that answers with the
bare code for a binary with no function for the card.

docs/labelling.md#a-kernel-source-the-cuda-compiler-rejects: nvcc's or NVRTC's located
`<file>(<line>): error:` diagnostic in a kernel's source is the kernel's code, `operator`, and
the first error ahead of the driver refusing the image that was never built.
docs/labelling.md#a-compile-cache-that-another-process-changed: ninja failing to open its own
build log or manifest in a JIT directory other processes build into is the shared work
directory, `config`, ahead of the library's `Ninja build failed`.
docs/labelling.md#a-cuda-state-check-of-an-older-torch-release: a THC check in an extension's
kernel file with code 98 or 209 and no name for it is a build without a function for the card,
`config`, ahead of the crash after it.
Values are our own, in the tools' real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text

NVRTC_SOURCE_ERROR = {
    "jit.log": """\
gemmkit/include/gemmkit/impls/sm90_fp8_grouped.cuh(211): error: identifier "cudaTriggerProgrammaticLaunchCompletion" is undefined
1 error detected in the compilation of "kernel.cu".
""",
    "worker.log": """\
[rank2]: RuntimeError: CUDA driver error (csrc/jit/handle.hpp:88): 200 (CUDA_ERROR_INVALID_IMAGE, device kernel image is invalid)
""",
}

# The message may sit on the line below the location, as a paste or a long path wraps it.
NVCC_SOURCE_ERROR_WRAPPED = """\
[1/3] /usr/local/cuda/bin/nvcc -c /srv/cache/attnkit/decode.cu -o decode.cuda.o
/srv/cache/attnkit/include/decode_impl.cuh(57): error:
  no instance of overloaded function "atomicAdd" matches the argument list
1 error detected in the compilation of "/srv/cache/attnkit/decode.cu".
ninja: build stopped: subcommand failed.
RuntimeError: Ninja build failed.
"""

# Counterexample: a warning in the same place is no failure, and CUDA's own `#error` directive
# about its headers keeps the toolkit rule.
NVCC_SOURCE_WARNING = """\
/srv/cache/attnkit/include/decode_impl.cuh(57): warning #177-D: variable "lane" was declared but never referenced
"""

NVCC_HEADERS_DIRECTIVE = """\
/opt/env/include/crt/host_config.h(58): error: #error "CUDA compiler and CUDA toolkit headers are incompatible, please check your include paths"
"""

NINJA_BUILD_LOG_RACED = """\
  File "/srv/venv/lib/python3.12/site-packages/attnkit/jit/cpp_ext.py", line 201, in run_ninja
    raise RuntimeError(msg) from e
[rank5]: RuntimeError: Ninja build failed. Ninja output:
ninja: Entering directory `/root/.cache/attnkit/90_100/cached_ops'
ninja: error: opening build log: No such file or directory
"""

# Counterexample: ninja naming a source it has no rule for is the build's own input.
NINJA_MISSING_SOURCE = """\
ninja: error: '/srv/cache/attnkit/rope.cu', needed by 'rope.cuda.o', missing and no known rule to make it
"""

THC_EXTENSION_CODE_ONLY = """\
THCudaCheck FAIL file=fusedopt/csrc/multi_tensor_lamb_kernel.cu line=143 error=98 : unrecognized error code
Traceback (most recent call last):
  File "train.py", line 88, in <module>
    optimizer.step()
RuntimeError: cuda runtime error (98) : unrecognized error code at fusedopt/csrc/multi_tensor_lamb_kernel.cu:143
Segmentation fault (core dumped)
"""

# Counterexample: another code with no name keeps no build reading.
THC_EXTENSION_OTHER_CODE = """\
THCudaCheck FAIL file=fusedopt/csrc/multi_tensor_lamb_kernel.cu line=143 error=719 : unrecognized error code
"""


def test_nvrtc_source_error_comes_before_the_invalid_image() -> None:
    diagnosis = diagnose_files(NVRTC_SOURCE_ERROR)
    assert_reads(
        diagnosis, "operator", first_error="sm90_fp8_grouped.cuh(211): error:", beside=("config",)
    )


def test_wrapped_nvcc_source_error_is_the_first_error() -> None:
    diagnosis = diagnose_text("build.log", NVCC_SOURCE_ERROR_WRAPPED)
    assert_reads(diagnosis, "operator", first_error="decode_impl.cuh(57): error:")


def test_source_warning_and_header_directive_are_not_the_kernel_rule() -> None:
    assert diagnose_text("build.log", NVCC_SOURCE_WARNING).category != "operator"
    diagnosis = diagnose_text("build.log", NVCC_HEADERS_DIRECTIVE)
    assert diagnosis.category == "config"


def test_ninja_build_log_race_is_the_shared_work_directory() -> None:
    diagnosis = diagnose_text("rank5.log", NINJA_BUILD_LOG_RACED)
    assert_reads(diagnosis, "config", first_error="opening build log", beside=("other",))


def test_ninja_missing_source_is_not_the_race() -> None:
    diagnosis = diagnose_text("build.log", NINJA_MISSING_SOURCE)
    assert not any(e.rule == "cfg.jit_build_dir_bookkeeping_lost" for e in diagnosis.evidence)


def test_extension_thc_check_with_bare_code_98_is_the_build() -> None:
    diagnosis = diagnose_text("train.log", THC_EXTENSION_CODE_ONLY)
    assert_reads(diagnosis, "config", first_error="error=98")


def test_extension_thc_check_with_another_code_is_not_the_build() -> None:
    diagnosis = diagnose_text("train.log", THC_EXTENSION_OTHER_CODE)
    assert not any(e.rule == "cfg.cuda_no_function_code_unnamed" for e in diagnosis.evidence)


XFORMERS_NOT_LOADED_THEN_NONE = """\
WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:
    PyTorch 2.4.0+cu124 with CUDA 1204 (you have 2.2.1+cu121)
    Python  3.11.9 (you have 3.11.4)
  Please reinstall xformers (see https://github.com/facebookresearch/xformers#installing-xformers)
Traceback (most recent call last):
  File "train_unet.py", line 212, in <module>
    main()
[rank1]: NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:
     query       : shape=(2, 4096, 8, 40) (torch.float16)
"""

# Counterexample: with no such warning the refusal is the op's.
XFORMERS_NONE_ALONE = """\
[rank1]: NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:
     query       : shape=(2, 4096, 8, 40) (torch.float16)
"""


def test_xformers_kernels_not_loaded_decides_the_later_refusal() -> None:
    diagnosis = diagnose_text("rank1.log", XFORMERS_NOT_LOADED_THEN_NONE)
    assert_reads(
        diagnosis, "config", first_error="can't load C++/CUDA extensions", beside=("operator",)
    )


def test_xformers_refusal_alone_stays_the_op() -> None:
    diagnosis = diagnose_text("rank1.log", XFORMERS_NONE_ALONE)
    assert diagnosis.category == "operator"


# A ROCm kernel library that builds its modules on first use (aiter) names the module whose
# build failed, then prints the build's history; several tensor-parallel workers build the
# same module into one shared directory at once.
AITER_JIT_BUILD_FAILED = """\
[aiter] start build [module_rope_pos_fwd] under /opt/venv/lib/python3.12/site-packages/aiter/jit/build/module_rope_pos_fwd
(Worker_TP5 pid=7713) [aiter] failed jit build [module_rope_pos_fwd]
(Worker_TP5 pid=7713) -->[History]: Traceback (most recent call last):
(Worker_TP5 pid=7713) -->  File "/opt/venv/lib/python3.12/site-packages/aiter/jit/core.py", line 701, in wrapper
"""

AITER_JIT_BUILD_FAILED_OLDER = """\
(VllmWorkerProcess pid=611) failed build jit [module_norm_fused]
(VllmWorkerProcess pid=611) -->[History]: Traceback (most recent call last):
"""

AITER_JIT_BUILD_NOTES = """\
[aiter] start build [module_rope_pos_fwd] under /opt/venv/lib/python3.12/site-packages/aiter/jit/build/module_rope_pos_fwd
[aiter] finish build [module_rope_pos_fwd], cost 41.2s
"""


def test_aiter_jit_build_failure_is_the_first_error_and_the_build() -> None:
    for text in (AITER_JIT_BUILD_FAILED, AITER_JIT_BUILD_FAILED_OLDER):
        diagnosis = diagnose_text("serve/vllm_tp8.log", text)
        assert diagnosis.category == "config", diagnosis.root_cause
        assert diagnosis.first_error is not None
        assert "jit" in diagnosis.first_error.text
        assert "[module_" in diagnosis.first_error.text
        assert "operator" in {alt.category for alt in diagnosis.alternatives}


def test_aiter_build_start_and_finish_notes_are_no_failure() -> None:
    diagnosis = diagnose_text("serve/vllm_tp8.log", AITER_JIT_BUILD_NOTES)
    assert diagnosis.category != "config", diagnosis.root_cause
