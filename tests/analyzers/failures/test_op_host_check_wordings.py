"""Host-side operator refusals in wordings the rules did not know.

docs/labelling.md: the operator base library refuses to run an op whose definition does not
list the chip (an EZ1009 whose reason is the SoC check) — the chip does not offer the op, a
platform limit; an aclnn check that bounds a tensor's dimensions in other words than `dim num`
is the same documented limit; the graph engine's shape inference, as a plog writes it, that
finds one tensor cannot be broadcast to another names two shapes that disagree; and a kernel
compile that stops on a missing header is read at the compiler's line even when the Python
exception carrying the compile log joined it to its message. Values are ours.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

SOC_NOT_CONFIGURED = (
    "npu_rope_cache:../third_party/op-plugin/op_plugin/ops/opapi/RopeCacheNpuOpApi.cpp:41 NPU"
    " function error: call aclnnRopeCache failed, error code is 161001\n"
    "[ERROR] 2026-03-04-05:06:07 (PID:4110, Device:0, RankID:-1) ERR00100 PTA call acl api"
    " failed.\n"
    "[PID: 4110] 2026-03-04-05:06:07.080.900 Execution_Error(EZ1009): Failed to execute operator"
    " RopeCache_0. Reason: SoC version ascend310p verification failed. This SoC is not"
    " configured through the AddConfig API of the OpDef class.\n"
    "TraceBack (most recent call last):\n"
    "        Check nnopExecutor != nullptr failed\n"
)

# Counterexample: the same code with a prototype mismatch as its reason stays the op's.
PROTOTYPE_MISMATCH = (
    "[PID: 4110] 2026-03-04-05:06:07.080.900 Execution_Error(EZ1009): Failed to execute operator"
    " aclnnGroupedMatmulV5_3_GroupedMatmulV5. Reason: The dtype or format of the actual input or"
    " output parameter of the operator is inconsistent with that defined in the operator"
    " prototype OpDef.\n"
)

RANK_BOUND_IN_WORDS = (
    "[rank0]: RuntimeError: aclnnInplaceCopyGetWorkspaceSize call failed, please check!\n"
    "[rank0]: [PID: 7310] 2026-05-06-07:08:09.101.112 AclNN_Parameter_Error(EZ1001): The self"
    " tensor cannot be larger than 8 dimensions.[THREAD:7322]\n"
)

# Counterexample: a bound on a value, not on a tensor's number of dimensions.
VALUE_BOUND = (
    "[PID: 7310] 2026-05-06-07:08:09.101.112 AclNN_Parameter_Error(EZ1001): The value of k"
    " cannot be larger than 1024.\n"
)

PLOG_BROADCAST = (
    "[ERROR] OP(3100,ker_TP1):2026-06-07-08:09:10.111.222 [broadcast_to.cc:102][OP_PROTO]"
    '[InferShape4BroadcastTo][3140] OpName:[BroadcastTo] "[611, 4096] can not broadcast to'
    ' [612, 4096]"\n'
    "[ERROR] OP(3100,ker_TP1):2026-06-07-08:09:10.111.260 [op_executor.cpp:119][NNOP]"
    "[InferShape][3140] errno[561000] OpName:[aclnnIndexPutImpl_17] infer shape fail,"
    " [4294967295]\n"
)

# Counterexample: the aclnn host check's broadcast of two sizes stays the op's refusal.
ACLNN_BROADCAST = (
    "RuntimeError: call aclnnInplaceCopy failed, detail:EZ1001: [PID: 61] 2026-06-07-08:09:10."
    "111.222 4096 and 512 cannot broadcast.\n"
)

COMPILE_LOG_IN_EXCEPTION = """\
(EngineCore_DP0 pid=900) E40021: [PID: 912] 2026-07-08-09:10:11.121.314 Failed to compile Op [RmsNorm7]. (oppath: [Compile /opt/cann/opp/built-in/op_impl/ai_core/tbe/impl/dynamic/rms_norm.py failed with errormsg/stack: File "/opt/cann/python/site-packages/tbe/tikcpp/compile_op.py", line 520, in dump_build_log
(EngineCore_DP0 pid=900)     raise Exception("An error occurred during compile phases of {}, msg is {}".\\
(EngineCore_DP0 pid=900) Exception: An error occurred during compile phases of CompileStage.PRECOMPILE, msg is In file included from /opt/cann/opp/built-in/op_impl/ai_core/tbe/impl/dynamic/../ascendc/rms_norm/rms_norm.cpp:21:
(EngineCore_DP0 pid=900) In file included from /opt/cann/tikcpp/tikcfw/kernel_operator.h:24:
(EngineCore_DP0 pid=900) In file included from /opt/cann/tikcpp/tikcfw/impl/kernel_tpipe_impl.h:23:
(EngineCore_DP0 pid=900) In file included from /opt/cann/tikcpp/tikcfw/interface/kernel_tpipe.h:23:
(EngineCore_DP0 pid=900) In file included from /opt/cann/tikcpp/tikcfw/impl/kernel_tpipe_base.h:23:
(EngineCore_DP0 pid=900) In file included from /opt/cann/tikcpp/tikcfw/impl/kernel_tensor_impl.h:23:
(EngineCore_DP0 pid=900) In file included from /opt/cann/tikcpp/tikcfw/interface/kernel_tensor.h:24:
(EngineCore_DP0 pid=900) In file included from /opt/cann/tikcpp/tikcfw/impl/kernel_utils.h:23:
(EngineCore_DP0 pid=900) In file included from /opt/cann/tikcpp/tikcfw/impl/utils/kernel_utils_macros.h:33:
(EngineCore_DP0 pid=900) /opt/cann/tikcpp/tikcfw/impl/kernel_macros.h:24:10: fatal error: 'cstdint' file not found
(EngineCore_DP0 pid=900) #include <cstdint>
(EngineCore_DP0 pid=900) 1 error generated.
"""


def test_an_op_whose_definition_omits_the_chip_is_a_platform_limit() -> None:
    diagnosis = diagnose_text("probe.log", SOC_NOT_CONFIGURED)
    assert_reads(
        diagnosis,
        "config",
        first_error="SoC version ascend310p verification failed",
        rule="cfg.op_soc_not_configured",
        beside=("operator", "driver_env"),
    )


def test_an_execution_error_with_a_prototype_reason_stays_the_ops() -> None:
    diagnosis = diagnose_text("probe.log", PROTOTYPE_MISMATCH)
    assert diagnosis.category == "operator", diagnosis.root_cause
    assert "cfg.op_soc_not_configured" not in rules_of(diagnosis)


def test_a_dimension_bound_in_words_is_the_ops_limit() -> None:
    diagnosis = diagnose_text("infer.log", RANK_BOUND_IN_WORDS)
    assert_reads(
        diagnosis,
        "op_constraint",
        first_error="cannot be larger than 8 dimensions",
        rule="opc.tensor_rank_over_limit",
        beside=("operator",),
    )


def test_a_bound_on_a_value_is_no_dimension_limit() -> None:
    diagnosis = diagnose_text("infer.log", VALUE_BOUND)
    assert "opc.tensor_rank_over_limit" not in rules_of(diagnosis)


def test_a_plogs_broadcast_shape_inference_is_a_shape_mismatch() -> None:
    diagnosis = diagnose_text("plog-3100_1.log", PLOG_BROADCAST)
    assert_reads(
        diagnosis,
        "shape_mismatch",
        first_error="can not broadcast to [612, 4096]",
        rule="shape.op_proto_broadcast_infer",
        beside=("operator",),
    )


def test_the_aclnn_broadcast_check_is_not_read_as_shape_inference() -> None:
    diagnosis = diagnose_text("serve.log", ACLNN_BROADCAST)
    assert "shape.op_proto_broadcast_infer" not in rules_of(diagnosis)
    assert diagnosis.category == "operator", diagnosis.root_cause


def test_a_compile_log_joined_to_an_exception_is_read_at_the_compilers_line() -> None:
    diagnosis = diagnose_text("serve.log", COMPILE_LOG_IN_EXCEPTION)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="fatal error: 'cstdint' file not found",
        rule="env.compile_header_missing",
        beside=("operator",),
    )
    assert "operator" in alternative_labels(diagnosis)
