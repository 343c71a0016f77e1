"""A collective library that carries no such element type refuses the tensor before sending.

docs/labelling.md#a-collective-that-refuses-the-tensors-one-rank-handed-it: each process group
maps torch's dtype to its library's own type table; a dtype missing there (a Byte or Bool flag
on HCCL, a complex or a bfloat16 tensor on an older NCCL) is refused on the host by the
collective itself. The label is the collective layer's, `hccl`, with the call's argument
(`operator`) and the release (`config`) beside it. The fixtures are written in the formats a
DeepSpeed job on torch_npu and a torchrun worker print, with our own paths and values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# The optimizer's overflow check all-reduces a one-byte flag over the expert-parallel group.
HCCL_BYTE_FLAG = """\
Traceback (most recent call last):
  File "/srv/moe/train.py", line 288, in <module>
    engine.step()
  File "/opt/venv/lib/python3.9/site-packages/deepspeed/runtime/utils.py", line 258, in has_overflow
    dist.all_reduce(overflow_gpu, op=dist.ReduceOp.MAX, group=groups._get_max_expert_parallel_group())
  File "/opt/venv/lib/python3.9/site-packages/torch/distributed/distributed_c10d.py", line 2050, in all_reduce
    work = group.allreduce([tensor], opts)
RuntimeError: HCCL AllReduce & Reduce: Unsupported data type at::kByte/at::kBool
"""

HCCL_TYPE_TABLE = """\
[rank5]:   File "/opt/venv/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 2421, in broadcast
[rank5]:     work = group.broadcast([tensor], opts)
[rank5]: RuntimeError: Unsupported data type for HCCL process group
"""

HCCL_BOOL_PREFIXED = """\
[rank3]: RuntimeError: HCCL AllReduce & Reduce: Unsupported data type at::kBool
"""

NCCL_TYPE_TABLE = """\
[rank1]:   File "/opt/venv/lib/python3.10/site-packages/torch/nn/parallel/distributed.py", line 825, in __init__
[rank1]:     _sync_module_states(
[rank1]: TypeError: Input tensor data type is not supported for NCCL process group: ComplexFloat
"""


def test_hccl_refusing_a_byte_flag_is_the_collective_layer() -> None:
    diagnosis = diagnose_text("train.log", HCCL_BYTE_FLAG)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Unsupported data type at::kByte/at::kBool",
        rule="hccl.collective_dtype_unsupported",
        beside=["operator"],
    )


def test_a_rank_prefixed_refusal_of_a_bool_flag_reads_the_same() -> None:
    diagnosis = diagnose_text("rank3.log", HCCL_BOOL_PREFIXED)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Unsupported data type at::kBool",
        rule="hccl.collective_dtype_unsupported",
    )


def test_the_process_group_type_table_reads_the_same_on_hccl_and_nccl() -> None:
    for path, text in (("rank5.log", HCCL_TYPE_TABLE), ("rank1.log", NCCL_TYPE_TABLE)):
        diagnosis = diagnose_text(path, text)
        assert_reads(
            diagnosis,
            "hccl",
            first_error="data type",
            rule="hccl.collective_dtype_unsupported",
            beside=["config"],
        )


def test_a_cast_before_the_collective_is_no_refusal() -> None:
    diagnosis = diagnose_text(
        "train.log",
        "overflow flag: data type at::kByte is not supported by HCCL all_reduce, casting to int32\n",
    )
    assert "hccl.collective_dtype_unsupported" not in rules_of(diagnosis)


def test_a_list_of_the_types_a_collective_takes_is_no_refusal() -> None:
    diagnosis = diagnose_text(
        "train.log",
        "INFO HCCL supports data types int8, int32, float16, float32 and bfloat16 for AllReduce\n",
    )
    assert "hccl.collective_dtype_unsupported" not in rules_of(diagnosis)
