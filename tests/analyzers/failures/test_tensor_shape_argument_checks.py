"""An operator's shape check reported under a suffixed error-manager name.

Newer CANN names the headline of a refused tensor shape `Invalid_Argument_Tensor_Shape(EZxxxx)`
rather than `Invalid_Argument(...)`, and a note often keeps the headline with the middle of the
sentence elided (`(EZ0012) ... the last axis of key must be 128`). It is the operator library's
host-side parameter check, read like the other aclnn parameter checks: `operator`, with
`shape_mismatch` (two inputs whose dimensions disagree) and `op_constraint` (a documented limit
on an axis) beside it. Counterexample: the name quoted without a code, as a search term, is no
failure. Fixtures are written here in the real shapes with their own values.

docs/labelling.md#an-operators-shape-check-under-a-suffixed-name
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

SHAPE_CHECK_HEADLINE = """\
(Worker_TP1 pid=7731) ERROR 06-11 08:14:02 [model_runner.py:610] forward failed in layer 3
(Worker_TP1 pid=7731) [PID: 7731] 2026-06-11-08:14:02.118.204 Invalid_Argument_Tensor_Shape(EZ0012): Parameter bias of GroupedMatmul has incorrect shape [16,512]. Reason: The dimension(512) of bias should be equal to the n axis of weight(1024).
"""

SHAPE_CHECK_ELIDED = """\
Invalid_Argument_Tensor_Shape(EZ0012) ... In the block quant scenario, the last axis of
key and value must both be 128
"""

NAME_AS_SEARCH_TERM = """\
$ grep -rn Invalid_Argument_Tensor_Shape plog/ | wc -l
0
"""


def test_a_suffixed_shape_check_headline_is_an_operator_parameter_check() -> None:
    diagnosis = diagnose_text("serve/worker_tp1.log", SHAPE_CHECK_HEADLINE)
    assert_reads(
        diagnosis,
        "operator",
        first_error="Invalid_Argument_Tensor_Shape(EZ0012)",
        beside=("shape_mismatch", "op_constraint"),
    )


def test_a_headline_whose_middle_was_elided_reads_the_same() -> None:
    diagnosis = diagnose_text("notes/attention.log", SHAPE_CHECK_ELIDED)
    assert_reads(
        diagnosis,
        "operator",
        first_error="Invalid_Argument_Tensor_Shape(EZ0012)",
        beside=("shape_mismatch",),
    )


def test_the_name_as_a_search_term_is_no_failure() -> None:
    diagnosis = diagnose_text("notes/search.log", NAME_AS_SEARCH_TERM)
    assert "op.tensor_shape_argument_refused" not in rules_of(diagnosis)
