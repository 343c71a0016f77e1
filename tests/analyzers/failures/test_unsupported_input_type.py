"""torch's own refusal of a dtype an op has no kernel for, in its `encountered` wording.

docs/labelling.md#operator-installation-or-platform-limit: an op with no kernel for the input's
dtype is `operator`, with `config` beside it. Besides `"<kernel>" not implemented for '<Type>'`,
torch words some of its checks `Unsupported input type encountered for <op>(): <Type>`; it is
the same refusal. A sentence that names no op call is not. Values are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

SESSION = """\
Traceback (most recent call last):
  File "/work/eval/metrics.py", line 41, in <module>
    hits = torch.isin(pred, gold)
RuntimeError: Unsupported input type encountered for isin(): Half
"""


def test_the_encountered_wording_is_the_dtype_refusal() -> None:
    diagnosis = diagnose_text("eval.log", SESSION)
    assert_reads(
        diagnosis,
        "operator",
        first_error="Unsupported input type encountered for isin(): Half",
        rule="op.not_implemented_dtype",
        beside=("config",),
    )


def test_a_sentence_without_an_op_call_is_not_the_refusal() -> None:
    text = "WARNING reader: unsupported input type encountered for column 'score', kept as text\n"
    diagnosis = diagnose_text("eval.log", text)
    assert "op.not_implemented_dtype" not in rules_of(diagnosis)
