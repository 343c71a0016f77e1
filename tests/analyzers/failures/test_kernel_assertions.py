"""A kernel's own assertion, dumped from the device, is read before the core failure it causes.

An Ascend C kernel that checks its inputs on the device prints the failed condition through
the kernel dump (`DumpHead: ...` then `[ASSERT] <file>:<line>: Assertion `<cond>' <text>`),
with no error word, and the core then stops: the runtime reports the vector / AI Core
exception. The assertion says why, so it is the first error; the label stays the device's,
as for every core exception, with the op's inputs and a device-side assert as alternatives.
Counterexamples: the word ASSERT without a located condition is no assertion; a CUDA-style
kernel assertion keeps its own label; the core exception alone is still the first error.

docs/labelling.md#an-operator-name-decides-nothing
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

ASSERT_THEN_CORE_EXCEPTION = """\
DumpHead: AIV-3, CoreType=AIV, block dim=8, total_block_num=8, block_remain_len=640, block_initial_space=1024, rsv=0, magic=5aa5bccd
[ASSERT] [CANN_VERSION : 8.5.0][TimeStamp : 20260301] /opt/ops/ascendc/topk_router/topk_router.h:118: Assertion `k <= expertNum' k 12 is larger than the expert count 8.
[rank3]:[W301 10:20:31.004511220 CopyKernelOpApi.cpp:58] Warning: EZ9999: Inner Error!
EZ9999[PID: 7720] 2026-03-01-10:20:31.004.400 (EZ9999):  The error from device(chipId:3, dieId:0), serial number is 2, there is an exception of aivec error, core id is 11, error code = 0, dump info: pc start: 0x12c0a0010000, current: 0x12c0a0010480
"""

CORE_EXCEPTION_ALONE = ASSERT_THEN_CORE_EXCEPTION.split("\n", 2)[2]

# the ops packages' kernels word the assertion as C's assert does, with the kernel's function
# between the place and the condition, and the dump names the failing block first
FUNCTION_QUALIFIED_ASSERT = """\
[AIV Block 7/40] [ASSERT] /opt/ops/ascendc/gather_guard/gather_guard.h:88: void GatherGuard<int>::Run(uint32_t) [T = int]: Assertion `(pos < limit)' failed.
The extend info: errcode:(0, 0, 0) errorStr: timeout or trap error. fixp_error0 info: 0x2a11, fixp_error1 info: 0x3f, fsmId:0, tslot:2, thread:0, ctxid:0, blk:7, sublk:0, subErrType:2.
        launch failed for GatherGuardMetadata, errno:361001.
"""

# the same wording from a host program's own assert (no kernel dump tag) is no device fault
HOST_ASSERT_WITH_FUNCTION = """\
python3: /opt/src/block_pool.cc:41: void BlockPool::take(size_t): Assertion `free_ > 0' failed.
Aborted (core dumped)
"""

ASSERT_WORD_ONLY = """\
[ASSERT] checks are compiled into this build (ASCENDC_DUMP=1)
"""

CUDA_STYLE_ASSERT = """\
/src/aten/native/cuda/ScatterGather.cu:365: scatter_gather_elementwise_kernel: block: [4,0,0], thread: [12,0,0] Assertion `idx_dim >= 0 && idx_dim < index_size && "index out of bounds"` failed.
"""

CUDA_ASSERT_IN_OPERATOR_THEN_WATCHDOG = """\
/opt/torch/aten/src/ATen/native/cuda/IndexKernel.cu:93: operator(): block: [812,0,0], thread: [64,0,0] Assertion `-sizes[i] <= index && index < sizes[i] && "index out of bounds"` failed.
/opt/torch/aten/src/ATen/native/cuda/IndexKernel.cu:93: operator(): block: [812,0,0], thread: [65,0,0] Assertion `-sizes[i] <= index && index < sizes[i] && "index out of bounds"` failed.
[rank2]:[E301 10:20:31.004511220 ProcessGroupNCCL.cpp:1595] [PG ID 0 PG GUID 0(default_pg) Rank 2] Process group watchdog thread terminated with exception: CUDA error: device-side assert triggered
"""


def test_a_kernel_assertion_is_the_first_error_of_the_core_exception() -> None:
    diagnosis = diagnose_text("serve/worker3.log", ASSERT_THEN_CORE_EXCEPTION)
    assert_reads(diagnosis, "aicore_timeout", first_error="Assertion `k <= expertNum'")
    assert {"operator", "device_fault"} <= {alt.category for alt in diagnosis.alternatives}


