"""Log shapes from vendor troubleshooting pages: a plog excerpt whose line breaks were lost,
the task scheduler's dump of an AI Core's instruction cache at a failing PC, and the short
torch errors the torch_npu guide pairs with its ERR summaries (a collective handed a
non-contiguous tensor, an op handed tensors on two devices, autograd refusing a tensor an
in-place op changed). Fixtures are written here in those formats with our own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# docs/labelling.md#wrappers (a block pasted with its line breaks turned into spaces)
FLATTENED_PLOG = (
    "[ERROR] HCCL(6120,pretrain):2026-05-14-21:03:10.511.204 [hccl_socket_manager.cc:816] "
    "[6188][Wait][LinkEstablish]wait socket establish timeout, role[1] rank[5] timeout[120 s] "
    "[ERROR] HCCL(6120,pretrain):2026-05-14-21:03:10.512.033 [hccl_socket_manager.cc:880] "
    "[6188][Wait][LinksEstablishCompleted] is failed. ret[9]. "
    "[ERROR] HCCL(6120,pretrain):2026-05-14-21:03:10.512.140 [hccl_socket_manager.cc:599] "
    "[6188] | 10.8.1.17(4) | 16666 | 10.8.1.18(5) | 0 | client | time out | DISABLE | "
    "[ERROR] HCCL(6120,pretrain):2026-05-14-21:03:10.512.152 [transport_manager.cc:962] "
    "[6188][SetMachinePara]call trace: hcclRet -> 9\n"
)

# One real plog line, long, with one header: read whole.
ONE_LONG_PLOG_LINE = (
    "[ERROR] RUNTIME(6120,python):2026-05-14-21:03:10.511.204 [task_info.cc:1678]6188 "
    "PrintErrorInfoForDavinciTask:Aicore kernel execute failed, device_id=2, stream_id=3, "
    "task_id=118, flip_num=0, fault kernel_name=" + "Mul_" + "a1b2c3d4" * 30 + ", program id=4\n"
)

ICACHE_DUMP = (
    "[ERROR] TSCH(-1,null):2026-05-14-21:02:58.402.117 438 (dieid:0,cpuid:0) "
    "aicore_icache_plat.c:848 check_error_pc_icache_and_hbm_info: stat for dump pc start, "
    "aic_id=6, icache_miss_num=8160, hbm_miss_num=0, compare_num=21, compare_fail_num={fails}\n"
)

NONCONTIGUOUS_ALLREDUCE = """\
Traceback (most recent call last):
  File "ring_sync.py", line 30, in sync
    dist.all_reduce(weights[:, 1])
  File "/opt/py/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 2050, in all_reduce
    work = group.allreduce([tensor], opts)
RuntimeError: Tensors must be contiguous
"""

MIXED_DEVICES = """\
Traceback (most recent call last):
  File "score.py", line 18, in <module>
    logits = torch.matmul(features, head.npu())
RuntimeError: Expected all tensors to be on the same device. Expected NPU tensor, please check whether the input tensor device is correct.
"""

INPLACE_AUTOGRAD = """\
Traceback (most recent call last):
  File "train_step.py", line 77, in step
    loss.backward()
RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.npu.HalfTensor [32, 128]], which is output 0 of GeluBackward0, is at version 3; expected version 2 instead. Hint: the backtrace further above shows the operation that failed to compute its gradient.
"""


def test_a_plog_run_pasted_on_one_line_cites_its_first_line_only() -> None:
    diagnosis = diagnose_text("plog/plog-6120_20260514210310.log", FLATTENED_PLOG)
    assert_reads(diagnosis, "hccl", first_error="wait socket establish timeout")
    assert "LinksEstablishCompleted" not in diagnosis.first_error.text


def test_one_long_plog_line_is_cited_whole() -> None:
    diagnosis = diagnose_text("plog/plog-6120_20260514210310.log", ONE_LONG_PLOG_LINE)
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.endswith("program id=4")


def test_an_instruction_cache_that_fails_its_check_is_a_device_fault() -> None:
    diagnosis = diagnose_text("device-0/ts.log", ICACHE_DUMP.format(fails=2))
    assert diagnosis.category == "device_fault"
    assert "aicore_timeout" in {alt.category for alt in diagnosis.alternatives}


def test_the_cache_dump_alone_reports_an_ai_core_failure() -> None:
    diagnosis = diagnose_text("device-0/ts.log", ICACHE_DUMP.format(fails=0))
    assert_reads(
        diagnosis,
        "aicore_timeout",
        first_error="check_error_pc_icache_and_hbm_info",
        beside=("device_fault",),
    )


def test_a_collective_handed_a_noncontiguous_tensor_is_a_collective_failure() -> None:
    diagnosis = diagnose_text("rank0.log", NONCONTIGUOUS_ALLREDUCE)
    assert diagnosis.category == "hccl"
    assert diagnosis.confidence >= 0.5


def test_an_op_handed_tensors_on_two_devices_is_the_operator_call() -> None:
    diagnosis = diagnose_text("console.log", MIXED_DEVICES)
    assert diagnosis.category == "operator"
    assert diagnosis.confidence >= 0.5


def test_autograd_refusing_an_inplace_change_is_outside_the_taxonomy() -> None:
    diagnosis = diagnose_text("train.log", INPLACE_AUTOGRAD)
    assert_reads(diagnosis, "other", first_error="modified by an inplace operation")
