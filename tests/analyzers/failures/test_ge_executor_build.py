"""The graph engine that cannot assemble the executor of a single-op model it built itself.

docs/labelling.md#wrappers: torch_npu runs an op through the graph engine by building a
single-op model; when the engine's executor builder finds its own graph inconsistent (a node
input or output with no peer anchor, the builder's `Assert (...) failed` in
`model_v2_executor_builder.cc`, no executor to load), the op could not be built on this chip
and release. That is the op's failure, `operator`, with `config` (a chip or release that does
not build the op) and `driver_env` (an incomplete toolkit) beside it, and the engine's line is
the first error ahead of torch_npu's headline, whatever code the headline carries.

Fixtures follow the shape torch_npu prints (the headline, the PTA summary, the E19999 block);
names and values are made up.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

HEADLINE = (
    "RuntimeError: InnerRun:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:214 OPS function "
    "error: Unique, error code is 100000\n"
    "[ERROR] 2026-04-02-09:10:11 (PID:4410, Device:0, RankID:-1) ERR01100 OPS call acl api failed\n"
)

NO_PEER = HEADLINE + (
    "E19999: Inner Error!\n"
    "E19999: 2026-04-02-09:10:11.002.300  The node If_Unique12_Output1Cast_77 output 1 does not "
    "have peer[FUNC:ConstructIoEquivalent][FILE:equivalent_data_anchors.cc][LINE:31]\n"
    "        TraceBack (most recent call last):\n"
    "        Assert ((eq_data_anchors.ConstructEquivalentAnchors(exe_graph_)) == "
    "ge::GRAPH_SUCCESS) failed[FUNC:Build][FILE:model_v2_executor_builder.cc][LINE:107]\n"
)

ASSERT_ONLY = HEADLINE + (
    "E19999: Inner Error!\n"
    "E19999: 2026-04-02-09:10:11.002.410  Assert ((builder.BuildGraph(root)) == "
    "ge::GRAPH_SUCCESS) failed[FUNC:Build][FILE:model_v2_executor_builder.cc][LINE:98]\n"
    "        TraceBack (most recent call last):\n"
    "        Assert ((executor) != nullptr) failed[FUNC:CreateAndLoad][FILE:stream_executor.cc]"
    "[LINE:32]\n"
)

# an argument refusal on the same path names no engine failure and keeps its own reading
PARAM_ONLY = HEADLINE + (
    "[Error]: Parameter verification failed.\n"
    "        Check whether the input parameter value of the interface is correct.\n"
)

CASES = [
    ("node without a peer", NO_PEER, "does not have peer"),
    ("builder assert", ASSERT_ONLY, "model_v2_executor_builder.cc"),
]


@pytest.mark.parametrize(("text", "says"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_engines_build_failure_is_the_ops_and_the_first_error(text: str, says: str) -> None:
    diagnosis = diagnose_text("infer/worker.log", text)
    assert_reads(diagnosis, "operator", first_error=says)
    assert {"config", "driver_env"} <= {alt.category for alt in diagnosis.alternatives}


def test_no_communication_reading_from_the_word_peer() -> None:
    diagnosis = diagnose_text("infer/worker.log", NO_PEER)
    assert "hccl" not in {alt.category for alt in diagnosis.alternatives}


def test_a_bare_parameter_refusal_is_not_read_as_an_engine_build_failure() -> None:
    diagnosis = diagnose_text("infer/worker.log", PARAM_ONLY)
    assert diagnosis.first_error is not None
    assert "does not have peer" not in diagnosis.first_error.text
    assert "model_v2_executor_builder" not in diagnosis.first_error.text


# aclnn's second call (the run) handed no executor: the first call that should have built one
# did not, and the op runtime's own assert says so under torch_npu's summary
ACLNN_NO_EXECUTOR = (
    "RuntimeError: The Inner error is reported as above. The process exits for this inner error.\n"
    "[ERROR] 2026-05-02-11:12:13 (PID:3120, Device:1, RankID:-1) ERR00100 PTA call acl api failed.\n"
    "EZ1001: (PID:3120) 2026-05-02-11:12:13.400.500 Assert ((executor) != nullptr) failed\n"
    "Check NnopbaseRunWithWorkspace(executor, stream, workspace, workspaceSize) failed\n"
)


def test_an_aclnn_run_without_its_executor_is_the_op_with_the_installation_beside() -> None:
    diagnosis = diagnose_text("serve/worker.log", ACLNN_NO_EXECUTOR)
    assert_reads(
        diagnosis,
        "operator",
        first_error="Assert ((executor) != nullptr) failed",
        rule="op.aclnn_run_without_executor",
        beside=("config", "driver_env"),
    )


def test_an_executor_that_was_built_is_no_failure() -> None:
    text = "[INFO] OP(3120,python):2026-05-02-11:12:13.400.100 executor != nullptr, run with workspace 4096\n"
    diagnosis = diagnose_text("serve/worker.log", text)
    assert "op.aclnn_run_without_executor" not in rules_of(diagnosis)
