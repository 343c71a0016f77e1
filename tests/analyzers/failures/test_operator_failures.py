"""An operator's name decides nothing: the label says what failed where the op surfaced.

docs/labelling.md#an-operator-name-decides-nothing and
docs/labelling.md#operator-installation-or-platform-limit. Each case is a short excerpt in
the shape torch_npu and CANN print (values are ours); the counterexamples are operators that
really failed on their inputs or limits.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

NO_KERNEL_BINARY = """\
[rank0]: RuntimeError: npu_grouped_matmul:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:77 NPU function error: call aclnnGroupedMatmulV4 failed, error code is 561003
[rank0]: [ERROR] 2026-02-02-03:04:05 (PID:8121, Device:0, RankID:0) ERR01100 OPS call acl api failed
[rank0]: EZ9999: Inner Error!
[rank0]: EZ9999: [PID: 8121] 2026-02-02-03:04:05.111.222 Op GroupedMatmul does not has any binary.[FUNC:GetBinFromOpInfo][FILE:op_bin_selector.cc][LINE:310]
[rank0]:         TraceBack (most recent call last):
[rank0]:         launch failed for GroupedMatmul, errno:561003.
"""

CANNOT_FIND_BIN = """\
[ERROR] OP(4410,python):2026-02-11-07:41:03.512.201 [op_bin.cc:88] Cannot find bin of op MoeGatingTopKSoftmax, integral key 0/1/|float16/ND/float16/ND/
[ERROR] OP(4410,python):2026-02-11-07:41:03.512.260 [op_exec.cc:140] Kernel Run failed. opType: 31, MoeGatingTopKSoftmax
"""

# A kernel library that calls aclnn directly (a ggml-style backend) and aborts on the
# workspace query: aclnn found no tiling function for the op, then its executor's callers.
NO_TILING_FUNCTION = """\
0.11.204.310 E CANN error: EZ9999: Inner Error!
EZ9999[PID: 40112] 2026-05-06-07:08:09.100.200 AclNN_Inner_Error(EZ9999):  Do not find tiling func of ApplyRotaryPosEmb!
        TraceBack (most recent call last):
       Check NnopbaseExecutorDoTiling(executor) failed
       Check NnopbaseExecutorMatchCache(executor) failed
       Check NnopbaseRunForWorkspace(*executor, workspaceSize) failed

