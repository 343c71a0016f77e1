"""A kernel's size parameter checked against the few values the kernel is built for.

docs/labelling.md#an-operator-name-decides-nothing: a check of a group, block, page or tile
size that answers with the values the kernel supports is a limit of the op (`op_constraint`,
with `operator` and `config` offered); a size check that lists no values keeps its own reading.
Fixtures follow the shapes torch_npu, vLLM engine cores and extension bindings print; values
are made up.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text

CORE = "(EngineCore_DP0 pid=4410) "


def core(*lines: str) -> str:
    return "".join(f"{CORE}{line}\n" for line in lines)


GROUP_SIZE_LIMIT = core(
    '  File "/usr/local/python3.11.14/lib/python3.11/site-packages/torch/_ops.py", line 841, '
    "in __call__",
    "    return self._op(*args, **kwargs)",
    "RuntimeError: npu_weight_quant_batchmatmul:build/CMakeFiles/torch_npu.dir/"
    "compiler_depend.ts:99 NPU function error: call aclnnWeightQuantBatchMatmulV2 failed, "
    "error code is 161002",
    "[ERROR] 2026-05-06-07:08:09 (PID:4410, Device:0, RankID:-1) ERR00100 PTA call acl api failed.",
    "[PID: 4410] 2026-05-06-07:08:09.101.202 AclNN_Parameter_Error(EZ1001): when weight's "
    "dtype is [int4], weight's format is [FRACTAL_NZ], antiquantGroupSize should be 128 or 64, "
    "but actual antiquantGroupSize is [512].",
)

PAGE_SIZE_LIMIT = """\
Traceback (most recent call last):
  File "/work/bench_paged.py", line 41, in <module>
    out = flash_attn_with_kvcache(q, k_cache, v_cache, block_table=table)
RuntimeError: FlashAttention only supports page_block_size dimension 128 or 256 or 512 or 1024
"""

NO_VALUES_LISTED = core(
    "ValueError: hidden_size 5120 must be divisible by group_size 96",
)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (GROUP_SIZE_LIMIT, "antiquantGroupSize should be 128 or 64"),
        (PAGE_SIZE_LIMIT, "only supports page_block_size dimension 128 or 256"),
    ],
    ids=["quant-group-size", "kv-page-size"],
)
def test_a_size_with_its_supported_values_is_the_ops_limit(text: str, says: str) -> None:
    diagnosis = diagnose_text("run/worker.log", text)
    assert_reads(diagnosis, "op_constraint", first_error=says)
    assert {"operator", "config"} <= {a.category for a in diagnosis.alternatives}


def test_a_size_check_without_values_is_not_a_kernel_limit() -> None:
    diagnosis = diagnose_text("run/worker.log", NO_VALUES_LISTED)
    assert diagnosis.category != "op_constraint"
