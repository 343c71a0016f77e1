"""An in-place copy whose two tensors' sizes disagree, as an RL rollout engine reports it.

A trainer sends weights to the rollout engine, which copies each into its own parameter. When
the sizes disagree (an extended vocabulary, expert weights in another layout) the copy op's
host check refuses with the two sizes. The label is the op's (`operator`), and the caller's
mismatched tensors make `shape_mismatch` the alternative.
"""

from __future__ import annotations

from analyzers.core.report import Diagnosis
from tests.analyzers.excerpts import assert_reads, diagnose_text

GLOG_COPY_REFUSED = """\
(WorkerDict pid=5120, ip=10.0.3.4) [rank12]:[E601 02:03:04.050607080 compiler_depend.ts:422] call aclnnInplaceCopy failed, detail:EZ1001: [PID: 5120] 2026-06-01-02:03:04.050.607 151936 and 152064 cannot broadcast.
(WorkerDict pid=5120, ip=10.0.3.4)         TraceBack (most recent call last):
(WorkerDict pid=5120, ip=10.0.3.4)         The size of tensor self [152064] must match the size of tensor src [151936].
(WorkerDict pid=5120, ip=10.0.3.4) [ERROR] 2026-06-01-02:03:04 (PID:5120, Device:4, RankID:12) ERR01100 OPS call acl api failed
"""

WORKER_COPY_REFUSED = """\
(vLLMHttpServer pid=7001) (Worker_TP1 pid=7042) ERROR 06-01 02:03:05 [multiproc_executor.py:932]     param.data.copy_(loaded_weight)
(vLLMHttpServer pid=7001) (Worker_TP1 pid=7042) ERROR 06-01 02:03:05 [multiproc_executor.py:932] RuntimeError: copy_d2d_baseformat_opapi:torch_npu/csrc/aten/ops/op_api/CopyKernelOpApi.cpp:90 NPU function error: call aclnnInplaceCopy failed, error code is 161002
(vLLMHttpServer pid=7001) (Worker_TP1 pid=7042) ERROR 06-01 02:03:05 [multiproc_executor.py:932] [ERROR] 2026-06-01-02:03:04 (PID:7042, Device:1, RankID:-1) ERR00100 PTA call acl api failed.
(vLLMHttpServer pid=7001) (Worker_TP1 pid=7042) ERROR 06-01 02:03:05 [multiproc_executor.py:932] [PID: 7042] 2026-06-01-02:03:04.910.112 AclNN_Parameter_Error(EZ1001): 4096 and 512 cannot broadcast.
"""

FORMAT_REFUSED = """\
RuntimeError: call aclnnInplaceCopy failed, detail:EZ1001: [PID: 5120] 2026-06-01-02:03:04.050.607 the input cannot broadcast to the output format
"""


def alternative_labels(diagnosis: Diagnosis) -> set[str]:
    return {alt.category for alt in diagnosis.alternatives}


def test_a_copy_refusing_two_sizes_is_the_op_with_the_shapes_beside_it() -> None:
    diagnosis = diagnose_text("ray/worker.log", GLOG_COPY_REFUSED)
    assert_reads(
        diagnosis,
        "operator",
        first_error="151936 and 152064 cannot broadcast",
        beside=("shape_mismatch",),
    )


def test_the_error_manager_headline_with_two_sizes_reads_the_same() -> None:
    diagnosis = diagnose_text("ray/rollout.log", WORKER_COPY_REFUSED)
    assert_reads(
        diagnosis,
        "operator",
        first_error="4096 and 512 cannot broadcast",
        beside=("shape_mismatch",),
    )


def test_a_broadcast_refusal_without_two_sizes_offers_no_shapes() -> None:
    diagnosis = diagnose_text("ray/worker.log", FORMAT_REFUSED)
    assert diagnosis.category == "operator"
    assert "shape_mismatch" not in alternative_labels(diagnosis)