0.11.204.322 E   current device: 0, in function rope_forward at /src/backend/cann/ops.cpp:812
0.11.204.324 E   aclnnApplyRotaryPosEmbGetWorkspaceSize(q.get(), k.get(), cos.get(), sin.get(), 1, &workspaceSize, &executor)
"""

CHIP_LACKS_OP = """\
EZ9999: Inner Error!
EZ9999: [PID: 5511] 2026-02-02-03:04:05.111.222 socVersion [Ascend310P3] does not support opType [MoeInitRoutingV2].[FUNC:CheckSupport][FILE:op_api_def.cc][LINE:120]
RuntimeError: npu_moe_init_routing_v2:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:90 NPU function error: call aclnnMoeInitRoutingV2 failed, error code is 561000
"""

MC2_NO_COMM_RESOURCE = """\
[ERROR] HCCL(3301,python):2026-03-03-04:05:06.700.100 [hccl_communicator.cc:5000][3301]MoeDistributeDispatch: alloc hccl resource failed, group [ep_group_0], ret[3]
EZ9999: Inner Error!
EZ9999: [PID: 3301] 2026-03-03-04:05:06.700.300 Op MoeDistributeDispatch prepare failed, ret 3.[FUNC:Mc2Prepare][FILE:mc2_tiling.cc][LINE:201]
RuntimeError: npu_moe_distribute_dispatch:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:120 NPU function error: call aclnnMoeDistributeDispatch failed, error code is 561000
"""

# Counterexamples: the operator itself refused its inputs, or a documented limit was hit.
OP_REJECTS_INPUT = """\
RuntimeError: npu_grouped_matmul:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:77 NPU function error: call aclnnGroupedMatmulV4 failed, error code is 161002
[ERROR] 2026-02-02-03:04:05 (PID:8121, Device:0, RankID:-1) ERR01100 OPS call acl api failed
[PID: 8121] 2026-02-02-03:04:05.111.222 AclNN_Parameter_Error(EZ1001): The dtype of x is float64, which is not in the supported list [float16, bfloat16].
"""

# The aclnn runtime cannot read the kernels package's binary index when it first starts an
# executor; the op named in the wrapper has not run at all.
BINARY_INDEX_UNREADABLE = """\
ERROR 03-09 10:11:12 engine.py:388] call aclnnGeluV2 failed, detail:EZ1001: [PID: 5120] 2026-03-09-10:11:12.131.415 Get path and read binary_info_config.json failed, please check if the opp_kernel package is installed!
ERROR 03-09 10:11:12 engine.py:388]         TraceBack (most recent call last):
ERROR 03-09 10:11:12 engine.py:388]         Check NnopbaseCreateExecutorSpace(&executorSpace) failed
ERROR 03-09 10:11:12 engine.py:388] [ERROR] 2026-03-09-10:11:12 (PID:5120, Device:0, RankID:-1) ERR01100 OPS call acl api failed
"""

TOPK_ABOVE_EXPERTS = """\
[PID: 2201] 2026-03-01-10:00:01.100.200 AclNN_Parameter_Error(EZ1001): topK 16 must not exceed the expert number 8.
RuntimeError: npu_moe_gating_top_k:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:120 NPU function error: call aclnnMoeGatingTopK failed, error code is 161002
"""

# The op-api library's own plog lines for the same kind of refusal: the op, every input's
# dtype and format, then the combinations it has kernels for, one line each. The word
# "weight" in an input's name says nothing about loading weights.
OP_API_DTYPE_FORMAT = """\
[ERROR] OP(7702,python3.11):2026-04-05-06:07:08.101.202 [nnopbase_executor.cpp:1006][NNOP][NnopbasePrintSupportInfo][7702] errno[161002] OpName:[WeightQuantBatchMatmulV2_0] Io input dtype or format not support, get io input info is x(DT_FLOAT16, ND) weight(DT_INT4, ND) antiquantScale(DT_FLOAT, ND) y(DT_FLOAT16, ND) but support list is:
[ERROR] OP(7702,python3.11):2026-04-05-06:07:08.101.260 [nnopbase_executor.cpp:1026][NNOP][NnopbasePrintSupportInfo][7702] errno[161002] OpName:[WeightQuantBatchMatmulV2_0] SupportInfo[0] x(DT_FLOAT16, ND) weight(DT_INT4, ND) antiquantScale(DT_FLOAT16, ND) y(DT_FLOAT16, ND)
[ERROR] OP(7702,python3.11):2026-04-05-06:07:08.101.281 [nnopbase_executor.cpp:1026][NNOP][NnopbasePrintSupportInfo][7702] errno[161002] OpName:[WeightQuantBatchMatmulV2_0] SupportInfo[1] x(DT_BFLOAT16, ND) weight(DT_INT4, ND) antiquantScale(DT_BFLOAT16, ND) y(DT_BFLOAT16, ND)
"""

# A custom operator package's host code refusing one attribute's value, printed bare with no
# code; the two lines after it restate the refusal.
ATTR_VALUE_REFUSED = """\
[ERROR][MoeDistributeCombineV2] Attr commAlg is invalid, current only support fullmesh_v1 and fullmesh_v2, but got commAlg = ring.
[ERROR][MoeDistributeCombineV2] Get special expert, commAlg attr and set tiling data failed.
[ERROR][MoeDistributeCombineV2] Get attr and set tiling data failed.
"""

CASES = [
    # (name, text, label, first error says, alternative shown)
    ("no kernel binary", NO_KERNEL_BINARY, "driver_env", "does not has any binary", "operator"),
    ("cannot find bin", CANNOT_FIND_BIN, "driver_env", "Cannot find bin of op", "operator"),
    ("no tiling function", NO_TILING_FUNCTION, "driver_env", "Do not find tiling func", "operator"),
    (
        "binary index unreadable",
        BINARY_INDEX_UNREADABLE,
        "driver_env",
        "read binary_info_config.json failed",
        "operator",
    ),
    ("chip lacks op", CHIP_LACKS_OP, "config", "does not support opType", "operator"),
    ("mc2 comm resource", MC2_NO_COMM_RESOURCE, "hccl", "alloc hccl resource failed", "operator"),
    ("op rejects input", OP_REJECTS_INPUT, "operator", "not in the supported list", None),
    (
        "op-api dtype/format refusal",
        OP_API_DTYPE_FORMAT,
        "operator",
        "Io input dtype or format not support",
        "config",
    ),
    ("top-k limit", TOPK_ABOVE_EXPERTS, "op_constraint", "must not exceed the expert", None),
    (
        "attr value refused",
        ATTR_VALUE_REFUSED,
        "operator",
        "Attr commAlg is invalid",
        "op_constraint",
    ),
]


@pytest.mark.parametrize(
    ("text", "label", "says", "alternative"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_the_label_follows_what_failed_not_the_op_name(
    text: str, label: str, says: str, alternative: str | None
) -> None:
    diagnosis = diagnose_text("job/rank0.log", text)
    assert_reads(diagnosis, label, first_error=says)
    if alternative:
        assert alternative in alternative_labels(diagnosis)


def test_an_attribute_refusal_is_read_as_the_operators_own_check() -> None:
    diagnosis = diagnose_text("job/server.log", ATTR_VALUE_REFUSED)
    assert diagnosis.confidence >= 0.8
    assert "refused an attribute value" in diagnosis.root_cause


def test_the_restating_lines_alone_name_no_attribute_refusal() -> None:
    restatements = "".join(ATTR_VALUE_REFUSED.splitlines(keepends=True)[1:])
    diagnosis = diagnose_text("job/server.log", restatements)
    assert "refused an attribute value" not in diagnosis.root_cause


def test_an_attribute_refusal_outranks_a_later_wrapper_of_another_writer() -> None:
    text = (
        "[ERROR][GroupedMatmulAdd] Attr splitItem is invalid, only support 0 and 3, but got 2.\n"
        "[ERROR][Launcher] call aclnnGroupedMatmulAdd failed, error code is 561002\n"
    )
    diagnosis = diagnose_text("job/train.log", text)
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.line == 1


TORCH_NPU_DTYPE_REFUSED = """\
Traceback (most recent call last):
  File "<stdin>", line 1, in <module>