def test_the_core_exception_alone_is_still_the_first_error() -> None:
    diagnosis = diagnose_text("serve/worker3.log", CORE_EXCEPTION_ALONE)
    assert_reads(diagnosis, "aicore_timeout", first_error="there is an exception of aivec error")


def test_the_word_assert_without_a_located_condition_is_no_error() -> None:
    assert diagnose_text("serve/worker3.log", ASSERT_WORD_ONLY).first_error is None


def test_a_cuda_style_kernel_assertion_keeps_its_own_label() -> None:
    diagnosis = diagnose_text("train/rank0.log", CUDA_STYLE_ASSERT)
    assert diagnosis.category == "device_fault"


def test_a_cuda_assertion_in_an_operator_kernel_comes_before_the_watchdog() -> None:
    diagnosis = diagnose_text("train/rank2.log", CUDA_ASSERT_IN_OPERATOR_THEN_WATCHDOG)
    assert_reads(diagnosis, "device_fault", first_error="thread: [64,0,0] Assertion")


def test_a_function_qualified_kernel_assertion_is_the_device_failure() -> None:
    diagnosis = diagnose_text("serve/worker1.log", FUNCTION_QUALIFIED_ASSERT)
    assert_reads(diagnosis, "aicore_timeout", first_error="Assertion `(pos < limit)' failed.")
    assert {"operator", "device_fault"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_host_assert_with_its_function_is_not_a_kernel_assertion() -> None:
    diagnosis = diagnose_text("serve/worker1.log", HOST_ASSERT_WITH_FUNCTION)
    assert diagnosis.category != "aicore_timeout"


# Older dumps print the place and the condition on lines of their own, with no tag, before the
# vector core's exception.
SPLIT_ASSERT_THEN_KERNEL_ERROR = """\
CANN_VERSION : 8.0.RC3
opp/built-in/op_impl/ai_core/tbe/impl/dynamic/../ascendc/scatter_nd/scatter_nd_base.h:211
Assertion `(idx < this->outRows_)' Index 9001 out of range[0 8192)!

 AIV Kernel happen error, retCode=0x31.[FUNC:GetError][FILE:stream.cc][LINE:1119]
"""

# Counterexample: C's assert message on a line of its own (`failed.`) is no kernel's.
BARE_HOST_ASSERT_LINE = """\
Assertion `queue_.empty()' failed.
Aborted (core dumped)
"""


def test_an_untagged_condition_line_is_the_kernel_assertion() -> None:
    diagnosis = diagnose_text("bench/throughput.log", SPLIT_ASSERT_THEN_KERNEL_ERROR)
    assert_reads(diagnosis, "aicore_timeout", first_error="Assertion `(idx < this->outRows_)'")
    assert {"operator", "device_fault"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_bare_failed_assert_line_is_not_a_kernel_assertion() -> None:
    diagnosis = diagnose_text("bench/throughput.log", BARE_HOST_ASSERT_LINE)
    assert diagnosis.category != "aicore_timeout"


# A paste that wrapped the dump: the tag and the place stand alone, the condition and the
# kernel's message follow on lines of their own, and the host's synchronize reports after.
WRAPPED_TAGGED_ASSERT_THEN_SYNCHRONIZE = """\
[ASSERT] .../ascendc/index_pick/index_pick_base.h:96:
         Assertion `(0 <= idx && idx < this->rows_)'
         Index 77312040 out of range[0 128)!
...
[ERROR] ... function backend_synchronize at npu_backend.cpp:410
        aclrtSynchronizeStream(ctx->stream())
"""

# Counterexamples: the tag before a place that is no source file, and the tag before text.
TAG_BEFORE_NO_SOURCE_PLACE = """\
[ASSERT] dump buffer at 0x12c0a0010000:
[ASSERT] checks enabled:
"""


def test_a_tagged_place_standing_alone_is_the_kernel_assertion() -> None:
    diagnosis = diagnose_text("infer/run.log", WRAPPED_TAGGED_ASSERT_THEN_SYNCHRONIZE)
    assert_reads(
        diagnosis,
        "aicore_timeout",
        first_error="index_pick_base.h:96:",
        rule="aicore.kernel_assertion",
        beside=("operator",),
    )


def test_the_tag_before_no_source_place_is_no_assertion() -> None:
    diagnosis = diagnose_text("infer/run.log", TAG_BEFORE_NO_SOURCE_PLACE)
    assert diagnosis.category != "aicore_timeout"
