"""The operator compiler's own coded check that stops a kernel build.

docs/labelling.md#operator-installation-or-platform-limit: when the TBE compiler's back end
(TVM) refuses the kernel it lowers, it raises `TVMError: [EBxxxx] Check failed: ...` with a
code of the compiler's range (E9-EB). The op cannot be built for these shapes or attributes:
`operator`, with the op's limits (`op_constraint`) beside it, and the coded check is the first
error ahead of the framework's compile headline. Fixtures follow the real formats with shapes,
ids and paths of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# A graph framework's parallel build of one op, the compiler's coded check at the end.
FRAMEWORK_BUILD = """\
[ERROR] KERNEL(2207,fffe11ffa160,python):2024-03-05-10:11:12.131.415 [mindspore/ccsrc/backend/kernel_compiler/tbe/tbe_kernel_parallel_build.cc:99] TbeOpParallelBuild] task compile Failed, task id:7, cause:TBEException:ERROR:

Traceback (most recent call last):
  File "/usr/local/Ascend/latest/opp/op_impl/built-in/ai_core/tbe/impl/concat_d.py", line 812, in concat_d
    tvm.build(sch, tensor_list, "cce", name=kernel_name)
  File "/usr/local/Ascend/latest/python/site-packages/te/tvm/_ffi/_ctypes/function.py", line 209, in __call__
    raise get_last_ffi_error()
tvm._ffi.base.TVMError: Traceback (most recent call last):
  [bt] (1) /usr/local/Ascend/latest/lib64/libtvm.so(+0x1d40658) [0xffff8a974658]
  [bt] (0) /usr/local/Ascend/latest/lib64/libtvm.so(tvm_dmlc::LogMessageFatal::~LogMessageFatal()+0x4c) [0xffff8a36602c]
  File "storage_rewrite_cce.cc", line 840

TVMError: [EB0000] Check failed: need_nbits <= info->max_num_bits (3145728 vs. 2097152) : concat_ub exceed bound of memory: local.UB ! Current IR Stmt:copy_ubuf_to_gm(...)
"""

# The coded check alone, as a paste cut to the last line.
ALONE = """\
tvm._ffi.base.TVMError: [E90001] Check failed: axis < ndim : reduce axis 6 out of range for a 5-d input
"""

# Counterexample: a TVM check with no compiler code is not this rule's.
UNCODED = """\
TVMError: Check failed: (pval != nullptr) is false: Cannot allocate memory symbolic tensor shape [?, 128]
"""


def test_the_coded_check_under_a_framework_build_is_the_operator() -> None:
    diagnosis = diagnose_text("logs/train.log", FRAMEWORK_BUILD)
    assert_reads(
        diagnosis, "operator", first_error="[EB0000] Check failed", beside=("op_constraint",)
    )


def test_the_coded_check_alone() -> None:
    diagnosis = diagnose_text("logs/train.log", ALONE)
    assert_reads(diagnosis, "operator", first_error="[E90001]", beside=("op_constraint",))


def test_an_uncoded_tvm_check_is_not_read_as_the_compiler_check() -> None:
    diagnosis = diagnose_text("logs/train.log", UNCODED)
    assert "compiler's own coded check" not in diagnosis.root_cause