RuntimeError: other scalar_type:UInt32is not surpported.
[ERROR] 2026-04-05-06:07:08 (PID:4242, Device:1, RankID:1) ERR01002 OPS invalid type
Traceback (most recent call last):
  File "<stdin>", line 1, in <module>
RuntimeError: mul_out:third_party/op-plugin/op_plugin/ops/opapi/MulKernelNpuOpApi.cpp:40 NPU function error: call aclnnMuls failed, error code is 161002
[ERROR] 2026-04-05-06:09:10 (PID:4242, Device:1, RankID:1) ERR00100 PTA call acl api failed.
[PID: 4242] 2026-04-05-06:09:10.200.300 AclNN_Parameter_Error(EZ1001): Tensor self not implemented for DT_UINT32, should be in dtype support list [DT_FLOAT,DT_INT32].
"""


def test_torch_npus_own_dtype_refusal_is_the_first_error() -> None:
    # torch_npu refuses the scalar type itself (ERR01002 sums it up) before any aclnn call
    diagnosis = diagnose_text("console.log", TORCH_NPU_DTYPE_REFUSED)
    assert_reads(diagnosis, "operator", first_error="scalar_type:UInt32is not surpported")


def test_a_scalar_type_mentioned_without_a_refusal_is_no_error() -> None:
    # near miss: the same field printed by a conversion that went through
    diagnosis = diagnose_text(
        "console.log", "INFO cast to scalar_type:Float32 done, copy is not blocking\n"
    )
    assert diagnosis.category != "operator"


# The matmul family's host check names each input's dtype and refuses the pair under the cube
# unit's precision mode: a chip whose cube has no fp32 path in that mode (a small inference or
# edge chip asked for an fp32 matmul in training). A dtype rejection: `operator`, with the
# setting that picks a dtype the chip supports (`config`) beside it.
MATMUL_DTYPE_REFUSED_UNDER_KEEP_TYPE = """\
  File "/srv/train/.venv/lib/python3.10/site-packages/transformers/models/llama/modeling_llama.py", line 112, in forward
    freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()).transpose(1, 2)
