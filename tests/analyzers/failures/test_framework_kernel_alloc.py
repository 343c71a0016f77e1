"""A framework's allocator refusing a kernel its inputs, outputs or workspace (MindSpore).

MindSpore takes each kernel's memory from its own pool just before the kernel runs and logs
the refusal at ERROR with the kernel's name; the Python exception that ends the run restates
it later. The logged refusal is the first error and the label is `oom`. Fixtures are written
in the real shapes with their own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

REFUSAL_THEN_EXCEPTION = """\
[WARNING] PRE_ACT(40412,7f3ab17fe700,python):2026-01-12-08:14:02.300.900 [mindspore/ccsrc/backend/common/mem_reuse/mem_dynamic_allocator.cc:303] CalMemBlockAllocSize] Memory not enough: current free memory size[0] is smaller than required size[8388608].
[ERROR] DEVICE(40412,7f3ab17fe700,python):2026-01-12-08:14:02.301.118 [mindspore/ccsrc/runtime/pynative/run_op_helper.cc:383] MallocForKernelOutput] Allocate output memory failed, node:Default/MatMul-op88
Traceback (most recent call last):
  File "/work/finetune/train.py", line 140, in <module>
    loss = step(batch)
RuntimeError: Malloc for kernel output failed, Memory isn't enough, node:Default/MatMul-op88
"""

REFUSAL_ALONE = """\
[INFO] ME(40412:139890,MainProcess):2026-01-12-08:14:01.100.000 [train.py:120] start training
[ERROR] DEVICE(40412,7f3ab17fe700,python):2026-01-12-08:14:02.301.118 [mindspore/ccsrc/runtime/pynative/run_op_helper.cc:402] MallocForKernelWorkspace] Allocate workspace memory failed, node:Default/network/FlashAttentionScore-op5
"""

BLOCK_HANDED_OUT = """\
[DEBUG] DEVICE(40412,7f3ab17fe700,python):2026-01-12-08:14:02.300.001 [mindspore/ccsrc/runtime/pynative/run_op_helper.cc:370] MallocForKernelOutput] Allocate output memory for node:Default/MatMul-op88, size:1048576
"""


def test_the_logged_refusal_leads_the_exception_that_restates_it() -> None:
    diagnosis = diagnose_text("finetune/train.log", REFUSAL_THEN_EXCEPTION)
    assert_reads(diagnosis, "oom", first_error="Allocate output memory failed")


def test_the_refusal_alone_is_a_confident_oom() -> None:
    diagnosis = diagnose_text("finetune/train.log", REFUSAL_ALONE)
    assert diagnosis.category == "oom"
    assert diagnosis.confidence >= 0.8
    assert diagnosis.first_error is not None
    assert "Allocate workspace memory failed" in diagnosis.first_error.text


def test_a_block_handed_out_is_no_failure() -> None:
    diagnosis = diagnose_text("finetune/train.log", BLOCK_HANDED_OUT)
    assert diagnosis.category != "oom"
