"""The graph engine's EZ3002 headline: no kernel in the op stores for this op or its input.

The headline names the op and the engine in brackets (`Optype [X] of Ops kernel [Y] is
unsupported`); the reason after it varies with the op store that answered (no such op, or no
entry for the input's format and dtype). torch_npu prints its inner-error summary first and
the headline after it, so the headline is the line to read. Fixtures follow the shapes a
torchrun worker prints; values are made up. EZ3003 (no kernel and no engine at all for the
op) glued to the op build's progress dots is read the same way once the dots are peeled; it
offers the installation and the release beside the op, since no store carried the op at all.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

RANK = "[rank1]: "


def rank(*lines: str) -> str:
    return "".join(f"{RANK}{line}\n" for line in lines)


NO_KERNEL_FOR_INPUT = rank(
    "    return self._op(*args, **(kwargs or {}))",
    "RuntimeError: The Inner error is reported as above. The process exits for this inner "
    "error, and the current working operator name is Identity.",
    "[ERROR] 2026-04-05-06:07:08 (PID:3301, Device:1, RankID:-1) ERR00100 PTA call acl api failed.",
    "EZ3002: [PID: 3301] 2026-04-05-06:07:08.112.233 Optype [TransData] of Ops kernel "
    "[AIcoreEngine] is unsupported. Reason: [tbe-custom]:op type TransData is not found in this "
    "op store.[Dynamic shape check]: The format and dtype is not precisely equivalent to format "
    "and dtype in op information library",
)

ENGINE_CHOSEN = rank(
    "INFO Optype [TransData] of Ops kernel [AIcoreEngine] is selected for node trans_data_4",
)


def test_the_bracketed_headline_is_the_ops_missing_kernel() -> None:
    diagnosis = diagnose_text("run/worker.log", NO_KERNEL_FOR_INPUT)
    assert diagnosis.category == "operator"
    assert diagnosis.first_error is not None
    assert "Optype [TransData] of Ops kernel [AIcoreEngine] is unsupported" in (
        diagnosis.first_error.text
    )
    assert diagnosis.confidence >= 0.8


def test_an_engine_chosen_for_a_node_is_no_error() -> None:
    diagnosis = diagnose_text("run/worker.log", ENGINE_CHOSEN)
    assert diagnosis.category != "operator"


# An image request on an inference card: the graph engine's single-op build prints its
# progress dots and the error-manager block follows the last dot on the same line.
NO_ENGINE_AFTER_DOTS = """\
......EZ3003: [PID: 5120] 2026-03-02-10:20:30.405.506 No supported Ops kernel and engine are found for [GridSampler2D31], optype [GridSampler2D].
        Possible Cause: The operator is not supported by the system. Therefore, no hit is found in any operator information library.
        Solution: 1. Check that the OPP component is installed properly. 2. Submit an issue to request for the support of this operator type.
        TraceBack (most recent call last):
        RunAllSubgraphs failed, graph=online.[FUNC:RunAllSubgraphs][FILE:engine_place.cc][LINE:122]
        [Build][SingleOpModel]call ge interface generator.BuildSingleOpModel failed. ge result = 4294967295[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]
        build op model failed, result = 500002[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]
"""


def test_the_code_line_glued_to_build_progress_dots_is_the_first_error() -> None:
    """The dots are the op build's progress, not part of the record: the EZ3003 line is read
    as the block's headline, not the build chain the trace lists under it."""
    diagnosis = diagnose_text("serve/api_server.log", NO_ENGINE_AFTER_DOTS)
    assert diagnosis.category == "operator"
    assert diagnosis.first_error is not None
    assert "No supported Ops kernel and engine are found for [GridSampler2D31]" in (
        diagnosis.first_error.text
    )


# docs/labelling.md#operator-installation-or-platform-limit: ATC building one custom op as a
# single-op model on an inference card whose stores do not carry its type.
CUSTOM_OP_NOT_DEPLOYED = """\
ATC start working now, please wait for a moment.
ATC run failed, Please check the detail log, Try 'atc --help' for more information
EZ3003: No supported Ops kernel and engine are found for [ScaleShiftCust], optype [ScaleShiftCust].
"""

ENGINE_FOUND = """\
ATC start working now, please wait for a moment.
[INFO] Ops kernel and engine found for [ScaleShiftCust], optype [ScaleShiftCust]: AIcoreEngine
ATC run success, welcome to the next use.
"""


def test_an_op_type_no_store_carries_offers_the_installation_beside_the_op() -> None:
    diagnosis = diagnose_text("run/atc.log", CUSTOM_OP_NOT_DEPLOYED)
    assert diagnosis.category == "operator"
    assert diagnosis.first_error is not None
    assert "No supported Ops kernel and engine are found for [ScaleShiftCust]" in (
        diagnosis.first_error.text
    )
    assert {"driver_env", "config"} <= {alt.category for alt in diagnosis.alternatives}


def test_an_engine_found_for_the_op_type_is_no_failure() -> None:
    diagnosis = diagnose_text("run/atc.log", ENGINE_FOUND)
    assert diagnosis.first_error is None


# docs/labelling.md#operator-installation-or-platform-limit: a framework's graph compiler that
# finds no kernel registered for an op on its device target (MindSpore's log line shape).
NO_KERNEL_ON_TARGET = (
    "[ERROR] SESSION(7311,ffff8a2b1010,python):2026-02-03-04:05:06.707.808"
    " [mindspore/ccsrc/backend/graph_compiler/backend.cc:120] CompileGraph] CompileGraph failed:"
    " Can not find any available kernel info for: Default/head/HSwish-op41. Maybe the operator"
    " can not supported on Ascend platform.\n"
)

KERNELS_FOUND = (
    "[INFO] KERNEL(7311,ffff8a2b1010,python):2026-02-03-04:05:06.707.100"
    " [mindspore/ccsrc/kernel/kernel_query.cc:88] Query] Found 2 available kernel info for:"
    " Default/head/Conv2D-op40\n"
)


def test_a_graph_compiler_with_no_kernel_for_the_op_reads_operator() -> None:
    diagnosis = diagnose_text("serving/serving_server.log", NO_KERNEL_ON_TARGET)
    assert_reads(diagnosis, "operator", first_error="Can not find any available kernel info for")
    assert {alt.category for alt in diagnosis.alternatives} >= {"config", "driver_env"}


def test_kernels_found_for_a_node_are_no_error() -> None:
    diagnosis = diagnose_text("serving/serving_server.log", KERNELS_FOUND)
    assert diagnosis.category != "operator"