RuntimeError: matmul_implement_npu:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:92 NPU function error: call aclnnMatmul failed, error code is 161002
[ERROR] 2026-03-02-10:11:12 (PID:7310, Device:0, RankID:-1) ERR00100 PTA call acl api failed.
[PID: 7310] 2026-03-02-10:11:12.130.140 AclNN_Parameter_Error(EZ1001): Self dtype DT_FLOAT or mat2 dtype DT_FLOAT not support under keep type mode.
"""

# Near miss: the same check naming a rank it refuses names no dtype and offers no `config`.
MATMUL_RANK_REFUSED = """\
RuntimeError: matmul_implement_npu:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:92 NPU function error: call aclnnMatmul failed, error code is 161002
[ERROR] 2026-03-02-10:11:12 (PID:7310, Device:0, RankID:-1) ERR00100 PTA call acl api failed.
[PID: 7310] 2026-03-02-10:11:12.130.140 AclNN_Parameter_Error(EZ1001): The dim of self should be 2 or 3, but got 5.
"""


def test_a_matmul_refusing_each_inputs_dtype_is_a_dtype_rejection() -> None:
    diagnosis = diagnose_text("train.log", MATMUL_DTYPE_REFUSED_UNDER_KEEP_TYPE)
    assert_reads(diagnosis, "operator", first_error="not support under keep type mode")
    assert "op.not_implemented_dtype" in {e.rule for e in diagnosis.evidence}
    assert "config" in {alt.category for alt in diagnosis.alternatives}


def test_a_matmul_refusing_a_rank_offers_no_dtype_setting() -> None:
    diagnosis = diagnose_text("train.log", MATMUL_RANK_REFUSED)
    assert diagnosis.category == "operator"
    assert "op.not_implemented_dtype" not in {e.rule for e in diagnosis.evidence}


# the runtime finds the op's binary but no kernel function under the entry it was asked for:
# the kernel package was built for another chip or is incomplete, not a wrong argument
KERNEL_ENTRY_MISSING = (
    '[ERROR] APP(5120,python3):2026-04-01-10:11:12.131.415 [log_inner.cpp:78]5133 ExecFuncOpApi:445: "[PTA]:'
    '"Custom hand error: NPU function error: call aclnnGelu failed, error code is 107000 '
    "[ERROR] 2026-04-01-10:11:12 (PID:5120, Device:0, RankID:-1) ERR00100 PTA call acl api failed "
    "[Error]: Parameter verification failed. Invalid_Argument(EE1001): The argument is invalid."
    'Reason: BinaryGetFunctionByEntry failed, funcEntry=3 Solution""\n'
    '[ERROR] APP(5120,python3):2026-04-01-10:11:12.131.430 [log_inner.cpp:78]5133 ExecFuncOpApi:449: "[PTA]:'
    '"Custom hand fail! name=aclnnGelu, ret=100000""\n'
)


def test_a_kernel_entry_the_binary_lacks_is_the_installation_not_the_argument() -> None:
    diagnosis = diagnose_text("plog/plog-5120.log", KERNEL_ENTRY_MISSING)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="BinaryGetFunctionByEntry failed",
        rule="env.op_kernel_binary_missing",
        beside=("operator",),
    )


def test_a_kernel_entry_found_is_no_failure() -> None:
    text = "[INFO] RUNTIME(5120,python3):2026-04-01-10:11:12.131.400 BinaryGetFunctionByEntry ok, funcEntry=3\n"
    diagnosis = diagnose_text("plog/plog-5120.log", text)
    assert "env.op_kernel_binary_missing" not in {e.rule for e in diagnosis.evidence}


# MC2 dispatch's A2 tiling check words its expert bound as "it must no more than N": the
# documented per-rank limit, whether or not the error manager appends its FUNC/FILE tail
MC2_LIMIT_MUST_NO_MORE = """\
[rank5]: RuntimeError: npu_moe_distribute_dispatch:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:63 NPU function error: call aclnnMoeDistributeDispatch failed, error code is 561002
[rank5]: [ERROR] 2026-05-02-10:11:12 (PID:4410, Device:5, RankID:5) ERR01100 OPS call acl api failed
[rank5]: EZ9999: Inner Error!
[rank5]: EZ9999: [PID: 4410] 2026-05-02-10:11:12.301.442 moeExpertNum is 32, in case of unlayered, it must no more than 24.
"""

MC2_LIMIT_BARE = """\
call aclnnMoeDistributeDispatch failed, error code is 561002
moeExpertNum is 40, in case of unlayered, it must no more than 24
MoeDistributeDispatchA2CheckAttrAndSetTiling
"""


@pytest.mark.parametrize("text", [MC2_LIMIT_MUST_NO_MORE, MC2_LIMIT_BARE])
def test_an_mc2_expert_bound_worded_must_no_more_than_is_the_ops_limit(text: str) -> None:
    diagnosis = diagnose_text("rank5.log", text)
    assert_reads(
        diagnosis,
        "op_constraint",
        first_error="it must no more than 24",
        rule="opc.mc2_experts_per_rank",
    )


def test_an_expert_count_stated_beside_a_bound_refuses_nothing() -> None:
    text = (
        "INFO dispatch plan: moeExpertNum is 16, localMoeExpertNum is 2, no more than 24 a rank\n"
    )
    diagnosis = diagnose_text("rank0.log", text)
    assert "opc.mc2_experts_per_rank" not in {e.rule for e in diagnosis.evidence}


# older CANN names the op's kernel config by its bare file name inside the error block; the
# kernels package is what cannot be read, as with the per-chip path
KERNEL_CONFIG_BARE_NAME = """\
[E OpParamMaker.cpp:273] call aclnnMul failed, detail:EZ9999: Inner Error!
EZ9999  Cannot parse json for config file [mul.json].
        TraceBack (most recent call last):
        Failed to parse kernel in mul.json.
        AclOpKernelInit failed opType
        launch failed for Mul, errno:561108.

[ERROR] 2026-02-10-12:03:37 (PID:7103, Device:0, RankID:-1) ERR01005 OPS internal error
"""


def test_a_kernel_config_named_by_its_bare_file_is_the_package_not_the_call() -> None:
    diagnosis = diagnose_text("console.log", KERNEL_CONFIG_BARE_NAME)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Cannot parse json for config file [mul.json]",
        rule="env.op_kernel_binary_missing",
        beside=("operator",),
    )


def test_an_application_config_named_by_its_bare_file_is_not_a_kernel_package() -> None:
    text = "ERROR serving: Cannot parse json for config file [model_config.json].\n"
    diagnosis = diagnose_text("server.log", text)
    assert "env.op_kernel_binary_missing" not in {e.rule for e in diagnosis.evidence}
