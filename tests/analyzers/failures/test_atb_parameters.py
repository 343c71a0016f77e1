"""An ATB operation that refuses a communication parameter at build time.

docs/labelling.md#config-driver_env-or-weight_load: the parallel layout, rank table and
backend the job chose are what the operation refused, so the label is `config` with `hccl`
and `operator` offered; a refused tensor stays the operator's. When only the model runner's
record that no operation was built is left, the operation is what failed: `operator`, with
the job's setting offered beside it. Values are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

COMM_PARAM_REFUSED = """\
I20260506 07:08:01.100200 7701 hf_model_loader.cpp:65] Loading model weights from /models/demo/model-00004-of-00004.safetensors
[2026-05-06 07:08:09.101112] [error] [7702] [operation_util.h:156] rankSize [32] is invalid
E20260506 07:08:09.102001 7702 npu_word_embedding_impl.cpp:96] node.operation is null
E20260506 07:08:09.203004 7702 npu_decoder_layer_impl.cpp:610] node.operation is null
"""

OPERATIONS_MISSING_ALONE = """\
I20260506 07:08:01.100200 7701 hf_model_loader.cpp:65] Loading model weights from /models/demo/model-00002-of-00002.safetensors
E20260506 07:08:09.102001 7702 npu_moe_decoder_layer_impl.cpp:512] node.operation is null
E20260506 07:08:09.203004 7702 npu_moe_decoder_layer_impl.cpp:512] node.operation is null
E20260506 07:08:09.304117 7702 npu_moe_decoder_layer_impl.cpp:512] node.operation is null
"""

BUILDING_NOW = """\
I20260506 07:08:09.102001 7702 npu_moe_decoder_layer_impl.cpp:500] node.operation is null, building it now
"""

TENSOR_REFUSED = """\
[2026-05-06 07:08:09.101112] [error] [7702] [tensor_check.cpp:28] tensor dimNum 9 is invalid, should >0 && <= MAX_DIM(8)
E20260506 07:08:09.102001 7702 npu_word_embedding_impl.cpp:96] node.operation is null
"""


def test_a_refused_communication_parameter_is_the_jobs_setting() -> None:
    diagnosis = diagnose_text("serve/engine.log", COMM_PARAM_REFUSED)
    assert_reads(diagnosis, "config", first_error="rankSize [32] is invalid")
    offered = {alt.category for alt in diagnosis.alternatives}
    assert {"hccl", "operator"} <= offered
    assert diagnosis.confidence < 0.8


def test_a_refused_tensor_stays_the_operators() -> None:
    diagnosis = diagnose_text("serve/engine.log", TENSOR_REFUSED)
    assert diagnosis.category == "operator"


def test_a_refused_tensor_is_read_ahead_of_the_missing_operations() -> None:
    diagnosis = diagnose_text("serve/engine.log", TENSOR_REFUSED)
    assert_reads(diagnosis, "operator", first_error="tensor dimNum 9 is invalid")


def test_operations_missing_with_no_builder_line_are_the_operators() -> None:
    diagnosis = diagnose_text("serve/engine.log", OPERATIONS_MISSING_ALONE)
    assert_reads(
        diagnosis,
        "operator",
        first_error="node.operation is null",
        rule="op.atb_graph_node_without_operation",
        beside=["config"],
    )
    assert diagnosis.confidence < 0.8


def test_a_refused_communication_parameter_keeps_the_first_place() -> None:
    diagnosis = diagnose_text("serve/engine.log", COMM_PARAM_REFUSED)
    assert "op.atb_graph_node_without_operation" in rules_of(diagnosis)
    assert_reads(diagnosis, "config", first_error="rankSize [32] is invalid")


def test_a_runner_building_a_node_now_is_no_failure() -> None:
    diagnosis = diagnose_text("serve/engine.log", BUILDING_NOW)
    assert "op.atb_graph_node_without_operation" not in rules_of(diagnosis)
