"""The operator base library's Execution_Error code: an aclnn op whose run was refused.

docs/labelling.md#operator-installation-or-platform-limit: EZ1009 says the op was reached
but could not be executed and names the reason after it; the usual reason is inputs whose
dtype or format the op's registered prototype does not take, which a framework or adapter of
another release than the operator package hands it. The line is the op's failure
(`operator`), with `config` beside it for the release mismatch. The excerpts are ours, in
the shape a serving engine's worker relays the error manager's line.
"""

from __future__ import annotations

from analyzers.classify.rules import load_knowledge
from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

EXECUTION_ERROR = (
    "(Worker_DP0_EP0 pid=211) ERROR 02-03 04:05:06 (multiproc_executor.py:1004) [PID: 211] "
    "2026-02-03-04:05:06.070.809 Execution_Error(EZ1009): Failed to execute operator "
    "aclnnGroupedMatmulV5_12_GroupedMatmulV5. Reason: The dtype or format of the actual input "
    "or output parameter of the operator is inconsistent with that defined in the operator "
    "prototype OpDef.\n"
)

# Counterexample: the parameter check of the same library names the input it refused; the
# call's own argument is wrong and no release mismatch is offered beside it.
PARAMETER_ERROR = (
    "[PID: 7301] 2026-05-02-11:20:41.318.604 AclNN_Parameter_Error(EZ1001): The dim of input "
    "x should be 2, but got 3.\n"
)


def test_execution_error_code_is_listed_with_its_source() -> None:
    info = load_knowledge().codes.lookup("EZ1009")
    assert info is not None
    assert info.category == "operator"
    assert info.source == "opbase_op_errors"


def test_execution_error_is_the_ops_failure_with_a_release_mismatch_beside_it() -> None:
    diagnosis = diagnose_text("serve.log", EXECUTION_ERROR)
    assert_reads(diagnosis, "operator", first_error="EZ1009", beside=("config",))


def test_parameter_error_offers_no_release_mismatch() -> None:
    diagnosis = diagnose_text("serve.log", PARAMETER_ERROR)
    assert diagnosis.category == "operator"
    assert "config" not in alternative_labels(diagnosis)
