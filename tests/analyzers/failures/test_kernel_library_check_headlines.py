"""A kernel library's own check headline, thrown from the op's launcher.

docs/labelling.md#a-kernel-librarys-runtime-call-that-fails: a library that names the function
and the source line of its failed check (`Error in function '<fn>' at <file>.cu:<line>: ...`)
reports the op's own failure, `operator`; when the message after it names a device fault the
device-fault reading stands. Fixtures are written in the shape of a serving engine's scheduler
log, with paths, names and numbers of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text

GEMM_CHECK = """\
[2026-03-02 10:14:55 TP3] Prefill batch. #new-seq: 4, #new-token: 2048
RuntimeError: Error in function 'launch' at /opt/kern/csrc/grouped_moe_runner.cu:131: Failed to initialize the grouped GEMM (tile 64x8x256, experts 32)
[2026-03-02 10:14:55 TP3] Scheduler hit an exception: Traceback (most recent call last):
  File "/srv/engine/scheduler.py", line 812, in run_scheduler_process
    scheduler.event_loop()
"""

ILLEGAL_ACCESS = """\
RuntimeError: Error in function 'reduce' at /opt/kern/csrc/attn_reduce.cu:77: Failed to launch kernel: an illegal memory access was encountered
"""

RECIPE = """\
ValueError: Error in function 'parse_args' at line 3 of the recipe: unknown key
"""


def test_a_kernel_librarys_check_headline_is_the_operator() -> None:
    diagnosis = diagnose_text("serve.log", GEMM_CHECK)
    assert diagnosis.category == "operator", diagnosis.root_cause
    assert diagnosis.confidence >= 0.5
    assert {a.category for a in diagnosis.alternatives} >= {"device_fault"}
    assert diagnosis.first_error is not None
    assert "grouped_moe_runner.cu:131" in diagnosis.first_error.text


def test_the_same_headline_over_an_illegal_access_stays_a_device_fault() -> None:
    diagnosis = diagnose_text("serve.log", ILLEGAL_ACCESS)
    assert diagnosis.category == "device_fault", diagnosis.root_cause


def test_a_headline_without_a_source_line_is_not_a_kernel_check() -> None:
    diagnosis = diagnose_text("recipe.log", RECIPE)
    assert diagnosis.category != "operator", diagnosis.root_cause


# A kernel library op that calls the CUDA runtime from its own C++ and raises the call's name
# with the runtime's answer in words, under a serving engine's scheduler (names of our own).
RUNTIME_CALL_ANSWER = """\
[2026-04-11 08:20:31 TP2] Prefill batch. #new-seq: 2, #new-token: 1024
  File "/opt/venv/lib/python3.12/site-packages/kvkern/copy_ops.py", line 88, in backup_pages
    torch.ops.kvkern.copy_pages_batched.default(
  File "/opt/venv/lib/python3.12/site-packages/torch/_ops.py", line 865, in __call__
    return self._op(*args, **kwargs)
RuntimeError: cudaMemcpyBatchAsync failed. failIdx=7 error=invalid argument

[2026-04-11 08:20:31 TP5] Scheduler hit an exception: Traceback (most recent call last):
  File "/srv/engine/scheduler.py", line 812, in run_scheduler_process
    scheduler.event_loop()
"""

RUNTIME_CALL_ILLEGAL_ACCESS = """\
RuntimeError: cudaMemcpyBatchAsync failed. failIdx=7 error=an illegal memory access was encountered
"""

RUNTIME_CALL_FALLBACK_WARNING = """\
[2026-04-11 08:20:31 TP2] WARNING: cudaHostRegister failed, falling back to pageable copies
[2026-04-11 08:20:35 TP2] Decode batch. #running-req: 4, #token: 5120
[2026-04-11 08:20:40 TP2] Decode batch. #running-req: 4, #token: 5184
"""


def test_a_kernel_ops_runtime_call_with_the_runtimes_answer_is_the_operator() -> None:
    diagnosis = diagnose_text("serve.log", RUNTIME_CALL_ANSWER)
    assert diagnosis.category == "operator", diagnosis.root_cause
    assert diagnosis.confidence >= 0.5
    assert {a.category for a in diagnosis.alternatives} >= {"config", "device_fault"}
    assert diagnosis.first_error is not None
    assert "cudaMemcpyBatchAsync failed" in diagnosis.first_error.text


def test_the_same_call_answering_an_illegal_access_stays_a_device_fault() -> None:
    diagnosis = diagnose_text("serve.log", RUNTIME_CALL_ILLEGAL_ACCESS)
    assert diagnosis.category == "device_fault", diagnosis.root_cause


def test_a_runtime_call_that_fell_back_is_no_operator_failure() -> None:
    diagnosis = diagnose_text("serve.log", RUNTIME_CALL_FALLBACK_WARNING)
    assert diagnosis.category != "operator", diagnosis.root_cause


# A kernel library whose ops check their own launch names the op and the kernel variant and
# says nothing more; a serving engine's scheduler rank raises it at the first request (names
# of our own).
OP_LAUNCH_CHECK = """\
[2026-05-20 11:04:12 TP6] Prefill batch. #new-seq: 1, #new-token: 37
[2026-05-20 11:04:12 TP6] Scheduler hit an exception: Traceback (most recent call last):
  File "/opt/venv/lib/python3.12/site-packages/engine/layers/moe/marlin_moe.py", line 230, in fused_moe
    topk_gather(
  File "/opt/venv/lib/python3.12/site-packages/kernlib/moe.py", line 61, in topk_gather
    torch.ops.kernlib.topk_gather.default(
  File "/opt/venv/lib/python3.12/site-packages/torch/_ops.py", line 841, in __call__
    return self._op(*args, **kwargs)
RuntimeError: topk_gather CUDA kernel (wide-row) launch failed
"""

# The runtime's own answer for a kernel that faulted while it ran is a device fault.
RUNTIME_LAUNCH_FAILURE = """\
[2026-05-20 11:04:12 TP6] Scheduler hit an exception: Traceback (most recent call last):
RuntimeError: CUDA error: unspecified launch failure
"""


def test_an_ops_own_launch_check_is_the_operator() -> None:
    diagnosis = diagnose_text("serve.log", OP_LAUNCH_CHECK)
    assert diagnosis.category == "operator", diagnosis.root_cause
    assert diagnosis.confidence >= 0.5
    assert diagnosis.first_error is not None
    assert "topk_gather CUDA kernel (wide-row) launch failed" in diagnosis.first_error.text


def test_the_runtimes_unspecified_launch_failure_is_not_read_as_an_op_check() -> None:
    diagnosis = diagnose_text("serve.log", RUNTIME_LAUNCH_FAILURE)
    assert diagnosis.category != "operator", diagnosis.root_cause
