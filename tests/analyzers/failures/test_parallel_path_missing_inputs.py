"""A context- or sequence-parallel code path refusing to run without inputs its caller must pass.

docs/labelling.md#a-parallel-code-path-its-caller-did-not-feed: a parallel attention path of a
core library names the tensors or settings it needs from the layer that calls it (`Packed CP
path requires cu_seqlens_padded ...`). The calling layer (a model wrapper, a bridge, a trainer)
is of a release that does not supply them yet: `config`, with `other` beside it, and the
refusal is the first error. A warning that derives the input and carries on, and a path that
needs a package, keep their own readings. Values and paths of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

PACKED_CP_PATH_UNFED = """\
  File "/srv/bridge/models/hybrid_attn.py", line 212, in forward
    out = self.core_attention(

  File "/srv/core/attention/compressed.py", line 1544, in _forward_packed_cp
    raise RuntimeError(
RuntimeError: Packed CP path requires cu_seqlens_padded and cp_partition_mode from the sequence packer.
"""


def test_a_cp_path_missing_inputs_from_its_caller_is_config() -> None:
    assert_reads(
        diagnose_text("stderr.log", PACKED_CP_PATH_UNFED),
        "config",
        first_error="Packed CP path requires cu_seqlens_padded",
        rule="cfg.parallel_path_missing_inputs",
        beside=["other"],
    )


def test_a_ulysses_mode_assertion_with_a_rank_tag_is_config() -> None:
    assert_reads(
        diagnose_text(
            "log_2.log",
            "[rank2]: AssertionError: Ulysses SP mode requires position_ids_global; pass it "
            "from the collator\n",
        ),
        "config",
        first_error="Ulysses SP mode requires position_ids_global",
        rule="cfg.parallel_path_missing_inputs",
    )


def test_a_warning_or_a_missing_package_is_not_this_reading() -> None:
    warning = diagnose_text(
        "train.log",
        "WARNING ring CP path requires cu_seqlens_padded; deriving it from cu_seqlens\n",
    )
    assert "cfg.parallel_path_missing_inputs" not in rules_of(warning)
    package = diagnose_text(
        "train.log",
        "RuntimeError: --context-parallel-impl ring requires the `ring_attn` package; install it first\n",
    )
    assert "cfg.parallel_path_missing_inputs" not in rules_of(package)
    assert "cfg.feature_requires_package" in rules_of(package)
