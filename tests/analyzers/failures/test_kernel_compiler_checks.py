"""What a kernel compiler's own refusal says about what has to change.

A TVM-based kernel compiler (TileLang, TVM, the TBE compiler's uncoded checks) that stops on
its own internal assertion failed on the kernel being built: `operator`, the check the first
error, with `config` (another compiler release or other pass options) beside it. TVM's
container refusing an index says the same in words of its own.
Counterexamples: a communication library's glog check keeps its own reading, and Python's own
index error names no compiler.

A device compiler that refuses an intrinsic the compile target does not offer (`... of
'<intrinsic>' does not support the given target feature`) points at the build's target:
`config`, with the kernel (`operator`) beside it. Counterexample: a diagnostic on the kernel's
own code stays the kernel's.

docs/labelling.md#a-kernel-compiler-that-stops-on-its-own-internal-check,
docs/labelling.md#operator-installation-or-platform-limit
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# a JIT kernel build whose pass met a zero-argument intrinsic; the check's note is TVM's
# container refusing the index, on the line after the check (the check ends in a colon)
JIT_BUILD_CHECK = """\
2026-06-30 10:11:12  [TileLang:tilelang.jit.kernel:INFO]: TileLang begins to compile kernel `main` with `out_idx=[2]`
Traceback (most recent call last):
  File "/work/kernels/fused_cv.py", line 66, in <module>
    f = kernel()
  File "/opt/tilelang/tilelang/jit/__init__.py", line 216, in wrapper
    kernel_result = compile(
tvm.error.InternalError: Check failed: (idx < static_cast<int64_t>(args.size())) is false:
IndexError: indexing 1 on an array of size 1
"""

# the comparison form of the check, pasted alone
COMPARISON_CHECK = (
    "InternalError: Check failed: lanes == 16 (8 vs. 16) : vector copy must move 16 lanes\n"
)

# the container's refusal alone, as an issue's one-line excerpt keeps it
CONTAINER_INDEX_ALONE = "IndexError: indexing 3 on an array of size 2\n"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (JIT_BUILD_CHECK, "Check failed: (idx < static_cast<int64_t>(args.size())) is false"),
        (COMPARISON_CHECK, "Check failed: lanes == 16 (8 vs. 16)"),
        (CONTAINER_INDEX_ALONE, "indexing 3 on an array of size 2"),
    ],
    ids=["jit-build", "comparison", "container-index"],
)
def test_a_kernel_compilers_internal_check_is_the_kernels_failure(text: str, says: str) -> None:
    diagnosis = diagnose_text("build.log", text)
    assert_reads(diagnosis, "operator", first_error=says, beside=("config",))


def test_a_communication_librarys_glog_check_keeps_its_reading() -> None:
    text = (
        "F20260105 10:11:12.131415 2201 comm_setup.cpp:58] Check failed: ret == HCCL_SUCCESS"
        " (7 vs. 0) HcclCommInitRootInfo failed.\n"
    )
    assert diagnose_text("worker.log", text).category == "hccl"


def test_pythons_own_index_error_names_no_compiler() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/work/data/loader.py", line 40, in __getitem__\n'
        "    return self.items[index]\n"
        "IndexError: list index out of range\n"
    )
    assert diagnose_text("rank0.log", text).category != "operator"


# A kernel library's headers for one chip generation compiled for a target that lacks the
# intrinsics they call: the build's target, not the kernel's code, is what has to change.
INTRINSIC_OUTSIDE_TARGET = """\
In file included from /work/kernels/include/pto/common/instr_impl.hpp:120:
/work/kernels/include/pto/npu/a5/TLoad.hpp:88:9: error: function type 'void (__ubuf__ half *, __gm__ half *, unsigned long, unsigned long) noexcept' of 'copy_gm_to_ubuf_align' does not support the given target feature
        copy_gm_to_ubuf_align(dst, src, burst, len);
        ^
gmake[2]: *** [CMakeFiles/rope_kernel.dir/build.make:76: CMakeFiles/rope_kernel.dir/rope_kernel.cpp.o] Error 1
"""


def test_an_intrinsic_the_compile_target_lacks_is_the_builds_target() -> None:
    """docs/labelling.md#operator-installation-or-platform-limit: the build's target does not
    offer the intrinsic; the kernel that could not be built stands beside it. Counterexample: a
    diagnostic on the kernel's own code in the same build stays the kernel's."""
    diagnosis = diagnose_text("build.log", INTRINSIC_OUTSIDE_TARGET)
    assert_reads(
        diagnosis,
        "config",
        first_error="does not support the given target feature",
        beside=("operator",),
    )
    own_code = INTRINSIC_OUTSIDE_TARGET.replace(
        "error: function type 'void (__ubuf__ half *, __gm__ half *, unsigned long, unsigned long)"
        " noexcept' of 'copy_gm_to_ubuf_align' does not support the given target feature",
        "error: no matching function for call to 'copy_gm_to_ubuf_align'",
    )
    assert diagnose_text("build.log", own_code).category == "operator"


# A kernel JIT that shells out to the device compiler and, when the compiler exits non-zero,
# raises its own report quoting the command; the compiler's diagnostics went to the console
# and a paste often keeps only the traceback.
JIT_COMPILER_REPORT_ASCEND = """\
Traceback (most recent call last):
  File "/work/kernels/rms_norm.py", line 88, in <module>
    kernel = rms_norm(4096, 128)
  File "/opt/venv/lib/python3.11/site-packages/tilelang/jit/adapter/libgen.py", line 170, in compile_lib
    raise RuntimeError(f"Compilation Failed! {command}")
RuntimeError: Compilation Failed! ['bisheng', '--cce-aicore-arch=dav-c220', '-O2', '-std=gnu++17', '-xcce', '/tmp/tmpq81c.cpp', '-o', '/tmp/tmpq81c.so']
"""

# the same report from the CUDA backend of the same JIT, the compiler given by its full path
JIT_COMPILER_REPORT_CUDA = (
    "RuntimeError: Compilation Failed! ['/usr/local/cuda/bin/nvcc', '-std=c++17', '--shared',"
    " '/tmp/tmp7u2w.cu', '-gencode', 'arch=compute_90a,code=sm_90a', '-o', '/tmp/tmp7u2w.so']\n"
)

# the compiler's own located diagnostic kept above the report says why, and comes first
JIT_COMPILER_REPORT_WITH_REASON = (
    "/tmp/tmpq81c.cpp:52:9: error: no matching function for call to 'copy_ub_to_gm'\n"
    "1 error generated.\n" + JIT_COMPILER_REPORT_ASCEND
)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (JIT_COMPILER_REPORT_ASCEND, "Compilation Failed! ['bisheng'"),
        (JIT_COMPILER_REPORT_CUDA, "Compilation Failed! ['/usr/local/cuda/bin/nvcc'"),
    ],
    ids=["ascend-report", "cuda-report"],
)
def test_a_kernel_jits_compiler_report_is_the_kernels_build(text: str, says: str) -> None:
    """docs/labelling.md#a-kernel-compiler-that-stops-on-its-own-internal-check: the JIT's report
    that its compiler command failed is the kernel that did not build, `operator` with `config`
    beside it."""
    diagnosis = diagnose_text("build.log", text)
    assert_reads(
        diagnosis,
        "operator",
        first_error=says,
        rule="op.kernel_jit_compiler_failed",
        beside=("config",),
    )


def test_the_compilers_located_diagnostic_comes_before_the_jits_report() -> None:
    """A located diagnostic of the compiler printed above the report says why and is the first
    error; the report stays evidence of the same failure."""
    diagnosis = diagnose_text("build.log", JIT_COMPILER_REPORT_WITH_REASON)
    assert_reads(
        diagnosis,
        "operator",
        first_error="no matching function for call to 'copy_ub_to_gm'",
        rule="op.kernel_jit_compiler_failed",
    )


def test_the_raise_statement_of_the_jit_is_no_report() -> None:
    """Counterexample: the traceback's source line that builds the message is code, not a
    failed build."""
    text = (
        '  File "/opt/venv/lib/python3.11/site-packages/tilelang/jit/adapter/libgen.py", line 170\n'
        '    raise RuntimeError(f"Compilation Failed! {command}")\n'
    )
    assert "op.kernel_jit_compiler_failed" not in rules_of(diagnose_text("build.log", text))
