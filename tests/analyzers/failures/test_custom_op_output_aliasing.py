"""torch checks what an operator registered with `torch.library.custom_op` returns: no output may
be one of its inputs or share storage with an input or another output. A kernel library's Python
wrapper that hands back a buffer it was given (an accumulator passed in and returned, the same
tensor returned twice) is refused before anything else runs, with torch's own sentence. The op's
wrapper broke the rules for its arguments and results: `operator`, with `config` beside it (torch
releases tightened the check, so a library written for an older torch meets it after an upgrade;
pinning torch or upgrading the library is the usual fix). The refusal is the first error, also
when a test runner's one-line summary is all that was kept.

docs/labelling.md#a-custom-op-that-returns-one-of-its-inputs
"""

from __future__ import annotations

from analyzers.classify.rules import load_knowledge
from tests.analyzers.excerpts import assert_reads, diagnose_text

KNOWLEDGE = load_knowledge()

RAISED = """\
Traceback (most recent call last):
  File "/opt/app/bench_attn.py", line 61, in <module>
    out, lse = fused_attn(q, k, v, out=buf)
  File "/opt/venv/lib/python3.11/site-packages/torch/_library/custom_ops.py", line 681, in __call__
    return self._opoverload(*args, **kwargs)
RuntimeError: mylib::fused_attn (with implementation in <function _fused_attn_impl at 0x7f3a2c1d0e50>): The output of this custom operator (1) must not also be an input to this custom operator and (2) may not alias any inputs to this custom operator or other returns. The most common way to trigger this error is if we have y = custom_op(x) and y and x are the same Tensor. Please instead return a clone of the offending output tensor(s) (e.g. return x.clone()) or refactor the custom operator to not return y.
"""

# pytest's short summary keeps one line per failed test, cut by the terminal width
PYTEST_SUMMARY = """\
=========================== short test summary info ============================
FAILED tests/test_fused_attn.py::test_out_buffer[bf16-128] - RuntimeError: mylib::fused_attn (with implementation in <function _fused_attn_impl at 0x7f3a2c1d0e50>): The output of this custom operator (1) must not also be an input to this custom op...
========================= 1 failed, 11 passed in 42.10s ========================
"""


def test_a_custom_op_returning_its_input_is_the_op_wrapper() -> None:
    diagnosis = diagnose_text("bench/stdout.log", RAISED)
    assert_reads(
        diagnosis,
        "operator",
        first_error="must not also be an input to this custom operator",
        beside=("config",),
    )


def test_the_test_runner_summary_line_is_read_the_same_way() -> None:
    diagnosis = diagnose_text("ci/pytest.log", PYTEST_SUMMARY)
    assert diagnosis.category == "operator"
    assert diagnosis.confidence >= 0.5
    assert diagnosis.first_error is not None
    assert "must not also be an input" in diagnosis.first_error.text


def test_the_rule_reads_only_the_refusal() -> None:
    rule = next(
        sig for sig in KNOWLEDGE.signatures if sig.id == "op.custom_op_output_aliases_input"
    )
    for line in (
        "INFO registered custom operator mylib::fused_attn (mutates_args=())",
        "# the output must not alias the input: return out.clone()",
        "UserWarning: custom operator mylib::fused_attn returns a view; autograd may not track it",
    ):
        assert not rule.regex.search(line), line
