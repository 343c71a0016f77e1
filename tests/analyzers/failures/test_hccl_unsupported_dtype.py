"""A collective whose tensor has a dtype the HCCL process group does not take.

docs/labelling.md#a-collective-that-refuses-the-tensors-one-rank-handed-it: torch_npu's HCCL process group
checks a collective's tensor dtype before it calls HCCL and names the collective and the
refused type (`HCCL AllReduce & Reduce: Unsupported data type at::kByte/at::kBool`). A flag
kept as a byte or bool tensor (an overflow check, a done flag) and reduced across ranks is the
usual trigger; casting it to int is the fix. The collective layer refused it: `hccl`, with
`operator` beside it, and the refusal is the first error. Lines of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "hccl.collective_dtype_unsupported"

BYTE_FLAG_REDUCED = """\
Traceback (most recent call last):
  File "/work/train.py", line 210, in <module>
    engine.step()
  File "/opt/conda/lib/python3.9/site-packages/deepspeed/runtime/utils.py", line 261, in has_overflow
    dist.all_reduce(overflow_flag, op=dist.ReduceOp.MAX, group=group)
  File "/opt/conda/lib/python3.9/site-packages/torch/distributed/distributed_c10d.py", line 2050, in all_reduce
    work = group.allreduce([tensor], opts)
RuntimeError: HCCL AllReduce & Reduce: Unsupported data type at::kByte/at::kBool
"""

PREFIXED = """\
[rank3]: RuntimeError: HCCL AllReduce & Reduce: Unsupported data type at::kBool
"""

SUPPORTED_LIST = """\
INFO HCCL supports data types int8, int32, float16, float32 and bfloat16 for AllReduce
"""


def test_the_process_group_refusing_a_byte_flag_is_the_collective_and_the_first_error() -> None:
    diagnosis = diagnose_text("train.log", BYTE_FLAG_REDUCED)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="HCCL AllReduce & Reduce: Unsupported data type at::kByte/at::kBool",
        rule=RULE,
        beside=["operator"],
    )


def test_a_rank_prefixed_refusal_reads_the_same() -> None:
    diagnosis = diagnose_text("rank3.log", PREFIXED)
    assert_reads(diagnosis, "hccl", first_error="Unsupported data type at::kBool", rule=RULE)


def test_a_list_of_supported_types_is_no_refusal() -> None:
    assert RULE not in rules_of(diagnose_text("train.log", SUPPORTED_LIST))
