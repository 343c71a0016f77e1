"""The error manager's coded headline that carries an op implementation's own check.

docs/labelling.md#operator-installation-or-platform-limit: `E6xxxx: <time> In op[x], [reason]`
prints the same check as the dict under it, earlier; the op cannot be built for these inputs,
`operator`, and the headline is the first error. Values are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

CHECK_HEADLINE = """\
E60108: 2026-03-02-10:14:07.123.456 In op[avg_pool3d_grad], [prebuild failed, not support ksize's shape [-1]]
        TraceBack (most recent call last):
        Failed to compile Op [AvgPool3DGrad1]. (oppath: [Compile /opt/cann/opp/impl/dynamic/avg_pool3d_grad.py failed with errormsg/stack: RuntimeError: ({'errCode': 'E60108', 'op_name': 'avg_pool3d_grad', 'reason': "prebuild failed, not support ksize's shape [-1]"}, "In op[avg_pool3d_grad], [prebuild failed]")
], optype: [AvgPool3DGrad])
        build op model failed, result = 500002[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]
RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current working operator name is AvgPool3DGrad.
"""

CODE_WITHOUT_OP = """\
E60108: the op cannot be compiled, see the plog for details
"""


def test_a_coded_headline_with_the_ops_check_is_the_operators() -> None:
    diagnosis = diagnose_text("train/stderr.log", CHECK_HEADLINE)
    assert_reads(
        diagnosis,
        "operator",
        first_error="In op[avg_pool3d_grad], [prebuild failed",
        rule="op.tbe_compile_check_headline",
    )
    assert diagnosis.confidence >= 0.8


def test_a_code_without_an_op_names_no_check() -> None:
    diagnosis = diagnose_text("train/stderr.log", CODE_WITHOUT_OP)
    assert "op.tbe_compile_check_headline" not in rules_of(diagnosis)
