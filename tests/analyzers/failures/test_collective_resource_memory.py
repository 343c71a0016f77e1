"""Collective libraries that could not get device memory for their own resources.

docs/labelling.md#communication-resources-refused-for-want-of-memory: HCCL and NCCL allocate
their buffers, queue pairs and notify records outside the framework's allocator. When CANN's
allocation-failure message gives memory as the reason, or NCCL's WARN line carries the CUDA
runtime's out-of-memory answer, the label is `oom` (the collective layer, `hccl`, is the
alternative) and that line is the first error, ahead of the op's headline, the per-peer
transport lines and torch's restatement; CANN's EL0004 says so when it names HCCL as the
module whose request was refused. The same message with another reason keeps the
code's reading. Fixtures follow the real shapes with ranks, sizes and addresses of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import (
    alternative_labels,
    assert_reads,
    diagnose_files,
    diagnose_text,
    rules_of,
)

HCCL_QP_BLOCK = """\
[rank4]:[E302 10:15:07.118204551 compiler_depend.ts:444] operator():build/CMakeFiles/torch_npu.dir/compiler_depend.ts:161 NPU function error: call aclnnMoeDistributeCombineV3 failed, error code is 561000
[ERROR] 2026-03-02-10:15:07 (PID:4410, Device:4, RankID:-1) ERR00100 PTA call acl api failed.
[PID: 4410] 2026-03-02-10:15:07.004.512 Allocation_Failure(EI0007): Failed to allocate resource[qp] with info [aicpu rank:4,localUserrank:4,localIpAddr: 10.0.3.14,deviceLogicId:4,send_cq_depth:16384]. Reason: Memory resources are exhausted.
        Possible Cause: Failed to allocate memory or the Notify register due to resource insufficiency.
        TraceBack (most recent call last):
        Transport init error. Reason: [Create][DestLink]Create Dest error! creakLink para:rank[4]-localUserrank[4]-localIpAddr[10.0.3.14], dst_rank[12]-remoteUserrank[12]-remote_ip_addr[10.0.3.22]
"""

HCCL_COUNT_LIMIT_BLOCK = """\
[PID: 4410] 2026-03-02-10:15:07.004.512 Allocation_Failure(EI0007): Failed to allocate resource[notify] with info [rank:4]. Reason: The number of resources exceeds the upper limit.
"""

NCCL_TRACEBACK = """\
  File "torch/distributed/distributed_c10d.py", line 2810, in all_reduce
    work = group.allreduce([tensor], opts)
torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5
"""

NCCL_DEBUG = """\
trainer-1:7301:7388 [3] NCCL INFO Channel 02/0 : 3[3] -> 0[0] via P2P/IPC
trainer-1:7301:7388 [3] include/alloc.h:178 NCCL WARN Cuda failure 2 'out of memory'
trainer-1:7301:7388 [3] include/alloc.h:185 NCCL WARN Failed to CUDA calloc 2097152 bytes
trainer-1:7301:7390 [3] proxy.cc:1519 NCCL WARN [Proxy Service 3] Failed to execute operation Setup from rank 3, retcode 1
"""

NCCL_LAST_ERROR_QUOTED = """\
  File "deepspeed/comm/torch.py", line 117, in broadcast
    return torch.distributed.broadcast(tensor=tensor, src=src, group=group, async_op=async_op)
torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1691, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3
ncclUnhandledCudaError: Call to CUDA function failed.
Last error:
Cuda failure 2 'out of memory'
"""

# The same quote when NCCL's allocator gave the size it could not get: ZeRO's all-to-all on two
# nodes under the deepspeed launcher, each line behind pdsh's host name.
NCCL_LAST_ERROR_CALLOC = """\
trainer-2:   File "/opt/venv/lib/python3.10/site-packages/deepspeed/runtime/zero/stage3.py", line 1140, in __reduce_and_partition_ipg_grads
trainer-2:     work = group.alltoall_base(
trainer-2: RuntimeError: NCCL error in: /opt/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1275, internal error, NCCL version 2.18.1
trainer-2: ncclInternalError: Internal check failed.
trainer-2: Last error:
trainer-2: Failed to CUDA calloc async 3072 bytes
"""

# Counterexample: the allocator's words inside a sentence of the job's own are no quote.
CALLOC_IN_A_SENTENCE = """\
[2026-03-02 10:15:07,118] [INFO] [engine.py:120] retry note: Failed to CUDA calloc 64 bytes once during warm-up, recovered
"""

NCCL_LAST_ERROR_OTHER = """\
torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5
ncclUnhandledCudaError: Call to CUDA function failed.
Last error:
Cuda failure 1 'invalid argument'
"""

# A diffusion worker's all-gather under HSDP: CANN's EL0004 names HCCL as the module whose
# request the driver refused, in the worker's error log.
HCCL_MODULE_EL0004 = """\
ERROR 05-14 09:41:08 [dit_worker.py:466] [PID: 3310] 2026-05-14-09:41:07.512.880 Memory_Allocation_Failure(EL0004): Failed to allocate memory requested by HCCL module.
ERROR 05-14 09:41:08 [dit_worker.py:466]         Possible Cause: Available memory is insufficient.
ERROR 05-14 09:41:08 [dit_worker.py:466]         Solution: Close applications not in use.
ERROR 05-14 09:41:08 [dit_worker.py:466]         TraceBack (most recent call last):
ERROR 05-14 09:41:08 [dit_worker.py:466]         alloc memory failed, runtime result = 207001[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:148]
ERROR 05-14 09:41:08 [dit_worker.py:466]         Failed to allocate [size:268435456] bytes of NPU memory.
"""

# The same code for the framework's own allocation names no module and no collective.
PLAIN_EL0004 = """\
[PID: 3310] 2026-05-14-09:41:07.512.880 Memory_Allocation_Failure(EL0004): Failed to allocate memory.
        Possible Cause: Available memory is insufficient.
        Solution: Close applications not in use.
"""

NCCL_INVALID_ARGUMENT = """\
trainer-1:7301:7388 [3] include/alloc.h:99 NCCL WARN Cuda failure 1 'invalid argument'
"""


def test_an_hccl_resource_refused_for_memory_is_oom_with_hccl_beside_it() -> None:
    diagnosis = diagnose_text("serve/worker_4.log", HCCL_QP_BLOCK)
    assert_reads(diagnosis, "oom", first_error="Failed to allocate resource[qp]", beside=("hccl",))


def test_the_same_message_with_another_reason_keeps_the_code_reading() -> None:
    diagnosis = diagnose_text("serve/worker_4.log", HCCL_COUNT_LIMIT_BLOCK)
    assert diagnosis.category == "hccl", diagnosis.root_cause


def test_nccl_refused_its_buffers_for_memory_before_torch_restated_it() -> None:
    diagnosis = diagnose_files({"train.log": NCCL_TRACEBACK, "nccl_debug.log": NCCL_DEBUG})
    assert_reads(diagnosis, "oom", first_error="out of memory", beside=("hccl",))


def test_an_nccl_runtime_refusal_for_another_reason_is_not_memory() -> None:
    diagnosis = diagnose_text("nccl_debug.log", NCCL_INVALID_ARGUMENT)
    assert diagnosis.category != "oom", diagnosis.root_cause


def test_nccls_last_error_quoted_by_torch_names_its_buffers_without_nccl_debug() -> None:
    """No NCCL_DEBUG output: torch's exception quotes NCCL's last error on a line of its
    own, and that quote is the NCCL buffer refusal, with NCCL's advice."""
    diagnosis = diagnose_text("train.log", NCCL_LAST_ERROR_QUOTED)
    assert diagnosis.category == "oom", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.strip() == "Cuda failure 2 'out of memory'"
    assert "NCCL could not allocate its device buffers" in diagnosis.root_cause
    assert any("NCCL_BUFFSIZE" in action for action in diagnosis.next_actions)
    assert "hccl" in alternative_labels(diagnosis)


def test_a_quoted_last_error_for_another_reason_is_not_memory() -> None:
    diagnosis = diagnose_text("train.log", NCCL_LAST_ERROR_OTHER)
    assert diagnosis.category != "oom", diagnosis.root_cause


def test_el0004_for_a_request_of_the_hccl_module_is_oom_with_hccl_beside_it() -> None:
    diagnosis = diagnose_text("worker_1.log", HCCL_MODULE_EL0004)
    assert_reads(diagnosis, "oom", first_error="requested by HCCL module", beside=("hccl",))


def test_el0004_that_names_no_module_offers_no_collective() -> None:
    diagnosis = diagnose_text("worker_1.log", PLAIN_EL0004)
    assert diagnosis.category == "oom", diagnosis.root_cause
    assert "hccl" not in alternative_labels(diagnosis)


def test_a_quoted_calloc_refusal_is_nccl_short_of_device_memory() -> None:
    """NCCL's allocator quoted under `Last error:` with the size it could not get, behind a
    launcher's host prefix: the buffer refusal, ahead of the internal error that restates it."""
    diagnosis = diagnose_text("stdout.log", NCCL_LAST_ERROR_CALLOC)
    assert_reads(
        diagnosis,
        "oom",
        first_error="Failed to CUDA calloc async 3072 bytes",
        rule="oom.nccl_buffer_alloc_failed",
        beside=("hccl",),
    )


def test_the_allocator_words_inside_a_sentence_are_no_quote() -> None:
    diagnosis = diagnose_text("train.log", CALLOC_IN_A_SENTENCE)
    assert "oom.nccl_buffer_alloc_failed" not in rules_of(diagnosis)
