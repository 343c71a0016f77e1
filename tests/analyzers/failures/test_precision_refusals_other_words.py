"""Precision refusals worded in ways the first rules did not read.

docs/labelling.md#a-precision-the-device-does-not-offer: Transformer Engine also refuses a
block-scaled recipe by naming the architectures it does not yet cover (`... is not supported
on 12.0+ architectures yet.`), the card and the recipe do not fit: `config`.
docs/labelling.md#operator-installation-or-platform-limit: a kernel with no variant for the
dtype is read the same when a tool returns the message inside a Python dict, its quotes
escaped (`not implemented for \\'BFloat16\\'`): `operator`.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# Transformer Engine refuses the NVFP4 recipe on a workstation card.
TE_ARCH_REFUSAL = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/work/pretrain.py", line 204, in train_step
[rank1]:     with te.fp8_autocast(enabled=True, fp8_recipe=recipe):
[rank1]:   File "/opt/venv/lib/python3.12/site-packages/transformer_engine/pytorch/fp8.py", line 81, in check_recipe_support
[rank1]:     assert recipe_supported, unsupported_reason
[rank1]: AssertionError: NVFP4 (for all gemm layouts) is not supported on 12.0+ architectures yet.
"""

# Counterexample: a library note that it falls back for that architecture and carries on.
TE_ARCH_NOTE = """\
[rank1]: INFO recipe check: MXFP8 is not supported on 12.0+ architectures yet; using delayed scaling
[rank1]: step 1 | loss 10.82
"""

# A training tool hands back the scaler kernel's refusal as a dict with escaped quotes.
ESCAPED_DTYPE_REFUSAL = """\
{'status': 'error', 'message': 'training failed: "_amp_foreach_non_finite_check_and_unscale_cuda" not implemented for \\'BFloat16\\'', 'traceback': 'Traceback (most recent call last):\\n  File "/opt/tool/trainer.py", line 51, in train\\n'}
"""

# Counterexample: the same tool reporting success.
ESCAPED_OK = """\
{'status': 'ok', 'message': 'training finished: 120 steps, dtype \\'BFloat16\\'', 'traceback': ''}
"""


def test_a_recipe_refused_for_an_architecture_is_the_setup() -> None:
    diagnosis = diagnose_text("logs/rank1.log", TE_ARCH_REFUSAL)
    assert_reads(
        diagnosis,
        "config",
        first_error="is not supported on 12.0+ architectures",
        rule="cfg.fp8_not_offered_by_device",
    )


def test_a_fallback_note_for_an_architecture_is_no_refusal() -> None:
    diagnosis = diagnose_text("logs/rank1.log", TE_ARCH_NOTE)
    assert "cfg.fp8_not_offered_by_device" not in {e.rule for e in diagnosis.evidence}


def test_an_escaped_dtype_refusal_is_the_operator() -> None:
    diagnosis = diagnose_text("logs/console.log", ESCAPED_DTYPE_REFUSAL)
    assert_reads(diagnosis, "operator", first_error="not implemented for", beside=["config"])


def test_an_escaped_success_report_is_no_refusal() -> None:
    diagnosis = diagnose_text("logs/console.log", ESCAPED_OK)
    assert diagnosis.category != "operator"
